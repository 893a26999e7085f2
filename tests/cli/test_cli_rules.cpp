// --rules femu|confdp end to end: the rule set is the named options it sets,
// each option overrides it, summary.json records every rule, the confdp
// presets derive their lines from the thresholds, --reset-at, and the
// configurations refused with a reason.
#include <catch2/catch.hpp>

#include <algorithm>

#include "cli_run.h"
#include "trace/ftr_writer.h"

using namespace ftlsim;
using test::kDevice;
using test::kLogicalSlots;
using test::run_ftlsim;
using test::slurp;

namespace {

// Fill, then overwrites with trims and a marker every 1000 records; two
// placement IDs, one of them (0x0105) invalid for 8 handles.
void write_trace(const std::string& path, uint64_t logical_slots) {
  trace::FtrWriter w(path, trace::TraceMeta{});
  uint64_t t = 0;
  for (uint64_t s = 0; s < logical_slots; ++s) w.append({t++, s * 8, 8, 1, static_cast<uint8_t>(trace::Op::kWrite), 0});
  uint64_t x = 99;
  for (uint64_t i = 0; i < 4 * logical_slots; ++i) {
    if (i % 1000 == 0) w.append({t, i / 1000, 0, 0, static_cast<uint8_t>(trace::Op::kMarker), 0});
    x = test::lcg_next(x);
    const uint64_t slot = (x >> 33) % (logical_slots - 4);
    if (i % 7 == 0) {
      w.append({t++, slot * 8, 24, 0, static_cast<uint8_t>(trace::Op::kTrim), 0});
    } else {
      w.append({t++, slot * 8, 8, static_cast<uint16_t>(i % 3 == 0 ? 0x0105 : 2),
                static_cast<uint8_t>(trace::Op::kWrite), 0});
    }
  }
  w.finish();
}

}  // namespace

TEST_CASE("rules confdp is the named options it sets, each overridable, all in summary.json", "[cli]") {
  test::TempDir dir("rules");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, kLogicalSlots);
  // 64 lines, 8 handles open: --gc-thres-high 95 holds back 3, leaving 53 lines for 51.2 of data.
  const std::string base = "--trace " + tr + " " + kDevice + " --placement fdp --gc-thres 75 --gc-thres-high 95";
  const auto rules = run_ftlsim(base + " --rules confdp --out " + dir.file("rules"));
  REQUIRE(rules.exit_code == 0);
  const std::string j = slurp(dir.file("rules/summary.json"));
  for (const char* field :
       {"\"rules\": \"confdp\"", "\"gc_order\": \"page\"", "\"forced_passes\": 5", "\"rg_gc\": \"every\"",
        "\"trim_range\": \"plus-one\"", "\"pi_gc\": \"host-ru\"", "\"rg_split\": \"channels\"",
        "\"declined\": \"keep\"", "\"pid_format\": \"confdp\"", "\"single\": \"handle0\"", "\"sizing\": \"lines\"",
        "\"write_spill\": \"nearest\"", "\"gc_spill\": \"nearest\""}) {
    CHECK_THAT(j, Catch::Contains(field));
  }
  // The same rules given one by one under --rules femu: the same run.
  const auto named = run_ftlsim(base +
                                " --gc-order page --declined keep --forced-passes 5 --rg-gc every "
                                "--trim-range plus-one --pi-gc host-ru --rg-split channels --pid-format confdp "
                                "--single handle0 --rg-of pid --write-spill nearest --gc-spill nearest --out " +
                                dir.file("named"));
  REQUIRE(named.exit_code == 0);
  CHECK(slurp(dir.file("named/timeseries.csv")) == slurp(dir.file("rules/timeseries.csv")));
  // FEMU's rules give another run; an option given overrides its rule.
  const auto femu = run_ftlsim(base + " --out " + dir.file("femu"));
  REQUIRE(femu.exit_code == 0);
  CHECK(slurp(dir.file("femu/timeseries.csv")) != slurp(dir.file("rules/timeseries.csv")));
  const auto over = run_ftlsim(base + " --rules confdp --gc-order block --out " + dir.file("over"));
  REQUIRE(over.exit_code == 0);
  CHECK_THAT(slurp(dir.file("over/summary.json")), Catch::Contains("\"gc_order\": \"block\""));
  CHECK_THAT(slurp(dir.file("over/summary.json")), Catch::Contains("\"trim_range\": \"plus-one\""));
  // Sweepable: both rule sets in one sweep give the two runs above.
  const auto sweep = run_ftlsim(base + " --rules femu,confdp -j 1 --out " + dir.file("sweep"));
  REQUIRE(sweep.exit_code == 0);
  CHECK(slurp(dir.file("sweep/rules=confdp/timeseries.csv")) == slurp(dir.file("rules/timeseries.csv")));
  CHECK(slurp(dir.file("sweep/rules=femu/timeseries.csv")) == slurp(dir.file("femu/timeseries.csv")));
}

