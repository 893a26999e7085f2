// BusyCalendar (lists of holes searched by end: all of them, and those at
// least one program long) against the plain version it replaced: a vector of
// holes scanned in order, erased from and inserted into. Hand-checked cases
// first, then random operation sequences with a fixed seed, every answer and
// every hole compared, and the list of long holes checked against the holes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "timing/busy_calendar.h"

using ftlsim::Rng;
using ftlsim::timing::BusyCalendar;

namespace {

// The reference: every hole scanned in start order (busy_calendar.h before
// the ring buffer, kept here as the definition of the answers).
class NaiveCalendar {
 public:
  explicit NaiveCalendar(uint64_t min_hole) : min_hole_(std::max<uint64_t>(min_hole, 1)) {}
  uint64_t earliest(uint64_t ready, uint64_t dur, uint64_t horizon) {
    forget(horizon);
    for (const Hole& h : holes_) {
      const uint64_t s = std::max(ready, h.start);
      if (s + dur <= h.end) return s;
    }
    return std::max(ready, free_at_);
  }
  uint64_t reserve(uint64_t ready, uint64_t dur, uint64_t horizon) {
    forget(horizon);
    for (size_t i = 0; i < holes_.size(); ++i) {
      const Hole h = holes_[i];
      const uint64_t s = std::max(ready, h.start);
      if (s + dur > h.end) continue;
      holes_.erase(holes_.begin() + static_cast<std::ptrdiff_t>(i));
      size_t at = i;
      if (s - h.start >= min_hole_) holes_.insert(holes_.begin() + static_cast<std::ptrdiff_t>(at++), Hole{h.start, s});
      if (h.end - (s + dur) >= min_hole_)
        holes_.insert(holes_.begin() + static_cast<std::ptrdiff_t>(at), Hole{s + dur, h.end});
      return s;
    }
    const uint64_t s = std::max(ready, free_at_);
    if (s - free_at_ >= min_hole_) {
      if (holes_.size() == BusyCalendar::kMaxHoles) holes_.erase(holes_.begin());
      holes_.push_back(Hole{free_at_, s});
    }
    free_at_ = s + dur;
    return s;
  }
  [[nodiscard]] uint64_t free_at() const { return free_at_; }
  [[nodiscard]] size_t holes() const { return holes_.size(); }
  [[nodiscard]] std::pair<uint64_t, uint64_t> hole(size_t k) const { return {holes_[k].start, holes_[k].end}; }

 private:
  struct Hole {
    uint64_t start, end;
  };
  void forget(uint64_t horizon) {
    size_t n = 0;
    while (n < holes_.size() && holes_[n].end <= horizon) ++n;
    holes_.erase(holes_.begin(), holes_.begin() + static_cast<std::ptrdiff_t>(n));
  }
  uint64_t free_at_ = 0;
  uint64_t min_hole_;
  std::vector<Hole> holes_;
};

}  // namespace

TEST_CASE("busy calendar: holes left behind a wait are taken first fit, split and dropped", "[timing]") {
  BusyCalendar c(10);
  CHECK(c.reserve(0, 100, 0) == 0);     // busy 0..100
  CHECK(c.reserve(300, 50, 0) == 300);  // hole 100..300, busy 300..350
  CHECK(c.holes() == 1);
  CHECK(c.free_at() == 350);
  CHECK(c.earliest(0, 200, 0) == 100);    // fits the hole exactly
  CHECK(c.earliest(0, 201, 0) == 350);    // does not: at the end
  CHECK(c.earliest(150, 100, 0) == 150);  // inside the hole, from ready
  CHECK(c.earliest(250, 100, 0) == 350);  // 250..350 runs past the hole's end
  CHECK(c.reserve(150, 20, 0) == 150);    // splits it: 100..150 and 170..300
  CHECK(c.holes() == 2);
  CHECK(c.reserve(0, 45, 0) == 100);  // 100..145 leaves 145..150 (5 < 10): dropped
  CHECK(c.holes() == 1);
  CHECK(c.reserve(0, 130, 0) == 170);  // 170..300 taken whole
  CHECK(c.holes() == 0);
  CHECK(c.reserve(400, 10, 0) == 400);  // hole 350..400
  CHECK(c.reserve(500, 10, 0) == 500);  // hole 410..500
  CHECK(c.holes() == 2);
  CHECK(c.earliest(0, 10, 400) == 410);  // the horizon drops 350..400
  CHECK(c.holes() == 1);
  CHECK(c.reserve(1000, 5, 1000) == 1000);  // every hole is before the horizon; at the end
  CHECK(c.holes() == 1);                    // 510..1000, the gap this left
  CHECK(c.free_at() == 1005);
}

