// A plain FEMU-exact FTL for a device of one die and one plane (the 1x1 LUN
// of issue #27), to compare the engine with: the line path of
// docs/model.md (rules 1, 2, 9, 10, 12 and 14, one pool, greedy victims in
// pqueue.c's heap, tests/reference/pqueue_model.h; rule 11's thresholds in
// lines are arguments) written for this case and nothing else. An l2p and a
// p2l array, the p2l entry of an invalid slot set to a sentinel (so a GC
// pass reads its victim's live slots from the p2l alone), a valid count and
// a heap position per line, the free lines in a ring; no statistics beyond
// the counters printed, no options. Its look-ahead has two stages, a write's
// l2p entry 16 records ahead and its old slot's lines 4 ahead (the engine's
// has three, 64, 16 and 4 ahead: ftl/page_ftl.h, and prefetches its GC
// copies' lines too). Aligned 4 KiB-multiple writes only. It reads only the
// .ftr header fields it needs (record offset, sector size, count;
// docs/trace_format.md), not the metadata or the checksum: the counter
// comparison below is what vouches for it.
//
// bench/bench_speed.py --parts plain runs it beside the engine on part
// sizes' trace at each size of --plain-logical, with the engine's line count
// and thresholds, and stops if any counter differs, so it does the engine's
// work; what it leaves out is the engine's generality (FDP, timing, other
// rules and victim policies, trims, reads, statistics). Nothing in src/ uses
// it, and it is checked only by that comparison.
//
//   g++ -O2 -std=c++20 -I tests/reference bench/plain_line_ftl.cpp -o /tmp/plain_line_ftl
//   /tmp/plain_line_ftl TRACE.ftr LINES PAGES LOGICAL_SLOTS THRES_LINES THRES_HIGH_LINES
//
// Prints "host_pages gc_pages erases".
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "pqueue_model.h"

namespace {

[[noreturn]] void fail(const char* file, const char* what) {
  std::fprintf(stderr, "plain_line_ftl: %s: %s\n", file, what);
  std::exit(2);
}

struct Record {  // docs/trace_format.md
  uint64_t time_ns, lba;
  uint32_t sectors;
  uint16_t pid;
  uint8_t op, flags;
};
static_assert(sizeof(Record) == 24);

constexpr uint32_t kInvalid = ~uint32_t{0};

// Zeroed pages from the kernel, as the engine's maps.
uint32_t* zeroed(uint64_t n) {
  void* p = mmap(nullptr, n * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) fail("maps", "mmap failed");
  return static_cast<uint32_t*>(p);
}

class LineFtl {
 public:
  LineFtl(uint32_t lines, uint32_t pages, uint64_t logical, uint32_t thres, uint32_t thres_high)
      : l2p_(zeroed(logical)),  // slot + 1; 0: unmapped
        p2l_(zeroed(uint64_t{lines} * pages)),
        u_(pages),
        shift_(static_cast<uint32_t>(__builtin_ctz(pages))),
        lines_(lines),
        thres_(thres),
        thres_high_(thres_high),
        vc_(lines, 0),
        pos_(lines, 0),
        free_(lines) {
    heap_.reserve(lines + 1);
    heap_.push_back(0);                                     // d[0] unused
    for (uint32_t l = 1; l < lines; ++l) free_[l - 1] = l;  // line 0 is open (rule 2)
    free_count_ = lines - 1;
  }

  // One write request of n slots from lpn: forced passes first (rule 9), a
  // background pass after (rule 10).
  void write(uint32_t lpn, uint32_t n) {
    while (free_count_ <= thres_high_ && pass(true)) {
    }
    for (uint32_t s = lpn; s != lpn + n; ++s) {
      const uint32_t old = l2p_[s];
      if (old != 0) invalidate(old - 1);
      program(s);
    }
    host_ += n;
    if (free_count_ <= thres_) (void)pass(false);
  }
  void prefetch_far(uint32_t lpn) const { __builtin_prefetch(&l2p_[lpn], 1); }
  void prefetch_near(uint32_t lpn) const {
    const uint32_t old = l2p_[lpn];
    if (old == 0) return;
    __builtin_prefetch(&p2l_[old - 1], 1);
    __builtin_prefetch(&vc_[(old - 1) >> shift_], 1);
    __builtin_prefetch(&pos_[(old - 1) >> shift_]);
  }

  uint64_t host_ = 0, gc_ = 0, erases_ = 0;