// Several reclaim groups under ConfFDP's rules (docs/model.md rules 3, 6,
// 9): 8 channels, 2 RGs of 4 channels. The fill (pid 1: handle 1, RG 0) is
// more than RG 0 holds (64 units of 128 pages, 3 held back, 8 open: 53 x
// 128 = 6784 pages of 13107), so writes move to RG 1 once RG 0 is at its
// high threshold: with `write-spill` stay, RG 0 runs out of free units.
TEST_CASE("rules confdp with several reclaim groups: RGs of whole channels, writes and copies moved", "[cli]") {
  test::TempDir dir("rules_rgs");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, kLogicalSlots);
  const std::string base = "--trace " + tr + " " + kDevice + " --placement fdp --gc-thres 75 --gc-thres-high 95 --rg 2";
  const auto rules = run_ftlsim(base + " --rules confdp --out " + dir.file("rules"));
  REQUIRE(rules.exit_code == 0);
  const std::string j = slurp(dir.file("rules/summary.json"));
  for (const char* field : {"\"reclaim_groups\": 2", "\"rg_split\": \"channels\"", "\"rg_of\": \"pid\"",
                            "\"write_spill\": \"nearest\"", "\"gc_spill\": \"nearest\""}) {
    CHECK_THAT(j, Catch::Contains(field));
  }
  CHECK_THAT(rules.output, Catch::Contains("2 reclaim group(s) of channels"));
  CHECK_THAT(rules.output, Catch::Contains("rg spill"));
  const auto named = run_ftlsim(base +
                                " --gc-order page --declined keep --forced-passes 5 --rg-gc every "
                                "--trim-range plus-one --pi-gc host-ru --rg-split channels --pid-format confdp "
                                "--single handle0 --rg-of pid --write-spill nearest --gc-spill nearest --out " +
                                dir.file("named"));
  REQUIRE(named.exit_code == 0);
  CHECK(slurp(dir.file("named/timeseries.csv")) == slurp(dir.file("rules/timeseries.csv")));
  const auto dies = run_ftlsim(base + " --rules confdp --rg-split dies --out " + dir.file("dies"));
  REQUIRE(dies.exit_code == 0);
  CHECK_THAT(slurp(dir.file("dies/summary.json")), Catch::Contains("\"rg_split\": \"dies\""));
  const auto stay = run_ftlsim(base + " --rules confdp --write-spill stay --out " + dir.file("stay"));
  CHECK(stay.exit_code != 0);
  CHECK_THAT(stay.output, Catch::Contains("reclaim group 0 ran out of free units"));
}

// ConfFDP's sizing by hand (docs/model.md): 512 MiB at scale 128 is 64 GiB;
// at 60%: 65536 x 100 / 60 = 109226 MiB, / 64 dies = 1706, / 16 MiB = 106
// lines, thresholds (int)(0.4 x 106) = 42 and (int)(0.2 x 106) = 21; at 65%:
// 100824, 1575, 98 lines, (int)(0.35 x 98) = 34 and 19.
TEST_CASE("confdp presets derive their lines from the thresholds", "[cli]") {
  test::TempDir dir("confdp_preset");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, kLogicalSlots);
  const std::string base = "--trace " + tr + " --preset confdp-eth-512m --no-progress";
  const auto a = run_ftlsim(base + " --gc-thres 60 --gc-thres-high 80 --out " + dir.file("a"));
  REQUIRE(a.exit_code == 0);
  const std::string ja = slurp(dir.file("a/summary.json"));
  CHECK_THAT(ja, Catch::Contains("\"lines\": 106"));
  CHECK_THAT(ja, Catch::Contains("\"thres_units\": 42"));
  CHECK_THAT(ja, Catch::Contains("\"thres_units_high\": 21"));
  CHECK_THAT(ja, Catch::Contains("\"sizing\": \"thres:128\""));
  CHECK_THAT(ja, Catch::Contains("\"logical_bytes\": 536870912"));
  const auto b = run_ftlsim(base + " --gc-thres 65 --gc-thres-high 81 --out " + dir.file("b"));
  REQUIRE(b.exit_code == 0);
  const std::string jb = slurp(dir.file("b/summary.json"));
  CHECK_THAT(jb, Catch::Contains("\"lines\": 98"));
  CHECK_THAT(jb, Catch::Contains("\"thres_units\": 34"));
  // The FEMU preset keeps its 98 lines under FEMU's rules, and is sized from
  // the threshold under ConfFDP's.
  const auto c = run_ftlsim("--trace " + tr +
                            " --preset femu-eth-512m --gc-thres 60 --gc-thres-high 80 "
                            "--rules confdp --no-progress --out " +
                            dir.file("c"));
  REQUIRE(c.exit_code == 0);
  CHECK_THAT(slurp(dir.file("c/summary.json")), Catch::Contains("\"lines\": 106"));
}

