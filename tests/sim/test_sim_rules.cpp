// Exact results of the simulation driver: sequential overwrite, trim then
// rewrite, read-modify-write accounting, bad records.
#include <catch2/catch.hpp>

#include <array>

#include "core/error.h"
#include "ftl/ftl_test_util.h"
#include "sim/fit.h"
#include "sim/report.h"
#include "sim/simulate.h"
#include "sim_test_util.h"

using namespace ftlsim;
using trace::Op;

namespace {

// 8 dies, 64 lines of 8 x 32 slots, 25% over-provisioning; thresholds hold
// back 3 (background) and 1 (forced) lines, less than the spare, so
// sequential overwrites never need a line that still holds live data.
ftl::FtlConfig small_device(ftl::VictimPolicy victim) {
  ftl::FtlConfig c;
  c.geometry.channels = 8;
  c.geometry.luns_per_channel = 1;
  c.geometry.planes_per_lun = 1;
  c.geometry.blocks_per_plane = 64;
  c.geometry.pages_per_block = 32;
  c.geometry.page_bytes = 4096;
  c.geometry.logical_bytes = static_cast<uint64_t>(64 * 256 / 1.25) * 4096;
  c.gc.thres_pcent = 95;
  c.gc.thres_pcent_high = 98;
  c.gc.victim = victim;
  return c;
}

sim::SimResult run_rules(const ftl::FtlConfig& c, const std::vector<trace::Record>& recs, bool wrap = false) {
  sim::SimOptions o;
  o.wrap = wrap;
  return test::simulate_records(c, recs, o);
}

}  // namespace

TEST_CASE("sequential overwrites of the whole space give WAF exactly 1", "[validation]") {
  for (auto victim : {ftl::VictimPolicy::kGreedy, ftl::VictimPolicy::kFifo}) {
    const auto c = small_device(victim);
    const uint64_t logical = c.geometry.logical_slots();
    std::vector<trace::Record> recs;
    for (int pass = 0; pass < 4; ++pass) {
      // mixed request sizes, 4 KiB to 64 KiB, all page aligned
      for (uint64_t s = 0; s < logical;) {
        const uint64_t n = std::min<uint64_t>(1 + (s % 16), logical - s);
        recs.push_back(test::rec(Op::kWrite, s * 8, static_cast<uint32_t>(n * 8)));
        s += n;
      }
    }
    const auto r = run_rules(c, recs);
    INFO(ftl::victim_policy_name(victim));
    CHECK(r.ftl.host_slots == 4 * logical);
    CHECK(r.ftl.unit_erases > 0);  // GC did run
    CHECK(r.ftl.gc_slots == 0);
    CHECK(r.ftl.waf() == 1.0);
  }
}

TEST_CASE("after trimming everything, rewriting copies nothing", "[validation]") {
  const auto c = small_device(ftl::VictimPolicy::kGreedy);
  const uint64_t logical = c.geometry.logical_slots();
  std::vector<trace::Record> recs;
  test::append_sequential(recs, 0, logical);
  test::append_uniform(recs, logical, 3 * logical, 5);
  const auto before = run_rules(c, recs);
  REQUIRE(before.ftl.gc_slots > 0);  // the random phase did copy
  recs.push_back(test::rec(Op::kTrim, 0, static_cast<uint32_t>(logical * 8)));
  test::append_sequential(recs, 0, logical);
  test::append_sequential(recs, 0, logical);
  const auto after = run_rules(c, recs);
  CHECK(after.ftl.trimmed_slots == logical);
  CHECK(after.ftl.unit_erases > before.ftl.unit_erases + 64);
  CHECK(after.ftl.gc_slots == before.ftl.gc_slots);
}

