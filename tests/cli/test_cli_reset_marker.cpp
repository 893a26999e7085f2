// --reset-at KIND:M with no marker M in the trace is refused before the run
// (exit 2, one line saying which markers the trace has): the reset would
// never happen and every counter would count the whole trace, which used to
// pass silently (only summary.json's "reset_record": null told).
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

TEST_CASE("reset-at a marker the trace lacks is refused before the run, in every command", "[cli]") {
  const TempDir dir("reset-marker");
  const std::string hc = dir.file("hc.ftr");  // markers 100, 200, ..., 2000 (one per 100 writes)
  REQUIRE(run_ftlsim("gen --pattern hotcold --logical 8M --writes 2000 --markers 100 -o " + hc).exit_code == 0);
  const std::string plain = ftlsim::test::uniform_trace(dir, "u.ftr", "--logical 8M --writes 200");
  const std::string out = dir.file("out");
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"--trace " + hc + " " + kDevice + " --reset-at device:7",
       hc + ": --reset-at device:7: the trace has no marker of value 7 (its 20 markers have values 100 to 2000)"},
      {"--trace " + hc + " " + kDevice + " --reset-at counters:18446744073709551615",
       "no marker of value 18446744073709551615 (its 20 markers"},
      {"--trace " + plain + " " + kDevice + " --reset-at device:0",
       plain + ": --reset-at device:0: the trace has no marker of value 0 (it has no marker records)"},
      {"--trace " + hc + " " + kDevice + " --gc-thres 60,70 --reset-at device:7", "no marker of value 7"},
      {"compare --trace " + hc + " " + kDevice + " --reset-at device:7 --b \"--gc-thres 60\"", "no marker of value 7"},
      {"compare --trace " + hc + " --trace-b " + plain + " " + kDevice + " --reset-at device:100 --b \"--gc-thres 60\"",
       plain + ": --reset-at device:100: the trace has no marker of value 100"},
  };
  for (const auto& [args, message] : rows) {
    const auto r = run_ftlsim(args + " --out " + out);
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains(message));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    CHECK_FALSE(std::filesystem::exists(out));
  }
  // A marker the trace holds resets there.
  const auto ok = run_ftlsim("--trace " + hc + " " + kDevice + " --reset-at device:1000 --out " + out);
  INFO(ok.output);
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ftlsim::test::slurp(out + "/summary.json"), Catch::Contains("\"reset_record\": "));
  CHECK_THAT(ftlsim::test::slurp(out + "/summary.json"), !Catch::Contains("\"reset_record\": null"));
}
