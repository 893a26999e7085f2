// --precondition and --repeat against hand-counted cases (docs/model.md,
// "Preconditioning and steady state").
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "core/error.h"
#include "fdp/placement.h"
#include "ftl/ftl_test_util.h"
#include "sim/simulate.h"
#include "sim_test_util.h"

using namespace ftlsim;
using sim::Precondition;
using trace::Op;

namespace {

// 10 lines of 8 slots (one die), 40 logical slots. Background GC at <= 2
// free lines ((int)(0.25 x 10)), forced at <= 1 ((int)(0.15 x 10)).
ftl::FtlConfig tiny() { return test::tiny_config(10, 8, 40, 75, 85); }

sim::SimResult run(const std::vector<trace::Record>& recs, Precondition pre, uint64_t repeat = 1,
                   ftl::FtlConfig c = tiny()) {
  sim::SimOptions o;
  o.precondition = pre;
  o.repeat = repeat;
  o.keep_l2p = true;
  return test::simulate_records(c, recs, o);
}

// 4 KiB writes of the given slots, record i at time i.
std::vector<trace::Record> writes(std::initializer_list<uint64_t> slots) {
  std::vector<trace::Record> out;
  for (uint64_t s : slots) out.push_back(test::rec(Op::kWrite, s * 8, 8, 0, out.size()));
  return out;
}

}  // namespace

// After a sequential fill lines 0-4 hold slots 0-39 and line 5 is open: 4
// free lines. Writes of slots 0-3 and 8-11 fill line 5 (free 3) and leave
// lines 0 and 1 half invalid; writes of 16-19 and 24-27 fill line 6, line 7
// opens (free 2), and after the 16th write background GC takes one of lines
// 0-3 (4 valid, 4 invalid each: >= 1/8 invalid), copies its 4 live slots
// into line 7 and erases it. Without the fill the 16 writes land on an empty
// device: lines 0 and 1, no GC.
TEST_CASE("a sequential fill then a known overwrite pattern: GC copies and erases counted by hand", "[validation]") {
  auto recs = writes({0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27});
  recs.push_back(test::rec(Op::kRead, 39 * 8, 8, 0, recs.size()));  // never written by the trace
  const auto r = run(recs, Precondition::kSeq);
  REQUIRE(r.precondition);
  CHECK(r.precondition->host_slots == 40);
  CHECK(r.precondition->gc_slots == 0);
  CHECK(r.precondition->unit_erases == 0);
  CHECK(r.precondition->mapped_slots == 40);
  // The counters count the trace only.
  CHECK(r.ftl.host_slots == 16);
  CHECK(r.ftl.gc_slots == 4);
  CHECK(r.ftl.unit_erases == 1);
  CHECK(r.ftl.gc_passes == 1);
  CHECK(r.ftl.gc_onset_host_slots == 16);
  CHECK(r.ftl.waf() == 1.25);
  CHECK(r.free_units_end == 3);
  CHECK(r.mapped_slots_end == 40);
  // Slot 39 was written by the fill: a read of mapped data.
  CHECK(r.requests.read_slots == 1);
  CHECK(r.requests.unmapped_read_slots == 0);

  const auto bare = run(recs, Precondition::kNone);
  CHECK_FALSE(bare.precondition);
  CHECK(bare.ftl.host_slots == 16);
  CHECK(bare.ftl.gc_passes == 0);
  CHECK(bare.ftl.waf() == 1.0);
  CHECK(bare.requests.unmapped_read_slots == 1);
}

TEST_CASE("a random fill writes every logical slot once, in a seeded order", "[validation]") {
  const auto recs = writes({5});
  const auto seq = run(recs, Precondition::kSeq);
  const auto a = run(recs, Precondition::kRandom);
  const auto b = run(recs, Precondition::kRandom);
  auto other_seed = tiny();
  other_seed.gc.seed = 2;
  const auto c = run(recs, Precondition::kRandom, 1, other_seed);
  REQUIRE(a.precondition);
  CHECK(a.precondition->host_slots == 40);
  CHECK(a.precondition->mapped_slots == 40);
  // Every slot mapped once: 40 distinct physical slots (slot 5 rewritten by the trace).
  CHECK(std::set<uint32_t>(a.l2p.begin(), a.l2p.end()).size() == 40);
  CHECK(std::count(a.l2p.begin(), a.l2p.end(), 0xFFFFFFFFu) == 0);
  CHECK(a.l2p == b.l2p);    // the same seed, the same order
  CHECK(a.l2p != seq.l2p);  // not the sequential order
  CHECK(a.l2p != c.l2p);    // another seed, another order
}

TEST_CASE("a trace fill writes the slots the trace reads, writes or trims", "[validation]") {
  std::vector<trace::Record> recs;
  recs.push_back(test::rec(Op::kRead, 3 * 8, 8, 0, 0));
  recs.push_back(test::rec(Op::kWrite, 17 * 8, 16, 0, 1));  // slots 17 and 18
  recs.push_back(test::rec(Op::kTrim, 30 * 8, 8, 0, 2));
  recs.push_back(test::rec(Op::kRead, 17 * 8, 8, 0, 3));
  const auto r = run(recs, Precondition::kTrace);
  REQUIRE(r.precondition);
  CHECK(r.precondition->host_slots == 4);  // 3, 17, 18, 30
  CHECK(r.precondition->mapped_slots == 4);
  CHECK(r.requests.unmapped_read_slots == 0);
  CHECK(r.ftl.trimmed_slots == 1);  // slot 30 was mapped by the fill
  CHECK(r.mapped_slots_end == 3);
}

