// The ftlsim binary end to end: the simulate command's outputs, determinism,
// and a clear one-line error with exit code 2 for bad input.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "cli_run.h"
#include "trace/ftr_writer.h"

using namespace ftlsim;
using test::kDevice;
using test::kLogicalSlots;
using test::run_ftlsim;
using test::slurp;

namespace {

// Fill then random overwrites of the small device, with markers and two pids.
void write_cli_trace(const std::string& path, uint64_t logical_slots) {
  trace::TraceMeta meta;
  meta.kv.emplace_back("source", "test_cli");
  meta.pid_names[0] = "hot";
  meta.pid_names[1] = "cold";
  trace::FtrWriter w(path, meta);
  uint64_t t = 0;
  for (uint64_t s = 0; s < logical_slots; ++s) {
    w.append({t++, s * 8, 8, 1, static_cast<uint8_t>(trace::Op::kWrite), 0});
  }
  uint64_t x = 12345;
  for (uint64_t i = 0; i < 6 * logical_slots; ++i) {
    if (i % 1000 == 0) w.append({t, i / 1000, 0, 0, static_cast<uint8_t>(trace::Op::kMarker), 0});
    x = test::lcg_next(x);
    w.append({t++, ((x >> 33) % logical_slots) * 8, 8, 0, static_cast<uint8_t>(trace::Op::kWrite), 0});
  }
  w.finish();
}

}  // namespace

TEST_CASE("simulate writes summary.json and timeseries.csv, byte-identical across runs", "[cli]") {
  test::TempDir dir("sim");
  const std::string tr = dir.file("t.ftr");
  write_cli_trace(tr, kLogicalSlots);
  const auto a = run_ftlsim("--trace " + tr + " " + kDevice + " --out " + dir.file("a"));
  REQUIRE(a.exit_code == 0);
  CHECK_THAT(a.output, Catch::Contains("WAF"));
  CHECK_THAT(a.output, Catch::Contains("gc onset   after"));
  const auto b = run_ftlsim("--trace " + tr + " " + kDevice + " --out " + dir.file("b"));
  REQUIRE(b.exit_code == 0);
  const std::string sa = slurp(dir.file("a/summary.json"));
  CHECK_THAT(sa, Catch::Contains("\"waf\": ") && Catch::Contains("\"gc_onset\": {") &&
                     Catch::Contains("\"name\": \"hot\"") && Catch::Contains("\"marker\": "));
  CHECK(sa == slurp(dir.file("b/summary.json")));
  const std::string ta = slurp(dir.file("a/timeseries.csv"));
  CHECK(ta == slurp(dir.file("b/timeseries.csv")));
  // 1% rows by default: about 100 rows plus the header.
  const auto rows = std::count(ta.begin(), ta.end(), '\n');
  CHECK(rows >= 100);
  CHECK(rows <= 103);
}

TEST_CASE("help lists every simulate option with defaults", "[cli]") {
  const auto r = run_ftlsim("--help");
  CHECK(r.exit_code == 0);
  for (const char* opt :
       {"--trace",      "--out",       "--preset",   "--channels", "--luns",     "--planes",        "--blocks",
        "--pages",      "--page-size", "--logical",  "--op",       "--gc-thres", "--gc-thres-high", "--victim",
        "--d-choices",  "--seed",      "--interval", "--wrap",     "info",       "convert",         "gen",
        "femu-default", "75",          "95"}) {
    CHECK_THAT(r.output, Catch::Contains(opt));
  }
}

