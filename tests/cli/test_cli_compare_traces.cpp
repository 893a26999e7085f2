// `compare --trace-b`: side b on a trace of its own (as for two host modes
// captured as two traces). Side b's results are checked
// against a plain single run of its trace (another command's code path) and
// against the trace's writes counted here by hand; a bad second trace is
// refused with one line naming it, before anything is written.
#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cli_run.h"
#include "trace/ftr_writer.h"

using namespace ftlsim;
using Catch::Contains;
using test::kDevice;
using test::kLogicalSlots;
using test::run_ftlsim;
using test::slurp;

namespace {

// `writes` single-page writes over the first `span` slots, in order, round
// after round; pid 1 named `name`. Returns the number of records written.
uint64_t write_round_robin(const std::string& path, uint64_t span, uint64_t writes, const std::string& name) {
  trace::TraceMeta meta;
  meta.pid_names[1] = name;
  trace::FtrWriter w(path, meta);
  for (uint64_t i = 0; i < writes; ++i) {
    w.append({i, (i % span) * 8, 8, 1, static_cast<uint8_t>(trace::Op::kWrite), 0});
  }
  w.finish();
  return writes;
}

// The value after "key": in a JSON text (first occurrence), as text.
std::string json_value(const std::string& json, const std::string& key) {
  const std::string k = "\"" + key + "\": ";
  const size_t at = json.find(k);
  if (at == std::string::npos) return {};
  const size_t end = json.find_first_of(",\n}", at + k.size());
  return json.substr(at + k.size(), end - at - k.size());
}

size_t line_count(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("compare --trace-b: side b replays its own trace, as a plain run of that trace does", "[cli]") {
  test::TempDir dir("cmp-traces");
  const std::string ta = dir.file("a.ftr"), tb = dir.file("b.ftr");
  // Different traces: a fills the space 3 times, b rewrites half of it 5 times.
  const uint64_t writes_a = write_round_robin(ta, kLogicalSlots, 3 * kLogicalSlots, "cold");
  const uint64_t writes_b = write_round_robin(tb, kLogicalSlots / 2, 5 * kLogicalSlots, "wal");
  const std::string common = kDevice + " --gc-thres 70";
  const auto r = run_ftlsim("compare --trace " + ta + " --trace-b " + tb + " " + common +
                            " --a \"--placement single\" --b \"--placement fdp --ruh 2\" --out " + dir.file("c"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // Each side equals the default command on its own trace: the same summary.json, byte for byte (its
  // config_key included, which hashes the trace's records and every setting).
  const auto single_a = run_ftlsim("--trace " + ta + " " + common + " --placement single --out " + dir.file("sa"));
  const auto single_b = run_ftlsim("--trace " + tb + " " + common + " --placement fdp --ruh 2 --out " + dir.file("sb"));
  REQUIRE(single_a.exit_code == 0);
  REQUIRE(single_b.exit_code == 0);
  const std::string sum_a = slurp(dir.file("c/a/summary.json")), sum_b = slurp(dir.file("c/b/summary.json"));
  CHECK(sum_a == slurp(dir.file("sa/summary.json")));
  CHECK(sum_b == slurp(dir.file("sb/summary.json")));
  CHECK(slurp(dir.file("c/b/timeseries.csv")) == slurp(dir.file("sb/timeseries.csv")));
  CHECK(json_value(sum_b, "trace") == "\"" + tb + "\"");
  CHECK(json_value(sum_a, "config_key") != json_value(sum_b, "config_key"));
  // Host writes by hand: one 4 KiB page per record of each trace.
  CHECK(json_value(sum_a, "host_pages") == std::to_string(writes_a));
  CHECK(json_value(sum_b, "host_pages") == std::to_string(writes_b));
  const std::string csv = slurp(dir.file("c/compare.csv"));
  CHECK_THAT(csv,
             Contains("\nhost_bytes," + std::to_string(writes_a * 4096) + "," + std::to_string(writes_b * 4096) + ","));
  // Both traces named: the table's head, the PID names of each, compare.csv's last rows.
  CHECK_THAT(r.output, Contains("trace a    " + ta + " (" + std::to_string(writes_a) + " records)\ntrace b    " + tb +
                                " (" + std::to_string(writes_b) + " records)\nmetric"));
  CHECK_THAT(r.output, Contains("host writes PID 1 (cold / wal)"));
  // The ID names different data on each side: both amounts, no change (the
  // byte counts would give +67%).
  const std::string bytes_a = std::to_string(writes_a * 4096), bytes_b = std::to_string(writes_b * 4096);
  CHECK_THAT(csv, Contains("\nhost_bytes_pid_1," + bytes_a + "," + bytes_b + ",\n"));
  const size_t pid_row = r.output.find("host writes PID 1 (cold / wal)");
  REQUIRE(pid_row != std::string::npos);
  const std::string row = r.output.substr(pid_row, r.output.find('\n', pid_row) - pid_row);
  CHECK_THAT(row, Contains("153.60 MiB") && Contains("256.00 MiB") && !Contains("%"));
  CHECK_THAT(r.output, !Contains("device:"));  // one device on both sides
  CHECK_THAT(csv, !Contains("\nlogical_bytes,"));
  CHECK_THAT(csv, Contains("\ntrace," + ta + "," + tb + ",\ntrace_records," + std::to_string(writes_a) + "," +
                           std::to_string(writes_b) + ",\n"));

  // Without --trace-b both sides replay --trace: compare.csv names it twice.
  const auto one = run_ftlsim("compare --trace " + ta + " " + common +
                              " --a \"--placement single\" --b \"--placement fdp --ruh 2\" --out " + dir.file("d"));
  REQUIRE(one.exit_code == 0);
  CHECK_THAT(one.output, Contains("trace      " + ta + " ("));
  CHECK_THAT(slurp(dir.file("d/compare.csv")), Contains("\ntrace," + ta + "," + ta + ",\n"));
  CHECK(slurp(dir.file("d/a/summary.json")) == sum_a);
}

// --logical fit sizes each side to its own trace: 4000 and 2000 slots of
// footprint at fit:50% give 8000 and 4000 logical slots on kDevice's 16384
// physical ones (--pages given: no OP is kept), OP 16384/8000 - 1 = 1.048
// and 16384/4000 - 1 = 3.096.
TEST_CASE("compare: sides that simulated different devices show both devices", "[cli]") {
  test::TempDir dir("cmp-devices");
  const std::string ta = dir.file("a.ftr"), tb = dir.file("b.ftr");
  write_round_robin(ta, 4000, 12000, "a");
  write_round_robin(tb, 2000, 12000, "b");
  const auto r =
      run_ftlsim("compare --trace " + ta + " --trace-b " + tb + " " + kDevice +
                 " --logical fit:50% --a \"--placement single\" --b \"--placement single\" --out " + dir.file("c"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::string csv = slurp(dir.file("c/compare.csv"));
  CHECK_THAT(csv, Contains("\nlogical_bytes," + std::to_string(8000 * 4096) + "," + std::to_string(4000 * 4096) +
                           ",-50.000000\n"));
  CHECK_THAT(csv, Contains("\nphysical_bytes,67108864,67108864,0.000000\n"));
  CHECK_THAT(csv, Contains("\nover_provisioning,1.048000,3.096000,"));
  CHECK_THAT(csv, Contains("\nlines,64,64,0.000000\n"));
  CHECK_THAT(r.output, Contains("device: over-provisioning"));
  CHECK_THAT(r.output, Contains("104.8%"));
  CHECK_THAT(r.output, Contains("309.6%"));
}

TEST_CASE("compare: a handle's share changes only between sides with the same handles", "[cli]") {
  test::TempDir dir("cmp-handles");
  const std::string t = dir.file("t.ftr");
  write_round_robin(t, 4000, 12000, "wal");  // every write tagged pid 1
  // single (one handle, ruh0: all data) against fdp (8 handles, pid 1's
  // data in ruh1): ruh0's share 1 against 0 is no change of anything.
  const auto r = run_ftlsim("compare --trace " + t + " " + kDevice +
                            " --a \"--placement single\" --b \"--placement fdp\" --out " + dir.file("c"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::string csv = slurp(dir.file("c/compare.csv"));
  CHECK_THAT(csv, Contains("\nwaf_share_ruh0,1.000000,0.000000,\n"));
  CHECK_THAT(csv, Contains("\nwaf_share_ruh1,,1.000000,\n"));
  CHECK_THAT(r.output, !Contains("-100.0%"));
  // fdp on both sides (another threshold): the same handles, each changes.
  const auto s = run_ftlsim("compare --trace " + t + " " + kDevice +
                            " --placement fdp --a \"--gc-thres 60\" --b \"--gc-thres 70\" --out " + dir.file("d"));
  INFO(s.output);
  REQUIRE(s.exit_code == 0);
  const std::string csv2 = slurp(dir.file("d/compare.csv"));
  CHECK_THAT(csv2, Contains("\nwaf_share_ruh0,0.000000,0.000000,\n"));  // 0 against 0: no change either way
  CHECK_THAT(csv2, Contains("\nwaf_share_ruh1,1.000000,1.000000,0.000000\n"));
}

TEST_CASE("compare --trace-b: a bad second trace is refused with one line naming it, nothing written", "[cli]") {
  test::TempDir dir("cmp-traces-bad");
  const std::string ta = dir.file("a.ftr");
  write_round_robin(ta, kLogicalSlots, kLogicalSlots, "cold");
  const std::string missing = dir.file("missing.ftr"), junk = dir.file("junk.ftr");
  test::put(junk, "this is not a trace\n");
  const std::string big = dir.file("big.ftr");
  write_round_robin(big, 4 * kLogicalSlots, 4 * kLogicalSlots, "wal");  // beyond the logical space
  const std::string base = "compare --trace " + ta + " " + kDevice + " --a \"--placement single\" --b \"\" ";
  for (const auto& [trace_b, expect] : std::vector<std::pair<std::string, std::string>>{
           {missing, missing + ": "}, {junk, junk + ": "}, {big, big + ": record "}}) {
    const auto r = run_ftlsim(base + "--trace-b " + trace_b + " --out " + dir.file("out"));
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains(expect));
    CHECK(line_count(r.output) == 1);
    CHECK_FALSE(std::filesystem::exists(dir.file("out")));
  }
  // --out may not hold --trace-b (its contents are replaced as a whole).
  std::filesystem::create_directories(dir.file("o2"));
  const std::string inside = dir.file("o2/b.ftr");
  std::filesystem::copy_file(ta, inside);
  const auto r = run_ftlsim(base + "--trace-b " + inside + " --out " + dir.file("o2"));
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains("--trace-b"));
  CHECK(line_count(r.output) == 1);
  CHECK(slurp(inside) == slurp(ta));
}

TEST_CASE("tools/study_decomposition.sh: each row is a plain run of its trace and placement", "[cli]") {
  test::TempDir dir("cmp-decomposition");
  const std::string ta = dir.file("a.ftr"), tb = dir.file("b.ftr");
  write_round_robin(ta, kLogicalSlots, 3 * kLogicalSlots, "cold");
  // b: two IDs (1 and 2, alternating) over half the space, so fdp placement differs from single.
  {
    trace::TraceMeta meta;
    trace::FtrWriter w(tb, meta);
    for (uint64_t i = 0; i < 4 * kLogicalSlots; ++i) {
      const uint64_t slot = i % 2 == 0 ? (i / 2) % (kLogicalSlots / 2) : kLogicalSlots / 2 + (i / 2) % 97;
      w.append({i, slot * 8, 8, static_cast<uint16_t>(1 + i % 2), static_cast<uint8_t>(trace::Op::kWrite), 0});
    }
    w.finish();
  }
  const std::string common = kDevice + " --gc-thres 70";
  const std::string script = std::string(FTLSIM_SOURCE_DIR) + "/tools/study_decomposition.sh --ftlsim " +
                             FTLSIM_BINARY + " --nonfdp " + ta + " --fdp " + tb + " --out " + dir.file("d") + " -- ";
  const auto r = test::run_shell(script + common);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // The WAF and NAND bytes of a plain run (summary.json), as the table prints them.
  std::vector<double> nands;
  const auto waf = [&](const std::string& trace, const std::string& placement) {
    const std::string out = dir.file("p-" + std::to_string(std::hash<std::string>{}(trace + placement)));
    REQUIRE(run_ftlsim("--trace " + trace + " " + common + " --placement " + placement + " --out " + out).exit_code ==
            0);
    const std::string summary = slurp(out + "/summary.json");
    nands.push_back(std::stod(json_value(summary, "nand_bytes")));
    return std::stod(json_value(summary, "waf"));
  };
  const double base = waf(ta, "single");
  const std::vector<std::tuple<std::string, std::string, std::string>> rows = {
      {"non-FDP (the study's baseline)", ta, "single"},
      {"device effect alone", ta, "fdp"},
      {"host effect alone", tb, "single"},
      {"both (the study's FDP)", tb, "fdp"}};
  std::vector<double> wafs;
  for (const auto& [label, trace, placement] : rows) {
    const double w = waf(trace, placement);
    wafs.push_back(w);
    char text[160];
    if (label == std::get<0>(rows[0])) {
      std::snprintf(text, sizeof text, "%.4f", w);
    } else {
      char change[32];
      std::snprintf(change, sizeof change, "%+.1f%%", 100.0 * (w - base) / base);
      std::snprintf(text, sizeof text, "%.4f %7s", w, change);
    }
    std::string line;
    for (std::istringstream in(r.output); std::getline(in, line);) {
      if (line.rfind(label, 0) == 0) break;
    }
    INFO(label << ": " << line << " / expected " << text);
    CHECK_THAT(line, Contains(text));
    // NAND writes (host + GC) and their change from the baseline's
    const double nand = nands.back(), base_nand = nands.front();
    char nand_text[64];
    if (label == std::get<0>(rows[0])) {
      std::snprintf(nand_text, sizeof nand_text, "%.2f MiB", nand / (1 << 20));
    } else {
      char change[32];
      std::snprintf(change, sizeof change, "%+.1f%%", 100.0 * (nand - base_nand) / base_nand);
      std::snprintf(nand_text, sizeof nand_text, "%.2f MiB %7s", nand / (1 << 20), change);
    }
    INFO("NAND writes: expected " << nand_text);
    CHECK_THAT(line, Contains(nand_text));
  }
  CHECK(wafs[2] != wafs[3]);  // b's two IDs make fdp placement differ from single
  // Usage errors: one line, exit 2.
  const auto bad = test::run_shell(std::string(FTLSIM_SOURCE_DIR) + "/tools/study_decomposition.sh --nonfdp " + ta +
                                   " --out " + dir.file("e"));
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Contains("--fdp B.ftr"));
  CHECK(line_count(bad.output) == 1);
}

TEST_CASE("the study's two shipped host-mode captures name their mode and sub-log count, and cover the same blocks",
          "[cli]") {
  struct Capture {
    std::string base, mode;
    int log_n;
  };
  for (const Capture& c :
       {Capture{"geth-import-f2fs-nonfdp", "nonfdp", 1}, Capture{"geth-import-f2fs-fdp", "fdp", 8}}) {
    const std::string path = std::string(FTLSIM_SOURCE_DIR) + "/traces/" + c.base;
    INFO(c.base);
    const std::string run = slurp(path + ".run.json");
    CHECK_THAT(run, Contains("\"mode\": \"" + c.mode + "\""));
    CHECK_THAT(run, Contains("\"f2fs_fdp_log_n\": " + std::to_string(c.log_n)));
    CHECK_THAT(run, Contains("\"first_block\": 1,"));
    CHECK_THAT(run, Contains("\"last_block\": 900,"));
    const std::string capture = slurp(path + ".capture.json");
    CHECK_THAT(capture, Contains("\"lost_block_events\": 0"));
    CHECK_THAT(capture, Contains("\"lost_hint_records\": 0"));
    // the reset marker (0, after mkfs and mount) and one per block
    const auto info = run_ftlsim("info " + path + ".ftr");
    REQUIRE(info.exit_code == 0);
    CHECK_THAT(info.output, Contains("markers     901, first 0, last 900"));
    CHECK(std::filesystem::file_size(path + ".ftr") <= 20u << 20);  // the shipping limit
  }
}
