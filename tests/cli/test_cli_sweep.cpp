// Sweeps and `compare` end to end: lists and ranges on the command line,
// sweep.csv and per-configuration folders, -j independence, error rows,
// and the side-by-side comparison.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
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

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Fill (pid 1, "cold"), then random overwrites: 80% to the first fifth of
// the space (pid 0, "hot"), with a marker every 1000 writes.
void write_sweep_trace(const std::string& path) {
  trace::TraceMeta meta;
  meta.pid_names[0] = "hot";
  meta.pid_names[1] = "cold";
  trace::FtrWriter w(path, meta);
  uint64_t t = 0;
  for (uint64_t s = 0; s < kLogicalSlots; ++s) {
    w.append({t++, s * 8, 8, 1, static_cast<uint8_t>(trace::Op::kWrite), 0});
  }
  uint64_t x = 12345;
  const uint64_t hot = kLogicalSlots / 5;
  for (uint64_t i = 0; i < 5 * kLogicalSlots; ++i) {
    if (i % 1000 == 0) w.append({t, i / 1000, 0, 0, static_cast<uint8_t>(trace::Op::kMarker), 0});
    x = test::lcg_next(x);
    const bool is_hot = (x >> 60) < 13;  // 13/16
    const uint64_t r = x >> 20;
    const uint64_t slot = is_hot ? r % hot : hot + r % (kLogicalSlots - hot);
    w.append({t++, slot * 8, 8, static_cast<uint16_t>(is_hot ? 0 : 1), static_cast<uint8_t>(trace::Op::kWrite), 0});
  }
  w.finish();
}

// The blank-separated words of the first line of `text` starting with
// `first` followed by a blank; empty when there is none.
std::vector<std::string> words_of_line(const std::string& text, const std::string& first) {
  for (const std::string& line : lines_of(text)) {
    if (line.rfind(first + " ", 0) != 0) continue;
    std::vector<std::string> words;
    std::istringstream in(line);
    for (std::string w; in >> w;) words.push_back(w);
    return words;
  }
  return {};
}

// The number after "key": in a summary.json (first occurrence).
double json_number(const std::string& json, const std::string& key) {
  const std::string k = "\"" + key + "\": ";
  const size_t at = json.find(k);
  REQUIRE(at != std::string::npos);
  return std::stod(json.substr(at + k.size()));
}

}  // namespace

