// Sweeps: list and range parsing, product order, config ids, and the
// parallel runner against separate simulate() calls.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include <cctype>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "cli/cli_run.h"
#include "core/csv_field.h"
#include "core/error.h"
#include "core/rng.h"
#include "sim/sim_test_util.h"
#include "sim/simulate.h"
#include "sweep/sweep_csv.h"
#include "sweep/sweep_folder.h"
#include "sweep/sweep_pool.h"
#include "sweep/sweep_product.h"
#include "sweep/sweep_resume.h"
#include "sweep/sweep_run.h"
#include "sweep/sweep_values.h"

using namespace ftlsim;
using sim::ValueKind;
using Strings = std::vector<std::string>;

TEST_CASE("expand_values parses lists and inclusive ranges", "[unit]") {
  CHECK(sim::expand_values("--gc-thres", ValueKind::kReal, "75") == Strings{"75"});
  CHECK(sim::expand_values("--gc-thres", ValueKind::kReal, "50,60,75") == Strings{"50", "60", "75"});
  CHECK(sim::expand_values("--gc-thres", ValueKind::kReal, "50:90:10") == Strings{"50", "60", "70", "80", "90"});
  CHECK(sim::expand_values("--gc-thres", ValueKind::kReal, "50:75:10") == Strings{"50", "60", "70"});
  CHECK(sim::expand_values("--op", ValueKind::kReal, "0.1:0.3:0.05") == Strings{"0.1", "0.15", "0.2", "0.25", "0.3"});
  CHECK(sim::expand_values("--ruh", ValueKind::kInteger, "2,4:8:2, 16") == Strings{"2", "4", "6", "8", "16"});
  CHECK(sim::expand_values("--ruh", ValueKind::kInteger, "3:3:1") == Strings{"3"});
  CHECK(sim::expand_values("--ru-size", ValueKind::kSize, "16M,64M,256M,1G") == Strings{"16M", "64M", "256M", "1G"});
  CHECK(sim::expand_values("--ru-size", ValueKind::kSize, "512M:1536M:512M") == Strings{"512M", "1G", "1536M"});
  CHECK(sim::expand_values("--ru-size", ValueKind::kSize, "4096:12K:4K") == Strings{"4K", "8K", "12K"});
  CHECK(sim::expand_values("--victim", ValueKind::kWord, "greedy,fifo") == Strings{"greedy", "fifo"});
  CHECK(sim::expand_values("--placement", ValueKind::kPlacement, "single,fdp,oracle") ==
        Strings{"single", "fdp", "oracle"});
  CHECK(sim::expand_values("--placement", ValueKind::kPlacement, "map:0=0,1=0") == Strings{"map:0=0,1=0"});
  CHECK(sim::expand_values("--placement", ValueKind::kPlacement, "single;map:0=0,1=0;fdp") ==
        Strings{"single", "map:0=0,1=0", "fdp"});
  CHECK(
      sim::expand_values("--placement", ValueKind::kPlacement, "single,fdp,map:0=0,1=1;map:0=1,1=0;oracle,interval") ==
      Strings{"single", "fdp", "map:0=0,1=1", "map:0=1,1=0", "oracle", "interval"});
}

TEST_CASE("expand_values rejects bad items naming the option and the item", "[unit]") {
  const std::vector<std::tuple<ValueKind, std::string, std::string>> bad = {
      {ValueKind::kReal, "50,,60", "an item of the list is empty"},
      {ValueKind::kReal, "", "is empty"},
      {ValueKind::kReal, "abc", "'abc' is not a number"},
      {ValueKind::kReal, "50,6x", "'6x' is not a number"},
      {ValueKind::kInteger, "2.5", "'2.5' is not a whole number"},
      {ValueKind::kSize, "10X", "'10X' is not a size"},
      {ValueKind::kReal, "90:50:10", "'90:50:10' has START above STOP"},
      {ValueKind::kReal, "50:90:0", "'50:90:0' has a step that is not above 0"},
      {ValueKind::kInteger, "1:8", "'1:8' is not a range START:STOP:STEP"},
      {ValueKind::kInteger, "1:8:1:2", "'1:8:1:2' is not a range"},
      {ValueKind::kInteger, "1:x:1", "'x' is not a whole number"},
      {ValueKind::kInteger, "4:99999999999999999999:4", "'99999999999999999999' is too large (past 2^64-1)"},
      {ValueKind::kSize, "1M:4M:0", "has a step that is not above 0"},
      {ValueKind::kInteger, "60,50:70:10", "'60' is listed twice"},
      {ValueKind::kInteger, "0:100000:1", "more than 10000 values"},
      {ValueKind::kPlacement, "single,,fdp", "empty"},
      {ValueKind::kPlacement, "fdp;fdp", "'fdp' is listed twice"},
  };
  for (const auto& [kind, text, expect] : bad) {
    INFO(text);
    try {
      (void)sim::expand_values("--opt", kind, text);
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::StartsWith("--opt") && Catch::Contains(expect));
    }
  }
}

