// The progress line: its text (rate, time left, elapsed) for given numbers,
// and its throttling, both on a fake clock (no timed test).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/progress_line.h"

using ftlsim::format_count;
using ftlsim::format_elapsed;
using ftlsim::format_progress;
using ftlsim::format_rate;
using ftlsim::ProgressLine;
using ftlsim::ProgressSnapshot;
using ftlsim::ProgressUnit;

TEST_CASE("progress: counts, rates and durations", "[core][unit]") {
  CHECK(format_count(0) == "0");
  CHECK(format_count(999) == "999");
  CHECK(format_count(1000) == "1.00k");
  CHECK(format_count(12'345) == "12.3k");
  CHECK(format_count(999'999) == "1.00M");  // rounds up into the next suffix, not "1000k"
  CHECK(format_count(29'300'000) == "29.3M");
  CHECK(format_count(4'100'000'000) == "4.10G");
  CHECK(format_rate(4'100'000.0, ProgressUnit::kRecords) == "4.10M records/s");
  CHECK(format_rate(950.4, ProgressUnit::kRecords) == "950 records/s");
  CHECK(format_rate(350.0 * 1024 * 1024, ProgressUnit::kBytes) == "350.0 MiB/s");
  CHECK(format_elapsed(0) == "0s");
  CHECK(format_elapsed(41.6) == "42s");
  CHECK(format_elapsed(187) == "3m07s");
  CHECK(format_elapsed(2 * 3600 + 5 * 60 + 20) == "2h05m");
}

TEST_CASE("progress: percent, rate and time left follow from done, total and elapsed", "[core][unit]") {
  // 12M of 30M records in 3 s: 4M records/s; 18M left -> 4.5 s, rounded to 5 s.
  ProgressSnapshot s{"simulate", 12'000'000, 30'000'000, ProgressUnit::kRecords, 3.0, ""};
  CHECK(format_progress(s) == "simulate   40.0%  12.0M of 30.0M records  4.00M records/s  elapsed 3s  left 5s");
  // Bytes: 1 GiB of 4 GiB in 8 s = 128 MiB/s, 3 GiB left = 24 s.
  s = {"replay", uint64_t{1} << 30, uint64_t{4} << 30, ProgressUnit::kBytes, 8.0, "32 in flight"};
  CHECK(format_progress(s) == "replay   25.0%  1.00 GiB of 4.00 GiB  128.0 MiB/s  elapsed 8s  left 24s  32 in flight");
  // Unknown total: no percent, no time left.
  s = {"gen", 5'000'000, 0, ProgressUnit::kRecords, 2.0, ""};
  CHECK(format_progress(s) == "gen  5.00M records  2.50M records/s  elapsed 2s");
  // Nothing done yet: no rate to extrapolate from, so no time left.
  s = {"convert", 0, 1000, ProgressUnit::kBytes, 1.0, ""};
  CHECK(format_progress(s) == "convert    0.0%  0 B of 1000 B  0.0 MiB/s  elapsed 1s");
  // Under 1% done the rate is mostly set-up time: no time left yet (65.5k
  // of 20.1M records after 1 s would say 5m06s for a run that takes 3 s).
  s = {"simulate", 65'536, 20'100'000, ProgressUnit::kRecords, 1.0, ""};
  CHECK(format_progress(s) == "simulate    0.3%  65.5k of 20.1M records  65.5k records/s  elapsed 1s");
  s = {"simulate", 201'000, 20'100'000, ProgressUnit::kRecords, 1.0, ""};
  CHECK(format_progress(s).ends_with("left 1m39s"));  // 1% done: 19.9M left at 201k/s
  // Done beyond total is shown as 100%.
  s = {"x", 11, 10, ProgressUnit::kRecords, 1.0, ""};
  CHECK(format_progress(s) == "x  100.0%  11 of 10 records  11 records/s  elapsed 1s");
}

namespace {

// A ProgressLine writing into a memory stream, on a clock the test moves.
struct Captured {
  char* buf = nullptr;
  size_t size = 0;
  std::FILE* f = open_memstream(&buf, &size);
  uint64_t now = 1'000'000'000;
  ~Captured() {
    std::fclose(f);
    std::free(buf);
  }
  std::string text() {
    std::fflush(f);
    return std::string(buf, size);
  }
};

}  // namespace

TEST_CASE("progress: redrawn at most every 250 ms of the clock, cleared at the end", "[core][unit]") {
  Captured c;
  {
    ProgressLine line("sim", 100, ProgressUnit::kRecords, true, c.f, [&c] { return c.now; });
    line.add(10);  // at the start: not due yet
    CHECK(c.text().empty());
    c.now += 249'999'999;
    line.add(10);
    CHECK(c.text().empty());
    c.now += 1;  // 250 ms after the start
    line.add(10);
    CHECK(c.text() == "\rsim   30.0%  30 of 100 records  120 records/s  elapsed 0s  left 1s\033[K");
    const size_t after_first = c.text().size();
    c.now += 100'000'000;
    line.set(50);  // 100 ms after the last draw: counted, not drawn
    CHECK(c.text().size() == after_first);
    CHECK(line.done() == 50);
    line.set(40);  // never goes back
    CHECK(line.done() == 50);
    c.now += 150'000'000;
    line.set_configurations_done(1, 2);
    CHECK(c.text().substr(after_first) ==
          "\rsim   50.0%  50 of 100 records  100 records/s  elapsed 1s  left 1s  1/2 configurations done\033[K");
    line.finish();
    CHECK(c.text().substr(c.text().size() - 4) == "\r\033[K");
    const size_t finished = c.text().size();
    c.now += 1'000'000'000;
    line.add(10);  // after finish: nothing
    CHECK(c.text().size() == finished);
  }  // the destructor does not clear twice
}

TEST_CASE("progress: a disabled line writes nothing and never reads the clock", "[core][unit]") {
  Captured c;
  int reads = 0;
  {
    ProgressLine line("sim", 100, ProgressUnit::kRecords, false, c.f, [&] {
      ++reads;
      return c.now;
    });
    c.now += 10'000'000'000;
    line.add(50);
    line.set_note("x");
  }
  CHECK(reads == 0);
  CHECK(c.text().empty());
}

TEST_CASE("progress: a line never drawn is not cleared", "[core][unit]") {
  Captured c;
  {
    ProgressLine line("sim", 100, ProgressUnit::kRecords, true, c.f, [&c] { return c.now; });
    line.add(100);
  }
  CHECK(c.text().empty());
}
