// Parts of timed mode checked on their own: the event queue's order, the NAND
// map's one-to-one placement, the events.csv series, the knee.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>
#include <vector>

#include "core/rng.h"
#include "fdp/fdp_config.h"
#include "ftl/ftl_test_util.h"
#include "timing/event_queue.h"
#include "timing/event_series.h"
#include "timing/nand_map.h"
#include "timing/qd_sweep.h"

using namespace ftlsim;
using namespace ftlsim::timing;

TEST_CASE("event queue pops by time, then in push order", "[timing]") {
  EventQueue q;
  Rng rng(7);
  std::vector<std::pair<uint64_t, uint64_t>> pushed;  // (time, push order)
  for (uint64_t i = 0; i < 5000; ++i) {
    Event e;
    e.time = rng.below(300);  // many equal times
    e.index = i;
    q.push(e);
    pushed.emplace_back(e.time, i);
  }
  std::sort(pushed.begin(), pushed.end());
  for (const auto& [time, order] : pushed) {
    REQUIRE(!q.empty());
    const Event e = q.pop();
    CHECK(e.time == time);
    CHECK(e.index == order);
  }
  CHECK(q.empty());
}

TEST_CASE("event queue: push, pop and pop_push against a naive reference", "[timing]") {
  // The reference: every queued event in a vector, the earliest (time, then
  // push order) found by a scan. Times never go below the last popped one.
  struct Ref {
    uint64_t time, order, index;
  };
  Rng rng(11);
  for (int round = 0; round < 20; ++round) {
    EventQueue q;
    std::vector<Ref> ref;
    uint64_t order = 0, now = 0, index = 0;
    auto earliest = [&] {
      size_t best = 0;
      for (size_t k = 1; k < ref.size(); ++k) {
        if (ref[k].time < ref[best].time || (ref[k].time == ref[best].time && ref[k].order < ref[best].order)) best = k;
      }
      return best;
    };
    auto make = [&] {
      Event e;
      e.time = now + rng.below(round % 2 == 0 ? 8 : 1000);  // many ties in even rounds
      e.index = index++;
      return e;
    };
    for (int step = 0; step < 4000; ++step) {
      const uint64_t what = rng.below(10);
      if (ref.empty() || what < 3 + (ref.size() < 64 ? 2 : 0)) {
        const Event e = make();
        q.push(e);
        ref.push_back(Ref{e.time, order++, e.index});
        continue;
      }
      const size_t best = earliest();
      const Ref want = ref[best];
      ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(best));
      now = want.time;
      REQUIRE(q.top().index == want.index);
      Event got;
      if (what < 7) {
        got = q.pop();
      } else {
        const Event e = make();  // pushed after the pop: its time is from the new now
        got = q.pop_push(e);
        ref.push_back(Ref{e.time, order++, e.index});
      }
      REQUIRE(got.time == want.time);
      REQUIRE(got.index == want.index);
      REQUIRE(q.size() == ref.size());
    }
    while (!ref.empty()) {
      const size_t best = earliest();
      REQUIRE(q.pop().index == ref[best].index);
      ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(best));
    }
    CHECK(q.empty());
  }
}

TEST_CASE("event queue refuses an event in the past (FTLSIM_INVARIANTS builds)", "[timing]") {
  if constexpr (!kCheckInvariants) {
    WARN("skipped: a release build does not check event times (the debug and asan presets do)");
    return;
  }
  EventQueue q;
  Event e;
  e.time = 100;
  q.push(e);
  e.time = 50;
  q.push(e);  // before anything was popped: not in the past
  CHECK(q.pop().time == 50);
  e.time = 50;
  q.push(e);  // at the queue's time: allowed
  CHECK(q.pop().time == 50);
  CHECK(q.pop().time == 100);
  e.time = 99;
  CHECK_THROWS_WITH(q.push(e), Catch::Contains("an event at 99 ns pushed after the queue reached 100 ns"));
  CHECK(q.empty());  // the refused event was not added
}