TEST_CASE("partial-page writes are read-modify-writes of that page", "[validation]") {
  const auto c = small_device(ftl::VictimPolicy::kGreedy);
  std::vector<trace::Record> recs;
  recs.push_back(test::rec(Op::kWrite, 1, 1));    // inside slot 0: RMW of an unmapped slot
  recs.push_back(test::rec(Op::kWrite, 4, 8));    // slots 0 and 1, both partial; slot 0 mapped
  recs.push_back(test::rec(Op::kWrite, 16, 16));  // slots 2,3: aligned
  recs.push_back(test::rec(Op::kRead, 0, 64));    // slots 0..7, 4 mapped
  recs.push_back(test::rec(Op::kTrim, 4, 16));    // slot 1 whole (8..15), slots 0 and 2 partial
  const auto r = run_rules(c, recs);
  CHECK(r.ftl.host_slots == 5);
  CHECK(r.requests.rmw_slots == 3);
  CHECK(r.requests.rmw_read_slots == 1);
  CHECK(r.requests.read_slots == 8);
  CHECK(r.requests.unmapped_read_slots == 4);
  // FEMU unmaps every slot a trim touches (ftl-datapath.c ssd_trim): 0, 1, 2.
  CHECK(r.ftl.trimmed_slots == 3);
  CHECK(r.requests.partial_trim_slots == 0);
  // --trim-partial keep: only slot 1 is unmapped, 0 and 2 stay mapped.
  auto keep = c;
  keep.trim_keeps_partial = true;
  const auto k = run_rules(keep, recs);
  CHECK(k.ftl.trimmed_slots == 1);
  CHECK(k.requests.partial_trim_slots == 2);
}

TEST_CASE("markers give GC onset its application progress value", "[validation]") {
  auto c = test::tiny_config(10, 8, 40, 75, 85);
  std::vector<trace::Record> recs;
  for (uint64_t pass = 0; pass < 2; ++pass) {
    for (uint64_t s = 0; s < 40; ++s) {
      if (s % 10 == 0) recs.push_back(test::rec(Op::kMarker, pass * 100 + s, 0));
      recs.push_back(test::rec(Op::kWrite, s * 8, 8, 0, 1000 * recs.size()));
    }
  }
  const auto r = run_rules(c, recs);
  REQUIRE(r.gc_onset);
  CHECK(r.gc_onset->host_bytes == 56 * 4096);  // see test_page_ftl.cpp
  CHECK(r.gc_onset->marker == uint64_t{110});  // host slot 56 is slot 16 of pass 2
  CHECK(r.requests.markers == 8);
}

TEST_CASE("bad records are refused with the record index", "[unit]") {
  const auto c = small_device(ftl::VictimPolicy::kGreedy);
  const uint64_t sectors = c.geometry.logical_bytes / 512;
  std::vector<trace::Record> recs;
  recs.push_back(test::rec(Op::kWrite, 0, 8));
  recs.push_back(test::rec(Op::kWrite, sectors - 4, 8));  // crosses the end
  CHECK_THROWS_WITH(run_rules(c, recs),
                    Catch::StartsWith("t.ftr: record 1: write of sectors") && Catch::Contains("`wrap`"));
  const auto wrapped = run_rules(c, recs, true);
  CHECK(wrapped.requests.wrapped_requests == 1);
  CHECK(wrapped.ftl.host_slots == 3);  // slot 0, then the last slot and slot 0 again

  recs[1] = test::rec(Op::kWrite, 8, 0);
  CHECK_THROWS_AS(run_rules(c, recs), InputError);
  recs[1] = test::rec(Op::kWrite, 8, 8);
  recs[1].op = 9;
  CHECK_THROWS_WITH(run_rules(c, recs), Catch::StartsWith("t.ftr: record 1:"));
  recs[1] = test::rec(Op::kRead, UINT64_MAX - 2, 8);
  CHECK_THROWS_WITH(run_rules(c, recs), Catch::StartsWith("t.ftr: record 1:"));
}

TEST_CASE("same trace and options give byte-identical summaries", "[unit]") {
  auto c = small_device(ftl::VictimPolicy::kRandom);
  c.gc.seed = 9;
  std::vector<trace::Record> recs;
  test::append_sequential(recs, 0, c.geometry.logical_slots());
  test::append_uniform(recs, c.geometry.logical_slots(), 50000, 2);
  sim::RunDescription d;
  d.trace_path = "t.ftr";
  d.config = c;
  const auto a = run_rules(c, recs);
  const auto b = run_rules(c, recs);
  CHECK(sim::summary_json(d, a) == sim::summary_json(d, b));
  CHECK(sim::timeseries_csv(a) == sim::timeseries_csv(b));
  c.gc.seed = 10;
  const auto other = run_rules(c, recs);
  CHECK(other.ftl.gc_slots != a.ftl.gc_slots);
}