 private:
  auto heap() {
    return ftlsim::reftest::PqueueModel{heap_, [this](uint32_t u) { return vc_[u]; },
                                        [this](uint32_t u) -> uint32_t& { return pos_[u]; }};
  }
  void invalidate(uint32_t slot) {
    p2l_[slot] = kInvalid;
    const uint32_t line = slot >> shift_;
    const bool was_full = vc_[line] == u_;
    --vc_[line];
    if (pos_[line] != 0) {
      heap().change_priority(line);
    } else if (was_full) {
      heap().insert(line);  // a closed full line's first invalidation queues it
    }
  }
  // The open line's next slot takes lpn; a line that fills closes (queued if
  // it has an invalid slot) and the next free line opens (rule 2).
  void program(uint32_t lpn) {
    const uint32_t slot = cur_ * u_ + wp_;
    l2p_[lpn] = slot + 1;
    p2l_[slot] = lpn;
    ++vc_[cur_];
    if (++wp_ != u_) return;
    if (vc_[cur_] != u_) heap().insert(cur_);
    if (free_count_ == 0) fail("device", "ran out of free lines");
    cur_ = free_[free_head_];
    free_head_ = free_head_ + 1 == lines_ ? 0 : free_head_ + 1;
    --free_count_;
    wp_ = 0;
  }
  // One pass (rules 12 and 14); false when there is no victim.
  bool pass(bool forced) {
    if (heap_.size() == 1) return false;
    const uint32_t v = heap_[1];
    if (!forced && u_ - vc_[v] < u_ / 8) return true;  // declined, left in place
    (void)heap().pop();
    const uint32_t* p = p2l_ + uint64_t{v} * u_;
    for (uint32_t o = 0; o < u_; ++o) {
      if (p[o] == kInvalid) continue;
      program(p[o]);
      ++gc_;
    }
    vc_[v] = 0;
    ++erases_;
    const uint32_t tail = free_head_ + free_count_;
    free_[tail >= lines_ ? tail - lines_ : tail] = v;
    ++free_count_;
    return true;
  }

  uint32_t* l2p_;
  uint32_t* p2l_;
  uint32_t u_, shift_, lines_, thres_, thres_high_;
  std::vector<uint32_t> vc_, pos_, heap_, free_;
  uint32_t free_head_ = 0, free_count_ = 0, cur_ = 0, wp_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: %s TRACE.ftr LINES PAGES LOGICAL_SLOTS THRES_LINES THRES_HIGH_LINES\n", argv[0]);
    return 2;
  }
  const char* path = argv[1];
  const auto lines = static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10));
  const auto pages = static_cast<uint32_t>(std::strtoul(argv[3], nullptr, 10));
  const uint64_t logical = std::strtoull(argv[4], nullptr, 10);
  const auto thres = static_cast<uint32_t>(std::strtoul(argv[5], nullptr, 10));
  const auto high = static_cast<uint32_t>(std::strtoul(argv[6], nullptr, 10));
  if (lines < 2 || pages < 8 || (pages & (pages - 1)) != 0 || logical == 0 || logical >= kInvalid ||
      uint64_t{lines} * pages >= kInvalid) {
    fail("arguments", "lines >= 2, pages a power of two >= 8, fewer than 2^32 slots");
  }
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, "cannot open");
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_size < 48) fail(path, "not an .ftr file");
  const auto size = static_cast<size_t>(st.st_size);
  void* map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED) fail(path, "cannot map");
  const auto* base = static_cast<const unsigned char*>(map);
  uint16_t major = 0;
  uint32_t header = 0, record_bytes = 0, sector = 0;
  uint64_t count = 0;
  std::memcpy(&major, base + 8, 2);
  std::memcpy(&header, base + 16, 4);
  std::memcpy(&record_bytes, base + 20, 4);
  std::memcpy(&sector, base + 24, 4);
  std::memcpy(&count, base + 32, 8);
  if (std::memcmp(base, "FTLTRACE", 8) != 0 || major != 1 || record_bytes != 24 || sector == 0 || 4096 % sector != 0 ||
      (sector & (sector - 1)) != 0 || header % 8 != 0 || header < 48 || header > size || count > (size - header) / 24 ||
      header + count * 24 != size) {
    fail(path, "not an .ftr file this program reads");
  }
  const auto* recs = reinterpret_cast<const Record*>(base + header);
  const uint64_t per_slot = 4096 / sector;
  const auto sh = static_cast<unsigned>(__builtin_ctzll(per_slot));
  for (uint64_t i = 0; i < count; ++i) {  // checked first, so the loop below needs no check
    const Record& r = recs[i];
    if (r.op != 0 || r.lba % per_slot != 0 || r.sectors % per_slot != 0 || r.sectors == 0 ||
        r.lba / per_slot + r.sectors / per_slot > logical) {
      std::fprintf(stderr, "plain_line_ftl: %s: record %llu: only aligned 4 KiB-multiple writes in the logical space\n",
                   path, static_cast<unsigned long long>(i));
      return 2;
    }
  }
  LineFtl ftl(lines, pages, logical, thres, high);
  constexpr uint64_t kFar = 16, kNear = 4;
  for (uint64_t i = 0; i < count; ++i) {
    if (i + kFar < count) ftl.prefetch_far(static_cast<uint32_t>(recs[i + kFar].lba >> sh));
    if (i + kNear < count) ftl.prefetch_near(static_cast<uint32_t>(recs[i + kNear].lba >> sh));
    ftl.write(static_cast<uint32_t>(recs[i].lba >> sh), recs[i].sectors >> sh);
  }
  std::printf("%llu %llu %llu\n", static_cast<unsigned long long>(ftl.host_), static_cast<unsigned long long>(ftl.gc_),
              static_cast<unsigned long long>(ftl.erases_));
  return 0;
}
