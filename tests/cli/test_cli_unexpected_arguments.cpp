// Arguments nobody takes are named in the order given, by every command:
// CLI11 takes the arguments last first, and they used to be listed so
// ("not expected: c b a --bogus"), but for --a/--b/--predict.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cli_run.h"

using ftlsim::test::run_ftlsim;
using ftlsim::test::TempDir;
namespace test = ftlsim::test;

TEST_CASE("arguments nobody takes are named in the order given, by every command", "[cli]") {
  const TempDir tmp("extras");
  const std::string t = test::uniform_trace(tmp, "t.ftr", "--logical 8M --writes 100");
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"--trace " + t + " --gc-thres 60 --bogus a b c", "--bogus a b c"},
      {"qd-sweep --trace " + t + " --aa 1 --bb 2", "--aa 1 --bb 2"},
      {"info " + t + " x y", "x y"},
      {"dump " + t + " x y", "x y"},
      {"gen --pattern uniform --logical 8M --writes 10 -o " + tmp.file("g.ftr") + " --zz 1 2", "--zz 1 2"},
      // convert's further words are inputs (blktrace's per-CPU files; every
      // other format refuses a second one: test_convert_cli.cpp).
      {"convert --from disksim in.txt -o o.ftr --zz --yy", "--zz --yy"},
      {"compare --trace " + t + " --zz 1 2", "--zz 1 2"},
      {"replay --trace " + t + " --target " + tmp.file("x.img") + " --zz 1 2", "--zz 1 2"},
  };
  for (const auto& [args, extras] : rows) {
    const test::RunResult r = run_ftlsim(args);
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains("not expected: " + extras + " (see --help)"));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  }
  CHECK_FALSE(std::filesystem::exists(tmp.file("g.ftr")));
}

// An option without its value says so in ftlsim's words (CLI11 said
// "--gc-thres: 1 required PCT missing").
TEST_CASE("an option given without its value is one line naming it and what it takes, exit 2", "[cli]") {
  const TempDir tmp("novalue");
  const std::string t = tmp.file("t.ftr");
  ftlsim::test::gen_uniform(t, "--logical 8M --writes 10");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--trace " + t + " --gc-thres", "ftlsim: error: --gc-thres needs a value (PCT) (see --help)\n"},
      {"--trace " + t + " --precondition",
       "ftlsim: error: --precondition needs a value (none|seq|random|trace) (see --help)\n"},
      {"--trace", "ftlsim: error: --trace needs a value (FILE) (see --help)\n"},
      {"convert --from", "ftlsim: error: --from needs a value (TEXT) (see --help)\n"},
  };
  for (const auto& [args, want] : cases) {
    const test::RunResult r = run_ftlsim(args);
    INFO(args);
    CHECK(r.exit_code == 2);
    CHECK(r.output == want);
  }
}

// An option given twice is named in ftlsim's words, with the spelling -o
// where that was used (hostile rerun 2, N11: "--trace: At Most 1 required
// but received 2", and --out for -o).
TEST_CASE("an option given twice is one line naming it, exit 2", "[cli]") {
  const TempDir tmp("twice");
  const std::string t = tmp.file("t.ftr");
  ftlsim::test::gen_uniform(t, "--logical 8M --writes 10");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--trace " + t + " --trace " + t, "ftlsim: error: --trace given 2 times; give it once (see --help)\n"},
      {"--trace " + t + " --gc-thres 60 --gc-thres 70 --gc-thres 80",
       "ftlsim: error: --gc-thres given 3 times; give it once (see --help)\n"},
      {"gen --pattern uniform --logical 8M --writes 10 -o a.ftr -o b.ftr",
       "ftlsim: error: --out (-o) given 2 times; give it once (see --help)\n"},
      {"--trace " + t + " --out a --out b", "ftlsim: error: --out given 2 times; give it once (see --help)\n"},
  };
  for (const auto& [args, want] : cases) {
    const ftlsim::test::RunResult r = run_ftlsim(args);
    INFO(args);
    CHECK(r.exit_code == 2);
    CHECK(r.output == want);
  }
}