TEST_CASE("logical fit: remaps the touched pages densely in first-touch order", "[validation]") {
  // Slots touched, in order: 1000 (write), 5 (write), 1000 (rewrite), 7
  // (trim), 6 (read): footprint 4 slots, first-touch numbering 1000 -> 0,
  // 5 -> 1, 7 -> 2, 6 -> 3. fit:50% gives ceil(4 / 0.5) = 8 logical slots.
  auto c = small_device(ftl::VictimPolicy::kGreedy);
  const std::vector<trace::Record> recs = {test::rec(Op::kWrite, 1000 * 8, 8), test::rec(Op::kWrite, 5 * 8, 8),
                                           test::rec(Op::kWrite, 1000 * 8, 8), test::rec(Op::kTrim, 7 * 8, 8),
                                           test::rec(Op::kRead, 6 * 8, 8)};
  sim::SimOptions o;
  o.fit = 0.5;
  o.keep_l2p = true;
  const auto r = test::simulate_records(c, recs, o);
  CHECK(r.fit_footprint_slots == 4);
  REQUIRE(r.fitted_geometry);
  CHECK(r.fitted_geometry->logical_bytes == 8 * 4096);
  REQUIRE(r.l2p.size() == 8);
  CHECK(r.l2p[0] != 0xFFFFFFFFu);  // slot 1000, written twice
  CHECK(r.l2p[1] != 0xFFFFFFFFu);  // slot 5
  CHECK(r.l2p[2] == 0xFFFFFFFFu);  // slot 7, only trimmed
  CHECK(r.l2p[3] == 0xFFFFFFFFu);  // slot 6, only read
  CHECK(r.ftl.host_slots == 3);
  CHECK(r.requests.unmapped_read_slots == 1);
  CHECK(r.mapped_slots_end == 2);

  // Scaling the device: the same lines and dies, pages per block so that
  // physical >= logical x (1 + op). small_device has 8 dies x 1 plane x
  // 64 lines; 1000 slots at 50% -> 2000 logical slots; with op 0.25 ->
  // 2500 physical slots / (64 x 8) = 4.88 -> 5 pages per block.
  std::vector<trace::Record> seq;
  test::append_sequential(seq, 0, 1000);
  o.fit_op = 0.25;
  o.keep_l2p = false;
  const auto s = test::simulate_records(c, seq, o);
  REQUIRE(s.fitted_geometry);
  CHECK(s.fitted_geometry->logical_bytes == 2000 * 4096);
  CHECK(s.fitted_geometry->pages_per_block == 5);
  CHECK(s.fitted_geometry->blocks_per_plane == c.geometry.blocks_per_plane);
  CHECK_THROWS_WITH(sim::parse_fit("fit:0%"), Catch::Contains("above 0 and at most 100"));
  CHECK_THROWS_WITH(sim::parse_fit("fit:85"), Catch::Contains("e.g. fit:85%"));
  CHECK(*sim::parse_fit("fit:85%") == Approx(0.85));
  CHECK_FALSE(sim::parse_fit("85M"));
}

