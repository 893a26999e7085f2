// A run's memory is estimated before anything is
// allocated, and a run (or the -j configurations of a sweep at once) that
// will not fit in the available memory or --mem-limit is refused with the
// figure. The estimate is checked against the peak RSS the kernel measures
// (wait4) for several geometries, within the tolerance docs/bad_input.md
// states: 10% of the estimate + 4 MiB.
#include <sys/resource.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.h"

using namespace ftlsim;
using Catch::Contains;
using test::run_ftlsim;
using test::run_shell;
using test::TempDir;

// ASan and UBSan builds (the asan preset) change the process's memory: a
// shadow of every mapping, a quarantine of freed blocks, and a reserved
// address space that an address-space limit (ulimit -v) refuses. The test's
// own code is built without them there (tests/CMakeLists.txt), so it asks
// how the binary was built.
constexpr bool kSanitized = FTLSIM_BINARY_SANITIZED != 0;

namespace {

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

// Runs ftlsim with `args` (split at spaces), output discarded; returns its
// exit code and its peak resident set in bytes (wait4's ru_maxrss).
std::pair<int, uint64_t> peak_rss(const std::string& args) {
  std::vector<std::string> argv_s = words(args);
  argv_s.insert(argv_s.begin(), FTLSIM_BINARY);
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  struct rusage ru {};
  REQUIRE(::wait4(pid, &status, 0, &ru) == pid);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, static_cast<uint64_t>(ru.ru_maxrss) * 1024};
}

// The estimate a refusal states: "needs about X (N bytes: ...".
uint64_t stated_need(const std::string& output) {
  std::smatch m;
  const std::regex re("needs about [^(]*\\(([0-9]+) bytes");
  REQUIRE(std::regex_search(output, m, re));
  return std::stoull(m[1].str());
}

uint64_t estimate_of(const std::string& args) {
  const test::RunResult r = run_ftlsim(args + " --mem-limit 1");
  INFO(r.output);
  REQUIRE(r.exit_code == 2);
  return stated_need(r.output);
}

// MemAvailable from /proc/meminfo, read here (independently of ftlsim).
uint64_t mem_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

std::string small_trace(const TempDir& tmp) {
  std::string t = test::uniform_trace(tmp, "m.ftr", "--logical 8M --writes 2000 --seed 3");
  return t;
}

}  // namespace