// Each row: arguments, expected fragment of the one-line message. Every one
// must exit 2 with exactly one line on stderr and leave no output directory.
TEST_CASE("bad input and impossible configurations fail with one line and exit code 2", "[cli]") {
  test::TempDir dir("bad");
  const std::string tr = dir.file("t.ftr");
  write_cli_trace(tr, kLogicalSlots);
  {  // a truncated copy
    const std::string bytes = slurp(tr);
    std::ofstream(dir.file("trunc.ftr"), std::ios::binary) << bytes.substr(0, bytes.size() - 30);
    std::ofstream(dir.file("garbage.ftr"), std::ios::binary) << "this is not a trace at all\n";
  }
  const std::string out = " --out " + dir.file("out");
  const std::vector<std::pair<std::string, std::string>> table = {
      {"--no-progress", "--trace is required"},
      {"--trace " + dir.file("missing.ftr"), "missing.ftr"},
      {"--trace " + dir.file("trunc.ftr") + " " + kDevice, "trunc.ftr"},
      {"--trace " + dir.file("garbage.ftr") + " " + kDevice, "garbage.ftr"},
      {"--trace " + tr + " " + kDevice + " --gc-thres 150", "--gc-thres 150"},
      {"--trace " + tr + " " + kDevice + " --gc-thres 90 --gc-thres-high 80", "below --gc-thres"},
      {"--trace " + tr + " " + kDevice + " --gc-thres-high 99.9", "at least 1 is needed"},
      {"--trace " + tr + " --preset nope", "unknown preset 'nope'"},
      {"--trace " + tr + " " + kDevice + " --victim lru", "unknown policy 'lru'"},
      {"--trace " + tr + " " + kDevice + " --page-size 6K", "--page-size"},
      {"--trace " + tr + " " + kDevice + " --logical 10X", "--logical: '10X'"},
      {"--trace " + tr + " --channels 8 --luns 1 --blocks 64 --pages 32 --logical 64M", "not smaller than physical"},
      {"--trace " + tr + " --channels 8 --luns 1 --blocks 64 --pages 32 --op 0.5", "record "},
      {"--trace " + tr + " " + kDevice + " --interval 0", "--interval"},
      {"--trace " + tr + " --channels 0", "--channels must be at least 1"},
  };
  for (const auto& [args, expect] : table) {
    const auto r = run_ftlsim(args + out);
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains(expect));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    CHECK_FALSE(std::filesystem::exists(dir.file("out")));
  }
}

// Libraries name options as `name`, shown as --name (cli/flag_text.h); text
// that only looks like it, a trace path in backquotes, is printed as it is.
TEST_CASE("only option names in backquotes become flags (a trace path in backquotes is printed as given)", "[cli]") {
  test::TempDir dir("flag");
  const std::string tr = dir.file("run`abc`.ftr");
  ftlsim::test::gen_uniform(tr, "--logical 8M --writes 1000");
  const auto r = run_ftlsim("--trace '" + tr + "' " + test::kDevice);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("run`abc`.ftr (1000 records)"));
  CHECK_THAT(r.output, !Catch::Contains("--abc"));
  const auto bad = run_ftlsim("--trace '" + tr + "' --channels 0 --no-progress");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Catch::Contains("--channels must be at least 1"));
}

// The settings a message names are held apart from its text (core/message.h),
// so even a file name that is an option's name in backquotes is printed as
// given, in errors and in the report.
TEST_CASE("a file named like an option in backquotes is printed as given", "[cli]") {
  test::TempDir dir("flagname");
  const auto missing = run_ftlsim("info '" + dir.file("`force`") + "'");
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.output, Catch::Contains("`force`: ") && !Catch::Contains("--force"));
  const std::string tr = dir.file("`gc-thres`.ftr");
  ftlsim::test::gen_uniform(tr, "--logical 8M --writes 1000");
  const auto r = run_ftlsim("--trace '" + tr + "' " + test::kDevice);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("`gc-thres`.ftr (1000 records)") && !Catch::Contains("--gc-thres.ftr"));
  const auto bad = run_ftlsim("--trace '" + tr + "' --gc-thres 100 --no-progress");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Catch::Contains("--gc-thres 100 cannot switch background GC off: --gc-thres must not exceed "
                                         "--gc-thres-high"));
}

TEST_CASE("wrap option folds LBAs beyond the device instead of failing", "[cli]") {
  test::TempDir dir("wrap");
  const std::string tr = dir.file("t.ftr");
  write_cli_trace(tr, kLogicalSlots);
  // Half the logical space: the trace's LBAs run past it.
  const std::string small = "--channels 8 --luns 1 --blocks 64 --pages 32 --logical 25M --no-progress";
  const auto refused = run_ftlsim("--trace " + tr + " " + small);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.output, Catch::Contains("t.ftr: record ") && Catch::Contains("--wrap"));
  const auto wrapped = run_ftlsim("--trace " + tr + " " + small + " --wrap");
  CHECK(wrapped.exit_code == 0);
  CHECK_THAT(wrapped.output, Catch::Contains("folded into the device"));
}