// The trace writes slots 0-39 once, in order (record i at time i). Pass 1
// fills lines 0-4 (free 4, no GC). From then on each 8 writes fill a line and
// invalidate a whole one: in pass 2 line fills 1..5 leave 3, 2, 2, 2, 2 free
// lines before GC, so fills 2-5 each trigger a pass that erases a fully
// invalid line (4 erases, no copy); in pass 3 every fill does (5 erases). The
// first pass runs after write 16 of pass 2 (host slot 56), record 15, at
// time 40 + 15 (the period is
// the span 39 plus the mean gap 1).
TEST_CASE("repeat replays the trace: per-pass counts by hand", "[validation]") {
  std::vector<trace::Record> recs;
  test::append_sequential(recs, 0, 40);
  const auto r = run(recs, Precondition::kNone, 3);
  REQUIRE(r.passes.size() == 3);
  CHECK(r.passes[0].host_slots == 40);
  CHECK(r.passes[0].unit_erases == 0);
  CHECK(r.passes[1].unit_erases == 4);
  CHECK(r.passes[2].unit_erases == 5);
  for (const auto& p : r.passes) {
    CHECK(p.host_slots == 40);
    CHECK(p.gc_slots == 0);
    CHECK(p.waf() == 1.0);
  }
  CHECK(r.ftl.host_slots == 120);
  CHECK(r.ftl.unit_erases == 9);
  REQUIRE(r.gc_onset);
  CHECK(r.gc_onset->host_bytes == 56 * 4096);
  CHECK(r.gc_onset->trace_time_ns == 55);
  CHECK(r.requests.writes == 120);
  // The same as the trace written out three times.
  std::vector<trace::Record> three;
  for (uint64_t k = 0; k < 3; ++k) {
    for (trace::Record x : recs) {
      x.time_ns += 40 * k;
      three.push_back(x);
    }
  }
  const auto once = run(three, Precondition::kNone);
  CHECK(once.ftl.host_slots == r.ftl.host_slots);
  CHECK(once.ftl.gc_slots == r.ftl.gc_slots);
  CHECK(once.ftl.unit_erases == r.ftl.unit_erases);
  CHECK(once.l2p == r.l2p);
  CHECK(once.timeseries.size() == r.timeseries.size());
}

// Timed mode, closed loop at QD 1: a read of one mapped 4 KiB page takes
// exactly the NAND read time (no transfer time by default); after a fill
// every read is of mapped data, without one none is and each completes at
// once, untimed.
TEST_CASE("after preconditioning, reads of never-written slots get the read latency", "[validation]") {
  std::vector<trace::Record> recs;
  for (uint64_t s : {3, 11, 27, 39}) recs.push_back(test::rec(Op::kRead, s * 8, 8, 0, recs.size()));
  for (const auto pre : {Precondition::kNone, Precondition::kSeq, Precondition::kTrace}) {
    sim::SimOptions o;
    o.precondition = pre;
    o.timing.emplace();
    o.timing->mode = timing::HostMode::kClosed;
    o.timing->qd = 1;
    const auto r = test::simulate_records(tiny(), recs, o);
    REQUIRE(r.timing);
    const auto& reads = r.timing->ops[static_cast<size_t>(timing::HostOp::kRead)].latency;
    if (pre == Precondition::kNone) {
      CHECK(r.timing->unmapped_reads == 4);
      CHECK(reads.count() == 0);
    } else {
      CHECK(r.timing->unmapped_reads == 0);
      CHECK(reads.count() == 4);
      CHECK(reads.mean() == 40000.0);            // --read-time 40us
      CHECK(r.timing->host_page_programs == 0);  // the fill is not timed
      CHECK(r.ftl.host_slots == 0);
    }
  }
}

// Two reclaim groups chosen by placement ID, 6 lines of 8 slots each (RG 0
// owns units 0-5, RG 1 units 6-11), two handles. Spread in halves, logical
// slots 0-15 are written in RG 0 and 16-31 in RG 1; through RG 0 alone all
// 32 would be in units 0-5.
TEST_CASE("a fill is spread over the reclaim groups", "[validation]") {
  ftl::FtlConfig c = test::tiny_config(12, 8, 32, 50, 80);
  fdp::PlacementSetup p;
  p.placement = fdp::parse_placement("fdp");
  p.fdp.handles = 2;
  p.fdp.reclaim_groups = 2;
  sim::SimOptions o;
  o.precondition = Precondition::kSeq;
  o.keep_l2p = true;
  const auto r = test::simulate_records(c, writes({5}), o, p);
  REQUIRE(r.precondition);
  CHECK(r.precondition->host_slots == 32);
  CHECK(r.precondition->gc_slots == 0);
  REQUIRE(r.l2p.size() == 32);
  for (uint32_t l = 0; l < 32; ++l) {
    INFO("logical slot " << l << " at physical slot " << r.l2p[l]);
    CHECK((r.l2p[l] / 8 < 6) == (l < 16));
  }
}

TEST_CASE("repeat and precondition refuse what they cannot do", "[unit]") {
  const auto recs = writes({1});
  sim::SimOptions o;
  o.repeat = 2;
  o.timing.emplace();
  CHECK_THROWS_WITH(test::simulate_records(tiny(), recs, o), Catch::Contains("`repeat` works in fast mode only"));
  sim::SimOptions z;
  z.repeat = 0;
  CHECK_THROWS_AS(test::simulate_records(tiny(), recs, z), InputError);
  sim::SimOptions d;
  d.precondition = Precondition::kSeq;
  d.reset.kind = sim::ResetAt::Kind::kDevice;
  CHECK_THROWS_WITH(test::simulate_records(tiny(), recs, d),
                    Catch::Contains("`precondition` cannot be combined with `reset-at` device"));
}