TEST_CASE("the memory estimate is within 10% + 4 MiB of the peak RSS of a run that writes the whole device",
          "[cli][memory]") {
  if (kSanitized) SKIP_TEST("a sanitizer build's resident memory is not the program's");
  const TempDir tmp("mem-rss");
  // Geometries of 4M to 16M slots (about 30 to 120 MiB of maps), each
  // rule of the estimate: the line path, FDP with several RGs (a victim
  // queue per pool), oracle and interval placement (8 B per logical slot),
  // timed mode (per unit and die), a larger logical space. The maps take
  // memory where they are written (zero pages until then), so each trace
  // writes its logical space over, sequentially in 1 MiB requests, about
  // 1.1 times the device's physical bytes: every line is opened (free lines
  // are taken in ring order) and every logical slot written.
  struct Run {
    std::string args;
    std::string logical;   // the trace's logical space (the run's, or the default's)
    std::string physical;  // the device's, by hand: channels x LUNs x blocks x pages x 4 KiB
    bool bound_only;       // the estimate is an upper bound, not within 10%
  };
  const std::vector<Run> runs = {
      {"--blocks 1024 --pages 256 --logical 8M", "8M", "64G", false},
      // --rg-of lba: the writes reach every RG (with one stream, current
      // would write RG 0 only).
      {"--blocks 256 --pages 1024 --placement fdp --rg 4 --rg-of lba --logical 8M", "8M", "64G", false},
      // Oracle placement's tables of the trace (8 B per logical slot, 2 B
      // per page and record) are built before the run writes the maps, and
      // the peak is below their sum (86 of 145 MiB; 135 MiB when the maps
      // were filled when made, before this stop): an upper bound.
      {"--blocks 512 --pages 256 --placement oracle", "24G", "32G", true},  // logical 32G / (1 + 1/3)
      {"--blocks 256 --pages 256 --channels 16 --luns 8 --placement interval --logical 256M", "256M", "32G", false},
      {"--blocks 512 --pages 256 --timing --logical 8M", "8M", "32G", false},
      // A row per byte asked for: one per request at most (the estimate
      // used to count 8 M rows of 80 B, twice, for this 8 MB of writes).
      {"--blocks 512 --pages 256 --logical 8M --interval 1", "8M", "32G", false},
  };
  for (const Run& run : runs) {
    const std::string trace = tmp.file("w" + run.logical + "-" + run.physical + ".ftr");
    if (!std::filesystem::exists(trace)) {
      const std::string bytes = std::to_string(std::stoull(run.physical.substr(0, run.physical.size() - 1)) * 2) + "G";
      const test::RunResult g = run_ftlsim("gen --pattern seq --logical " + run.logical + " --io-size 1M --bytes " +
                                           bytes + " --no-progress -o " + trace);
      INFO(g.output);
      REQUIRE(g.exit_code == 0);
    }
    const std::string args = "--trace " + trace + " " + run.args + " --no-progress";
    INFO(args);
    const uint64_t est = estimate_of(args);
    const auto [code, rss] = peak_rss(args + " --mem-limit off");
    REQUIRE(code == 0);
    INFO("estimate " << est << " bytes, peak RSS " << rss << " bytes");
    const double tolerance = 0.10 * static_cast<double>(est) + 4.0 * (1 << 20);
    CHECK(static_cast<double>(rss) <= static_cast<double>(est) + tolerance);
    if (!run.bound_only) CHECK(static_cast<double>(rss) >= static_cast<double>(est) - tolerance);
  }
}

TEST_CASE("a trace that writes a small part of a large device takes memory for that part only", "[cli][memory]") {
  if (kSanitized) SKIP_TEST("a sanitizer build's resident memory is not the program's");
  const TempDir tmp("mem-sparse");
  const std::string trace = small_trace(tmp);  // 2000 4 KiB writes within 8 MiB
  // 2 TiB logical, 3 TiB physical: 2 GiB of l2p and 3 GiB of p2l. The
  // estimate counts them in full (what a trace writing the whole device
  // takes); this run writes 8 MiB, so its maps take a few MiB of memory.
  const std::string args = "--trace " + trace + " --preset femu-eth --logical 2T --op 0.5 --no-progress";
  const uint64_t est = estimate_of(args);
  CHECK(est > (uint64_t{5} << 30));
  const auto [code, rss] = peak_rss(args + " --mem-limit off");
  REQUIRE(code == 0);
  INFO("estimate " << est << " bytes, peak RSS " << rss << " bytes");
  CHECK(rss < (uint64_t{64} << 20));
}

TEST_CASE("the time series is estimated at one row per interval, at most one per request, for every pass",
          "[cli][memory]") {
  const TempDir tmp("mem-rows");
  const std::string trace = small_trace(tmp);  // 2000 writes of 4 KiB: 8,192,000 bytes
  const std::string base = "--trace " + trace + " --blocks 512 --pages 256 --logical 8M --no-progress";
  // A row is 80 B (TimeseriesRow: eight 8-byte fields, a 4-byte one padded
  // to 8, a 16-byte optional), counted twice (a vector grows to twice what
  // it holds), with 2 rows more. By default the interval is 1% of what
  // every pass writes: 100 rows (+2).
  constexpr int64_t kRow = 160;
  const auto rows_over_default = [&](const std::string& more, const std::string& repeat) {
    return static_cast<int64_t>(estimate_of(base + repeat + more)) - static_cast<int64_t>(estimate_of(base + repeat));
  };
  CHECK(rows_over_default(" --interval 1", "") == (2000 - 100) * kRow);  // a row per request, not per byte
  CHECK(rows_over_default(" --interval 4K", "") == (2000 - 100) * kRow);
  CHECK(rows_over_default(" --interval 1M", "") == (8192000 / 1048576 - 100) * kRow);
  CHECK(rows_over_default(" --interval 1", " --repeat 3") == (6000 - 100) * kRow);
  CHECK(rows_over_default(" --interval 1M", " --repeat 3") == (3 * 8192000 / 1048576 - 100) * kRow);
  // And what the run writes: at most a row per request (plus the header).
  const test::RunResult r = run_ftlsim(base + " --interval 1 --out " + tmp.file("o"));
  REQUIRE(r.exit_code == 0);
  std::ifstream csv(tmp.file("o") + "/timeseries.csv");
  size_t lines = 0;
  for (std::string line; std::getline(csv, line);) ++lines;
  CHECK(lines == 2000 + 1);
}

