// Steady-state options end to end: --precondition, --repeat,
// --id-series and --gc-trigger through the binary (outputs, config keys,
// refusals in one line).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "cli_run.h"
#include "trace/ftr_writer.h"

using namespace ftlsim;
using test::kDevice;
using test::run_ftlsim;
using test::slurp;

namespace {

// 2000 random 4 KiB writes over the first 4000 slots, IDs 1 and 2, and 100
// reads of slots the trace never writes (8000-8099).
void write_steady_trace(const std::string& path) {
  trace::FtrWriter w(path, trace::TraceMeta{});
  uint64_t t = 0, x = 5;
  for (int i = 0; i < 2000; ++i) {
    x = test::lcg_next(x);
    w.append(
        {t++, ((x >> 33) % 4000) * 8, 8, static_cast<uint16_t>(1 + i % 2), static_cast<uint8_t>(trace::Op::kWrite), 0});
  }
  for (uint64_t s = 8000; s < 8100; ++s) w.append({t++, s * 8, 8, 0, static_cast<uint8_t>(trace::Op::kRead), 0});
  w.finish();
}

std::string config_key(const std::string& summary) {
  const size_t at = summary.find("\"config_key\": \"");
  return at == std::string::npos ? std::string() : summary.substr(at + 15, 16);
}

}  // namespace

TEST_CASE("precondition, repeat and id-series through the binary", "[cli]") {
  test::TempDir dir("steady");
  const std::string tr = dir.file("t.ftr");
  write_steady_trace(tr);
  const std::string base = "--trace " + tr + " " + kDevice;
  const auto plain = run_ftlsim(base + " --out " + dir.file("plain"));
  REQUIRE(plain.exit_code == 0);
  const std::string p = slurp(dir.file("plain/summary.json"));
  CHECK_THAT(p, Catch::Contains("\"precondition\": null") && Catch::Contains("\"passes\": null") &&
                    Catch::Contains("\"trigger\": \"femu\"") && Catch::Contains("\"unmapped_read_pages\": 100"));
  CHECK_FALSE(std::filesystem::exists(dir.file("plain/id_timeseries.csv")));

  const auto full = run_ftlsim(base + " --precondition seq --repeat 2 --id-series --out " + dir.file("full"));
  INFO(full.output);
  REQUIRE(full.exit_code == 0);
  CHECK_THAT(full.output, Catch::Contains("precond    seq: 51.20 MiB written (13107 pages) before the trace") &&
                              Catch::Contains("repeat     2 passes of the trace; WAF per pass ") &&
                              Catch::Contains(dir.file("full") + "/id_timeseries.csv"));
  const std::string f = slurp(dir.file("full/summary.json"));
  CHECK_THAT(f, Catch::Contains("\"mode\": \"seq\"") && Catch::Contains("\"mapped_bytes\": 53686272") &&
                    Catch::Contains("\"host_pages\": 4000") && Catch::Contains("\"unmapped_read_pages\": 0"));
  CHECK(std::count(f.begin(), f.end(), '{') > std::count(p.begin(), p.end(), '{'));  // the passes' objects
  const std::string ids = slurp(dir.file("full/id_timeseries.csv"));
  CHECK(ids.rfind("host_bytes,kind,id,name,id_host_bytes,id_gc_bytes,waf_share\n", 0) == 0);
  CHECK_THAT(ids, Catch::Contains(",pid,1,,") && Catch::Contains(",pid,2,,") && Catch::Contains(",precondition,,,") &&
                      Catch::Contains(",handle,0,ruh0,"));
  // Other keys than the plain run's; --precondition none, --repeat 1 and
  // --gc-trigger femu are the plain run (the same key as before they existed).
  CHECK(config_key(f) != config_key(p));
  const auto same = run_ftlsim(base + " --precondition none --repeat 1 --gc-trigger femu --out " + dir.file("same"));
  REQUIRE(same.exit_code == 0);
  CHECK(config_key(slurp(dir.file("same/summary.json"))) == config_key(p));
  const auto wm = run_ftlsim(base + " --gc-trigger watermark --out " + dir.file("wm"));
  REQUIRE(wm.exit_code == 0);
  CHECK_THAT(wm.output, Catch::Contains("watermark trigger (not FEMU's)"));
  CHECK(config_key(slurp(dir.file("wm/summary.json"))) != config_key(p));
  // A sweep over the trigger: one axis, two folders.
  const auto sweep = run_ftlsim(base + " --gc-trigger femu,watermark -j 2 --out " + dir.file("sw"));
  REQUIRE(sweep.exit_code == 0);
  CHECK_THAT(slurp(dir.file("sw/sweep.csv")), Catch::StartsWith("config_id,gc-trigger,waf,"));
}

TEST_CASE("precondition, repeat and gc-trigger refuse bad values in one line", "[cli]") {
  test::TempDir dir("steady_bad");
  const std::string tr = dir.file("t.ftr");
  write_steady_trace(tr);
  const std::string base = "--trace " + tr + " " + kDevice;
  const std::vector<std::pair<std::string, std::string>> table = {
      {" --gc-trigger lazy", "--gc-trigger: 'lazy' is not femu"},
      {" --precondition full", "--precondition: 'full' is not none, seq"},
      {" --repeat 0", "--repeat"},
      {" --repeat 2x", "--repeat"},
      {" --repeat 2 --timing", "--repeat works in fast mode only"},
      {" --repeat 2 --placement oracle", "--repeat cannot be combined with --placement oracle"},
      {" --precondition seq --reset-at device:1", "--precondition cannot be combined with --reset-at device"},
  };
  test::expect_one_line_refusals(base, table, dir.file("out"));
}