// Listed twice means the same value, whatever its text: each configuration
// of a sweep runs once (60,60.0 used to run twice as gc-thres=60 and
// gc-thres=60.0).
TEST_CASE("expand_values: items of one value are listed twice, compared by value", "[unit]") {
  const std::vector<std::tuple<ValueKind, std::string, std::string>> same = {
      {ValueKind::kReal, "60,60.0,70", "'60.0' is the same value as '60', listed before it"},
      {ValueKind::kReal, "6e1,60", "'60' is the same value as '6e1'"},
      {ValueKind::kReal, "0.1:0.3:0.1,0.20", "'0.20' is the same value as '0.2'"},
      {ValueKind::kReal, "0,-0", "'-0' is the same value as '0'"},
      {ValueKind::kInteger, "60,060", "'060' is the same value as '60'"},
      {ValueKind::kInteger, "4,2:8:2", "'4' is listed twice"},
      {ValueKind::kSize, "256M,268435456", "'268435456' is the same value as '256M'"},
      {ValueKind::kSize, "1G,1024M", "'1024M' is the same value as '1G'"},
      {ValueKind::kSize, "16M:64M:16M,33554432", "'33554432' is the same value as '32M'"},
      {ValueKind::kSize, "fit:50%,fit:50.0%", "'fit:50.0%' is the same value as 'fit:50%'"},
  };
  for (const auto& [kind, text, expect] : same) {
    INFO(text);
    CHECK_THROWS_WITH(sim::expand_values("--opt", kind, text), Catch::StartsWith("--opt: ") && Catch::Contains(expect));
  }
  // Distinct values stay distinct however close their text.
  CHECK(sim::expand_values("--opt", ValueKind::kReal, "60,60.000001") == Strings{"60", "60.000001"});
  CHECK(sim::expand_values("--opt", ValueKind::kSize, "4K,4097") == Strings{"4K", "4097"});
  // Words and placements: by the reading the caller gives, else by text.
  const sim::CanonicalFn lower = [](std::string_view w) {
    std::string s(w);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  CHECK(sim::expand_values("--opt", ValueKind::kWord, "Greedy,greedy") == Strings{"Greedy", "greedy"});
  CHECK_THROWS_WITH(sim::expand_values("--opt", ValueKind::kWord, "Greedy,greedy", {}, lower),
                    Catch::Contains("'greedy' is the same value as 'Greedy'"));
}

TEST_CASE("expand_values: a value that does not parse is refused by the setting's own check", "[unit]") {
  // The check stands for a setting's parser: it names the setting's range.
  std::vector<std::string> checked;
  const sim::ItemCheck check = [&checked](std::string_view item) {
    checked.emplace_back(item);
    throw InputError(fmt::format("--opt: {} is too large; give a whole number from 4 to 4294967295", item));
  };
  const std::string huge = "99999999999999999999";
  for (const std::string& text :
       {huge, "8," + huge, "4:" + huge + ":4", huge + ":" + huge + ":1", std::string("-1"), std::string("1.5")}) {
    INFO(text);
    checked.clear();
    CHECK_THROWS_WITH(sim::expand_values("--opt", ValueKind::kInteger, text, check), Catch::Contains("from 4 to"));
    CHECK(checked.size() == 1);
  }
  // Values that parse are left to the run (a configuration's own check);
  // a STEP is no value of the setting.
  checked.clear();
  CHECK(sim::expand_values("--opt", ValueKind::kInteger, "2,4:8:2", check) == Strings{"2", "4", "6", "8"});
  CHECK_THROWS_WITH(sim::expand_values("--opt", ValueKind::kInteger, "4:8:" + huge, check),
                    Catch::Contains("is too large (past 2^64-1)"));
  CHECK(checked.empty());
  // A check that accepts the text leaves the generic message.
  const sim::ItemCheck lenient = [](std::string_view) {};
  CHECK_THROWS_WITH(sim::expand_values("--opt", ValueKind::kInteger, huge, lenient),
                    Catch::Contains("give a whole number from 0 to 18446744073709551615"));
}

TEST_CASE("product order: axes in order, the last varying fastest", "[unit]") {
  const std::vector<size_t> sizes = {2, 1, 3};
  REQUIRE(sim::product_size(sizes) == 6);
  const std::vector<std::vector<size_t>> expect = {{0, 0, 0}, {0, 0, 1}, {0, 0, 2}, {1, 0, 0}, {1, 0, 1}, {1, 0, 2}};
  for (size_t i = 0; i < expect.size(); ++i) CHECK(sim::product_point(sizes, i) == expect[i]);
  const std::vector<size_t> huge = {1000, 1000};
  CHECK_THROWS_AS((void)sim::product_size(huge), InputError);
}

TEST_CASE("plan_sweep: rows in product order, ids from the swept values, keys from every value", "[unit]") {
  const std::vector<sim::SweepSetting> settings = {
      {"gc-thres", {"60", "75"}}, {"victim", {"greedy"}}, {"placement", {"single", "fdp"}}};
  std::vector<std::vector<std::string>> built;
  const sim::SweepPlan plan = sim::plan_sweep(settings, "wrap=false\n", 42, [&](std::span<const std::string> point) {
    built.emplace_back(point.begin(), point.end());
    if (point[0] == "75" && point[2] == "fdp") throw InputError("refused");
    return sim::RunDescription{};
  });
  CHECK(plan.table.axes == Strings{"gc-thres", "placement"});
  CHECK(plan.table.ids == Strings{"gc-thres=60_placement=single", "gc-thres=60_placement=fdp",
                                  "gc-thres=75_placement=single", "gc-thres=75_placement=fdp"});
  CHECK(plan.table.values[1] == Strings{"60", "fdp"});
  REQUIRE(built.size() == 4);
  CHECK(built[2] == Strings{"75", "greedy", "single"});  // every setting, the unswept one too
  REQUIRE(plan.jobs.size() == 4);
  CHECK(plan.jobs[0].error.empty());
  CHECK(plan.jobs[3].error.str() == "refused");
  // The key hashes the trace, the fixed options and every setting as name=value lines.
  CHECK(plan.table.keys[0] == sim::config_key(42, "wrap=false\ngc-thres=60\nvictim=greedy\nplacement=single\n"));
  CHECK(plan.table.keys[0] != sim::config_key(43, "wrap=false\ngc-thres=60\nvictim=greedy\nplacement=single\n"));
  CHECK(std::set<std::string>(plan.table.keys.begin(), plan.table.keys.end()).size() == 4);
}

TEST_CASE("config ids are readable, filesystem-safe and unique", "[unit]") {
  const std::vector<std::pair<std::string, std::string>> swept = {{"gc-thres", "60"}, {"placement", "fdp"}};
  CHECK(sim::config_id(swept) == "gc-thres=60_placement=fdp");
  const std::vector<std::pair<std::string, std::string>> map = {{"placement", "map:0=0,1=0"}};
  CHECK(sim::config_id(map) == "placement=map-0=0-1=0");
  const std::vector<std::pair<std::string, std::string>> odd = {{"x", "a/b c"}};
  CHECK(sim::config_id(odd) == "x=a-b-c");
  // Too long for a folder name: a prefix of 111 bytes, '~' and the 64-bit
  // FNV-1a hash of the full id (offset basis and prime of the FNV spec).
  const std::vector<std::pair<std::string, std::string>> longer = {{"placement", "map:" + std::string(150, '7')},
                                                                   {"gc-thres", "60"}};
  const std::string full = "placement=map-" + std::string(150, '7') + "_gc-thres=60";
  uint64_t h = 14695981039346656037ULL;
  for (const char c : full) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  const std::string id = sim::config_id(longer);
  CHECK(id.size() == sim::kMaxConfigIdBytes);
  CHECK(id == full.substr(0, 111) + "~" + fmt::format("{:016x}", h));
  CHECK(sim::config_id(std::vector<std::pair<std::string, std::string>>{{"placement", "map:" + std::string(150, '7')},
                                                                        {"gc-thres", "70"}}) != id);
  Strings ids = {"a", "b", "a", "a-2", "a"};
  sim::make_unique(ids);
  CHECK(ids == Strings{"a", "b", "a-3", "a-2", "a-4"});
  CHECK(csv_field("map:0=0,1=0") == "\"map:0=0,1=0\"");
  CHECK(csv_field("say \"x\"") == "\"say \"\"x\"\"\"");
  CHECK(csv_field("fdp") == "fdp");
}

namespace {

// 8 dies, 64 lines of 8 x 32 slots, 25% over-provisioning.
ftl::FtlConfig small_device(double thres) {
  ftl::FtlConfig c;
  c.geometry.channels = 8;
  c.geometry.luns_per_channel = 1;
  c.geometry.blocks_per_plane = 64;
  c.geometry.pages_per_block = 32;
  c.geometry.logical_bytes = static_cast<uint64_t>(64 * 256 / 1.25) * 4096;
  c.gc.thres_pcent = thres;
  return c;
}

// A fill, then a hot stream (pid 0, 80% of writes to the first 20% of the
// space) and a cold one (pid 1), with a marker every 1000 records.
std::vector<trace::Record> two_stream_trace(uint64_t logical_slots) {
  std::vector<trace::Record> recs;
  test::append_sequential(recs, 0, logical_slots);
  Rng rng(7);
  const uint64_t hot = logical_slots / 5;
  for (uint64_t i = 0; i < 4 * logical_slots; ++i) {
    if (i % 1000 == 0) recs.push_back(test::rec(trace::Op::kMarker, i / 1000, 0, 0, recs.size()));
    const bool is_hot = rng.below(10) < 8;
    const uint64_t slot = is_hot ? rng.below(hot) : hot + rng.below(logical_slots - hot);
    recs.push_back(test::rec(trace::Op::kWrite, slot * 8, 8, is_hot ? 0 : 1, recs.size()));
  }
  return recs;
}

fdp::PlacementSetup placement(const char* policy) {
  fdp::PlacementSetup p;
  p.placement = fdp::parse_placement(policy);
  p.fdp.handles = 2;
  return p;
}

}  // namespace

TEST_CASE("a sweep gives the results of separate runs, identical for any thread count", "[unit]") {
  const uint64_t logical = small_device(75).geometry.logical_slots();
  const std::vector<trace::Record> recs = two_stream_trace(logical);
  const sim::TraceView view{"t.ftr", recs, 512};

  sim::SweepTable table;
  table.axes = {"gc-thres", "placement"};
  std::vector<sim::SweepJob> jobs;
  for (const double thres : {60.0, 75.0, 90.0}) {
    for (const char* policy : {"single", "fdp"}) {
      sim::SweepJob j;
      j.run.config = small_device(thres);
      j.run.placement = placement(policy);
      jobs.push_back(j);
      table.values.push_back({fmt::format("{}", thres), policy});
      table.ids.push_back(fmt::format("gc-thres={}_placement={}", thres, policy));
    }
  }
  size_t done_calls = 0, last_done = 0;
  sim::SweepCallbacks cb;
  cb.progress = [&](size_t done, size_t total) {
    ++done_calls;
    last_done = done;
    CHECK(total == jobs.size());
  };
  const auto one = sim::run_sweep(view, jobs, 1, cb);
  CHECK(done_calls == jobs.size());
  CHECK(last_done == jobs.size());
  const auto two = sim::run_sweep(view, jobs, 2);
  const auto many = sim::run_sweep(view, jobs, 16);
  REQUIRE(one.size() == jobs.size());

  for (size_t i = 0; i < jobs.size(); ++i) {
    INFO(table.ids[i]);
    REQUIRE(one[i].result);
    REQUIRE(one[i].error.empty());
    const sim::SimResult alone = sim::simulate(jobs[i].run.config, view, {}, jobs[i].run.placement);
    const sim::SimResult& r = *one[i].result;
    CHECK(r.ftl.host_slots == alone.ftl.host_slots);
    CHECK(r.ftl.gc_slots == alone.ftl.gc_slots);
    CHECK(r.ftl.unit_erases == alone.ftl.unit_erases);
    CHECK(r.ftl.waf() == alone.ftl.waf());
    REQUIRE(r.gc_onset.has_value() == alone.gc_onset.has_value());
    if (r.gc_onset) {
      CHECK(r.gc_onset->host_bytes == alone.gc_onset->host_bytes);
      CHECK(r.gc_onset->marker == alone.gc_onset->marker);
    }
    REQUIRE(r.handles.size() == alone.handles.size());
    for (size_t h = 0; h < r.handles.size(); ++h) CHECK(r.handles[h].waf_share == alone.handles[h].waf_share);
    CHECK(r.timeseries.size() == alone.timeseries.size());
    REQUIRE(two[i].result);
    CHECK(two[i].result->ftl.waf() == r.ftl.waf());
  }
  CHECK(one[0].result->ftl.gc_slots > 0);  // GC ran: the comparison means something
  const std::string csv = sim::sweep_csv(table, one);
  CHECK(csv == sim::sweep_csv(table, two));
  CHECK(csv == sim::sweep_csv(table, many));

  // The CSV row of the first configuration, from the independent run.
  const sim::SimResult alone = sim::simulate(jobs[0].run.config, view, {}, jobs[0].run.placement);
  const std::string row0 = fmt::format(
      "gc-thres=60_placement=single,60,single,{:.6f},{},{},{},{},{},0,0,{:.6f},,,done,\n", alone.ftl.waf(),
      alone.ftl.host_slots * 4096, alone.ftl.gc_slots * 4096, alone.ftl.unit_erases * 8, alone.gc_onset->host_bytes,
      alone.gc_onset->marker ? fmt::format("{}", *alone.gc_onset->marker) : "", alone.handles[0].waf_share);
  CHECK_THAT(csv, Catch::StartsWith(
                      "config_id,gc-thres,placement,waf,host_bytes,gc_bytes,erases,"
                      "gc_onset_host_bytes,gc_onset_marker,invalid_pid_requests,ru_not_fully_written,waf_share_ruh0,"
                      "waf_share_ruh1,error,status,config_key\n" +
                      row0));
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 6);
}