TEST_CASE("an --id-series run is estimated at a row per placement ID written and per handle, at each timeseries row",
          "[cli][memory]") {
  const TempDir tmp("mem-id-rows");
  // Three streams, pids 0, 1 and 2, 2000 writes of 4 KiB.
  const std::string trace = tmp.file("s.ftr");
  const test::RunResult g = run_ftlsim(
      "gen --pattern streams --streams 0.5:0.5,0.25:0.25,0.25:0.25 --logical 8M --writes 2000 "
      "--seed 3 -o " +
      trace);
  REQUIRE(g.exit_code == 0);
  const std::string base = "--trace " + trace + " --blocks 512 --pages 256 --logical 8M --no-progress";
  // What --id-series adds at 2002 timeseries rows (--interval 4K: a row per
  // request, and 2 more) less what it adds at the default 102 rows: 1900
  // rows' worth, each IdSeriesRow 32 B (three 8-byte fields, a 1-byte kind
  // and a 4-byte id in 8), counted twice (a vector grows to twice what it
  // holds). The tags per logical slot and the per-tag counts cancel out.
  const auto added_by_ids = [&](const std::string& more) {
    return static_cast<int64_t>(estimate_of(base + more + " --id-series")) -
           static_cast<int64_t>(estimate_of(base + more));
  };
  const auto per_row = [&](const std::string& more) {
    return added_by_ids(more + " --interval 4K") - added_by_ids(more);
  };
  // placement single: the three IDs and one handle row.
  CHECK(per_row("") == 1900 * (3 + 1) * 64);
  // fdp: the three IDs and the 8 handles.
  CHECK(per_row(" --placement fdp") == 1900 * (3 + 8) * 64);
  // --precondition: its data is one tag more.
  CHECK(per_row(" --precondition seq") == 1900 * (3 + 1 + 1) * 64);
}

