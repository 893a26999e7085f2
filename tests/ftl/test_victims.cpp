#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "ftl/victim_fifo.h"
#include "ftl/victim_heap.h"
#include "ftl/victim_sampled.h"
#include "reference/pqueue_model.h"

using namespace ftlsim::ftl;

namespace {
UnitTable table_with(std::initializer_list<uint32_t> valid, uint32_t slots) {
  UnitTable t;
  t.resize(static_cast<uint32_t>(valid.size()), slots);
  uint32_t i = 0;
  for (uint32_t v : valid) {
    t.valid[i] = v;
    t.state[i] = UnitState::kClosed;
    t.close_stamp[i] = i;
    ++i;
  }
  return t;
}
}  // namespace

GcAsk forced() { return GcAsk{true, 0, false, 0}; }
GcAsk background(uint32_t min_invalid, bool requeue) { return GcAsk{false, min_invalid, requeue, 0}; }

TEST_CASE("greedy heap pops in FEMU pqueue order, which is not first come first served on ties", "[ftl][unit]") {
  // Units 0 = b (2 valid), 1 = a (1 valid), 2 = c (2 valid) of 8 slots,
  // closed in the order 0, 1, 2. By hand, with pqueue.c's rules:
  //   insert b        -> [b]
  //   insert a (1<2)  -> a bubbles up: [a, b]
  //   insert c        -> parent a (1) is not > 2: [a, b, c]
  //   pop a: c moves to the root; its child b is not smaller (2 > 2 is
  //   false), so c stays on top: [c, b]
  // so c comes out before b although b had 2 valid slots first.
  UnitTable t = table_with({2, 1, 2}, 8);
  HeapVictims g;
  g.init(t, 1);
  for (UnitId unit = 0; unit < 3; ++unit) g.on_close(t, unit);
  CHECK(g.select(t, forced()) == 1);
  CHECK(g.select(t, forced()) == 2);
  CHECK(g.select(t, forced()) == 0);
  CHECK(g.select(t, forced()) == kNoUnit);
}

TEST_CASE("greedy heap keeps full units out until their first invalidation", "[ftl][unit]") {
  UnitTable t = table_with({8, 5}, 8);
  HeapVictims g;
  g.init(t, 1);
  g.on_close(t, 0);  // full: waits outside the heap
  g.on_close(t, 1);
  CHECK(g.position(0) == 0);
  CHECK(g.position(1) == 1);
  t.valid[0] = 4;  // four invalidations; the first one queues it (with 7), the rest move it up
  for (uint32_t v : {7u, 6u, 5u, 4u}) {
    t.valid[0] = v;
    g.on_invalidate(t, 0);
  }
  CHECK(g.select(t, forced()) == 0);
  CHECK(g.select(t, forced()) == 1);
}

TEST_CASE("a declined background pass leaves the line path's heap alone but reorders FDP's", "[ftl][unit]") {
  // x, y, z with 3 valid of 8 (5 invalid), inserted in that order: [x, y, z].
  // Background with min_invalid 6 declines. On the line path (rule 12) the
  // top stays put, so a forced pass then takes x. Under FDP (rule 13) the top
  // is popped ([z, y]: z moved to the root does not sink, 3 > 3 is false) and
  // inserted again at the end ([z, y, x]): a forced pass then takes z.
  for (const bool requeue : {false, true}) {
    UnitTable t = table_with({3, 3, 3}, 8);
    HeapVictims g;
    g.init(t, 1);
    for (UnitId unit = 0; unit < 3; ++unit) g.on_close(t, unit);
    CHECK(g.select(t, background(6, requeue)) == kNoUnit);
    CHECK(g.select(t, forced()) == (requeue ? 2u : 0u));
  }
}

TEST_CASE("FDP takes a victim without valid slots even when it has few invalid ones", "[ftl][unit]") {
  // A unit closed early: 0 valid, 6 of its 8 slots never written, so 2
  // invalid. FEMU's FDP rule takes it (vpc == 0); the line rule declines it.
  UnitTable t = table_with({0}, 8);
  t.unwritten[0] = 6;
  CHECK(t.invalid(0) == 2);
  HeapVictims line, fdp;
  line.init(t, 1);
  fdp.init(t, 1);
  line.on_close(t, 0);
  fdp.on_close(t, 0);
  CHECK(line.select(t, background(4, false)) == kNoUnit);
  CHECK(fdp.select(t, background(4, true)) == 0);
}

TEST_CASE("the greedy heap's quick answers agree with select", "[ftl][unit]") {
  // Units of 8 slots with 7, 6 and 7 valid: unit 1 (2 invalid) is the top.
  UnitTable t = table_with({7, 6, 7}, 8);
  HeapVictims g;
  g.init(t, 1);
  for (UnitId unit = 0; unit < 3; ++unit) g.on_close(t, unit);
  CHECK_FALSE(g.declines_background(t, 2));
  CHECK(g.declines_background(t, 3));
  CHECK(g.select(t, background(3, false)) == kNoUnit);  // declined, left in place
  CHECK(g.peek() == 1);
  // Without unwritten slots anywhere, the invalid count needs no t.unwritten.
  GcAsk none = background(3, false);
  none.unwritten = false;
  for (UnitId unit = 0; unit < 3; ++unit) CHECK(declines(t, unit, none) == declines(t, unit, background(3, false)));
  // May an invalidation make the unit the top? The top itself, and a unit
  // with as few valid slots; not one with more (it would tie and stay below).
  CHECK(g.may_become_top(t, 1));
  CHECK_FALSE(g.may_become_top(t, 0));
  t.valid[0] = 6;
  g.on_invalidate(t, 0);
  CHECK(g.peek() == 1);  // a tie does not move up
  CHECK(g.may_become_top(t, 0));
  t.valid[0] = 5;
  g.on_invalidate(t, 0);
  CHECK(g.peek() == 0);
  CHECK_FALSE(g.declines_background(t, 3));
  CHECK(g.select(t, background(3, false)) == 0);
  CHECK(g.select(t, forced()) == 1);
  CHECK(g.select(t, forced()) == 2);
  CHECK_FALSE(g.declines_background(t, 3));  // empty: nothing queued to decline
}