namespace {

// Every slot to (die, plane, block, page) by the rules nand_map.h documents,
// using the map for die and plane; checks that no two slots share a page,
// that each die holds the same number, and that a unit stays in its group.
void check_one_to_one(const ftl::Geometry& g, const fdp::FdpConfig& c) {
  const ftl::UnitShape ru = fdp::resolve_ru_shape(g, c);
  const NandMap m(g, ru, ru.units_per_group * c.reclaim_groups);
  const uint32_t group_dies = ru.group_dies;
  const uint32_t sets = group_dies / ru.dies;
  REQUIRE(m.units() == ru.units_per_group * c.reclaim_groups);
  std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> pages;
  std::vector<uint64_t> per_die(g.dies(), 0);
  const uint64_t spu = m.slots_per_unit();
  for (uint32_t unit = 0; unit < m.units(); ++unit) {
    const uint32_t group = unit / ru.units_per_die_group;
    const uint32_t local = unit % ru.units_per_die_group;
    for (uint64_t o = 0; o < spu; ++o) {
      const auto slot = static_cast<uint32_t>(unit * spu + o);
      REQUIRE(m.unit_of(slot) == unit);
      const NandLoc l = m.locate(slot);
      const uint32_t die = l.plane / g.planes_per_lun;
      const uint32_t plane = l.plane % g.planes_per_lun;
      REQUIRE(m.die_of_plane(l.plane) == die);
      REQUIRE(m.plane_at(m.first_die_index(unit), static_cast<uint32_t>(o)) == l.plane);
      REQUIRE(m.plane_loc(l.plane).channel == l.channel);
      const auto first = ru.die_order.begin() + group * group_dies;
      REQUIRE(std::find(first, first + group_dies, die) != first + group_dies);
      REQUIRE(l.channel == die % g.channels);
      const uint64_t page_index = o / (uint64_t{ru.dies} * g.planes_per_lun);  // over rows x pages
      const uint32_t block = (local / sets) * ru.block_rows + static_cast<uint32_t>(page_index / g.pages_per_block);
      REQUIRE(block < g.blocks_per_plane);
      const auto page = static_cast<uint32_t>(page_index % g.pages_per_block);
      REQUIRE(pages.emplace(die, plane, block, page).second);
      ++per_die[die];
    }
  }
  CHECK(pages.size() == g.physical_slots());
  for (uint64_t n : per_die) CHECK(n == g.physical_slots() / g.dies());
}

}  // namespace

TEST_CASE("NAND map places every slot on its own page, within its reclaim group's dies", "[timing]") {
  const ftl::Geometry g = test::geometry(4, 2, 2, 8, 4, 64);
  const uint64_t die_row = uint64_t{g.planes_per_lun} * g.block_bytes();
  SECTION("lines") { check_one_to_one(g, fdp::FdpConfig{}); }
  SECTION("two reclaim groups of dies, RUs of 2 dies") {
    fdp::FdpConfig c;
    c.reclaim_groups = 2;
    c.rg_split = fdp::RgSplit::kDies;
    c.ru_bytes = 2 * die_row;
    check_one_to_one(g, c);
  }
  SECTION("two reclaim groups of whole channels (ConfFDP)") {
    fdp::FdpConfig c;
    c.reclaim_groups = 2;
    c.rg_split = fdp::RgSplit::kChannels;
    check_one_to_one(g, c);
  }
  SECTION("eight reclaim groups of one channel's LUN shares (ConfFDP), RUs of 1 die") {
    fdp::FdpConfig c;
    c.reclaim_groups = 8;
    c.rg_split = fdp::RgSplit::kChannels;
    c.ru_bytes = die_row;
    check_one_to_one(g, c);
  }
  SECTION("one die per RU") {
    fdp::FdpConfig c;
    c.ru_bytes = die_row;
    check_one_to_one(g, c);
  }
  SECTION("RUs of 4 lines") {
    fdp::FdpConfig c;
    c.ru_bytes = 4 * die_row * g.dies();
    check_one_to_one(g, c);
  }
  SECTION("three planes a die (a plane count that is no power of two), lines and one die per RU") {
    const ftl::Geometry g3 = test::geometry(2, 2, 3, 4, 4, 64);
    check_one_to_one(g3, fdp::FdpConfig{});
    fdp::FdpConfig c;
    c.ru_bytes = uint64_t{g3.planes_per_lun} * g3.block_bytes();
    check_one_to_one(g3, c);
  }
}

