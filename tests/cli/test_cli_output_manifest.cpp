// An output folder's manifest (.ftlsim_manifest, core/output_set.h) is the
// proof of what an earlier run wrote; an entry of that name ftlsim did not
// write proves nothing. Every command with --out refuses a folder holding
// one (a file of the user's, a folder with a user's file in it, a symbolic
// link, a FIFO), exit 2, one line naming it, and leaves it where it was:
// nothing moved into a hidden staging folder, nothing waited on (a FIFO used
// to block every command forever in open(); a file, folder or link was
// swapped out of sight with exit 0). Issue #22, the hostile rerun's O1 and H3.
#include <sys/stat.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "cli/cli_run.h"

using Catch::Contains;
using ftlsim::test::kDevice;
using ftlsim::test::put;
using ftlsim::test::run_ftlsim;
using ftlsim::test::run_shell;
using ftlsim::test::RunResult;
using ftlsim::test::slurp;
using ftlsim::test::TempDir;

namespace {

namespace fs = std::filesystem;

constexpr const char* kManifest = ".ftlsim_manifest";

// Plants an entry named .ftlsim_manifest of `kind` in the folder `dir`.
void plant(const std::string& dir, const std::string& kind, const std::string& elsewhere) {
  const std::string m = dir + "/" + kManifest;
  if (kind == "file") {
    put(m, "my notes\n");
  } else if (kind == "folder") {
    fs::create_directories(m);
    put(m + "/thesis.tex", "years of work\n");
  } else if (kind == "symlink") {
    put(elsewhere, "my notes\n");
    fs::create_symlink(elsewhere, m);
  } else {
    REQUIRE(::mkfifo(m.c_str(), 0644) == 0);
  }
}

// The planted entry is still there, as it was.
void check_planted(const std::string& dir, const std::string& kind) {
  const std::string m = dir + "/" + kManifest;
  if (kind == "file") {
    CHECK(slurp(m) == "my notes\n");
  } else if (kind == "folder") {
    CHECK(slurp(m + "/thesis.tex") == "years of work\n");
  } else if (kind == "symlink") {
    CHECK(fs::is_symlink(m));
    CHECK(slurp(m) == "my notes\n");
  } else {
    CHECK(fs::is_fifo(m));
  }
}

// Hidden staging folders (".NAME.ftlsim-XXXXXX") in `dir`.
std::vector<std::string> staging_in(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name[0] == '.' && name.find(".ftlsim-") != std::string::npos) out.push_back(name);
  }
  return out;
}

// Runs ftlsim bounded in time: a run that waits forever fails the test
// instead of hanging it (timeout's exit code is 124, or 137 for KILL).
RunResult run_bounded(const std::string& args) {
  return run_shell("timeout -s KILL 30 " + std::string(FTLSIM_BINARY) + " " + args);
}

}  // namespace

TEST_CASE(
    "an entry named .ftlsim_manifest that ftlsim did not write is refused by every command, never moved or waited on",
    "[cli]") {
  const TempDir tmp("manifest-entry");
  const std::string t = tmp.file("t.ftr");
  ftlsim::test::gen_uniform(t, "--logical 8M --writes 1000");
  const std::string small = " --logical 8M --no-progress";
  for (const std::string kind : {"file", "folder", "symlink", "fifo"}) {
    const std::string base = tmp.file(kind);
    fs::create_directories(base);
    struct Case {
      std::string what, args;
    };
    const std::string img = base + "/t.img";
    const std::vector<Case> cases = {
        {"simulate", "--trace " + t + small},
        {"compare", "compare --trace " + t + small + " --b \"--placement fdp\""},
        {"qd-sweep", "qd-sweep --trace " + t + " " + kDevice + " --qd 1"},
        {"replay", "replay --no-progress --trace " + t + " --target " + img + " --create 8M"},
    };
    for (const Case& c : cases) {
      const std::string out = base + "/" + c.what;
      fs::create_directories(out);
      plant(out, kind, base + "/notes-" + c.what);
      const RunResult r = run_bounded(c.args + " --out " + out);
      INFO(kind << ", " << c.what << "\n" << r.output);
      CHECK(r.exit_code == 2);
      CHECK_THAT(r.output, Contains(std::string(kManifest) + " ("));
      check_planted(out, kind);
      CHECK(staging_in(base).empty());
      CHECK_FALSE(fs::exists(img));  // replay: refused before --create made it
      // Nothing else appeared in the folder either.
      std::set<std::string> names;
      for (const auto& e : fs::directory_iterator(out)) names.insert(e.path().filename().string());
      CHECK(names == std::set<std::string>{kManifest});
    }
    // sweep --force: a configuration folder's manifest replaced, so that
    // folder is no longer provably the earlier sweep's; nothing is removed.
    const std::string sw = base + "/sw";
    const std::string sweep = "--trace " + t + small + " --out " + sw + " --gc-thres ";
    REQUIRE(run_ftlsim(sweep + "60,80").exit_code == 0);
    fs::remove(sw + "/gc-thres=80/" + kManifest);
    plant(sw + "/gc-thres=80", kind, base + "/notes-sweep");
    const RunResult r = run_bounded(sweep + "60,70 --force");
    INFO(kind << ", sweep --force\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("gc-thres=80/" + std::string(kManifest) + " ("));
    check_planted(sw + "/gc-thres=80", kind);
    CHECK(fs::exists(sw + "/gc-thres=60/summary.json"));
    CHECK(fs::exists(sw + "/gc-thres=80/summary.json"));
    CHECK(fs::exists(sw + "/sweep.csv"));
    CHECK(staging_in(sw).empty());
  }
}