// The remap table holds blocks of 4096 slots where the trace touches them:
// slots 0, 5 (one block) and 2^30 (4 TiB in, another) take two blocks and a
// directory of 2^18 + 1 entries (in one 2 MiB page), not 4 GiB for a table
// of every slot (fit refused address spaces past 1 TiB for that reason);
// past 2^32 - 2 slots (16 TiB) it refuses.
TEST_CASE("logical fit: a sparse trace is remapped in the blocks it touches", "[validation]") {
  auto c = small_device(ftl::VictimPolicy::kGreedy);
  const uint64_t far = uint64_t{1} << 30;
  const std::vector<trace::Record> recs = {test::rec(Op::kWrite, 0, 8), test::rec(Op::kWrite, far * 8, 8),
                                           test::rec(Op::kWrite, 5 * 8, 8), test::rec(Op::kWrite, far * 8, 8)};
  const sim::TraceView view{"t.ftr", recs, 512};
  const sim::FitFootprint fp = sim::fit_footprint(view);
  CHECK(fp.space == far + 1);
  CHECK(fp.footprint == 3);
  CHECK(fp.touched_blocks == 2);
  CHECK(sim::fit_table_bytes(fp.space, fp.touched_blocks) == (uint64_t{2} << 20) + 3 * 4096 * 4);
  const sim::FitMap map = sim::fit_trace(view);
  CHECK(map.footprint() == 3);
  CHECK(map.blocks() == 3);
  const trace::SlotRemap remap = map.view();
  CHECK(remap.at(0) == 0);
  CHECK(remap.at(far) == 1);
  CHECK(remap.at(5) == 2);
  CHECK(remap.at(1) == trace::kUntouchedSlot);
  CHECK(remap.at(far - 1) == trace::kUntouchedSlot);
  CHECK(remap.at(uint64_t{1} << 20) == trace::kUntouchedSlot);  // an untouched block
  sim::SimOptions o;
  o.fit = 0.5;
  o.keep_l2p = true;
  const auto r = test::simulate_records(c, recs, o);
  CHECK(r.fit_footprint_slots == 3);
  REQUIRE(r.l2p.size() == 6);
  CHECK(r.ftl.host_slots == 4);
  CHECK(r.mapped_slots_end == 3);
  CHECK(r.l2p[3] == 0xFFFFFFFFu);
  CHECK_FALSE(map.flat());
  // A trace that touches most of its space gets the flat table (one load a
  // lookup): slots 0-999 written backwards, numbered in that order.
  std::vector<trace::Record> dense;
  for (uint64_t k = 1000; k-- > 0;) dense.push_back(test::rec(Op::kWrite, k * 8, 8));
  const sim::TraceView dense_view{"t.ftr", dense, 512};
  const sim::FitMap flat = sim::fit_trace(dense_view);
  CHECK(flat.flat());
  CHECK(flat.view().dir == nullptr);
  CHECK(flat.view().at(999) == 0);
  CHECK(flat.view().at(0) == 999);
  CHECK(sim::fit_table_bytes(1000, 1) == 4000);
  const std::vector<trace::Record> too_far = {test::rec(Op::kWrite, ((uint64_t{1} << 32) - 2) * 8, 8)};
  CHECK_THROWS_WITH(test::simulate_records(c, too_far, o),
                    Catch::Contains("addresses 4294967295 4 KiB slots, more than the 4294967294 (16 TiB)"));
}

// ConfFDP's trim range (nlb + 1) under fit: the slot after a trimmed range
// is remapped like any other. Touched by the trace (slot 1 below, written),
// it is unmapped; never touched (slot 1 in the second trace; slots 0 and 10
// are), it has no device slot and nothing more is unmapped (it was read
// through the remap table as 0xFFFFFFFF, past the l2p: a crash).
TEST_CASE("logical fit with trim range plus-one: the slot after a range is remapped, or nothing", "[validation]") {
  auto c = small_device(ftl::VictimPolicy::kGreedy);
  c.trim_plus_one = true;
  sim::SimOptions o;
  o.fit = 0.5;
  o.keep_l2p = true;
  // Writes of slots 0 and `second`, then a trim of slot 0.
  const auto run_with = [&](uint64_t second) {
    const std::vector<trace::Record> recs = {test::rec(Op::kWrite, 0, 8), test::rec(Op::kWrite, second * 8, 8),
                                             test::rec(Op::kTrim, 0, 8)};
    return test::simulate_records(c, recs, o);
  };
  // Footprint, slots trimmed, of those the one after the range, mapped at
  // the end: slot 1 touched (second = 1), then untouched (second = 10).
  const auto counts = [](const sim::SimResult& r) {
    return std::array<uint64_t, 4>{r.fit_footprint_slots, r.ftl.trimmed_slots, r.requests.trim_extra_slots,
                                   r.mapped_slots_end};
  };
  CHECK(counts(run_with(1)) == std::array<uint64_t, 4>{2, 2, 1, 0});
  const auto b = run_with(10);
  CHECK(counts(b) == std::array<uint64_t, 4>{2, 1, 0, 1});
  REQUIRE(b.l2p.size() == 4);
  CHECK(b.l2p[0] == 0xFFFFFFFFu);  // slot 0, trimmed
  CHECK(b.l2p[1] != 0xFFFFFFFFu);  // slot 10, written
}
