// Results are kept, replaced and resumed by their config_key, which holds
// the build that computed them: the ftlsim version and the digest of its
// sources (core/build_identity.h). Results another build computed are
// another configuration: a sweep is not resumed from them, a single run or
// a comparison does not keep them as its own, and each refusal (exit 2,
// before anything is written) names the build that wrote them and this one.
// Issue #22, the hostile rerun's W5: a sweep resumed rows an earlier commit
// of the same version 0.1.0 had computed with another confdp --gc-spill
// rule (its WAFs kept, exit 0).
//
// The folders in data/other_build were written by an earlier build (its
// README says which and how).
#include <fcntl.h>
#include <sys/stat.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/cli_run.h"

using Catch::Contains;
using ftlsim::test::run_ftlsim;
using ftlsim::test::RunResult;
using ftlsim::test::slurp;
using ftlsim::test::TempDir;

namespace {

namespace fs = std::filesystem;

const std::string kData = std::string(FTLSIM_SOURCE_DIR) + "/tests/cli/data/other_build";
const std::string kIdentityDevice = "--channels 8 --luns 1 --blocks 64 --pages 32 --op 0.25 --no-progress";

// A manifest proving the entries `names` of `dir` (the format of
// core/output_set.cpp: a name ending in / is a folder), as the run that
// wrote them left it (a copy of the folder keeps no inode numbers, so the
// test writes it).
void prove(const std::string& dir, const std::vector<std::string>& names) {
  std::string text = "ftlsim output set 1\n";
  for (const std::string& n : names) {
    if (n.back() == '/') {
      text += "d 0 0 0 " + n.substr(0, n.size() - 1) + "\n";
      continue;
    }
    struct statx sx {};
    REQUIRE(::statx(AT_FDCWD, (dir + "/" + n).c_str(), AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_SIZE | STATX_CTIME,
                    &sx) == 0);
    text += fmt::format("f {} {} {} {}\n", sx.stx_ino, sx.stx_size,
                        static_cast<uint64_t>(sx.stx_ctime.tv_sec) * 1000000000ULL + sx.stx_ctime.tv_nsec, n);
  }
  ftlsim::test::put(dir + "/.ftlsim_manifest", text);
}

// This build's "ftlsim X (sources D)", from --version.
std::string this_build() {
  const RunResult r = run_ftlsim("--version");
  REQUIRE(r.exit_code == 0);
  return r.output.substr(0, r.output.find('\n'));
}

}  // namespace

TEST_CASE("results another build wrote are another configuration: refused, naming that build", "[cli]") {
  const TempDir tmp("build-identity");
  fs::copy(kData, tmp.file("d"), fs::copy_options::recursive);
  const std::string d = tmp.file("d");
  const std::string t = d + "/t.ftr";
  const std::string build = this_build();
  REQUIRE_THAT(build, Catch::Matches("ftlsim [0-9.]+ \\(sources [0-9a-f]{16}\\)"));
  const std::string digest = build.substr(build.size() - 17, 16);
  const std::string other = "written by ftlsim 0.1.0 from before the sources were recorded";

  SECTION("a sweep is not resumed from its rows; --force replaces them with this build's") {
    const std::string sw = d + "/sw";
    const std::string before = slurp(sw + "/sweep.csv");
    const std::string sweep = "--trace " + t + " " + kIdentityDevice + " --gc-thres 60,70 -j 1 --out " + sw;
    const RunResult r = run_ftlsim(sweep);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("holds another sweep (2 configurations in its sweep.csv, " + other));
    CHECK_THAT(r.output, Contains("this is " + build));
    CHECK_THAT(r.output, Contains("or --force to replace it"));
    CHECK_THAT(r.output, !Contains("resumed"));
    CHECK(slurp(sw + "/sweep.csv") == before);
    for (const char* c : {"gc-thres=60", "gc-thres=70"}) prove(sw + "/" + c, {"summary.json"});
    const RunResult forced = run_ftlsim(sweep + " --force");
    INFO(forced.output);
    CHECK(forced.exit_code == 0);
    CHECK_THAT(forced.output, !Contains("resumed"));
    CHECK_THAT(slurp(sw + "/gc-thres=60/summary.json"), Contains("\"ftlsim_sources\": \"" + digest + "\""));
    CHECK(slurp(sw + "/sweep.csv") != before);
    // This build's own rows resume.
    const RunResult again = run_ftlsim(sweep);
    INFO(again.output);
    CHECK(again.exit_code == 0);
    CHECK_THAT(again.output, Contains("resumed    2 of 2 configurations were complete"));
  }
  SECTION("a single run does not take its results for its own") {
    const std::string one = d + "/one";
    prove(one, {"summary.json"});
    const std::string before = slurp(one + "/summary.json");
    const std::string run = "--trace " + t + " " + kIdentityDevice + " --out " + one;
    const RunResult r = run_ftlsim(run);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("holds results " + other));
    CHECK_THAT(r.output, Contains("this is " + build));
    CHECK(slurp(one + "/summary.json") == before);
    const RunResult forced = run_ftlsim(run + " --force");
    INFO(forced.output);
    CHECK(forced.exit_code == 0);
    CHECK_THAT(slurp(one + "/summary.json"), Contains("\"ftlsim_sources\": \"" + digest + "\""));
    CHECK(run_ftlsim(run).exit_code == 0);
  }
  SECTION("a comparison does not take its results for its own") {
    const std::string cmp = d + "/cmp";
    prove(cmp, {"a/", "a/summary.json", "b/", "b/summary.json", "compare.csv"});
    const std::string before = slurp(cmp + "/a/summary.json");
    const std::string run =
        "compare --trace " + t + " " + kIdentityDevice + " --a \"--gc-thres 60\" --b \"--gc-thres 70\" --out " + cmp;
    const RunResult r = run_ftlsim(run);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("holds results " + other));
    CHECK_THAT(r.output, Contains("this is " + build));
    CHECK(slurp(cmp + "/a/summary.json") == before);
  }
}
