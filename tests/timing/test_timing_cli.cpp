// The ftlsim binary in timed mode: --timing outputs (summary.json "timing",
// events.csv, latency_cdf.csv), determinism, `ftlsim qd-sweep`, and one-line
// errors with exit code 2 for timing options that make no sense.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <vector>

#include <filesystem>
#include <sstream>
#include <string>

#include "cli/cli_run.h"
#include "trace/ftr_writer.h"

using namespace ftlsim;
using test::run_ftlsim;
using test::slurp;

namespace {

// The CLI tests' small device (cli_run.h): a fill, random overwrites, then
// random reads, with a marker every 1000 records.
void write_trace(const std::string& path, bool reads) {
  trace::TraceMeta meta;
  meta.kv.emplace_back("source", "test_timing_cli");
  trace::FtrWriter w(path, meta);
  const uint64_t logical = test::kLogicalSlots;
  uint64_t t = 0;
  for (uint64_t s = 0; s < logical; ++s)
    w.append({t += 20'000, s * 8, 8, 0, static_cast<uint8_t>(trace::Op::kWrite), 0});
  uint64_t x = 99;
  for (uint64_t i = 0; i < 3 * logical; ++i) {
    if (i % 1000 == 0) w.append({t, i, 0, 0, static_cast<uint8_t>(trace::Op::kMarker), 0});
    x = test::lcg_next(x);
    const auto op = reads && i >= 2 * logical ? trace::Op::kRead : trace::Op::kWrite;
    w.append({t += 20'000, ((x >> 33) % logical) * 8, 8, 0, static_cast<uint8_t>(op), 0});
  }
  w.finish();
}

// The cells of the row of `csv` whose first cell is `first`.
std::vector<std::string> csv_row(const std::string& csv, const std::string& first) {
  size_t at = csv.find("\n" + first + ",");
  std::vector<std::string> cells;
  if (at == std::string::npos) return cells;
  const std::string line = csv.substr(at + 1, csv.find('\n', at + 1) - at - 1);
  size_t start = 0;
  for (size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
    cells.push_back(line.substr(start, comma - start));
  }
  cells.push_back(line.substr(start));
  return cells;
}

size_t lines(const std::string& s) {
  size_t n = 0;
  for (char ch : s) n += ch == '\n';
  return n;
}

}  // namespace

TEST_CASE("timed mode writes the timing object, events.csv and latency_cdf.csv, byte-identical across runs", "[cli]") {
  test::TempDir dir("timing");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, true);
  const std::string args = "--trace " + tr + " " + test::kDevice + " --timing --qd 8 --out ";
  const auto a = run_ftlsim(args + dir.file("a"));
  REQUIRE(a.exit_code == 0);
  CHECK_THAT(a.output, Catch::Contains("timing     closed loop, qd 8") && Catch::Contains("p99.99") &&
                           Catch::Contains("events.csv"));
  const auto b = run_ftlsim(args + dir.file("b"));
  REQUIRE(b.exit_code == 0);
  const std::string sa = slurp(dir.file("a/summary.json"));
  CHECK(sa == slurp(dir.file("b/summary.json")));
  CHECK(slurp(dir.file("a/events.csv")) == slurp(dir.file("b/events.csv")));
  CHECK_THAT(sa, Catch::Contains("\"timing\": {") && Catch::Contains("\"mode\": \"closed\"") &&
                     Catch::Contains("\"qd\": 8") && Catch::Contains("\"speed\": null") &&
                     Catch::Contains("\"read\": {") && Catch::Contains("\"write\": {") &&
                     Catch::Contains("\"p99.99\": ") && Catch::Contains("\"gc_copies\": ") &&
                     Catch::Contains("\"unmapped_reads\": 0"));
  // The fast-mode keys are still there and unchanged in form.
  CHECK_THAT(sa, Catch::Contains("\"waf\": ") && Catch::Contains("\"gc_onset\": {"));
  const std::string ev = slurp(dir.file("a/events.csv"));
  CHECK(ev.rfind("interval_start_ns,event,count,bytes,lat_mean_ns,lat_p50_ns,lat_p99_ns,lat_max_ns\n", 0) == 0);
  CHECK_THAT(ev, Catch::Contains(",host_read,") && Catch::Contains(",host_write,") && Catch::Contains(",gc_copy,") &&
                     Catch::Contains(",erase,"));
  CHECK(lines(ev) <= 1 + 5 * 256);
  const std::string cdf = slurp(dir.file("a/latency_cdf.csv"));
  CHECK(cdf.rfind("op,latency_ns,cum_fraction\n", 0) == 0);
  CHECK_THAT(cdf, Catch::Contains(",1.000000\nwrite,") && Catch::EndsWith(",1.000000\n"));

  // Without --timing: no timing object and no timed files.
  const auto f = run_ftlsim("--trace " + tr + " " + test::kDevice + " --out " + dir.file("f"));
  REQUIRE(f.exit_code == 0);
  CHECK_THAT(slurp(dir.file("f/summary.json")), !Catch::Contains("\"timing\""));
  CHECK(slurp(dir.file("f/events.csv")).empty());
}

TEST_CASE("summary.json's timing.requests: every timed request together, its latencies summed exactly", "[cli]") {
  test::TempDir dir("timing-requests");
  const std::string tr = dir.file("r.ftr");
  {
    trace::FtrWriter w(tr, trace::TraceMeta{});
    // 100 one-page writes to distinct slots of a fresh device, then 50
    // reads of them: at QD 1 nothing waits, so each write takes the program
    // time (200 us) and each read the read time (40 us).
    for (uint64_t i = 0; i < 100; ++i) w.append({i, i * 8, 8, 0, static_cast<uint8_t>(trace::Op::kWrite), 0});
    for (uint64_t i = 0; i < 50; ++i) w.append({100 + i, i * 8, 8, 0, static_cast<uint8_t>(trace::Op::kRead), 0});
    w.finish();
  }
  const auto r = run_ftlsim("--trace " + tr + " " + test::kDevice + " --timing --qd 1 --out " + dir.file("o"));
  REQUIRE(r.exit_code == 0);
  std::string s;  // summary.json without its blanks and line ends
  for (const char ch : slurp(dir.file("o/summary.json"))) {
    if (ch != ' ' && ch != '\n') s += ch;
  }
  // Hand counts: 150 requests, 100 x 200,000 + 50 x 40,000 = 22,000,000 ns;
  // the mean 146,666.667 (6 significant digits); the 75th of 150 sorted
  // latencies (p50) is a write's, and so are p95 to p99.9.
  CHECK_THAT(s, Catch::Contains("\"requests\":{\"count\":150,\"lat_sum_ns\":22000000,\"lat_ns\":{\"mean\":146667,"
                                "\"p50\":200000,\"p95\":200000,\"p99\":200000,\"p99.9\":200000}}"));
}

TEST_CASE("timed mode, open loop with --speed", "[cli]") {
  test::TempDir dir("timing-open");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, false);
  const auto r = run_ftlsim("--trace " + tr + " " + test::kDevice + " --timing --speed 2 --out " + dir.file("o"));
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("timing     open loop, speed 2"));
  CHECK_THAT(slurp(dir.file("o/summary.json")), Catch::Contains("\"mode\": \"open\"") &&
                                                    Catch::Contains("\"qd\": null") && Catch::Contains("\"speed\": 2"));
}

TEST_CASE("qd-sweep writes one row per queue depth and the knee", "[cli]") {
  test::TempDir dir("qdsweep");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, true);
  const auto r = run_ftlsim("qd-sweep --trace " + tr + " " + test::kDevice + " --qd 1,4,16 --ops read -j 2 --out " +
                            dir.file("q"));
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("\nknee       "));
  const std::string csv = slurp(dir.file("q/qd_sweep.csv"));
  CHECK(csv.rfind("placement,qd,ops,count,qps,mib_per_s,lat_mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns\nsingle,1,read,",
                  0) == 0);
  CHECK(lines(csv) == 4);
  CHECK_THAT(csv, Catch::Contains("\nsingle,4,read,") && Catch::Contains("\nsingle,16,read,"));
  CHECK_THAT(slurp(dir.file("q/qd_sweep.json")), Catch::Contains("\"rows\": [") && Catch::Contains("\"knee_qd\": ") &&
                                                     Catch::Contains("\"trace\": \"" + tr + "\"") &&
                                                     Catch::Contains("\"logical_bytes\": "));
  // -j does not change the result.
  const auto r1 = run_ftlsim("qd-sweep --trace " + tr + " " + test::kDevice + " --qd 1,4,16 --ops read -j 1 --out " +
                             dir.file("q1"));
  REQUIRE(r1.exit_code == 0);
  CHECK(slurp(dir.file("q1/qd_sweep.csv")) == csv);
}

