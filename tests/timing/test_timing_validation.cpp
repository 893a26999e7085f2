// Timed mode against numbers derived without the simulator: service times,
// the die-count bound on throughput, Little's law, the program-time bound on
// sequential writes, the die time GC copies cost, and fast mode's counters.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "core/rng.h"
#include "sim/sim_test_util.h"
#include "sim/simulate.h"

using namespace ftlsim;
using trace::Op;

namespace {

ftl::FtlConfig device(uint32_t channels, uint32_t luns, uint32_t blocks, uint32_t pages, double op = 0.25) {
  ftl::FtlConfig c;
  c.geometry.channels = channels;
  c.geometry.luns_per_channel = luns;
  c.geometry.planes_per_lun = 1;
  c.geometry.blocks_per_plane = blocks;
  c.geometry.pages_per_block = pages;
  c.geometry.page_bytes = 4096;
  c.geometry.logical_bytes = static_cast<uint64_t>(static_cast<double>(c.geometry.physical_slots()) / (1 + op)) * 4096;
  return c;
}

timing::TimingConfig closed(uint32_t qd, timing::OpFilter ops = timing::OpFilter::kAll) {
  timing::TimingConfig t;
  t.mode = timing::HostMode::kClosed;
  t.qd = qd;
  t.ops = ops;
  return t;
}

sim::SimResult run(const ftl::FtlConfig& c, const std::vector<trace::Record>& recs,
                   std::optional<timing::TimingConfig> t, const fdp::PlacementSetup& placement = {}) {
  sim::SimOptions o;
  o.timing = t;
  return test::simulate_records(c, recs, o, placement);
}

const LatencyHistogram& lat(const sim::SimResult& r, timing::HostOp op) {
  return r.timing->ops[static_cast<size_t>(op)].latency;
}

void append_reads(std::vector<trace::Record>& out, uint64_t slots, uint64_t count, uint64_t seed) {
  Rng rng(seed);
  for (uint64_t i = 0; i < count; ++i) out.push_back(test::rec(Op::kRead, rng.below(slots) * 8, 8, 0, out.size()));
}

}  // namespace

