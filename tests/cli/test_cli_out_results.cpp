// One rule for every command that writes an output folder (issue #22, the
// rerun's S5; cli/out_results.h): rerunning the same configuration replaces
// its own results; a folder holding the results of another configuration or
// trace is refused, exit 2, one line, with nothing changed, unless the
// command's replace flag (--force; replay: --replace-out, since replay's
// --force is about the target). compare and replay --out used to replace
// another run's results silently.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "cli/cli_run.h"

using Catch::Contains;
using ftlsim::test::run_ftlsim;
using ftlsim::test::RunResult;
using ftlsim::test::slurp;
using ftlsim::test::TempDir;

namespace {

namespace fs = std::filesystem;

std::string make_results_trace(const std::string& path, const std::string& seed = "1") {
  return ftlsim::test::gen_uniform(path, "--logical 8M --writes 1000 --force --seed " + seed);
}

// Every regular file under `dir` with its bytes, for "nothing changed".
std::vector<std::pair<std::string, std::string>> contents(const std::string& dir) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.emplace_back(e.path().string(), slurp(e.path().string()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Command {
  std::string what;
  std::string first;  // writes the folder
  std::string other;  // another configuration of the same command
  std::string entry;  // the result file the refusal names
  std::string flag;   // the replace flag
};

}  // namespace

TEST_CASE("every command's --out: the same configuration replaces its results, another is refused without its flag",
          "[cli]") {
  const TempDir tmp("out-results");
  const std::string t = make_results_trace(tmp.file("t.ftr"));
  const std::string small = " --logical 8M --no-progress";
  const std::string img = tmp.file("t.img");
  const std::string replay = "replay --no-progress --trace " + t + " --target " + img + " --create 8M";
  const std::vector<Command> commands = {
      {"simulate", "--trace " + t + small + " --gc-thres 60", "--trace " + t + small + " --gc-thres 70", "summary.json",
       "--force"},
      {"compare", "compare --trace " + t + small + " --a \"--gc-thres 60\" --b \"--gc-thres 70\"",
       "compare --trace " + t + small + " --a \"--gc-thres 60\" --b \"--gc-thres 80\"", "b/summary.json", "--force"},
      {"qd-sweep", "qd-sweep --trace " + t + small + " --qd 1,2", "qd-sweep --trace " + t + small + " --qd 1,4",
       "qd_sweep.json", "--force"},
      {"replay", replay + " --qd 4", replay + " --qd 8", "summary.json", "--replace-out"},
  };
  for (const Command& c : commands) {
    INFO(c.what);
    const std::string out = tmp.file("out-" + c.what);
    const RunResult first = run_ftlsim(c.first + " --out " + out);
    INFO(first.output);
    if (c.what == "replay" && first.output.find("O_DIRECT") != std::string::npos) {
      WARN("skipped: no O_DIRECT in " << tmp.file(""));
      continue;
    }
    REQUIRE(first.exit_code == 0);
    // The same configuration again: replaces its own results.
    const RunResult same = run_ftlsim(c.first + " --out " + out);
    INFO(same.output);
    CHECK(same.exit_code == 0);
    // Another configuration: refused before any work, nothing changed.
    const auto before = contents(out);
    const RunResult other = run_ftlsim(c.other + " --out " + out);
    INFO(other.output);
    CHECK(other.exit_code == 2);
    CHECK_THAT(other.output, Contains("--out " + out + ": holds the results of another configuration or trace (" + out +
                                      "/" + c.entry + "); give another folder, or " + c.flag + " to replace them"));
    CHECK(std::count(other.output.begin(), other.output.end(), '\n') == 1);
    CHECK(contents(out) == before);
    if (c.what == "replay") {
      // replay's --force is about the target, not the report.
      const RunResult forced = run_ftlsim(c.other + " --force --out " + out);
      INFO(forced.output);
      CHECK(forced.exit_code == 2);
      CHECK(contents(out) == before);
    }
    // With the flag: replaced.
    const RunResult replaced = run_ftlsim(c.other + " " + c.flag + " --out " + out);
    INFO(replaced.output);
    CHECK(replaced.exit_code == 0);
    CHECK(contents(out) != before);
    // The trace is part of the configuration: the same options on a
    // rewritten trace are another configuration.
    make_results_trace(t, "2");
    const RunResult changed = run_ftlsim(c.other + " --out " + out);
    INFO(changed.output);
    CHECK(changed.exit_code == 2);
    CHECK_THAT(changed.output, Contains("holds the results of another configuration or trace"));
    make_results_trace(t, "1");
  }
}

// A folder of another kind of run (hostile rerun 2, N1): compare and
// qd-sweep replaced a single run's, a replay's or each other's results
// without --force, since each looked only for its own result files.
TEST_CASE("every command's --out: the results of another kind of run are refused without its flag", "[cli]") {
  const TempDir tmp("out-kinds");
  const std::string t = make_results_trace(tmp.file("t.ftr"));
  const std::string small = " --logical 8M --no-progress";
  const std::string img = tmp.file("t.img");
  const std::vector<Command> commands = {
      {"simulate", "--trace " + t + small, "", "summary.json", "--force"},
      {"compare", "compare --trace " + t + small + " --b \"--gc-thres 70\"", "", "b/summary.json", "--force"},
      {"qd-sweep", "qd-sweep --trace " + t + small + " --qd 1,2", "", "qd_sweep.json", "--force"},
      {"replay", "replay --no-progress --trace " + t + " --target " + img + " --create 8M --force", "", "summary.json",
       "--replace-out"},
  };
  for (const Command& first : commands) {
    for (const Command& second : commands) {
      if (first.what == second.what) continue;
      INFO(first.what << " then " << second.what);
      const std::string out = tmp.file("out-" + first.what + "-" + second.what);
      const RunResult made = run_ftlsim(first.first + " --out " + out);
      INFO(made.output);
      if (made.output.find("O_DIRECT") != std::string::npos) {
        WARN("skipped: no O_DIRECT in " << tmp.file(""));
        continue;
      }
      REQUIRE(made.exit_code == 0);
      const auto before = contents(out);
      const RunResult other = run_ftlsim(second.first + " --out " + out);
      INFO(other.output);
      CHECK(other.exit_code == 2);
      CHECK_THAT(other.output, Contains("--out " + out + ": holds the results of "));
      CHECK_THAT(other.output, Contains("give another folder, or " + second.flag + " to replace them"));
      CHECK(std::count(other.output.begin(), other.output.end(), '\n') == 1);
      CHECK(contents(out) == before);
      const RunResult replaced = run_ftlsim(second.first + " " + second.flag + " --out " + out);
      INFO(replaced.output);
      CHECK(replaced.exit_code == 0);
      CHECK(contents(out) != before);
    }
  }
}