TEST_CASE("timed mode's events.csv intervals are estimated at their most", "[cli][memory]") {
  const TempDir tmp("mem-events");
  const std::string base =
      "--trace " + small_trace(tmp) + " --blocks 512 --pages 256 --logical 8M --no-progress --timing";
  // An interval at most: five cells of 64 B (8 B of bytes, a histogram's
  // vector of 24 B and count, sum, min and max) and, for each of the five
  // kinds once it has an event, 1888 counts of 4 B ((63 - 5 + 1) x 32
  // buckets): 320 + 5 x 7552 = 38,080 B. The automatic interval keeps at
  // most 256 of them (+1), a given one 100,000 (+1).
  const int64_t automatic = static_cast<int64_t>(estimate_of(base));
  const int64_t given = static_cast<int64_t>(estimate_of(base + " --event-interval 1ms"));
  CHECK(given - automatic == (100'001 - 257) * int64_t{38'080});
  const int64_t fast = static_cast<int64_t>(
      estimate_of("--trace " + tmp.file("m.ftr") + " --blocks 512 --pages 256 --logical 8M --no-progress"));
  // Timed mode's other tables on this device (64 dies, 512 units): 44 B a
  // unit, 256 B a die, the GC queue's first 2 MiB; and 257 intervals.
  CHECK(automatic - fast == 512 * 44 + 64 * 256 + (2 << 20) + 257 * 38'080);
}

TEST_CASE("a 4-billion-slot geometry is refused before allocating, with the figure", "[cli][memory]") {
  const TempDir tmp("mem-huge");
  const std::string trace = small_trace(tmp);
  // 64 dies x 65535 blocks x 1024 pages = 4294901760 slots, inside the slot
  // limit: the maps alone are 4 B per logical slot (3/4 of the slots) and
  // 4 1/8 B per physical slot, 30.1 GB (hand count).
  const std::string args = "--trace " + trace + " --blocks 65535 --pages 1024 --no-progress";
  const uint64_t slots = uint64_t{64} * 65535 * 1024;
  const uint64_t logical = static_cast<uint64_t>(static_cast<double>(slots) / (1.0 + 1.0 / 3.0));
  const uint64_t maps = logical * 4 + slots * 4 + slots / 8;
  // Under a 4 GiB address-space limit, so that a build that allocates first
  // fails fast instead of filling the machine.
  const std::string bounded =
      std::string(kSanitized ? "" : "ulimit -v 4194304; ") + "timeout 60 " + std::string(FTLSIM_BINARY) + " ";
  {
    const test::RunResult r = run_shell(bounded + args + " --mem-limit 16G --out " + tmp.file("o/run"));
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_FALSE(std::filesystem::exists(tmp.file("o")));  // refused before --out is made
    CHECK_THAT(r.output,
               Contains("this run needs about") && Contains("more than the 16.00 GiB available (--mem-limit)"));
    const uint64_t need = stated_need(r.output);
    CHECK(need >= maps);
    CHECK(need <= maps + maps / 50);  // the maps are nearly all of it
  }
  // The default limit is the available memory; on a machine with less than
  // the run needs it refuses, naming MemAvailable or a lower cgroup limit.
  if (mem_available() < maps) {
    const test::RunResult r = run_shell(bounded + args);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("needs about"));
    CHECK((r.output.find("MemAvailable") != std::string::npos || r.output.find("cgroup") != std::string::npos));
  }
}

TEST_CASE("a sweep counts the configurations that run at once", "[cli][memory]") {
  const TempDir tmp("mem-sweep");
  const std::string trace = small_trace(tmp);
  const std::string sweep =
      "--trace " + trace + " --blocks 512 --pages 256 --logical 8M --gc-thres 60,70 --no-progress";
  const uint64_t one = estimate_of("--trace " + trace + " --blocks 512 --pages 256 --logical 8M --no-progress");
  const std::string limit = " --mem-limit " + std::to_string(one + one / 2);  // one fits, two do not
  const test::RunResult two = run_ftlsim(sweep + " -j 2 --out " + tmp.file("s2") + limit);
  INFO(two.output);
  CHECK(two.exit_code == 2);
  CHECK_THAT(two.output, Contains("this sweep, 2 configurations at a time (-j 2), needs about"));
  CHECK_THAT(two.output, Contains("fewer jobs (-j)"));
  CHECK_FALSE(std::filesystem::exists(tmp.file("s2")));
  const test::RunResult one_at_a_time = run_ftlsim(sweep + " -j 1 --out " + tmp.file("s1") + limit);
  INFO(one_at_a_time.output);
  CHECK(one_at_a_time.exit_code == 0);
  // compare runs a and b at once.
  const test::RunResult cmp = run_ftlsim("compare --trace " + trace +
                                         " --blocks 512 --pages 256 --logical 8M "
                                         "--a \"--gc-thres 60\" --b \"--gc-thres 70\" --no-progress" +
                                         limit + " --out " + tmp.file("new/cmp"));
  INFO(cmp.output);
  CHECK(cmp.exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(tmp.file("new")));  // refused before --out's parent is made
  CHECK_THAT(cmp.output, Contains("this comparison, a and b at once, needs about"));
  CHECK(cmp.output.find("-j") == std::string::npos);  // compare has no -j to lower
}