TEST_CASE("one die, queue depth 1: a read takes read time plus transfer time, exactly", "[validation]") {
  const auto c = device(1, 1, 32, 64);
  std::vector<trace::Record> recs;
  test::append_sequential(recs, 0, 200);
  append_reads(recs, 200, 1000, 3);
  timing::TimingConfig t = closed(1);
  t.xfer_ns = 7'000;
  const auto r = run(c, recs, t);
  const auto& reads = lat(r, timing::HostOp::kRead);
  REQUIRE(reads.count() == 1000);
  CHECK(reads.min() == 47'000);
  CHECK(reads.max() == 47'000);
  CHECK(reads.mean() == 47'000.0);
  CHECK(reads.percentile(0.5) == 47'000);
  CHECK(reads.percentile(0.9999) == 47'000);
  // And a 4 KiB write: transfer in, then program.
  const auto& writes = lat(r, timing::HostOp::kWrite);
  CHECK(writes.min() == 207'000);
  CHECK(writes.max() == 207'000);
  // Serial: the run lasts the sum of its service times.
  CHECK(r.timing->sim_time_ns == 200 * 207'000 + 1000 * 47'000);
}

// The run's simulated time ends at its last host completion, whatever the
// request: a read of an unmapped LBA at 1 s completes at once, at 1 s (it
// was left out, and the run ended at the write's 200 us; a trim was not).
TEST_CASE("an unmapped read at the end of an open-loop run ends the run's simulated time", "[validation]") {
  const auto c = device(1, 1, 32, 64);
  timing::TimingConfig open;
  open.mode = timing::HostMode::kOpen;
  for (const Op last : {Op::kRead, Op::kTrim}) {
    const std::vector<trace::Record> recs = {test::rec(Op::kWrite, 0, 8, 0, 0),
                                             test::rec(last, 800, 8, 0, 1'000'000'000)};
    const auto r = run(c, recs, open);
    INFO(trace::op_name(last));
    CHECK(r.timing->sim_time_ns == 1'000'000'000);
    CHECK(r.timing->unmapped_reads == (last == Op::kRead ? 1 : 0));
    CHECK(lat(r, timing::HostOp::kRead).count() == 0);
  }
}

TEST_CASE("the GC onset's simulated time: the sum of the service times before it, or its time stamp / speed",
          "[validation]") {
  // One die, sequential 4 KiB writes then overwrites: GC starts once the
  // free lines run low. At queue depth 1 with nothing else on the die, write
  // k is issued at k x (transfer + program), and the onset is the issue time
  // of the write after which the first pass ran: host pages at onset - 1.
  const auto c = device(1, 1, 32, 64);
  std::vector<trace::Record> recs;
  test::append_sequential(recs, 0, c.geometry.logical_slots());
  test::append_uniform(recs, c.geometry.logical_slots(), c.geometry.logical_slots(), 4);
  timing::TimingConfig t = closed(1);
  t.xfer_ns = 7'000;
  const auto r = run(c, recs, t);
  REQUIRE(r.gc_onset);
  REQUIRE(r.gc_onset->sim_time_ns);
  const uint64_t pages = r.gc_onset->host_bytes / 4096;
  REQUIRE(pages > 1);
  CHECK(*r.gc_onset->sim_time_ns == (pages - 1) * 207'000);
  CHECK(r.gc_onset->trace_time_ns == pages - 1);  // the records' time stamps are their indexes
  // Open loop at speed 2 on time stamps 1 ms apart: the request is issued at
  // its time stamp / 2.
  for (size_t i = 0; i < recs.size(); ++i) recs[i].time_ns = i * 1'000'000;
  timing::TimingConfig open;
  open.mode = timing::HostMode::kOpen;
  open.speed = 2;
  const auto o = run(c, recs, open);
  REQUIRE(o.gc_onset);
  REQUIRE(o.gc_onset->sim_time_ns);
  CHECK(*o.gc_onset->sim_time_ns == o.gc_onset->trace_time_ns / 2);
  CHECK(o.gc_onset->host_bytes == r.gc_onset->host_bytes);  // the same FTL decisions
  // Fast mode has no simulated time.
  const auto f = run(c, recs, std::nullopt);
  REQUIRE(f.gc_onset);
  CHECK_FALSE(f.gc_onset->sim_time_ns);
  CHECK(f.gc_onset->host_bytes == r.gc_onset->host_bytes);
}

TEST_CASE("N dies: random-read throughput rises to N / read time and no further, Little's law", "[validation]") {
  const auto c = device(4, 2, 32, 64);  // 8 dies
  const uint64_t logical = c.geometry.logical_slots();
  std::vector<trace::Record> recs;
  test::append_sequential(recs, 0, logical);  // slot k lands on die k mod 8 (nand_map.h)
  append_reads(recs, logical, 40000, 5);
  std::vector<uint64_t> per_die(8, 0);
  for (size_t i = logical; i < recs.size(); ++i) ++per_die[recs[i].lba / 8 % 8];
  const double dies = 8;
  const double t_read = 40e-6;
  const double bound = dies / t_read;  // reads per second
  // This trace cannot finish before its busiest die has done its reads.
  const double trace_bound = 40000 / (static_cast<double>(*std::max_element(per_die.begin(), per_die.end())) * t_read);
  double previous = 0;
  for (const uint32_t qd : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u, 1024u}) {
    const auto r = run(c, recs, closed(qd, timing::OpFilter::kRead));
    const auto& reads = lat(r, timing::HostOp::kRead);
    REQUIRE(reads.count() == 40000);
    const double seconds = static_cast<double>(r.timing->sim_time_ns) / 1e9;
    const double x = static_cast<double>(reads.count()) / seconds;
    const double little = x * reads.mean() / 1e9;  // mean requests outstanding
    INFO("qd " << qd << ": " << x << " reads/s (" << x / bound << " of N / read time), mean latency " << reads.mean()
               << " ns, throughput x latency " << little);
    CHECK(x <= bound * (1 + 1e-9));
    CHECK(x <= trace_bound * (1 + 1e-9));
    CHECK(x >= previous * 0.995);
    previous = x;
    if (qd == 1) CHECK(x == Approx(1 / t_read).epsilon(1e-9));
    if (qd <= 128) {
      CHECK(little == Approx(qd).epsilon(0.01));
      // The product-form value for qd customers routed at random over 8
      // equal stations with exponential service (Gordon-Newell):
      // X = qd / (qd + 7) x N / read time. Constant service times do better.
      CHECK(x >= bound * qd / (qd + dies - 1));
    }
    if (qd == 128) CHECK(x >= 0.95 * bound);
    if (qd == 1024) CHECK(x >= 0.99 * trace_bound);
  }
}

TEST_CASE("sequential writes: throughput bound by dies x page size / program time", "[validation]") {
  for (const uint32_t planes : {1u, 2u}) {
    auto c = device(4, 2, 32, 64, 0.5);  // 8 dies
    c.geometry.planes_per_lun = planes;
    c.geometry.logical_bytes *= planes;
    const uint64_t slots = c.geometry.logical_slots() / 2;  // no overwrite: no GC
    std::vector<trace::Record> recs;
    test::append_sequential(recs, 0, slots);
    const auto r = run(c, recs, closed(64));
    CHECK(r.ftl.gc_passes == 0);
    CHECK(r.timing->erases == 0);
    const double bytes_per_s = static_cast<double>(slots * 4096) / (static_cast<double>(r.timing->sim_time_ns) / 1e9);
    const double bound = 8.0 * planes * 4096 / 200e-6;  // planes read and program independently
    INFO("planes " << planes << ": " << bytes_per_s / 1e6 << " MB/s, bound " << bound / 1e6);
    CHECK(bytes_per_s <= bound * (1 + 1e-9));
    CHECK(bytes_per_s >= 0.99 * bound);
  }
}

TEST_CASE("GC: write throughput and latency change as the die time GC copies take predicts", "[validation]") {
  // 8 dies, 64 lines of 256 slots, 25% spare; closed loop with 8 writes per die.
  const auto c = device(8, 1, 64, 32);
  const uint64_t logical = c.geometry.logical_slots();
  const uint32_t qd = 64;
  // Without GC: writes filling 40 of 64 lines (background GC starts at 16 free).
  std::vector<trace::Record> quiet;
  test::append_sequential(quiet, 0, 40 * 256);
  const auto a = run(c, quiet, closed(qd));
  REQUIRE(a.ftl.gc_passes == 0);
  // With GC: a fill, then random overwrites of 6 x the space: GC all along.
  std::vector<trace::Record> busy;
  test::append_sequential(busy, 0, logical);
  test::append_uniform(busy, logical, 6 * logical, 9);
  const auto b = run(c, busy, closed(qd));
  REQUIRE(b.ftl.gc_slots > b.ftl.host_slots);  // WAF above 2

  const auto& ta = *a.timing;
  const auto& tb = *b.timing;
  // The timed device did exactly the NAND work the FTL counted.
  CHECK(tb.gc_copies == b.ftl.gc_slots);
  CHECK(tb.host_page_programs == b.ftl.host_slots);
  CHECK(tb.erases == b.ftl.unit_erases * 8);  // one erase per die of a line
  // Die time that work needs: nothing can finish faster than this spread
  // over the 8 dies, and with 8 requests per die the dies stay busy.
  const double work_ns = static_cast<double>(tb.host_page_programs) * 200e3 +
                         static_cast<double>(tb.gc_copies) * (40e3 + 200e3) + static_cast<double>(tb.erases) * 2e6;
  CHECK(static_cast<double>(tb.nand_end_ns) >= work_ns / 8 * (1 - 1e-12));
  CHECK(static_cast<double>(tb.nand_end_ns) <= work_ns / 8 * 1.05);
  // So host write throughput falls by the share of die time host programs get.
  const double xa = static_cast<double>(ta.ops[1].latency.count()) / static_cast<double>(ta.sim_time_ns);
  const double xb = static_cast<double>(tb.ops[1].latency.count()) / static_cast<double>(tb.sim_time_ns);
  const double host_share = static_cast<double>(tb.host_page_programs) * 200e3 / work_ns;
  INFO("no GC " << xa * 1e9 << " writes/s, GC " << xb * 1e9 << " writes/s, host share of die time " << host_share);
  CHECK(xa * 1e9 == Approx(8 / 200e-6).epsilon(0.01));
  CHECK(xb / xa == Approx(host_share).epsilon(0.05));
  // Closed loop: mean latency rises by the inverse factor (Little), and the
  // tail rises too.
  CHECK(tb.ops[1].latency.mean() / ta.ops[1].latency.mean() == Approx(xa / xb).epsilon(0.02));
  CHECK(tb.ops[1].latency.percentile(0.99) > 2 * ta.ops[1].latency.percentile(0.99));
}

TEST_CASE("timed and fast mode make the same FTL decisions", "[validation]") {
  const auto base = device(8, 1, 64, 32);
  const uint64_t logical = base.geometry.logical_slots();
  std::vector<trace::Record> recs;
  test::append_sequential(recs, 0, logical);
  test::append_uniform(recs, logical, 4 * logical, 21);
  // Some reads, trims, unaligned writes and markers in between.
  Rng rng(4);
  for (uint64_t i = 0; i < 3000; ++i) {
    const uint64_t s = rng.below(logical - 2);
    switch (i % 4) {
      case 0: recs.push_back(test::rec(Op::kRead, s * 8, 16, 0, recs.size())); break;
      case 1: recs.push_back(test::rec(Op::kTrim, s * 8, 8, 0, recs.size())); break;
      case 2: recs.push_back(test::rec(Op::kWrite, s * 8 + 3, 9, 0, recs.size())); break;
      default: recs.push_back(test::rec(Op::kMarker, i, 0, 0, recs.size())); break;
    }
  }
  test::append_uniform(recs, logical, logical, 22);
  fdp::PlacementSetup fdp;
  fdp.placement = fdp::parse_placement("fdp");
  fdp.fdp.handles = 2;
  fdp.fdp.reclaim_groups = 2;
  fdp.fdp.ru_bytes = 2 * 32 * 4096;        // 2 dies per RU
  fdp.fdp.rg_split = fdp::RgSplit::kDies;  // each RG its own dies, and
  fdp.fdp.rg_of = fdp::RgOf::kLba;         // the untagged writes spread over both
  for (const auto victim : {ftl::VictimPolicy::kGreedy, ftl::VictimPolicy::kFifo}) {
    for (const bool use_fdp : {false, true}) {
      auto c = base;
      c.gc.victim = victim;
      const fdp::PlacementSetup setup = use_fdp ? fdp : fdp::PlacementSetup{};
      const auto fast = run(c, recs, std::nullopt, setup);
      timing::TimingConfig open;  // open loop at trace speed
      for (const auto& t : {closed(1), closed(32), open}) {
        const auto timed = run(c, recs, t, setup);
        INFO("victim " << ftl::victim_policy_name(victim) << ", fdp " << use_fdp << ", mode "
                       << timing::host_mode_name(t.mode) << " qd " << t.qd);
        CHECK(timed.ftl.host_slots == fast.ftl.host_slots);
        CHECK(timed.ftl.gc_slots == fast.ftl.gc_slots);
        CHECK(timed.ftl.unit_erases == fast.ftl.unit_erases);
        CHECK(timed.ftl.gc_passes == fast.ftl.gc_passes);
        CHECK(timed.ftl.gc_forced_passes == fast.ftl.gc_forced_passes);
        CHECK(timed.ftl.gc_background_declined == fast.ftl.gc_background_declined);
        CHECK(timed.ftl.trimmed_slots == fast.ftl.trimmed_slots);
        CHECK(timed.ftl.waf() == fast.ftl.waf());
        CHECK(timed.gc_onset->host_bytes == fast.gc_onset->host_bytes);
        CHECK(timed.requests.unmapped_read_slots == fast.requests.unmapped_read_slots);
        CHECK(timed.requests.rmw_read_slots == fast.requests.rmw_read_slots);
        CHECK(timed.timeseries.size() == fast.timeseries.size());
        // Every NAND operation the FTL made was timed once.
        const auto& tt = *timed.timing;
        CHECK(tt.gc_copies == fast.ftl.gc_slots);
        CHECK(tt.host_page_programs == fast.ftl.host_slots);
        CHECK(tt.host_page_reads ==
              fast.requests.read_slots - fast.requests.unmapped_read_slots + fast.requests.rmw_read_slots);
        CHECK(tt.erases == fast.ftl.unit_erases * (use_fdp ? 2 : 8));
        CHECK(tt.ops[0].latency.count() + tt.unmapped_reads == fast.requests.reads);
        CHECK(tt.ops[1].latency.count() == fast.requests.writes);
        CHECK(tt.ops[2].latency.count() == fast.requests.trims);
      }
    }
  }
}
