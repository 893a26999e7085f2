// --id-series: host bytes, GC bytes and WAF share over time per placement ID
// and per handle, against a hand-counted two-ID trace and the totals.
#include <catch2/catch.hpp>

#include <map>

#include "core/rng.h"
#include "fdp/placement.h"
#include "ftl/ftl_test_util.h"
#include "sim/id_series.h"
#include "sim/simulate.h"
#include "sim_test_util.h"

using namespace ftlsim;
using sim::IdSeriesRow;
using trace::Op;

namespace {

sim::SimResult run_series(const ftl::FtlConfig& c, const std::vector<trace::Record>& recs,
                          const fdp::PlacementSetup& p = {}, sim::Precondition pre = sim::Precondition::kNone) {
  sim::SimOptions o;
  o.id_series = true;
  o.precondition = pre;
  return test::simulate_records(c, recs, o, p);
}

void write(std::vector<trace::Record>& out, uint64_t first, uint64_t last, uint16_t pid) {
  for (uint64_t s = first; s <= last; ++s) out.push_back(test::rec(Op::kWrite, s * 8, 8, pid, out.size()));
}

// Every row's IDs (and, separately, its handles) add up to its host bytes
// and to timeseries.csv's GC bytes at that row.
void check_sums(const sim::SimResult& r) {
  std::map<uint64_t, uint64_t> gc_at;
  for (const auto& row : r.timeseries) gc_at[row.host_bytes] = row.gc_bytes;
  std::map<std::pair<uint64_t, bool>, std::pair<uint64_t, uint64_t>> sums;
  for (const IdSeriesRow& row : r.id_timeseries) {
    auto& s = sums[{row.host_bytes, row.kind == IdSeriesRow::Kind::kHandle}];
    s.first += row.id_host_bytes;
    s.second += row.id_gc_bytes;
  }
  REQUIRE(sums.size() == 2 * r.timeseries.size());
  for (const auto& [key, s] : sums) {
    INFO("row at " << key.first << " host bytes, " << (key.second ? "handles" : "IDs"));
    CHECK(s.first == key.first);
    CHECK(s.second == gc_at.at(key.first));
  }
}

}  // namespace

// 10 lines of 8 slots, 40 logical; GC at <= 2 free lines. ID 1 writes slots
// 0-19, ID 2 slots 20-39 (lines 0-4; line 2 holds 16-19 of ID 1 and 20-23 of
// ID 2; line 5 opens, 4 free). ID 2 rewrites 20-27 (line 5 fills, 3 free),
// then 32-37, and ID 1 rewrites 0-1 (line 6 fills, line 7 opens, 2 free).
// Valid slots: line 0 6, line 2 4, line 3 4, line 4 2 (38, 39 of ID 2). After
// the last write GC takes line 4 and copies its 2 slots, both ID 2's.
// Host: ID 1 20 + 2 = 22 slots, ID 2 20 + 14 = 34; GC: ID 2 2 slots.
TEST_CASE("a two-ID trace gives the hand-counted per-ID host and GC bytes", "[validation]") {
  std::vector<trace::Record> recs;
  write(recs, 0, 19, 1);
  write(recs, 20, 39, 2);
  write(recs, 20, 27, 2);
  write(recs, 32, 37, 2);
  write(recs, 0, 1, 1);
  const auto r = run_series(test::tiny_config(10, 8, 40, 75, 85), recs);
  CHECK(r.ftl.host_slots == 56);
  CHECK(r.ftl.gc_slots == 2);
  REQUIRE(r.timeseries.size() == 56);  // a row per slot: 1% of 56 slots is under one
  std::vector<IdSeriesRow> last;
  for (const IdSeriesRow& row : r.id_timeseries) {
    if (row.host_bytes == 56 * 4096) last.push_back(row);
  }
  REQUIRE(last.size() == 3);  // IDs 1 and 2, then handle 0 (single placement: one handle)
  CHECK((last[0].kind == IdSeriesRow::Kind::kPid && last[0].id == 1));
  CHECK(last[0].id_host_bytes == 22 * 4096);
  CHECK(last[0].id_gc_bytes == 0);
  CHECK((last[1].kind == IdSeriesRow::Kind::kPid && last[1].id == 2));
  CHECK(last[1].id_host_bytes == 34 * 4096);
  CHECK(last[1].id_gc_bytes == 2 * 4096);
  CHECK((last[2].kind == IdSeriesRow::Kind::kHandle && last[2].id == 0));
  CHECK(last[2].id_host_bytes == 56 * 4096);
  CHECK(last[2].id_gc_bytes == 2 * 4096);
  // The row before the last write: no GC yet; ID 1 has written 21 slots.
  for (const IdSeriesRow& row : r.id_timeseries) {
    if (row.host_bytes == 55 * 4096 && row.kind == IdSeriesRow::Kind::kPid && row.id == 1) {
      CHECK(row.id_host_bytes == 21 * 4096);
    }
    CHECK((row.host_bytes < 56 * 4096 ? row.id_gc_bytes == 0 : true));
  }
  check_sums(r);
}