TEST_CASE("NAND map: a line stripes channel fastest, then LUN", "[timing]") {
  const ftl::Geometry g = test::geometry(4, 2, 1, 4, 8, 64);
  const ftl::UnitShape ru = ftl::line_shape(g);
  const NandMap m(g, ru, ru.units_per_group);
  for (uint32_t s = 0; s < 16; ++s) {
    const NandLoc l = m.locate(s);
    CHECK(l.channel == s % 4);
    CHECK(l.plane == s % 8);  // die = LUN x channels + channel
  }
}

// ConfFDP's RGs (rg2physical): 4 channels x 2 LUNs (die = LUN x 4 +
// channel), 2 RGs of 2 whole channels each. RG 1 is channels 2, 3: its
// write pointer visits c2l0 c3l0 c2l1 c3l1 = dies 2, 3, 6, 7, then the next
// page. Its first unit is unit 4 (4 blocks per plane), 4 dies x 8 pages =
// 32 slots from slot 128: slot 128 + n is on die [2, 3, 6, 7][n % 4].
TEST_CASE("NAND map: an RG of whole channels writes its channels fastest, then its LUNs", "[timing]") {
  const ftl::Geometry g = test::geometry(4, 2, 1, 4, 8, 64);
  fdp::FdpConfig c;
  c.reclaim_groups = 2;
  c.rg_split = fdp::RgSplit::kChannels;
  const ftl::UnitShape ru = fdp::resolve_ru_shape(g, c);
  CHECK(ru.die_order == std::vector<uint32_t>{0, 1, 4, 5, 2, 3, 6, 7});
  const NandMap m(g, ru, ru.units_per_group * 2);
  const uint32_t dies[] = {2, 3, 6, 7};
  for (uint32_t n = 0; n < 32; ++n) {
    const NandLoc l = m.locate(128 + n);
    CHECK(l.plane == dies[n % 4]);
    CHECK(l.channel == dies[n % 4] % 4);
  }
  CHECK(m.unit_die(4, 2) == 6);
}