TEST_CASE("sweep over gc-thres x placement: rows in product order, as separate runs, same for -j1 and -j2", "[cli]") {
  test::TempDir dir("sweep");
  const std::string tr = dir.file("t.ftr");
  write_sweep_trace(tr);
  const std::string sweep = "--trace " + tr + " " + kDevice + " --gc-thres 60,90 --placement single,fdp --ruh 2";
  const auto one = run_ftlsim(sweep + " -j 1 --out " + dir.file("j1"));
  INFO(one.output);
  REQUIRE(one.exit_code == 0);
  const auto two = run_ftlsim(sweep + " -j 2 --out " + dir.file("j2"));
  REQUIRE(two.exit_code == 0);

  const std::string csv = slurp(dir.file("j1/sweep.csv"));
  CHECK(csv == slurp(dir.file("j2/sweep.csv")));
  const auto rows = lines_of(csv);
  REQUIRE(rows.size() == 5);
  CHECK_THAT(
      rows[0],
      Catch::StartsWith("config_id,gc-thres,placement,waf,host_bytes,gc_bytes,erases,"
                        "gc_onset_host_bytes,gc_onset_marker,invalid_pid_requests,ru_not_fully_written,waf_share_ruh0,"
                        "waf_share_ruh1,error"));
  const std::vector<std::pair<std::string, std::string>> order = {
      {"60", "single"}, {"60", "fdp"}, {"90", "single"}, {"90", "fdp"}};
  for (size_t i = 0; i < order.size(); ++i) {
    const auto& [thres, placement] = order[i];
    const std::string id = "gc-thres=" + thres + "_placement=" + placement;
    INFO(id);
    CHECK_THAT(rows[i + 1], Catch::StartsWith(id + "," + thres + "," + placement + ","));
    // No error; status done; then the 16-digit config_key.
    CHECK(rows[i + 1].substr(rows[i + 1].size() - 23, 7) == ",,done,");
    // The configuration's folder holds exactly what a single run writes (a
    // folder per configuration: a single run refuses another's results).
    const std::string single_dir = dir.file("single-" + id);
    const auto single = run_ftlsim("--trace " + tr + " " + kDevice + " --ruh 2 --gc-thres " + thres + " --placement " +
                                   placement + " --out " + single_dir);
    REQUIRE(single.exit_code == 0);
    const std::string summary = slurp(single_dir + "/summary.json");
    CHECK(slurp(dir.file("j1/" + id + "/summary.json")) == summary);
    CHECK(slurp(dir.file("j2/" + id + "/summary.json")) == summary);
    CHECK(slurp(dir.file("j1/" + id + "/timeseries.csv")) == slurp(single_dir + "/timeseries.csv"));
    // The row's metrics match the single run's summary.
    std::vector<std::string> cells;
    std::istringstream row(rows[i + 1]);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    REQUIRE(cells.size() >= 8);
    const double waf = json_number(summary, "waf");
    CHECK(std::abs(std::stod(cells[3]) - waf) <= 1e-5 * waf);
    CHECK(std::stod(cells[4]) == json_number(summary, "host_bytes"));
    CHECK(std::stod(cells[5]) == json_number(summary, "nand_bytes") - json_number(summary, "host_bytes"));
    CHECK(std::stod(cells[6]) == json_number(summary, "erases"));
  }
  // The table on stdout: a header and one line per configuration.
  CHECK_THAT(one.output, Catch::Contains("4 configurations") && Catch::Contains("GC onset") &&
                             Catch::Contains("wrote      " + dir.file("j1") + "/sweep.csv"));
  const auto first = words_of_line(one.output, "60");
  REQUIRE(first.size() >= 4);
  CHECK(first[1] == "single");
  CHECK(first[2].size() == first[2].find('.') + 5);  // WAF with 4 decimals
  CHECK(first[3] == "after");
}

TEST_CASE("an invalid configuration in the product gives an error row and exit code 2", "[cli]") {
  test::TempDir dir("sweeperr");
  const std::string tr = dir.file("t.ftr");
  write_sweep_trace(tr);
  // The map names a handle that --ruh 2 does not have: only that configuration fails.
  const auto r = run_ftlsim("--trace " + tr + " " + kDevice + " --placement \"single,fdp;map:0=0,1=5\" --ruh 2 --out " +
                            dir.file("out"));
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("ftlsim: error: 1 of 3 configurations failed"));
  const auto rows = lines_of(slurp(dir.file("out/sweep.csv")));
  REQUIRE(rows.size() == 4);
  for (const int ok : {1, 2}) {
    CHECK_THAT(rows[ok], Catch::Matches("[^,]+,[^,]+,[0-9]+\\.[0-9]{6},[0-9]+,.*,,done,[0-9a-f]{16}"));
  }
  CHECK_THAT(rows[3], Catch::StartsWith("placement=map-0=0-1=5,\"map:0=0,1=5\",,,,,,,,") &&
                          Catch::Contains("handle 5 does not exist"));
  CHECK(std::filesystem::exists(dir.file("out/placement=single/summary.json")));
  CHECK(std::filesystem::exists(dir.file("out/placement=fdp/timeseries.csv")));
  CHECK_FALSE(std::filesystem::exists(dir.file("out/placement=map-0=0-1=5")));

  // Rejected before running (FtlConfig::validate) is an error row too.
  const auto v = run_ftlsim("--trace " + tr + " " + kDevice + " --gc-thres-high 95,99.9 --out " + dir.file("v"));
  CHECK(v.exit_code == 2);
  const auto vrows = lines_of(slurp(dir.file("v/sweep.csv")));
  REQUIRE(vrows.size() == 3);
  CHECK_THAT(vrows[2], Catch::StartsWith("gc-thres-high=99.9,99.9,,") && Catch::Contains("at least 1 is needed"));

  // An RU size that one configuration's device cannot be laid out in (2
  // lines divide 128 blocks per plane, not 127) is that configuration's error
  // row; the whole sweep used to be refused with the message.
  const std::string dev = "--channels 8 --luns 1 --pages 32 --op 0.25 --no-progress --placement fdp --ru-size 2M";
  const auto u = run_ftlsim("--trace " + tr + " " + dev + " --blocks 128,127 --out " + dir.file("u"));
  INFO(u.output);
  CHECK(u.exit_code == 2);
  CHECK_THAT(u.output, Catch::Contains("ftlsim: error: 1 of 2 configurations failed"));
  const auto urows = lines_of(slurp(dir.file("u/sweep.csv")));
  REQUIRE(urows.size() == 3);
  CHECK_THAT(urows[1], Catch::Matches("blocks=128,128,[0-9]+\\.[0-9]{6},.*,,done,[0-9a-f]{16}"));
  CHECK_THAT(urows[2], Catch::StartsWith("blocks=127,127,,") &&
                           Catch::Contains("--ru-size 2M: a reclaim unit must be whole blocks") &&
                           Catch::Contains("dividing the 127 blocks per plane") &&
                           Catch::Matches(".*\",error,[0-9a-f]{16}"));
  CHECK(std::filesystem::exists(dir.file("u/blocks=128/summary.json")));
  CHECK_FALSE(std::filesystem::exists(dir.file("u/blocks=127")));
}