TEST_CASE("the greedy heap keeps pqueue.c's exact shape through random closes, invalidations and pops", "[ftl][unit]") {
  // Units of 16 slots: keys 0..16 over up to 600 queued units, so most keys
  // tie and the heap is 10 levels deep: where a tie sits is all pqueue.c's
  // rules. After every step the whole heap, index by index, is compared
  // with the reference FTL's plain pqueue.c (reference/pqueue_model.h), and
  // each pop's unit too.
  for (const uint32_t seed : {1u, 2u, 3u}) {
    constexpr uint32_t kUnits = 600, kSlots = 16;
    UnitTable t;
    t.resize(kUnits, kSlots);
    HeapVictims g;
    g.init(t, 1);
    std::vector<UnitId> heap{kNoUnit};
    std::vector<uint32_t> pos(kUnits, 0);
    ftlsim::reftest::PqueueModel model{heap, [&](UnitId u) { return t.valid[u]; },
                                       [&](UnitId u) -> uint32_t& { return pos[u]; }};
    std::mt19937 gen(seed);
    const auto rng = [&] { return static_cast<uint32_t>(gen()); };
    std::vector<UnitId> closed;  // closed units, queued or full
    UnitId next_free = 0;
    uint64_t pops = 0, deep_pops = 0;
    for (int step = 0; step < 20000; ++step) {
      const uint32_t what = rng() % 16;
      if (what == 0 && next_free < kUnits) {  // a unit closes with 12..16 valid
        const UnitId u = next_free++;
        t.valid[u] = kSlots - rng() % 5;
        t.state[u] = UnitState::kClosed;
        g.on_close(t, u);
        if (t.valid[u] != kSlots) model.insert(u);
        closed.push_back(u);
      } else if (what == 1 && heap.size() > 1) {  // a forced pass takes the top
        deep_pops += heap.size() > 256;
        const UnitId expect = model.pop();
        REQUIRE(g.select(t, forced()) == expect);
        ++pops;
        t.valid[expect] = kSlots - rng() % 3;  // erased and written again at once
        g.on_close(t, expect);
        if (t.valid[expect] != kSlots) model.insert(expect);
      } else if (!closed.empty()) {  // a slot of a closed unit goes invalid
        const UnitId u = closed[rng() % closed.size()];
        if (t.valid[u] == 0) continue;
        const bool was_full = t.valid[u] == kSlots;
        --t.valid[u];
        g.on_invalidate(t, u);
        if (was_full) {
          model.insert(u);
        } else {
          model.change_priority(u);
        }
      }
      REQUIRE(g.order() == heap);
    }
    CHECK(pops > 500);
    CHECK(deep_pops > 100);  // pops from a heap of 9 levels or more
  }
}

TEST_CASE("fifo takes the oldest unit that has an invalid slot", "[ftl][unit]") {
  UnitTable t = table_with({8, 2, 7, 0}, 8);
  FifoVictims f;
  f.init(t, 1);
  for (UnitId unit = 0; unit < 4; ++unit) f.on_close(t, unit);
  CHECK(f.select(t, background(1, false)) == 1);        // unit 0 fully valid: skipped
  CHECK(f.select(t, background(2, false)) == kNoUnit);  // oldest candidate (unit 2) has 1 invalid
  CHECK(f.select(t, background(1, false)) == 2);
  CHECK(f.select(t, background(1, false)) == 3);
  CHECK(f.select(t, background(1, false)) == kNoUnit);
}

TEST_CASE("cost-benefit prefers old cold units over young ones with equal utilisation", "[ftl][unit]") {
  UnitTable t = table_with({4, 4, 0}, 8);
  t.close_stamp = {100, 10, 99};
  CostBenefitVictims cb;
  cb.init(t, 1);
  for (UnitId unit = 0; unit < 3; ++unit) cb.on_close(t, unit);
  // unit 2: u=0, age 2 -> 2; unit 1: u=.5, age 91 -> 30.3; unit 0: age 1 -> 0.33
  const GcAsk at100{false, 1, false, 100};
  CHECK(cb.select(t, at100) == 1);
  CHECK(cb.select(t, at100) == 2);
  CHECK(cb.select(t, at100) == 0);
}

TEST_CASE("random and d-choice only return candidates and are seeded", "[ftl][unit]") {
  UnitTable t = table_with({8, 2, 7, 0, 8}, 8);
  auto draw = [&](auto victims) {
    victims.init(t, 42);
    for (UnitId unit = 0; unit < 5; ++unit) victims.on_close(t, unit);
    std::vector<UnitId> out;
    for (UnitId unit; (unit = victims.select(t, background(1, false))) != kNoUnit;) out.push_back(unit);
    return out;
  };
  auto r1 = draw(RandomVictims{});
  auto r2 = draw(RandomVictims{});
  CHECK(r1 == r2);
  std::sort(r1.begin(), r1.end());
  CHECK(r1 == std::vector<UnitId>{1, 2, 3});
  auto d = draw(DChoiceVictims{64});  // with many samples d-choice is greedy here
  CHECK(d == std::vector<UnitId>{3, 1, 2});
}