TEST_CASE("per-ID and per-handle series add up to the totals (FDP, random writes, a fill)", "[validation]") {
  ftl::FtlConfig c = test::tiny_config(40, 32, 900, 80, 95);
  std::vector<trace::Record> recs;
  Rng rng(7);
  for (int i = 0; i < 6000; ++i) {
    const uint16_t pid = static_cast<uint16_t>(rng.below(3));
    const uint64_t slot = pid == 0 ? rng.below(100) : pid == 1 ? 100 + rng.below(300) : 400 + rng.below(500);
    recs.push_back(test::rec(Op::kWrite, slot * 8, 8, pid, recs.size()));
  }
  fdp::PlacementSetup fdp_setup;
  fdp_setup.placement = fdp::parse_placement("fdp");
  fdp_setup.fdp.handles = 3;
  for (const auto pre : {sim::Precondition::kNone, sim::Precondition::kSeq}) {
    const auto r = run_series(c, recs, fdp_setup, pre);
    REQUIRE(r.ftl.gc_slots > 0);
    check_sums(r);
    // The last row's handles are the run's per-handle counts.
    const uint64_t end = r.timeseries.back().host_bytes;
    for (const IdSeriesRow& row : r.id_timeseries) {
      if (row.host_bytes != end || row.kind != IdSeriesRow::Kind::kHandle) continue;
      REQUIRE(row.id < r.handles.size());
      CHECK(row.id_host_bytes == r.handles[row.id].host_bytes);
      CHECK(row.id_gc_bytes == r.handles[row.id].gc_out_bytes);
    }
    // With a fill, the fill's data is its own series, with GC copies but no host bytes.
    bool fill_row = false;
    for (const IdSeriesRow& row : r.id_timeseries) {
      if (row.kind != IdSeriesRow::Kind::kPrecondition) continue;
      fill_row = true;
      CHECK(row.id_host_bytes == 0);
    }
    CHECK(fill_row == (pre == sim::Precondition::kSeq));
  }
}

// Every isolated layout has 2 x handles x RGs + RGs streams; the last RGs
// are shared GC RUs' streams, which only a layout with a shared GC RU writes
// (and only then has a handle row for). 8 all-pi handles, 1 RG: 17 streams,
// 8 handle rows; the 17th stream's handle is 8, and its (zero) counts were
// added to out[8], past the rows (ASan: heap-buffer-overflow with --id-series
// and any FDP placement, when the rows filled the vector's capacity).
TEST_CASE("id-series handle rows: the shared GC RU's stream adds to no row when there is none", "[unit]") {
  fdp::FdpConfig f;
  f.handles = 8;
  f.reclaim_groups = 1;
  f.isolated_gc = true;
  REQUIRE_FALSE(f.has_shared_gc_ru());
  REQUIRE(sim::IdSeries::handle_rows(f) == 8);
  std::vector<ftl::StreamStats> streams(17);
  for (uint32_t s = 0; s < 16; ++s) {
    streams[s].host_slots = s < 8 ? 10 + s : 0;  // host streams 0-7, their GC streams 8-15
    streams[s].gc_out_slots = s;
  }
  const sim::IdSeries ids(64, f, streams.size());
  std::vector<IdSeriesRow> out;  // 8 rows: a capacity of exactly 8
  ids.add_rows(out, 4096, streams);
  REQUIRE(out.size() == 8);
  for (uint32_t h = 0; h < 8; ++h) {
    CHECK(out[h].kind == IdSeriesRow::Kind::kHandle);
    CHECK(out[h].id == h);
    CHECK(out[h].id_host_bytes == (10 + h) * 4096);
    CHECK(out[h].id_gc_bytes == (h + (8 + h)) * 4096);  // its host stream's and its GC stream's
  }
}
