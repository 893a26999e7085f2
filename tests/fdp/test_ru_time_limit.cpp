// The RU time limit (--ru-time-limit) and the FDP events it causes: "RU time
// limit exceeded" and "RU not fully written", checked against hand-counted
// cases on the engine and through the simulation driver.
#include <catch2/catch.hpp>

#include "fdp/placement.h"
#include "ftl/any_ftl.h"
#include "ftl/ftl_test_util.h"
#include "sim/sim_test_util.h"
#include "sim/simulate.h"

using namespace ftlsim;
using trace::Op;

namespace {

constexpr uint64_t kMs = 1'000'000;

sim::SimResult run_limited(const ftl::FtlConfig& c, const std::vector<trace::Record>& recs,
                           const std::string& placement, uint64_t limit_ns, uint32_t handles = 2) {
  fdp::PlacementSetup p;
  p.placement = fdp::parse_placement(placement);
  p.fdp.handles = handles;
  p.fdp.ru_time_limit_ns = limit_ns;
  return test::simulate_records(c, recs, {}, p);
}

}  // namespace

// 10 lines of 8 slots, limit 100 ns. Writes at 0 (3 slots) and 50 (2 slots)
// go to line 0; at 100 its limit (first write 0 + 100) has passed: it closes
// with 5 slots written and 3 never written, and the write at 100 opens the
// next line, whose limit is then 200.
TEST_CASE("an RU closes when its time limit passes, full or not", "[fdp][unit]") {
  ftl::PageFtl<ftl::HeapVictims> f(test::tiny_config(10, 8, 40, 75, 85));
  f.set_unit_time_limit(100);
  CHECK(f.next_expiry() == ftl::kNever);  // nothing written yet
  f.set_now(0);
  for (uint32_t lpn = 0; lpn < 3; ++lpn) f.write(lpn);
  CHECK(f.next_expiry() == 100);
  f.set_now(50);
  f.write(3);
  f.write(4);
  f.expire_units(99);
  CHECK(f.stats().units_not_fully_written == 0);
  CHECK(f.next_expiry() == 100);
  const uint32_t free_before = f.free_units();
  f.set_now(100);
  f.expire_units(100);
  CHECK(f.stats().unit_time_limit_exceeded == 1);
  CHECK(f.stats().units_not_fully_written == 1);
  CHECK(f.stats().unwritten_slots == 3);
  CHECK(f.unit_table().state[0] == ftl::UnitState::kClosed);
  CHECK(f.unit_table().valid[0] == 5);
  CHECK(f.next_expiry() == ftl::kNever);
  CHECK(f.free_units() == free_before);  // a new unit is opened only by the next write
  f.write(5);
  CHECK(f.free_units() == free_before - 1);
  CHECK(f.next_expiry() == 200);
  CHECK(f.check_invariants().empty());
  // Overwriting line 0's five slots leaves it with nothing live: GC can take
  // it without copying, unwritten slots included.
  for (uint32_t lpn = 0; lpn < 5; ++lpn) f.write(lpn);
  CHECK(f.unit_table().valid[0] == 0);
  CHECK(f.check_invariants().empty());
}

TEST_CASE("closing early does nothing to an empty or absent unit, no limit, no expiry", "[fdp][unit]") {
  ftl::PageFtl<ftl::HeapVictims> f(test::tiny_config(10, 8, 40, 75, 85));
  f.close_early(0);  // open but empty
  CHECK(f.stats().units_not_fully_written == 0);
  f.set_now(5);
  f.write(0);
  CHECK(f.next_expiry() == ftl::kNever);  // no limit set
  f.expire_units(1'000'000);
  CHECK(f.stats().unit_time_limit_exceeded == 0);
  f.close_early(0);
  CHECK(f.stats().units_not_fully_written == 1);
  CHECK(f.stats().unwritten_slots == 7);
  f.close_early(0);  // no open unit now
  CHECK(f.stats().units_not_fully_written == 1);
  CHECK(f.check_invariants().empty());
}

