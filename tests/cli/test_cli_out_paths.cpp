// What an output path may be and how ftlsim names it (issue #22, the hostile
// rerun's M2): an empty --out or -o (a script's --out "$DIR" with DIR
// unset) is refused, exit 2, one line, nothing written (it used to run with
// no output folder, exit 0, or, for dump, print to standard output); and the
// `wrote` line names the folder cleanly (--out e2// wrote "e2///summary.json").
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "cli/cli_run.h"

using Catch::Contains;
using ftlsim::test::kDevice;
using ftlsim::test::run_ftlsim;
using ftlsim::test::run_shell;
using ftlsim::test::RunResult;
using ftlsim::test::TempDir;

namespace {

namespace fs = std::filesystem;

size_t lines_of(const std::string& text) {
  size_t n = 0;
  for (const char c : text) n += c == '\n' ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("an empty --out or -o is refused by every command, before anything runs", "[cli]") {
  const TempDir tmp("out-empty");
  const std::string t = tmp.file("t.ftr");
  ftlsim::test::gen_uniform(t, "--logical 8M --writes 1000");
  const std::string small = " --logical 8M --no-progress";
  const std::string img = tmp.file("t.img");
  struct Case {
    std::string args, option, what;
  };
  const std::vector<Case> cases = {
      {"--trace " + t + small, "--out", "folder"},
      {"--trace " + t + small + " --gc-thres 60,70", "--out", "folder"},
      {"compare --trace " + t + small + " --b \"--placement fdp\"", "--out", "folder"},
      {"qd-sweep --trace " + t + " " + kDevice + " --qd 1", "--out", "folder"},
      {"replay --no-progress --trace " + t + " --target " + img + " --create 8M", "--out", "folder"},
      {"gen --pattern uniform --logical 8M --writes 10", "-o", "file"},
      {"gen --pattern uniform --logical 8M --writes 10", "--out", "file"},
      {"dump " + t + " --range 0:2", "-o", "file"},
      {"dump " + t + " --range 0:2", "--out", "file"},
      {"convert --from disksim " + tmp.file("in.txt"), "-o", "file"},
      {"convert --from disksim " + tmp.file("in.txt"), "--output", "file"},
  };
  ftlsim::test::put(tmp.file("in.txt"), "0.0 0 8 8 0\n");
  const std::string cwd = tmp.file("cwd");
  fs::create_directories(cwd);
  for (const Case& c : cases) {
    const RunResult r = run_shell("cd " + cwd + " && " + FTLSIM_BINARY + " " + c.args + " " + c.option + " ''");
    INFO(c.args << " " << c.option << " ''\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("'': an empty " + c.what + " name"));
    CHECK(lines_of(r.output) == 1);
    CHECK(fs::is_empty(cwd));
    CHECK_FALSE(fs::exists(img));
  }
}

TEST_CASE("the wrote line names an output folder given with repeated or trailing slashes cleanly", "[cli]") {
  const TempDir tmp("out-clean");
  const std::string t = tmp.file("t.ftr");
  ftlsim::test::gen_uniform(t, "--logical 8M --writes 1000");
  const std::string small = " --logical 8M --no-progress";
  struct Case {
    std::string args, folder, wrote;
  };
  const std::vector<Case> cases = {
      {"--trace " + t + small, "e2", "e2/summary.json, e2/timeseries.csv"},
      {"--trace " + t + small + " --gc-thres 60,70", "sw", "sw/sweep.csv and 2 configuration folders"},
      {"compare --trace " + t + small + " --b \"--placement fdp\"", "c", "c/a/, c/b/, c/compare.csv"},
      {"qd-sweep --trace " + t + " " + kDevice + " --qd 1", "q", "q/qd_sweep.csv, q/qd_sweep.json"},
  };
  for (const Case& c : cases) {
    for (const std::string tail : {"//", "/./", "//."}) {
      fs::remove_all(tmp.file(c.folder));
      const RunResult r =
          run_shell("cd " + tmp.file("") + " && " + FTLSIM_BINARY + " " + c.args + " --out " + c.folder + tail);
      INFO(c.args << " --out " << c.folder << tail << "\n" << r.output);
      CHECK(r.exit_code == 0);
      CHECK_THAT(r.output, Contains("wrote      " + c.wrote + "\n"));
    }
  }
  // A run of slashes inside: "a//b" is "a/b".
  fs::create_directories(tmp.file("a"));
  const RunResult r =
      run_shell("cd " + tmp.file("") + " && " + FTLSIM_BINARY + " --trace " + t + small + " --out a//b//");
  INFO(r.output);
  CHECK_THAT(r.output, Contains("wrote      a/b/summary.json, a/b/timeseries.csv\n"));
}