TEST_CASE("events series: fixed interval rows, automatic interval widens and keeps totals", "[timing]") {
  EventSeries fixed(1000);
  fixed.add(SeriesKind::kHostWrite, 10, 10, 4096);
  fixed.add(SeriesKind::kHostWrite, 999, 30, 4096);
  fixed.add(SeriesKind::kGcCopy, 2500, 100, 4096);
  CHECK(fixed.csv() ==
        "interval_start_ns,event,count,bytes,lat_mean_ns,lat_p50_ns,lat_p99_ns,lat_max_ns\n"
        "0,host_write,2,8192,20,10,30,30\n"
        "2000,gc_copy,1,4096,100,100,100,100\n");
  EventSeries automatic;
  uint64_t n = 0;
  for (uint64_t t = 0; t < 10'000'000'000; t += 7'000'000) {
    automatic.add(SeriesKind::kErase, t, 5, 1);
    ++n;
  }
  CHECK(automatic.interval_ns() > EventSeries::kAutoStartNs);
  CHECK(10'000'000'000 / automatic.interval_ns() < kAutoIntervals);
  uint64_t rows = 0, counted = 0;
  const std::string csv = automatic.csv();
  for (size_t at = csv.find('\n') + 1; at < csv.size(); at = csv.find('\n', at) + 1) {
    ++rows;
    const size_t c1 = csv.find(',', at);
    const size_t c2 = csv.find(',', c1 + 1);
    counted += std::stoull(csv.substr(c2 + 1, csv.find(',', c2 + 1) - c2 - 1));
  }
  CHECK(rows <= kAutoIntervals);
  CHECK(counted == n);
}

namespace {
std::vector<QdRow> curve(std::initializer_list<std::pair<uint32_t, double>> points, const std::string& placement = "") {
  std::vector<QdRow> rows;
  for (const auto& [qd, qps] : points) {
    QdRow r;
    r.qd = qd;
    r.qps = qps;
    r.placement = placement;
    rows.push_back(r);
  }
  return rows;
}
}  // namespace

// The cases of analysis/tests/test_figure_rules.py's
// test_knee_only_where_throughput_flattens: ftlsim and plot_qd mark one knee.
TEST_CASE("knee: where throughput flattens, the rule plot_qd draws", "[timing]") {
  CHECK(kKneeShare == 0.95);
  // Still doubling at the deepest queue: no knee.
  CHECK(knee_qd(curve({{1, 1000}, {2, 2000}, {4, 4000}, {8, 8000}, {16, 16000}, {32, 32000}, {64, 64000}})) == 0);
  // 96 >= 0.95 x 100 first at QD 16, and 32 and 64 were swept.
  CHECK(knee_qd(curve({{1, 10}, {2, 20}, {4, 40}, {8, 80}, {16, 96}, {32, 99}, {64, 100}})) == 16);
  // The best is the last QD swept: nothing twice as deep.
  CHECK(knee_qd(curve({{1, 10}, {2, 20}, {4, 40}, {8, 80}, {16, 100}})) == 0);
  CHECK(knee_qd(curve({{1, 10}, {2, 20}, {4, 40}, {8, 96}, {12, 100}})) == 0);
  // Throughput falling past a peak: the knee is the peak's QD.
  CHECK(knee_qd(curve({{1, 50}, {2, 100}, {4, 90}, {8, 70}})) == 2);
  // The 95% boundary: 949 < 950, 950 reaches it.
  CHECK(knee_qd(curve({{1, 949}, {2, 1000}, {4, 1000}})) == 2);
  CHECK(knee_qd(curve({{1, 950}, {2, 1000}})) == 1);
  CHECK(knee_qd(curve({{4, 100}})) == 0);
  CHECK(knee_qd(std::vector<QdRow>{}) == 0);

  const std::vector<QdRow> one = curve({{1, 10}, {2, 19}, {4, 29}, {8, 30}, {16, 30}});  // 29 >= 28.5: knee 4
  CHECK(knee_qd(one) == 4);
  CHECK_THAT(qd_sweep_json(one), Catch::Contains("\"knee_qd\": 4"));
  CHECK_THAT(qd_sweep_text(one),
             Catch::Contains("knee       qd 4: the smallest queue depth reaching 95% of the best 30 "
                             "QPS, with QD 16 swept"));
  const std::vector<QdRow> rising = curve({{1, 10}, {2, 20}, {4, 40}});
  CHECK_THAT(qd_sweep_json(rising), Catch::Contains("\"knee_qd\": null"));
  CHECK_THAT(qd_sweep_text(rising), Catch::Contains("knee       none: QPS still rising at QD 4"));

  // Two placements: a knee each, computed on its own rows; no single knee.
  std::vector<QdRow> two = curve({{1, 10}, {2, 19}, {4, 29}, {8, 30}, {16, 30}}, "single");
  for (const QdRow& r : curve({{1, 10}, {2, 30}, {4, 31}, {8, 31}, {16, 31}}, "fdp")) two.push_back(r);
  CHECK(placements_of(two) == std::vector<std::string>{"single", "fdp"});
  CHECK(knee_qd(rows_of(two, "fdp")) == 2);  // 30 >= 0.95 x 31 = 29.45
  CHECK(knee_qd(rows_of(two, "single")) == 4);
  QdSource source;
  source.trace = "t.ftr";
  source.preset = "femu-eth-512m";
  source.logical_bytes = 512u << 20;
  source.physical_bytes = 784u << 20;
  source.gc_thres_pcent = 60;
  const std::string json = qd_sweep_json(two, source);
  CHECK_THAT(json,
             Catch::Contains("\"knee_qd\": null") && Catch::Contains("\"single\": 4") && Catch::Contains("\"fdp\": 2"));
  // The trace and device, in summary.json's shape, for plot_qd's title.
  CHECK_THAT(json, Catch::Contains("\"trace\": \"t.ftr\"") && Catch::Contains("\"preset\": \"femu-eth-512m\"") &&
                       Catch::Contains("\"logical_bytes\": 536870912") &&
                       Catch::Contains("\"physical_bytes\": 822083584") && Catch::Contains("\"thres_pcent\": 60"));
  CHECK_THAT(qd_sweep_text(two),
             Catch::Contains("knee       single: qd 4:") && Catch::Contains("knee       fdp: qd 2:"));
  CHECK(qd_sweep_csv(two).rfind("placement,qd,ops,", 0) == 0);
}