// Lines of 8 x 64 = 512 slots. 1000 single-slot writes 1 ms apart, cycling
// over 10 LBAs, limit 10 ms: an RU opened by the write at t takes the writes
// at t .. t+9 ms and is closed by the one at t+10 ms. So the RUs close after
// writes 10, 20, ..., 990: 99 events, each leaving 512 - 10 slots unwritten.
// Every closed RU's 10 LBAs are rewritten by the next RU, so GC never copies:
// WAF stays exactly 1 however many RUs GC erases.
TEST_CASE("RU time limit: event counts and unwritten bytes by hand, no copies for dead data", "[fdp][validation]") {
  ftl::FtlConfig c = test::tiny_config(64, 8 * 64, 10 * 512);
  c.geometry.channels = 8;
  c.geometry.pages_per_block = 64;
  c.gc.thres_pcent = 90;
  c.gc.thres_pcent_high = 95;
  std::vector<trace::Record> recs;
  for (uint64_t i = 0; i < 1000; ++i) recs.push_back(test::rec(Op::kWrite, (i % 10) * 8, 8, 0, i * kMs));
  for (const char* placement : {"single", "fdp"}) {
    INFO(placement);
    const sim::SimResult r = run_limited(c, recs, placement, 10 * kMs);
    CHECK(r.ftl.unit_time_limit_exceeded == 99);
    CHECK(r.ftl.units_not_fully_written == 99);
    CHECK(r.ftl.unwritten_slots == 99 * (512 - 10));
    CHECK(r.ftl.host_slots == 1000);
    CHECK(r.ftl.unit_erases > 0);  // 99 closed RUs on a 64-line device: GC ran
    CHECK(r.ftl.gc_slots == 0);
    CHECK(r.ftl.waf() == 1.0);
    // Without the limit no RU closes early.
    const sim::SimResult free_run = run_limited(c, recs, placement, 0);
    CHECK(free_run.ftl.units_not_fully_written == 0);
    CHECK(free_run.ftl.unit_erases == 0);  // 1000 slots fit in 2 of the 64 lines
  }
}

// Two handles: ID 0 writes every 1 ms from 0 to 99 ms, ID 1 once at 0 and once
// at 95 ms. With a 30 ms limit, handle 0's RUs take 30 writes each and close
// at 30, 60 and 90 ms (3 events); handle 1's RU, first written at 0, closes
// at the first request at or after 30 ms (1 event), and the RU its write at
// 95 ms opens is still within its limit at the end. Limits run per handle.
TEST_CASE("RU time limit runs per handle", "[fdp][validation]") {
  ftl::FtlConfig c = test::tiny_config(64, 8 * 64, 10 * 512);
  c.geometry.channels = 8;
  c.geometry.pages_per_block = 64;
  std::vector<trace::Record> recs;
  for (uint64_t t = 0; t < 100; ++t) {
    recs.push_back(test::rec(Op::kWrite, (t % 50) * 8, 8, 0, t * kMs));
    if (t == 0 || t == 95) recs.push_back(test::rec(Op::kWrite, (100 + t) * 8, 8, 1, t * kMs));
  }
  const sim::SimResult r = run_limited(c, recs, "fdp", 30 * kMs);
  CHECK(r.ftl.unit_time_limit_exceeded == 4);
  CHECK(r.ftl.unwritten_slots == 3 * (512 - 30) + (512 - 1));
  // One handle: the shared RU closes at 30, 60 and 90 ms; the first holds
  // ID 1's write at 0 besides ID 0's 30.
  const sim::SimResult single = run_limited(c, recs, "single", 30 * kMs);
  CHECK(single.ftl.unit_time_limit_exceeded == 3);
  CHECK(single.ftl.unwritten_slots == (512 - 31) + 2 * (512 - 30));
}