TEST_CASE("lists and ranges: bad items fail with one line naming option and item", "[cli]") {
  test::TempDir dir("sweepbad");
  const std::string tr = dir.file("t.ftr");
  write_sweep_trace(tr);
  const std::string out = " --out " + dir.file("out");
  const std::vector<std::pair<std::string, std::string>> table = {
      {"--gc-thres 50,abc", "--gc-thres: 'abc' is not a number"},
      {"--gc-thres 90:50:10", "--gc-thres: '90:50:10' has START above STOP"},
      {"--ruh 2,,4", "--ruh 2,,4: an item of the list is empty"},
      {"--ru-size 1M,4Q", "--ru-size: '4Q' is not a size"},
      {"--logical fit:70%,80%", "--logical: '80%' is not a size; a fill level is written fit:80%"},
      {"--ru-size 80%", "--ru-size: '80%' is not a size (examples"},
      {"--planes 1,6.5", "--planes: '6.5' is not a whole number"},
      {"--victim greedy,lru", "unknown policy 'lru'"},
      {"--placement single,nope", "--placement: unknown policy 'nope'"},
      {"--placement \"fdp;map:0=x\"", "--placement map:0=x"},
      {"--ruh-type ii,xx", "--ruh-type: 'xx'"},
      {"--preset femu-default,nope", "unknown preset 'nope'"},
      {"--gc-thres 60,60", "'60' is listed twice"},
  };
  for (const auto& [args, expect] : table) {
    const auto r = run_ftlsim("--trace " + tr + " " + kDevice + " " + args + out);
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains(expect));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    CHECK_FALSE(std::filesystem::exists(dir.file("out")));
  }
  const auto no_out = run_ftlsim("--trace " + tr + " " + kDevice + " --gc-thres 60,75");
  CHECK(no_out.exit_code == 2);
  CHECK_THAT(no_out.output, Catch::Contains("2 configurations and needs --out DIR"));
}

TEST_CASE("a list or range with one value runs as a single configuration", "[cli]") {
  test::TempDir dir("sweepone");
  const std::string tr = dir.file("t.ftr");
  write_sweep_trace(tr);
  const auto plain = run_ftlsim("--trace " + tr + " " + kDevice + " --gc-thres 80 --out " + dir.file("a"));
  const auto range = run_ftlsim("--trace " + tr + " " + kDevice + " --gc-thres 80:85:10 --out " + dir.file("b"));
  REQUIRE(plain.exit_code == 0);
  REQUIRE(range.exit_code == 0);
  CHECK(slurp(dir.file("a/summary.json")) == slurp(dir.file("b/summary.json")));
  CHECK_FALSE(std::filesystem::exists(dir.file("b/sweep.csv")));
  CHECK_THAT(range.output, Catch::Contains("WAF        "));
}