TEST_CASE("ru-time-limit closes RUs early and reports the FDP events, sweepable, bad values refused", "[cli]") {
  test::TempDir dir("rutl");
  const std::string tr = dir.file("t.ftr");
  write_cli_trace(tr, kLogicalSlots);  // one record per ns
  const std::string base = "--trace " + tr + " " + kDevice + " --placement fdp --ruh 2 --no-progress";
  const auto off = run_ftlsim(base + " --out " + dir.file("off"));
  REQUIRE(off.exit_code == 0);
  CHECK_THAT(slurp(dir.file("off/summary.json")), Catch::Contains("\"ru_time_limit_ns\": null"));
  CHECK_THAT(slurp(dir.file("off/summary.json")), Catch::Contains("\"ru_not_fully_written\": 0"));
  CHECK_THAT(off.output, !Catch::Contains("fdp events"));
  const auto on = run_ftlsim(base + " --ru-time-limit 1us --out " + dir.file("on"));
  REQUIRE(on.exit_code == 0);
  CHECK_THAT(on.output, Catch::Contains("ru limit   an RU is closed 1.0us of trace time after its first host write"));
  CHECK_THAT(on.output, Catch::Contains("RUs closed before they were full (RU not fully written;"));
  const std::string json = slurp(dir.file("on/summary.json"));
  CHECK_THAT(json, Catch::Contains("\"ru_time_limit_ns\": 1000"));
  CHECK_THAT(json, !Catch::Contains("\"ru_not_fully_written\": 0,"));
  // Sweepable: a list gives one sweep.csv row per value with the event count.
  const auto sw = run_ftlsim(base + " --ru-time-limit off,1us -j 1 --out " + dir.file("sw"));
  REQUIRE(sw.exit_code == 0);
  const std::string csv = slurp(dir.file("sw/sweep.csv"));
  CHECK_THAT(csv, Catch::StartsWith("config_id,ru-time-limit,waf,"));
  CHECK_THAT(csv, Catch::Contains("ru_not_fully_written"));
  CHECK(slurp(dir.file("sw/ru-time-limit=off/summary.json")) == slurp(dir.file("off/summary.json")));
  for (const char* bad : {"0", "abc", "-5ms"}) {
    const auto r = run_ftlsim(base + " --ru-time-limit " + bad);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains("--ru-time-limit: '" + std::string(bad) + "' is neither off nor a duration"));
  }
}

TEST_CASE("pi-gc option chooses where persistently isolated survivors go, and is ignored for ii", "[cli]") {
  test::TempDir dir("pigc");
  const std::string tr = dir.file("t.ftr");
  write_cli_trace(tr, kLogicalSlots);
  const std::string base = "--trace " + tr + " " + kDevice + " --placement fdp --ruh 2 --no-progress";
  const auto host = run_ftlsim(base + " --ruh-type pi --pi-gc host-ru --out " + dir.file("host"));
  REQUIRE(host.exit_code == 0);
  CHECK_THAT(host.output, Catch::Contains("2 handles (pi)"));
  CHECK_THAT(host.output, Catch::Contains("pi survivors to host-ru"));
  CHECK_THAT(slurp(dir.file("host/summary.json")), Catch::Contains("\"pi_gc\": \"host-ru\""));
  const auto gc = run_ftlsim(base + " --ruh-type pi --out " + dir.file("gc"));
  REQUIRE(gc.exit_code == 0);
  CHECK_THAT(gc.output, Catch::Contains("pi survivors to gc-ru"));
  CHECK_THAT(slurp(dir.file("gc/summary.json")), Catch::Contains("\"pi_gc\": \"gc-ru\""));
  // Initially isolated handles have no survivor choice: the option changes nothing.
  const auto ii = run_ftlsim(base + " --ruh-type ii --out " + dir.file("ii"));
  const auto ii_host = run_ftlsim(base + " --ruh-type ii --pi-gc host-ru --out " + dir.file("ii_host"));
  REQUIRE(ii.exit_code == 0);
  REQUIRE(ii_host.exit_code == 0);
  CHECK_THAT(slurp(dir.file("ii/summary.json")), Catch::Contains("\"ruh_type\": \"ii\""));
  CHECK(slurp(dir.file("ii/timeseries.csv")) == slurp(dir.file("ii_host/timeseries.csv")));
  const auto bad = run_ftlsim(base + " --ruh-type pi --pi-gc both");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Catch::Contains("--pi-gc: 'both' is not gc-ru"));
}
