// A value given twice where it can only count once is refused, compared as
// the run reads it, not as text: a sweep list whose items are one value
// (60,60.0 or 256M,268435456 used to run the same configuration twice, and
// analysis/plot_sweep.py then refused ftlsim's own sweep.csv), and a
// --placement map: naming one placement ID twice (the last mapping used to
// win silently, where a --pid-map file refuses a duplicate key).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cli_run.h"

using ftlsim::test::kDevice;
using ftlsim::test::run_ftlsim;
using ftlsim::test::TempDir;

TEST_CASE("a sweep list whose items are one value is refused before anything runs", "[cli]") {
  const TempDir dir("repeated");
  const std::string t = ftlsim::test::uniform_trace(dir, "t.ftr", "--logical 8M --writes 2000");
  const std::string out = dir.file("sw");
  const std::vector<std::pair<std::string, std::string>> rows = {
      {" --gc-thres 60,60.0,70", "--gc-thres: '60.0' is the same value as '60', listed before it"},
      {" --gc-thres 6e1,60", "--gc-thres: '60' is the same value as '6e1'"},
      {" --gc-thres 50:70:10,60.00", "--gc-thres: '60.00' is the same value as '60'"},
      {" --ruh 4,04", "--ruh: '04' is the same value as '4'"},
      {" --logical 8M,8388608", "--logical: '8388608' is the same value as '8M'"},
      {" --ru-size 1M:4M:1M,2048K", "--ru-size: '2048K' is the same value as '2M'"},
      {" --placement \"map:0=1,1=2;map:1=2,0=1\"", "--placement: 'map:1=2,0=1' is the same value as 'map:0=1,1=2'"},
      {" --timing --read-time 40us,40000ns", "--read-time: '40000ns' is the same value as '40us'"},
      {" --gc-thres 60,60", "--gc-thres: '60' is listed twice"},
  };
  ftlsim::test::expect_one_line_refusals("--trace " + t + " " + kDevice, rows, out);
  // Values whose texts are alike but which differ still run.
  const auto r = run_ftlsim("--trace " + t + " " + kDevice + " --gc-thres 60,60.5 --out " + out);
  INFO(r.output);
  CHECK(r.exit_code == 0);
}

TEST_CASE("a placement map: with a placement ID twice is refused, as a pid map file's duplicate key", "[cli]") {
  const TempDir dir("repeated-map");
  const std::string t = ftlsim::test::uniform_trace(dir, "t.ftr", "--logical 8M --writes 200");
  const std::vector<std::pair<std::string, std::string>> rows = {
      {" --placement map:0=1,0=2,1=3", "--placement map:0=1,0=2,1=3: placement ID 0 is mapped twice (to 1 and to 2)"},
      {" --placement map:0=2,1=3,0=1", "placement ID 0 is mapped twice (to 2 and to 1)"},
      {" --placement map:5=1,5=1", "placement ID 5 is mapped twice (to 1 and to 1)"},
      {" --placement \"single;map:0=1,0=2\"", "placement ID 0 is mapped twice"},
  };
  ftlsim::test::expect_one_line_refusals("--trace " + t + " " + kDevice, rows, dir.file("out"));
  const auto compare = run_ftlsim("compare --trace " + t + " " + kDevice + " --b \"--placement map:0=1,0=2\"");
  CHECK(compare.exit_code == 2);
  CHECK_THAT(compare.output, Catch::Contains("placement ID 0 is mapped twice"));
}
