// The memory bound of the engine's hot loops, measured on this machine:
// random read-modify-writes of 4-byte entries in a table of the size of a
// run's l2p map, each entry's cache line prefetched D updates ahead (as the
// engine prefetches l2p entries records ahead), the indices read in order
// from an array (as the engine reads the trace). Every host write and every
// GC copy touches at least one such random l2p line, so the best rate here
// is an upper bound on NAND page operations per second whatever the
// engine's other work.
//
//   g++ -O2 -std=c++20 bench/mlp_bound.cpp -o /tmp/mlp_bound
//   /tmp/mlp_bound MIB UPDATES DISTANCE...   (bench/bench_speed.py --parts bound)
//
// Prints one line per distance: "D updates_per_cpu_second ns_per_update".
#include <sys/mman.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

static double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s MIB UPDATES DISTANCE...\n", argv[0]);
    return 2;
  }
  const size_t entries = std::strtoull(argv[1], nullptr, 10) * (size_t{1} << 20) / 4;
  const size_t updates = std::strtoull(argv[2], nullptr, 10);
  const size_t huge = size_t{2} << 20;
  const size_t bytes = (entries * 4 + huge - 1) / huge * huge;
  auto* table = static_cast<uint32_t*>(std::aligned_alloc(huge, bytes));
  madvise(table, bytes, MADV_HUGEPAGE);  // as the engine's maps (core/huge_array.h)
  for (size_t i = 0; i < entries; ++i) table[i] = static_cast<uint32_t>(i);
  std::vector<uint32_t> idx(updates + 1024);
  uint64_t x = 0x9E3779B97F4A7C15ULL;
  for (auto& v : idx) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v = static_cast<uint32_t>(x % entries);
  }
  uint64_t sink = 0;
  for (int a = 3; a < argc; ++a) {
    const size_t d = std::strtoull(argv[a], nullptr, 10);
    const double t0 = cpu_now();
    for (size_t i = 0; i < updates; ++i) {
      if (d != 0) __builtin_prefetch(&table[idx[i + d]], 1, 3);
      table[idx[i]] += 1;
    }
    const double t = cpu_now() - t0;
    sink += table[idx[0]];
    std::printf("%zu %.1f %.2f\n", d, static_cast<double>(updates) / t, t * 1e9 / static_cast<double>(updates));
  }
  std::fprintf(stderr, "(%llu)\n", static_cast<unsigned long long>(sink));
  return 0;
}