TEST_CASE("busy calendar: at kMaxHoles a gap at the end drops the earliest hole, a split may exceed it", "[timing]") {
  BusyCalendar c(1);
  uint64_t t = 0;
  for (size_t k = 0; k < BusyCalendar::kMaxHoles + 3; ++k) {
    t += 10;  // a 10 ns gap, then 10 ns busy
    CHECK(c.reserve(t, 10, 0) == t);
    t += 10;
    CHECK(c.holes() == std::min<size_t>(k + 1, BusyCalendar::kMaxHoles));
  }
  // Hole k is 20k..20k+10; the first three were dropped, so 60..70 is first.
  CHECK(c.earliest(0, 10, 0) == 60);
  CHECK(c.reserve(62, 2, 0) == 62);  // 60..62 and 64..70: one more than the maximum
  CHECK(c.holes() == BusyCalendar::kMaxHoles + 1);
  t += 10;
  CHECK(c.reserve(t, 10, 0) == t);  // not exactly at the maximum: nothing dropped
  CHECK(c.holes() == BusyCalendar::kMaxHoles + 2);
}

TEST_CASE("busy calendar: same answers and holes as scanning every hole, on random sequences", "[timing]") {
  // Durations as a plane sees them (read, program, erase) and channel-sized
  // ones; readies anywhere from the horizon to past the end (so holes are
  // taken, split and erased at every position, from both sides of each
  // list); a horizon that only moves forward and stays at or before every
  // later ready; the lists grow past their first size (runs without a
  // horizon keep hundreds of holes); reservations made only if they start
  // before a limit. Every hole is compared after every operation.
  // Calendars without a long list (a channel's) and with one: at the
  // program time (200, a plane's with reads of 40), at a duration between
  // (60), and at one also drawn as a min_hole-sized duration (40 with
  // min_hole 1).
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    Rng rng(seed);
    const uint64_t min_hole = seed % 4 == 0 ? 1 : 40;
    const uint64_t longs[] = {0, 200, 200, 60, 40};
    const uint64_t long_hole = longs[seed % std::size(longs)];
    BusyCalendar fast(min_hole, long_hole);
    NaiveCalendar ref(min_hole);
    const uint64_t durs[] = {40, 200, 200, 2000, 5, 1, 60, 40};
    uint64_t horizon = 0;
    uint64_t max_holes = 0;
    const bool keep_horizon = seed % 5 == 0;
    for (int op = 0; op < 20000; ++op) {
      if (!keep_horizon && rng.below(16) == 0) horizon += rng.below(300);
      uint64_t ready = 0;
      if (rng.below(2) == 0) {  // near the end, before or after it
        const uint64_t back = rng.below(4) == 0 ? rng.below(3000) : rng.below(200);
        const uint64_t base = ref.free_at() > back ? ref.free_at() - back : 0;
        ready = std::max(horizon, base + rng.below(400));
      } else {  // anywhere among the holes
        ready = horizon + rng.below(ref.free_at() - std::min(horizon, ref.free_at()) + 400);
      }
      const uint64_t dur = durs[rng.below(std::size(durs))];
      const uint64_t kind = rng.below(4);
      if (kind == 0) {
        REQUIRE(fast.earliest(ready, dur, horizon) == ref.earliest(ready, dur, horizon));
      } else if (kind == 1) {  // reserved only if it starts before a limit near its start
        const uint64_t s = ref.earliest(ready, dur, horizon);
        const uint64_t limit = s + rng.below(3) - 1;  // s - 1, s or s + 1
        REQUIRE(fast.reserve_before(ready, dur, horizon, limit) == s);
        if (s < limit) (void)ref.reserve(ready, dur, horizon);
      } else {
        REQUIRE(fast.reserve(ready, dur, horizon) == ref.reserve(ready, dur, horizon));
      }
      REQUIRE(fast.free_at() == ref.free_at());
      REQUIRE(fast.holes() == ref.holes());
      bool same = true;
      for (size_t k = 0; k < ref.holes(); ++k) same = same && fast.hole(k) == ref.hole(k);
      REQUIRE(same);
      // The long list: exactly the holes at least long_hole long, in order.
      size_t n_long = 0;
      const bool listed = long_hole > min_hole;
      for (size_t k = 0; k < ref.holes(); ++k) {
        const auto [b, e] = ref.hole(k);
        if (!listed || e - b < long_hole) continue;
        same = same && n_long < fast.long_holes() && fast.long_hole(n_long) == ref.hole(k);
        ++n_long;
      }
      REQUIRE(same);
      REQUIRE(fast.long_holes() == n_long);
      max_holes = std::max<uint64_t>(max_holes, ref.holes());
    }
    if (keep_horizon) CHECK(max_holes > 64);  // the lists grew
  }
}