TEST_CASE("an invalid configuration gives an error row and the others still run", "[unit]") {
  const uint64_t logical = small_device(75).geometry.logical_slots();
  const std::vector<trace::Record> recs = two_stream_trace(logical);
  const sim::TraceView view{"t.ftr", recs, 512};
  std::vector<sim::SweepJob> jobs(4);
  for (auto& j : jobs) {
    j.run.config = small_device(75);
    j.run.placement = placement("fdp");
  }
  jobs[1].run.placement.fdp.ru_bytes = 3 * 4096;  // no RU shape has this size: simulate() throws
  jobs[2].error = "rejected before running";
  jobs[3].run.placement = placement("single");
  std::vector<size_t> seen;
  std::mutex m;
  sim::SweepCallbacks cb;
  cb.on_done = [&](size_t i, const sim::SweepOutcome&) {
    const std::lock_guard lock(m);
    seen.push_back(i);
  };
  const auto out = sim::run_sweep(view, jobs, 2, cb);
  std::sort(seen.begin(), seen.end());
  CHECK(seen == std::vector<size_t>{0, 1, 2, 3});
  CHECK(out[0].result);
  CHECK_FALSE(out[1].result);
  CHECK_THAT(out[1].error, Catch::Contains("`ru-size`"));
  CHECK_FALSE(out[2].result);
  CHECK(out[2].error == "rejected before running");
  REQUIRE(out[3].result);
  CHECK(out[3].result->ftl.waf() == sim::simulate(jobs[3].run.config, view, {}, jobs[3].run.placement).ftl.waf());

  sim::SweepTable table{{"case"}, {"ok", "bad-ru", "rejected", "single"}, {{"0"}, {"1"}, {"2"}, {"3"}}, {}};
  const std::string csv = sim::sweep_csv(table, out);
  CHECK_THAT(csv, Catch::Contains("\nrejected,2,,,,,,,,,,,rejected before running,error,\n"));
  CHECK_THAT(csv, Catch::Contains("\nbad-ru,1,,,,,,,,,,,"));
}

