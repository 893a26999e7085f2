// The hints in error messages point the right way. Each test
// triggers an error, then makes the change its hint suggests, in the
// direction it says, and checks that the run then succeeds (and that the
// opposite direction does not).
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <string>

#include "cli_run.h"

using namespace ftlsim::test;
using Catch::Matchers::Contains;

namespace {

// 2000 uniform 4 KiB writes over the first 1 GiB: fits every device below.
std::string hint_trace(const TempDir& tmp) {
  return ftlsim::test::uniform_trace(tmp, "h.ftr", "--logical 1G --writes 2000");
}

RunResult sim(const std::string& trace, const std::string& args) {
  return run_ftlsim("--trace " + trace + " --no-progress " + args);
}

void ok(const RunResult& r) {
  INFO(r.output);
  CHECK(r.exit_code == 0);
}

void refused(const RunResult& r, const std::string& text) {
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains(text));
}

}  // namespace

TEST_CASE("hint: a device too small for its data says lower --logical, fewer handles or raise --gc-thres-high",
          "[cli][hints]") {
  const TempDir tmp("hints-fit");
  const std::string t = hint_trace(tmp);
  // femu-default: 256 lines of 64 MiB, 12 GiB logical. --gc-thres-high 75
  // holds back (int)(0.25 x 256) = 64 lines, one is open: 191 lines =
  // 11.94 GiB < 12 GiB.
  const std::string hint = "lower --logical, use fewer handles (--ruh), or raise --gc-thres-high";
  refused(sim(t, "--gc-thres 75 --gc-thres-high 75"), hint);
  ok(sim(t, "--gc-thres 75 --gc-thres-high 80"));                // raised: 51 held back, 204 lines usable
  refused(sim(t, "--gc-thres 70 --gc-thres-high 70"), hint);     // lowered: worse (76 held back)
  ok(sim(t, "--gc-thres 75 --gc-thres-high 75 --logical 11G"));  // lower --logical
  refused(sim(t, "--gc-thres 75 --gc-thres-high 75 --logical 13G"), hint);
  // FDP with 8 handles: 8 RUs open from start-up; 78% holds back 56:
  // 256 - 56 - 8 = 192 lines = exactly 12 GiB, not enough. 4 handles fit.
  refused(sim(t, "--placement fdp --ruh 8 --gc-thres 50 --gc-thres-high 78"), hint);
  ok(sim(t, "--placement fdp --ruh 4 --gc-thres 50 --gc-thres-high 78"));
  refused(sim(t, "--placement fdp --ruh 16 --gc-thres 50 --gc-thres-high 78"), hint);
}

TEST_CASE("hint: a forced threshold that holds back nothing names a lower value that works", "[cli][hints]") {
  const TempDir tmp("hints-high");
  const std::string t = hint_trace(tmp);
  // 256 lines: 99.9% holds back (int)(0.001 x 256) = 0.
  const RunResult r = sim(t, "--gc-thres 50 --gc-thres-high 99.9");
  refused(r, "--gc-thres-high 99.9 holds back 0 free lines of 256");
  const std::smatch m = [&] {
    std::smatch s;
    std::regex_search(r.output, s, std::regex("lower it, for example to --gc-thres-high ([0-9.]+)\\)"));
    return s;
  }();
  REQUIRE(m.size() == 2);
  CHECK(m[1].str() == "99.41");  // 100 x (1 - 1.5/256): holds back (int)1.5 = 1
  ok(sim(t, "--gc-thres 50 --gc-thres-high " + m[1].str()));
  // With --gc-thres above the suggestion, the hint lowers both.
  const RunResult both = sim(t, "--gc-thres 99.9 --gc-thres-high 99.9");
  refused(both, "for example to --gc-thres-high 99.41 with --gc-thres 99.41)");
  ok(sim(t, "--gc-thres 99.41 --gc-thres-high 99.41"));
}

TEST_CASE("hint: --gc-thres 100 is refused, and the suggested way to the least background GC runs", "[cli][hints]") {
  const TempDir tmp("hints-100");
  const std::string t = hint_trace(tmp);
  refused(sim(t, "--gc-thres 100"), "--gc-thres 100 cannot switch background GC off");
  refused(sim(t, "--gc-thres 100 --gc-thres-high 100"), "--gc-thres 100 cannot switch background GC off");
  refused(sim(t, "--gc-thres 100.5"), "--gc-thres 100.5 must be a percentage in (0, 100)");
  ok(sim(t, "--gc-thres 99 --gc-thres-high 99.5"));  // the message's example
}

TEST_CASE("hint: LBAs beyond the device say --wrap or a larger --logical", "[cli][hints]") {
  const TempDir tmp("hints-lba");
  const std::string t = hint_trace(tmp);  // LBAs up to 1 GiB
  refused(sim(t, "--logical 512M"), "use --wrap to fold LBAs into the device, or a larger --logical");
  ok(sim(t, "--logical 512M --wrap"));
  ok(sim(t, "--logical 1G"));                                  // larger
  refused(sim(t, "--logical 256M"), "or a larger --logical");  // smaller: still refused
}

TEST_CASE("hint: an impossible --ru-size lists sizes that work, in a form the option takes", "[cli][hints]") {
  const TempDir tmp("hints-ru");
  const std::string t = hint_trace(tmp);
  // femu-default: 64 dies, blocks of 256 x 4 KiB = 1 MiB, 256 blocks per plane.
  const RunResult r = sim(t, "--placement fdp --ru-size 48M");
  refused(r, "--ru-size 48M: a reclaim unit must be whole blocks");
  std::smatch m;
  REQUIRE(std::regex_search(r.output, m, std::regex("capacity still apply\\): ([^\\n]*)")));
  CHECK(m[1].str() == "1M, 2M, 4M, 8M, 16M, 32M, 64M, 128M, 256M, 512M, 1G, 2G, 4G");
  // Each listed size is taken as given (a list makes a sweep of all of
  // them) and forms a reclaim unit; the largest leave too few units for the
  // default thresholds and capacity, and say that instead.
  std::string list = m[1].str();
  list.erase(std::remove(list.begin(), list.end(), ' '), list.end());
  const RunResult all = sim(t, "--placement fdp --ru-size " + list + " -j 2 --out " + tmp.file("ru"));
  INFO(all.output);
  CHECK(all.exit_code == 2);
  CHECK_THAT(all.output, Contains("9 configuration folders"));  // 1M to 256M ran
  CHECK_THAT(all.output, !Contains("a reclaim unit must be whole blocks"));
  CHECK_THAT(all.output, Contains("512M     -       error: invalid configuration: logical capacity"));
}
