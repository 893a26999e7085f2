// A trace that shrinks, grows or is rewritten while a
// sweep reads it leaves the rows from the change on `missing` (never an
// `error` with a record error made up by the zeros of a lost page), the one
// error line is the documented "the file changed while ftlsim was reading
// it", and rerunning the command once the trace is restored runs them. An
// `error` row that is not a result (a changed input) is never carried over,
// and --force reruns a sweep's error rows. compare checks its trace too.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_run.h"

using namespace ftlsim;
using Catch::Contains;
using test::run_ftlsim;
using test::run_shell;
using test::slurp;
using test::TempDir;

namespace {

const std::string kSweepDevice = "--channels 8 --luns 1 --blocks 64 --pages 32 --logical 12M --no-progress";
// The sweep must still run when the trace changes (0.3 s after its
// sweep.csv appears, sweep_while below): 1M records make each of its 40
// configurations about 10 ms in the release build. A sanitizer build runs
// them 10 to 40 times slower, so there a quarter of the records still
// leaves seconds of sweep after the change, in a quarter of the test's time.
const std::string kGen = std::string("gen --pattern uniform --logical 12M --writes ") +
                         (FTLSIM_BINARY_SANITIZED ? "250000" : "1000000") + " --seed 9 -o ";

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  size_t at = 0;
  for (size_t nl; (nl = s.find('\n', at)) != std::string::npos; at = nl + 1) out.push_back(s.substr(at, nl - at));
  return out;
}

size_t rows_with(const std::string& csv, const std::string& status) {
  const auto rows = lines_of(csv);
  if (rows.empty()) return 0;
  return static_cast<size_t>(std::count_if(rows.begin() + 1, rows.end(), [&](const std::string& r) {
    return r.find("," + status + ",") != std::string::npos;
  }));
}

// Runs the sweep in the background and applies `change` to the trace once
// the sweep has started (its first sweep.csv is written after the trace's
// fingerprint) and 0.3 s more (a few of the 40 configurations are done).
test::RunResult sweep_while(const std::string& trace, const std::string& out, const std::string& change) {
  const std::string cmd = std::string("sh -c '") + FTLSIM_BINARY + " --trace " + trace + " " + kSweepDevice +
                          " --gc-thres 50:89:1 -j 1 --out " + out + " & pid=$!; while [ ! -f " + out +
                          "/sweep.csv ] && kill -0 $pid; do sleep 0.05; done; sleep 0.3; " + change +
                          "; wait $pid; echo exit=$?'";
  return run_shell("timeout -k 5 300 " + cmd);
}

// t.ftr (kGen's records) in `tmp`, and kept.ftr, an untouched copy to restore it from.
std::pair<std::string, std::string> trace_and_copy(const TempDir& tmp) {
  const std::string trace = tmp.file("t.ftr");
  REQUIRE(run_ftlsim(kGen + trace).exit_code == 0);
  const std::string kept = tmp.file("kept.ftr");
  std::filesystem::copy_file(trace, kept);
  return {trace, kept};
}

}  // namespace

TEST_CASE("a trace that changes during a sweep leaves missing rows, and the rerun completes them", "[cli][hostile]") {
  const TempDir tmp("changed-sweep");
  const auto [trace, kept] = trace_and_copy(tmp);
  // The reference: the same sweep, undisturbed.
  const std::string ref = tmp.file("ref");
  REQUIRE(run_ftlsim("--trace " + kept + " " + kSweepDevice + " --gc-thres 50:89:1 -j 1 --out " + ref).exit_code == 0);
  const std::vector<std::pair<std::string, std::string>> changes = {
      {"shrinks", "truncate -s 65536 " + trace},
      {"grows", "head -c 4096 /dev/zero >> " + trace},
      {"is rewritten", "dd if=/dev/urandom of=" + trace + " bs=4096 seek=100 count=1 conv=notrunc status=none"},
  };
  for (const auto& [what, change] : changes) {
    INFO("the trace " << what);
    const std::string out = tmp.file("out-" + what.substr(0, 2));  // sh, gr, is
    const test::RunResult r = sweep_while(trace, out, change);
    INFO(r.output);
    CHECK_THAT(r.output, Contains("exit=2"));
    CHECK_THAT(r.output, Contains("ftlsim: error: " + trace + ": the file changed while ftlsim was reading it"));
    CHECK_THAT(r.output, Contains("marked missing): restore the trace and rerun the same command to resume"));
    const std::string csv = slurp(out + "/sweep.csv");
    CHECK(rows_with(csv, "error") == 0);
    CHECK(rows_with(csv, "missing") > 0);
    CHECK(csv.find("record") == std::string::npos);  // no record error made up
    // Restored, the same command resumes and gives the undisturbed sweep.
    std::filesystem::copy_file(kept, trace, std::filesystem::copy_options::overwrite_existing);
    const test::RunResult again =
        run_ftlsim("--trace " + trace + " " + kSweepDevice + " --gc-thres 50:89:1 -j 1 --out " + out);
    INFO(again.output);
    CHECK(again.exit_code == 0);
    CHECK(rows_with(slurp(out + "/sweep.csv"), "done") == 40);
    // Same rows as the reference (config_key hashes the records: equal).
    CHECK(slurp(out + "/sweep.csv") == slurp(ref + "/sweep.csv"));
  }
}