TEST_CASE("qd-sweep's MiB/s counts the bytes reads and writes move, not the ranges trims free", "[cli]") {
  // 2000 writes of 4 KiB and 200 trims of 1 MiB: the writes' 7.8 MiB are
  // the data; the trims' 200 MiB (a range freed, no transfer) were counted too.
  test::TempDir dir("qd-trims");
  const std::string tr = dir.file("t.ftr");
  {
    trace::TraceMeta meta;
    meta.kv.emplace_back("source", "test_timing_cli");
    trace::FtrWriter w(tr, meta);
    uint64_t t = 0;
    uint64_t x = 7;
    const uint64_t mib_slots = test::kLogicalSlots / 256;  // 1 MiB ranges that fit
    for (uint64_t i = 0; i < 2000; ++i) {
      x = test::lcg_next(x);
      w.append({t += 20'000, ((x >> 33) % test::kLogicalSlots) * 8, 8, 0, static_cast<uint8_t>(trace::Op::kWrite), 0});
      if (i % 10 == 9) {
        w.append({t += 20'000, ((x >> 40) % mib_slots) * 2048, 2048, 0, static_cast<uint8_t>(trace::Op::kTrim), 0});
      }
    }
    w.finish();
  }
  const auto r = run_ftlsim("qd-sweep --trace " + tr + " " + test::kDevice + " --qd 1,8 --out " + dir.file("q"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::string csv = slurp(dir.file("q/qd_sweep.csv"));
  for (const std::string qd : {"1", "8"}) {
    const std::vector<std::string> row = csv_row(csv, "single," + qd);
    INFO(csv);
    REQUIRE(row.size() == 11);
    // placement,qd,ops,count,qps,mib_per_s,...: MiB/s over QPS is bytes per request.
    CHECK(row[3] == "2200");
    const double bytes = std::stod(row[5]) * 1048576.0 / std::stod(row[4]) * 2200.0;
    CHECK(bytes == Approx(2000.0 * 4096).epsilon(0.002));
  }
}

TEST_CASE("qd-sweep over a list of placements: one CSV whose rows are those of separate runs", "[cli]") {
  // Single and FDP latency across queue depths in one command.
  test::TempDir dir("qdsweep-placements");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, true);
  const std::string base = "qd-sweep --trace " + tr + " " + test::kDevice + " --qd 1,4 -j 2 --out ";
  const auto both = run_ftlsim(base + dir.file("b") + " --placement \"single,map:0=0,1=1\"");
  INFO(both.output);
  REQUIRE(both.exit_code == 0);
  CHECK_THAT(both.output, Catch::Contains("knee       single: ") && Catch::Contains("knee       map:0=0,1=1: "));
  REQUIRE(run_ftlsim(base + dir.file("s") + " --placement single").exit_code == 0);
  REQUIRE(run_ftlsim(base + dir.file("m") + " --placement map:0=0,1=1").exit_code == 0);
  const std::string csv = slurp(dir.file("b/qd_sweep.csv"));
  const std::string single = slurp(dir.file("s/qd_sweep.csv"));
  const std::string map = slurp(dir.file("m/qd_sweep.csv"));
  // Placement outermost, the map: spec quoted (it holds commas); each part
  // equals the run of that placement alone (same header, same rows).
  const size_t header = single.find('\n') + 1;
  CHECK(lines(csv) == 5);
  CHECK(csv == single + map.substr(header));
  CHECK_THAT(csv, Catch::Contains("\n\"map:0=0,1=1\",1,all,"));
  const std::string json = slurp(dir.file("b/qd_sweep.json"));
  CHECK_THAT(json, Catch::Contains("\"knee_qd\": null") && Catch::Contains("\"knee_qd_by_placement\": {") &&
                       Catch::Contains("\"placement\": \"map:0=0,1=1\""));
  // Other model options still take one value.
  const auto bad = run_ftlsim(base + dir.file("x") + " --gc-thres 60,70");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output,
             Catch::Contains("qd-sweep takes a list for --placement and --qd only; --gc-thres has 2 values"));
}

TEST_CASE("compare --timing: IOPS and latency rows equal those qd-sweep measures", "[cli]") {
  // compare takes --timing: its timed rows are the same closed-loop runs as
  // qd-sweep's at that queue depth, an independent path.
  test::TempDir dir("compare-timing");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, true);
  const auto c =
      run_ftlsim("compare --trace " + tr + " " + test::kDevice +
                 " --timing --qd 4 --a \"--placement single\" --b \"--placement map:0=0,1=1\" --out " + dir.file("c"));
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  CHECK_THAT(c.output, Catch::Contains("\nIOPS ") && Catch::Contains("\nlatency p99.9 "));
  const auto q = run_ftlsim("qd-sweep --trace " + tr + " " + test::kDevice +
                            " --qd 4 --placement \"single,map:0=0,1=1\" --out " + dir.file("q"));
  REQUIRE(q.exit_code == 0);
  const std::string cmp = slurp(dir.file("c/compare.csv"));
  const std::string qd = slurp(dir.file("q/qd_sweep.csv"));
  const auto single = csv_row(qd, "single");
  const auto map = csv_row(qd, "\"map:0=0");  // the quoted map: cell splits at its commas
  REQUIRE(single.size() == 11);
  REQUIRE(map.size() == 12);
  // qd_sweep.csv: placement,qd,ops,count,qps,mib_per_s,lat_mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns
  CHECK(csv_row(cmp, "iops") == std::vector<std::string>{"iops", single[4], map[5], csv_row(cmp, "iops")[3]});
  CHECK(csv_row(cmp, "lat_mean_ns")[1] == single[6]);
  CHECK(csv_row(cmp, "lat_p50_ns")[1] == single[7]);
  CHECK(csv_row(cmp, "lat_p99_ns")[1] == single[9]);
  CHECK(csv_row(cmp, "lat_p99_9_ns")[1] == single[10]);
  CHECK(csv_row(cmp, "lat_p99_9_ns")[2] == map[11]);

  // Timing options in one side only: the other side's timed rows are empty.
  const auto one =
      run_ftlsim("compare --trace " + tr + " " + test::kDevice +
                 " --a \"--placement single\" --b \"--placement single --timing --qd 4\" --out " + dir.file("d"));
  INFO(one.output);
  REQUIRE(one.exit_code == 0);
  const std::string cmp1 = slurp(dir.file("d/compare.csv"));
  CHECK(csv_row(cmp1, "iops") == std::vector<std::string>{"iops", "", single[4], ""});
  // Same WAF: timed mode makes the same FTL decisions.
  CHECK(csv_row(cmp1, "waf")[1] == csv_row(cmp1, "waf")[2]);
}

TEST_CASE("timing options take lists in a sweep: axes in sweep.csv, results as separate runs", "[cli]") {
  // Every numeric option takes a list, the timing options too.
  test::TempDir dir("timing-lists");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, true);
  const std::string base = "--trace " + tr + " " + test::kDevice + " --timing";
  const auto r = run_ftlsim(base + " --qd 1,8 --read-time 40us,80us -j 2 --out " + dir.file("s"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::string csv = slurp(dir.file("s/sweep.csv"));
  // The timing axes come after the model ones, the last varying fastest.
  CHECK(csv.rfind("config_id,qd,read-time,waf,", 0) == 0);
  CHECK(lines(csv) == 5);
  const std::vector<std::string> ids = {"qd=1_read-time=40us", "qd=1_read-time=80us", "qd=8_read-time=40us",
                                        "qd=8_read-time=80us"};
  size_t at = 0;
  for (const std::string& id : ids) {
    at = csv.find("\n" + id + ",", at);
    CHECK(at != std::string::npos);  // present, in this order
  }
  // Each configuration is the single run with those values.
  const auto one = run_ftlsim(base + " --qd 8 --read-time 80us --out " + dir.file("one"));
  REQUIRE(one.exit_code == 0);
  const std::string cdf = slurp(dir.file("one/latency_cdf.csv"));
  CHECK_FALSE(cdf.empty());
  CHECK(slurp(dir.file("s/qd=8_read-time=80us/latency_cdf.csv")) == cdf);
  CHECK(slurp(dir.file("s/qd=1_read-time=80us/latency_cdf.csv")) != cdf);
  // A bad item names its option; lists still need --timing; one
  // configuration per side in compare.
  const auto bad = run_ftlsim(base + " --read-time 40us,fast --out " + dir.file("b"));
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Catch::Contains("--read-time: 'fast' is not a duration"));
  const auto untimed = run_ftlsim("--trace " + tr + " " + test::kDevice + " --qd 1,8 --out " + dir.file("u"));
  CHECK(untimed.exit_code == 2);
  CHECK_THAT(untimed.output, Catch::Contains("add --timing"));
  const auto cmp =
      run_ftlsim("compare --trace " + tr + " " + test::kDevice + " --timing --qd 1,8 --a \"--placement single\"");
  CHECK(cmp.exit_code == 2);
  CHECK_THAT(cmp.output, Catch::Contains("--qd has 2 values among the options both sides share"));
}

TEST_CASE("a timed sweep's sweep.csv has IOPS and latency columns equal to qd-sweep's", "[cli]") {
  // A timed sweep's sweep.csv has IOPS and latency columns.
  test::TempDir dir("timing-sweep-columns");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, true);
  const std::string model = tr + " " + test::kDevice + " --placement single,fdp";
  const auto s = run_ftlsim("--trace " + model + " --timing --qd 1,8 -j 2 --out " + dir.file("s"));
  INFO(s.output);
  REQUIRE(s.exit_code == 0);
  const auto q = run_ftlsim("qd-sweep --trace " + model + " --qd 1,8 -j 2 --out " + dir.file("q"));
  REQUIRE(q.exit_code == 0);
  const std::string csv = slurp(dir.file("s/sweep.csv"));
  const std::string qd = slurp(dir.file("q/qd_sweep.csv"));
  CHECK(csv.rfind("config_id,placement,qd,waf,host_bytes,gc_bytes,erases,gc_onset_host_bytes,gc_onset_marker,"
                  "invalid_pid_requests,ru_not_fully_written,iops,lat_mean_ns,lat_p50_ns,lat_p99_ns,lat_p99_9_ns,"
                  "waf_share_ruh0,",
                  0) == 0);
  for (const std::string placement : {"single", "fdp"}) {
    for (const std::string depth : {"1", "8"}) {
      const auto row = csv_row(csv, "placement=" + placement + "_qd=" + depth);
      // qd_sweep.csv: placement,qd,ops,count,qps,mib_per_s,lat_mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns
      std::vector<std::string> expect;
      size_t at = qd.find("\n" + placement + "," + depth + ",");
      REQUIRE(at != std::string::npos);
      const auto q_row = csv_row(qd.substr(at), placement);
      REQUIRE(row.size() > 15);
      REQUIRE(q_row.size() == 11);
      CHECK(row[11] == q_row[4]);   // iops = qps
      CHECK(row[12] == q_row[6]);   // lat_mean_ns
      CHECK(row[13] == q_row[7]);   // lat_p50_ns
      CHECK(row[14] == q_row[9]);   // lat_p99_ns
      CHECK(row[15] == q_row[10]);  // lat_p99_9_ns
      // The printed table's row shows the same WAF, IOPS (whole) and p99 (in us).
      std::istringstream out(s.output);
      std::vector<std::string> words;
      for (std::string line; std::getline(out, line);) {
        std::istringstream ls(line);
        std::vector<std::string> w;
        for (std::string x; ls >> x;) w.push_back(x);
        if (w.size() >= 6 && w[0] == placement && w[1] == depth) words = w;
      }
      REQUIRE(words.size() >= 6);
      CHECK(words[2] == fmt::format("{:.4f}", std::stod(row[3])));
      CHECK(words[3] == fmt::format("{:.0f}", std::stod(q_row[4])));
      CHECK(words[4] == fmt::format("{:.1f}", std::stod(q_row[9]) / 1e3));
      CHECK(words[5] == "us");
    }
  }
  CHECK_THAT(s.output, Catch::Contains("IOPS  p99 latency  GC onset"));
  // An untimed sweep keeps its columns.
  const auto f = run_ftlsim("--trace " + model + " --out " + dir.file("f"));
  REQUIRE(f.exit_code == 0);
  CHECK_THAT(slurp(dir.file("f/sweep.csv")), !Catch::Contains("iops") && !Catch::Contains("lat_"));
  CHECK_THAT(f.output, Catch::Contains("GC onset") && !Catch::Contains("IOPS"));
}

TEST_CASE("timing options: one-line errors with exit code 2", "[cli]") {
  test::TempDir dir("timing-bad");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, false);
  const std::string base = "--trace " + tr + " " + test::kDevice;
  // Trims and a read of an unmapped LBA: nothing takes device time (every
  // row read 0 QPS, with a knee at 0).
  const std::string idle = dir.file("idle.ftr");
  {
    trace::FtrWriter w(idle, trace::TraceMeta{});
    w.append({0, 0, 8, 0, static_cast<uint8_t>(trace::Op::kTrim), 0});
    w.append({1000, 8, 8, 0, static_cast<uint8_t>(trace::Op::kTrim), 0});
    w.append({2000, 16, 8, 0, static_cast<uint8_t>(trace::Op::kRead), 0});
    w.finish();
  }
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {base + " --qd 4", "apply to timed mode; add --timing"},
      {base + " --timing --qd 4 --speed 2", "--qd (closed loop) and --speed (open loop) exclude each other"},
      {base + " --timing --qd 0", "--qd: 0 is too small; give a whole number from 1 to 1048576"},
      {base + " --timing --speed 0", "--speed 0 is out of range: give a number from 1e-06 to 1e+09"},
      {base + " --timing --read-time fast", "--read-time: 'fast' is not a duration"},
      {base + " --timing --page-size 16K", "timed mode models 4 KiB NAND pages"},
      {"qd-sweep --trace " + tr + " " + test::kDevice + " --ops read", "no read requests to time"},
      {"qd-sweep --trace " + idle + " " + test::kDevice + " --qd 1,2 --out " + dir.file("idle-out"),
       "no request takes device time at any queue depth"},
      {"qd-sweep --trace " + tr + " " + test::kDevice + " --qd 0", "--qd: 0 is not between 1 and"},
      {"qd-sweep --trace " + tr + " " + test::kDevice + " --ops writes", "--ops: 'writes' is not all, read or write"},
      {"qd-sweep --trace " + tr + " " + test::kDevice + " --interval 1M", "--interval: qd-sweep writes no time series"},
      {"qd-sweep --trace " + tr + " " + test::kDevice + " --id-series", "--id-series: qd-sweep writes no time series"},
  };
  for (const Case& c : cases) {
    const auto r = run_ftlsim(c.args);
    INFO(c.args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::StartsWith("ftlsim: error: ") && Catch::Contains(c.message));
    CHECK(lines(r.output) == 1);
  }
  CHECK_FALSE(std::filesystem::exists(dir.file("idle-out")));
  // qd-sweep's --help does not offer the time series' options it refuses.
  const auto help = run_ftlsim("qd-sweep --help");
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.output, Catch::Contains("--qd") && !Catch::Contains("--interval") && !Catch::Contains("--id-series"));
}
