#include <catch2/catch.hpp>

#include "ftl/victim_fifo.h"
#include "ftl/victim_greedy.h"
#include "ftl/victim_sampled.h"

using namespace ftlsim::ftl;

namespace {
LineTable table_with(std::initializer_list<uint32_t> valid, uint32_t slots) {
  LineTable t;
  t.resize(static_cast<uint32_t>(valid.size()), slots);
  uint32_t i = 0;
  for (uint32_t v : valid) {
    t.valid[i] = v;
    t.state[i] = LineState::kClosed;
    t.close_stamp[i] = i;
    ++i;
  }
  return t;
}
}  // namespace

TEST_CASE("greedy takes the fewest valid, first come first served on ties", "[ftl][unit]") {
  LineTable t = table_with({5, 3, 8, 3, 1}, 8);
  GreedyVictims g;
  g.init(t, 1);
  for (LineId l = 0; l < 5; ++l) g.on_close(t, l);
  CHECK(g.select(t, 1) == 4);  // valid 1
  CHECK(g.select(t, 1) == 1);  // valid 3, entered before line 3
  // line 0 loses two slots: 5 -> 3, now behind line 3 in bucket 3
  t.valid[0] = 4;
  g.on_invalidate(t, 0);
  t.valid[0] = 3;
  g.on_invalidate(t, 0);
  CHECK(g.select(t, 1) == 3);
  CHECK(g.select(t, 6) == kNoLine);  // line 0 has only 5 invalid
  CHECK(g.select(t, 5) == 0);
  CHECK(g.select(t, 1) == kNoLine);  // line 2 is fully valid
}

TEST_CASE("fifo takes the oldest line that has an invalid slot", "[ftl][unit]") {
  LineTable t = table_with({8, 2, 7, 0}, 8);
  FifoVictims f;
  f.init(t, 1);
  for (LineId l = 0; l < 4; ++l) f.on_close(t, l);
  CHECK(f.select(t, 1) == 1);         // line 0 fully valid: skipped
  CHECK(f.select(t, 2) == kNoLine);   // oldest candidate (line 2) has 1 invalid
  CHECK(f.select(t, 1) == 2);
  CHECK(f.select(t, 1) == 3);
  CHECK(f.select(t, 1) == kNoLine);
}

TEST_CASE("cost-benefit prefers old cold lines over young ones with equal utilisation", "[ftl][unit]") {
  LineTable t = table_with({4, 4, 0}, 8);
  t.close_stamp = {100, 10, 99};
  CostBenefitVictims cb;
  cb.init(t, 1);
  for (LineId l = 0; l < 3; ++l) cb.on_close(t, l);
  cb.set_now(100);
  // line 2: u=0, age 2 -> 2; line 1: u=.5, age 91 -> 30.3; line 0: age 1 -> 0.33
  CHECK(cb.select(t, 1) == 1);
  CHECK(cb.select(t, 1) == 2);
  CHECK(cb.select(t, 1) == 0);
}

TEST_CASE("random and d-choice only return candidates and are seeded", "[ftl][unit]") {
  LineTable t = table_with({8, 2, 7, 0, 8}, 8);
  auto draw = [&](auto victims) {
    victims.init(t, 42);
    for (LineId l = 0; l < 5; ++l) victims.on_close(t, l);
    std::vector<LineId> out;
    for (LineId l; (l = victims.select(t, 1)) != kNoLine;) out.push_back(l);
    return out;
  };
  auto r1 = draw(RandomVictims{});
  auto r2 = draw(RandomVictims{});
  CHECK(r1 == r2);
  std::sort(r1.begin(), r1.end());
  CHECK(r1 == std::vector<LineId>{1, 2, 3});
  auto d = draw(DChoiceVictims{64});  // with many samples d-choice is greedy here
  CHECK(d == std::vector<LineId>{3, 1, 2});
}