TEST_CASE("a failure other than bad input stops the sweep and is rethrown", "[unit]") {
  std::vector<trace::Record> recs;
  test::append_sequential(recs, 0, 100);
  const sim::TraceView view{"t.ftr", recs, 512};
  std::vector<sim::SweepJob> jobs(3);
  for (auto& j : jobs) j.run.config = small_device(75);
  sim::SweepCallbacks cb;
  cb.on_done = [](size_t i, const sim::SweepOutcome&) {
    if (i == 1) throw SystemError("disk full");
  };
  CHECK_THROWS_WITH((void)sim::run_sweep(view, jobs, 2, cb), "disk full");
}

TEST_CASE("a sweep's --out is resolved once: claim, resume, sweep.csv and configuration folders all land there",
          "[unit]") {
  namespace fs = std::filesystem;
  const test::TempDir tmp("sweep-once");
  const std::string work = tmp.file("work");
  fs::create_directories(work + "/results");
  fs::create_directories(tmp.file("elsewhere/sub"));
  fs::create_directories(tmp.file("other/sub"));
  test::put(work + "/results/notes.txt", "x");
  const auto point_link_to = [&](const std::string& target) {
    fs::remove(work + "/link");
    fs::create_symlink(target, work + "/link");
  };
  std::vector<trace::Record> recs;
  test::append_uniform(recs, 4000, 20000, 3);
  const sim::TraceView view{"t.ftr", recs, 512};
  const std::vector<sim::SweepSetting> settings = {{"gc-thres", {"60", "80"}}};
  const auto plan = [&] {
    return sim::plan_sweep(settings, "", 1, [](std::span<const std::string> v) {
      sim::RunDescription r;
      r.config = small_device(std::stod(v[0]));
      r.placement = placement("single");
      return r;
    });
  };
  const std::string out = work + "/link/../results";
  const auto run_into = [&](bool relink) {
    ftlsim::InPlaceFolder folder("--out", out, {});
    if (relink) point_link_to("../other/sub");  // after the check: must change nothing
    sim::SweepPlan p = plan();
    sim::SweepFolderRun run;
    run.out = &folder;
    size_t carried = 0;
    run.on_start = [&](const sim::SweepStart& s) { carried = s.carried; };
    const auto outcomes = sim::run_sweep_in_folder(view, p, run);
    for (const auto& o : outcomes) CHECK(o.status == sim::SweepStatus::kDone);
    return carried;
  };
  point_link_to("../elsewhere/sub");
  CHECK(run_into(true) == 0);
  const std::set<std::string> sweep = {"sweep.csv", "gc-thres=60", "gc-thres=80"};
  CHECK(test::names_in(tmp.file("elsewhere/results")) == sweep);
  CHECK(fs::exists(tmp.file("elsewhere/results/gc-thres=80/summary.json")));
  CHECK_FALSE(fs::exists(tmp.file("other/results")));
  CHECK(test::names_in(work + "/results") == std::set<std::string>{"notes.txt"});
  // Resume: the same sweep through the same text carries every row over,
  // read through the folder resolved at the start.
  point_link_to("../elsewhere/sub");
  CHECK(run_into(true) == 2);
  CHECK(test::names_in(tmp.file("elsewhere/results")) == sweep);
  CHECK(test::names_in(work + "/results") == std::set<std::string>{"notes.txt"});
  CHECK_FALSE(fs::exists(tmp.file("other/results")));
  // A folder holding unrelated files is refused, and keeps them.
  point_link_to("../other/sub");
  fs::create_directories(tmp.file("other/results"));
  test::put(tmp.file("other/results/thesis.tex"), "t");
  CHECK_THROWS_WITH(run_into(false), Catch::Contains("is not a sweep's folder"));
  CHECK(test::names_in(tmp.file("other/results")) == std::set<std::string>{"thesis.tex"});
  // A sweep.csv that is not a regular file is refused, never read.
  fs::remove(tmp.file("other/results/thesis.tex"));
  fs::create_directories(tmp.file("other/results/sweep.csv"));
  CHECK_THROWS_WITH(run_into(false), Catch::Contains("sweep.csv is a folder, not a regular file"));
}