TEST_CASE("error rows from a changed input are rerun, and --force reruns every error row", "[cli][hostile]") {
  const TempDir tmp("changed-rows");
  const std::string trace = tmp.file("t.ftr");
  ftlsim::test::gen_uniform(trace, "--logical 12M --writes 20000 --seed 9");
  const std::string out = tmp.file("out");
  const std::string sweep = "--trace " + trace + " " + kSweepDevice + " --gc-thres 60,70 -j 1 --out " + out;
  REQUIRE(run_ftlsim(sweep).exit_code == 0);
  const std::string good = slurp(out + "/sweep.csv");
  // What earlier versions stored for a trace that shrank under the sweep:
  // an error row with a made-up record error (rows 1 and 2 of sweep.csv).
  const auto mark_error = [&](size_t row, const std::string& error) {
    std::vector<std::string> rows = lines_of(slurp(out + "/sweep.csv"));
    const auto columns = static_cast<size_t>(std::count(rows[0].begin(), rows[0].end(), ',')) + 1;
    const std::string& r = rows[row];
    const std::string id = r.substr(0, r.find(','));
    const std::string value = r.substr(id.size() + 1, r.find(',', id.size() + 1) - id.size() - 1);
    // config_id, gc-thres, empty result cells, error, status error, the same config_key.
    rows[row] = id + "," + value + std::string(columns - 5 + 1, ',') + error + ",error" + r.substr(r.rfind(','));
    std::filesystem::remove_all(out + "/" + id);
    std::string text;
    for (const std::string& l : rows) text += l + "\n";
    std::ofstream(out + "/sweep.csv") << text;
  };
  mark_error(1, trace + ": the file changed while ftlsim was reading it (it shrank while mapped)");
  test::RunResult r = run_ftlsim(sweep);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(slurp(out + "/sweep.csv") == good);

  mark_error(2, trace + ": record 2056: zero-length write");
  r = run_ftlsim(sweep);  // a record error of the same trace is a result: kept
  CHECK(r.exit_code == 2);
  CHECK(rows_with(slurp(out + "/sweep.csv"), "error") == 1);
  r = run_ftlsim(sweep + " --force");  // --force runs it again
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(slurp(out + "/sweep.csv") == good);
}

TEST_CASE("compare (either trace) and qd-sweep refuse results of a trace that grew while they ran", "[cli][hostile]") {
  const TempDir tmp("changed-compare");
  const auto [trace, kept] = trace_and_copy(tmp);
  for (const std::string& command : {"compare --trace " + trace + " " + kSweepDevice +
                                         " --a \"--gc-thres 60 --timing\" --b \"--gc-thres 70 --timing\"",
                                     // side b's own trace (--trace-b) is watched as side a's is
                                     "compare --trace " + kept + " --trace-b " + trace + " " + kSweepDevice +
                                         " --a \"--gc-thres 60 --timing\" --b \"--gc-thres 70 --timing\"",
                                     "qd-sweep --trace " + trace + " " + kSweepDevice + " --qd 1:8:1 -j 1"}) {
    INFO(command);
    std::filesystem::copy_file(kept, trace, std::filesystem::copy_options::overwrite_existing);
    // Changed once ftlsim has mapped the trace (so after it read its size).
    const std::string cmd =
        std::string("sh -c '") + FTLSIM_BINARY + " " + command +
        " & pid=$!; until grep -qF /t.ftr /proc/$pid/maps || ! kill -0 $pid; do sleep 0.02; done; sleep 0.1; "
        "head -c 4096 /dev/zero >> " +
        trace + "; wait $pid; echo exit=$?'";
    const test::RunResult r = run_shell("timeout -k 5 300 " + cmd);
    INFO(r.output);
    CHECK_THAT(r.output, Contains("exit=2"));
    CHECK_THAT(r.output, Contains(trace + ": the file changed while ftlsim was reading it (its size went from"));
  }
}
