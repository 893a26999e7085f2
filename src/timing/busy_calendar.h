#pragma once
// When one NAND resource (a plane or a channel) is busy: the end of its last
// reservation plus the idle gaps ("holes") left before it when something had
// to wait for another resource (a GC program waiting for its read on another
// die). A later reservation takes the earliest hole it fits, else goes at the
// end. Without the holes, a busy-until time alone would jump over such gaps
// and waste them, and cross-die GC copies would leave dies idle half the time.
// Holes that end at or before the horizon (no reservation can start earlier
// any more) are dropped; at most kMaxHoles are kept (the earliest go first).
#include <algorithm>
#include <cstdint>
#include <vector>

namespace ftlsim::timing {

class BusyCalendar {
 public:
  static constexpr size_t kMaxHoles = 32;

  explicit BusyCalendar(uint64_t min_hole = 1) : min_hole_(std::max<uint64_t>(min_hole, 1)) {}

  // Earliest start >= ready of `dur` free time. Drops holes that end at or
  // before `horizon` (REQUIRES horizon <= every later ready).
  uint64_t earliest(uint64_t ready, uint64_t dur, uint64_t horizon) {
    forget(horizon);
    for (const Hole& h : holes_) {
      const uint64_t s = std::max(ready, h.start);
      if (s + dur <= h.end) return s;
    }
    return std::max(ready, free_at_);
  }
  // Reserves `dur` at earliest(ready, dur); returns the start.
  uint64_t reserve(uint64_t ready, uint64_t dur, uint64_t horizon) {
    forget(horizon);
    for (size_t i = 0; i < holes_.size(); ++i) {
      const Hole h = holes_[i];
      const uint64_t s = std::max(ready, h.start);
      if (s + dur > h.end) continue;
      holes_.erase(holes_.begin() + static_cast<std::ptrdiff_t>(i));
      size_t at = i;
      if (s - h.start >= min_hole_) holes_.insert(holes_.begin() + static_cast<std::ptrdiff_t>(at++), Hole{h.start, s});
      if (h.end - (s + dur) >= min_hole_) holes_.insert(holes_.begin() + static_cast<std::ptrdiff_t>(at), Hole{s + dur, h.end});
      return s;
    }
    const uint64_t s = std::max(ready, free_at_);
    if (s - free_at_ >= min_hole_) {
      if (holes_.size() == kMaxHoles) holes_.erase(holes_.begin());
      holes_.push_back(Hole{free_at_, s});
    }
    free_at_ = s + dur;
    return s;
  }
  [[nodiscard]] uint64_t free_at() const { return free_at_; }
  [[nodiscard]] size_t holes() const { return holes_.size(); }

 private:
  struct Hole {
    uint64_t start, end;
  };
  void forget(uint64_t horizon) {
    size_t n = 0;
    while (n < holes_.size() && holes_[n].end <= horizon) ++n;
    if (n != 0) holes_.erase(holes_.begin(), holes_.begin() + static_cast<std::ptrdiff_t>(n));
  }

  uint64_t free_at_ = 0;
  uint64_t min_hole_ = 1;
  std::vector<Hole> holes_;  // disjoint, by start, all before free_at_
};

}  // namespace ftlsim::timing