TEST_CASE("compare prints both WAFs and the change from a to b", "[cli]") {
  test::TempDir dir("compare");
  const std::string tr = dir.file("t.ftr");
  write_sweep_trace(tr);
  const auto r = run_ftlsim("compare --trace " + tr + " " + kDevice +
                            " --ruh 2 --a \"--placement single\" --b \"--placement fdp\" --out " + dir.file("c"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const double wa = json_number(slurp(dir.file("c/a/summary.json")), "waf");
  const double wb = json_number(slurp(dir.file("c/b/summary.json")), "waf");
  CHECK(wa != wb);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4f", wa);
  const std::string sa = buf;
  std::snprintf(buf, sizeof buf, "%.4f", wb);
  const std::string sb = buf;
  const auto waf = words_of_line(r.output, "WAF");
  REQUIRE(waf.size() == 4);
  CHECK(waf[1] == sa);
  CHECK(waf[2] == sb);
  REQUIRE(waf[3].back() == '%');
  CHECK((waf[3][0] == '+' || waf[3][0] == '-'));
  const double expect = 100.0 * (wb - wa) / wa;
  CHECK(std::abs(std::stod(waf[3]) - expect) <= 0.051);
  CHECK_THAT(r.output, Catch::Contains("a: --placement single") && Catch::Contains("b: --placement fdp") &&
                           Catch::Contains("GC onset (host writes)") && Catch::Contains("GC onset (marker)") &&
                           Catch::Contains("erases (blocks)") && Catch::Contains("host writes PID 0 (hot)") &&
                           Catch::Contains("WAF share ruh1"));
  const std::string csv = slurp(dir.file("c/compare.csv"));
  CHECK_THAT(csv, Catch::StartsWith("metric,a,b,change_pct\nwaf,"));
  CHECK_THAT(csv, Catch::Contains("\nhost_bytes_pid_1,") && Catch::Contains("\nwaf_share_ruh1,,"));
  CHECK(std::filesystem::exists(dir.file("c/a/timeseries.csv")));
  CHECK(std::filesystem::exists(dir.file("c/b/timeseries.csv")));
}

TEST_CASE("compare refuses lists, unknown options and invalid sides with one line", "[cli]") {
  test::TempDir dir("comparebad");
  const std::string tr = dir.file("t.ftr");
  write_sweep_trace(tr);
  const std::string base = "compare --trace " + tr + " " + kDevice + " ";
  const std::vector<std::pair<std::string, std::string>> table = {
      {"--a \"--gc-thres 50,60\" --b \"\"", "--gc-thres has 2 values"},
      {"--a \"--bogus 1\" --b \"--placement fdp\"", "--a \"--bogus 1\": "},
      {"--a \"\" --b \"--gc-thres 150\"", "--b \"--gc-thres 150\": "},
      {"--a \"--placement fdp --ru-size 12K\" --b \"\"", "--ru-size"},
      // A list among the shared options is said of them (it was blamed on --a).
      {"--gc-thres 60,70 --a \"\" --b \"--placement fdp\"",
       "error: --gc-thres has 2 values among the options both sides share"},
      {"--timing --qd 1,2 --a \"--placement fdp\"", "error: --qd has 2 values among the options both sides share"},
      {"--a \"\" --b \"\"", "--a and --b are both empty or not given"},
      // A side's options in the command line's words, not CLI11's.
      {"--a \"--gc-thres\"", "--a \"--gc-thres\": --gc-thres needs a value (PCT)"},
      {"--a \"--gc-thres 60 --gc-thres 70\"", "--gc-thres given 2 times; give it once"},
      // compare's own option inside a side: said where it belongs.
      {"--a \"--mem-limit 1G\"", "give compare's own options, e.g. --out or --mem-limit, outside --a and --b"},
  };
  for (const auto& [args, expect] : table) {
    const auto r = run_ftlsim(base + args);
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains(expect));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  }
}

TEST_CASE("help documents lists, ranges, the sweep order and compare", "[cli]") {
  const auto r = run_ftlsim("--help");
  CHECK(r.exit_code == 0);
  for (const char* s : {"-j,--jobs", "50:90:10", "map: spec", "last option varying fastest", "sweep.csv", "compare",
                        "--ru-size", "--ruh-type"}) {
    CHECK_THAT(r.output, Catch::Contains(s));
  }
  const auto c = run_ftlsim("compare --help");
  CHECK(c.exit_code == 0);
  CHECK_THAT(c.output, Catch::Contains("--a") && Catch::Contains("--b") && Catch::Contains("compare.csv"));
}