TEST_CASE("reset-at counts from a marker, and a marker that never comes is refused", "[cli]") {
  test::TempDir dir("reset");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, kLogicalSlots);
  const std::string base = "--trace " + tr + " " + kDevice;
  const auto whole = run_ftlsim(base + " --out " + dir.file("whole"));
  const auto dev = run_ftlsim(base + " --reset-at device:20 --out " + dir.file("dev"));
  const auto cnt = run_ftlsim(base + " --reset-at counters:20 --out " + dir.file("cnt"));
  const auto never = run_ftlsim(base + " --reset-at device:999999 --out " + dir.file("never"));
  REQUIRE(whole.exit_code == 0);
  REQUIRE(dev.exit_code == 0);
  REQUIRE(cnt.exit_code == 0);
  CHECK(never.exit_code == 2);  // it used to reset nothing, exit 0 (test_cli_reset_marker.cpp)
  CHECK_THAT(never.output, Catch::Contains("the trace has no marker of value 999999"));
  // Marker 20 comes after the fill (13107 records) and 20000 overwrites.
  const std::string jd = slurp(dir.file("dev/summary.json"));
  const std::string jc = slurp(dir.file("cnt/summary.json"));
  CHECK_THAT(jd, Catch::Contains("\"reset_record\": 33127"));  // 13107 + 20000 records + markers 0..19
  CHECK_THAT(jc, Catch::Contains("\"reset_record\": 33127"));
  CHECK_FALSE(std::filesystem::exists(dir.file("never")));
  CHECK_THAT(slurp(dir.file("whole/summary.json")), Catch::Contains("\"reset_record\": null"));
  CHECK(slurp(dir.file("dev/timeseries.csv")) != slurp(dir.file("cnt/timeseries.csv")));
}

TEST_CASE("rule options refuse bad values and configurations ConfFDP cannot run, in one line", "[cli]") {
  test::TempDir dir("rules_bad");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, kLogicalSlots);
  const std::string base = "--trace " + tr;
  const std::vector<std::pair<std::string, std::string>> table = {
      {" " + kDevice + " --rules moatlab", "--rules: 'moatlab' is not femu"},
      // ConfFDP's RGs are whole channels or LUN shares of one: 8 channels x 1 LUN split 3 or 16 ways is neither.
      {" " + kDevice + " --rules confdp --placement fdp --rg 3", "--rg 3: 8 channels x 1 LUNs cannot be split"},
      {" " + kDevice + " --rules confdp --placement fdp --rg 16", "(--rg-split channels, ConfFDP's rg2physical)"},
      {" " + kDevice + " --placement fdp --rg 2 --write-spill nearest", "it needs --rg-of pid (not current)"},
      {" " + kDevice + " --rules confdp --placement fdp --rg 2 --gc-check page",
       "cannot be combined with --gc-check page"},
      {" " + kDevice + " --write-spill far", "--write-spill: 'far'"},
      {" " + kDevice + " --rg-split lanes", "--rg-split: 'lanes' is not one of lines"},
      {" " + kDevice + " --sizing thres", "cannot be combined with --blocks"},
      {" --preset femu-eth-512m --sizing thres --no-progress", "whole MiB"},
      {" " + kDevice + " --forced-passes 0", "--forced-passes: '0'"},
      {" " + kDevice + " --gc-order column", "--gc-order: 'column'"},
      {" " + kDevice + " --reset-at block:3", "--reset-at: 'block:3'"},
      {" --preset confdp-eth-512m --channels 0 --no-progress", "--channels must be at least 1"},
      {" --preset confdp-eth-512m --pages 0 --no-progress", "pages"},
      {" " + kDevice + " --reset-at device:x", "--reset-at"},
      {" " + kDevice + " --pid-format tp4146", "--pid-format: 'tp4146' is not rgif"},
      {" " + kDevice + " --rg-of named", "--rg-of: 'named' is not one of current"},
      // 128 RGs take 8 RG bits (nvme_calc_rgif): 0xFFFF >> 8 = 255 < 256 handles.
      {" --channels 1 --luns 1 --blocks 1024 --pages 4 --op 0.25 --no-progress --placement fdp --rg 128 --ruh 256",
       "nvme_calc_rgif"},
      // 60/61 leaves 41 lines held back and 8 open of 106: 57 < 64 lines of data.
      {" --preset confdp-eth-512m --rules confdp --gc-thres 60 --gc-thres-high 61 --placement fdp --no-progress",
       "does not fit"},
  };
  test::expect_one_line_refusals(base, table, dir.file("out"));
}