TEST_CASE("compare --trace-b estimates each side on its own trace", "[cli][memory]") {
  const TempDir tmp("mem-two-traces");
  const std::string small = small_trace(tmp);
  // oracle placement keeps a next-write index per record: a trace with
  // more records needs more memory on the same device.
  const std::string big = test::uniform_trace(tmp, "big.ftr", "--logical 8M --writes 400000 --seed 4");
  const std::string device = " --blocks 512 --pages 256 --logical 8M --placement oracle --no-progress";
  const uint64_t need_small = estimate_of("--trace " + small + device);
  const uint64_t need_big = estimate_of("--trace " + big + device);
  REQUIRE(need_big > need_small);
  // Two small sides fit; small + big do not.
  const std::string limit = " --mem-limit " + std::to_string(2 * need_small + (need_big - need_small) / 2);
  const std::string cmp = "compare --trace " + small + device + " --a \"--gc-thres 60\" --b \"--gc-thres 70\"" + limit;
  const test::RunResult same = run_ftlsim(cmp);
  INFO(same.output);
  CHECK(same.exit_code == 0);
  const test::RunResult two = run_ftlsim(cmp + " --trace-b " + big + " --out " + tmp.file("new/cmp"));
  INFO(two.output);
  CHECK(two.exit_code == 2);
  CHECK_THAT(two.output, Contains("this comparison, a and b at once, needs about"));
  CHECK(stated_need(two.output) == need_small + need_big);
  CHECK_FALSE(std::filesystem::exists(tmp.file("new")));
}

TEST_CASE("the memory limit option takes auto, off or a size", "[cli][memory]") {
  const TempDir tmp("mem-opt");
  const std::string trace = small_trace(tmp);
  for (const std::string bad : {"12x", "0", "-1", "lots"}) {
    const test::RunResult r = run_ftlsim("--trace " + trace + " " + test::kDevice + " --mem-limit " + bad);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("--mem-limit: '" + bad + "' is not auto, off or a size above 0"));
  }
  for (const std::string good : {"auto", "off", "1G"}) {
    CHECK(run_ftlsim("--trace " + trace + " " + test::kDevice + " --mem-limit " + good).exit_code == 0);
  }
}

TEST_CASE("a --logical fit run is checked once its geometry is fitted", "[cli][memory]") {
  const TempDir tmp("mem-fit");
  const std::string trace = small_trace(tmp);  // touches at most 2048 slots of 8 MiB
  // fit:0.01% makes the logical space 10^4 x the footprint (up to 20.5M
  // slots, 80 MiB of l2p alone) and derives the pages for the preset's OP;
  // the geometry as given (femu-eth-512m) needs about 13 MiB.
  const std::string args = "--trace " + trace + " --preset femu-eth-512m --logical fit:0.01% --no-progress";
  CHECK(run_ftlsim("--trace " + trace + " --preset femu-eth-512m --no-progress --mem-limit 20M").exit_code == 0);
  const test::RunResult r = run_ftlsim(args + " --mem-limit 20M");
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains("this run (--logical fit:0.01%) needs about"));
  // With the limit off it runs; its maps take memory only where the trace
  // writes (zero pages elsewhere), so the estimate is the bound a trace
  // writing the whole fitted device would reach.
  const auto [code, rss] = peak_rss(args + " --mem-limit off");
  CHECK(code == 0);
  CHECK(rss < estimate_of(args));
}

TEST_CASE("replay --predict is checked against the memory limit before the target is made", "[cli][memory]") {
  const TempDir tmp("mem-predict");
  const std::string trace = small_trace(tmp);
  const std::string img = tmp.file("t.img");
  const std::string replay = "replay --trace " + trace + " --target " + img + " --create 8M --no-progress";
  const std::string big = " --predict \"--blocks 65535 --pages 1024\"";
  const test::RunResult r = run_ftlsim(replay + big + " --mem-limit 16G --out " + tmp.file("o/r"));
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains("the --predict model run needs about") &&
                           Contains("more than the 16.00 GiB available (--mem-limit)"));
  CHECK_FALSE(std::filesystem::exists(img));  // refused before --create made it
  CHECK_FALSE(std::filesystem::exists(tmp.file("o")));
  const test::RunResult bad = run_ftlsim(replay + " --mem-limit 12x");
  INFO(bad.output);
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Contains("--mem-limit: '12x' is not auto, off or a size above 0"));
  CHECK_FALSE(std::filesystem::exists(img));
  // A prediction that fits runs (also under the default limit).
  const test::RunResult ok = run_ftlsim(replay + " --predict \"--logical 8M\" --mem-limit 1G");
  INFO(ok.output);
  if (ok.output.find("O_DIRECT") != std::string::npos) {
    WARN("skipped: no O_DIRECT in " << tmp.file(""));
    return;
  }
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.output, Contains("WAF"));
}

// A fit run's geometry comes from the trace: a sweep, compare and
// --predict count it fitted, with the runs beside it (before, each fit run
// was checked alone, so -j 2 of 2 x 970 MiB ran under --mem-limit 1000M,
// and 2 x 18.8 GiB started under 30G and was killed by the kernel).
TEST_CASE("fit runs are counted fitted with the runs beside them", "[cli][memory]") {
  const TempDir tmp("mem-fit-together");
  const std::string trace = small_trace(tmp);
  const std::string fit = " --preset femu-eth-512m --logical fit:0.01% --no-progress";
  const uint64_t one = estimate_of("--trace " + trace + fit);
  CHECK(one > (uint64_t{40} << 20));  // the fitted geometry, not the preset's 13 MiB
  const std::string limit = " --mem-limit " + std::to_string(one + one / 2);  // one fits, two do not
  {
    const test::RunResult r =
        run_ftlsim("--trace " + trace + fit + " --gc-thres 60,70 -j 2 --out " + tmp.file("s2") + limit);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("this sweep, 2 configurations at a time (-j 2), needs about"));
    CHECK(stated_need(r.output) == 2 * one);
    CHECK_FALSE(std::filesystem::exists(tmp.file("s2")));
  }
  {
    const test::RunResult r = run_ftlsim("compare --trace " + trace +
                                         " --preset femu-eth-512m --a \"--logical fit:0.01%\" --b \"--logical "
                                         "fit:0.01% --placement fdp\" --no-progress --out " +
                                         tmp.file("cmp") + limit);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("this comparison, a and b at once, needs about"));
    CHECK_FALSE(std::filesystem::exists(tmp.file("cmp")));
  }
  // One at a time fits.
  const test::RunResult j1 =
      run_ftlsim("--trace " + trace + fit + " --gc-thres 60,70 -j 1 --out " + tmp.file("s1") + limit);
  INFO(j1.output);
  CHECK(j1.exit_code == 0);
  // A configuration the fit refuses still fails alone (its row), as before.
  const test::RunResult mixed =
      run_ftlsim("--trace " + trace + " --preset femu-eth-512m --logical fit:1e-15%,fit:50% --no-progress --out " +
                 tmp.file("mixed"));
  INFO(mixed.output);
  CHECK(mixed.output.find("this sweep") == std::string::npos);
}

TEST_CASE("replay --predict takes its own --mem-limit", "[cli][memory]") {
  const TempDir tmp("mem-predict-own");
  const std::string trace = small_trace(tmp);
  const std::string img = tmp.file("t.img");
  const std::string replay = "replay --trace " + trace + " --target " + img + " --create 8M --no-progress";
  const test::RunResult r =
      run_ftlsim(replay + " --predict \"--preset femu-eth-512m --logical fit:0.01% --mem-limit 20M\"");
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains("the --predict model run needs about") &&
                           Contains("more than the 20.00 MiB available (--mem-limit)"));
  CHECK_FALSE(std::filesystem::exists(img));
  // replay's own limit applies to a fit prediction, counted fitted.
  const test::RunResult own = run_ftlsim(replay +
                                         " --predict \"--preset femu-eth-512m --logical fit:0.01%\" "
                                         "--mem-limit 20M");
  INFO(own.output);
  CHECK(own.exit_code == 2);
  CHECK_THAT(own.output, Contains("the --predict model run needs about"));
  CHECK_FALSE(std::filesystem::exists(img));
  const test::RunResult bad = run_ftlsim(replay + " --predict \"--mem-limit 12x\"");
  INFO(bad.output);
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Contains("--mem-limit: '12x' is not auto, off or a size above 0"));
}
