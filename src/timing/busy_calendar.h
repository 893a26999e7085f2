#pragma once
// When one NAND resource (a plane or a channel) is busy: the end of its last
// reservation plus the idle gaps ("holes") left before it when something had
// to wait for another resource (a GC program waiting for its read on another
// die). A later reservation takes the earliest hole it fits, else goes at the
// end. Without the holes, a busy-until time alone would jump over such gaps
// and waste them, and cross-die GC copies would leave dies idle half the time.
// Holes that end at or before the horizon (no reservation can start earlier
// any more) are dropped; a gap left at the end when exactly kMaxHoles are
// kept drops the earliest (splitting a hole in two can still take the count
// past kMaxHoles, and then nothing is dropped: a trim, not a bound; long runs
// keep hundreds of holes on a plane).
//
// The holes are kept in a ring buffer, in start order: dropping the earliest
// and adding at the end (most reservations) move nothing, and taking part of
// a hole shifts only the shorter side of the ring. Ends ascend with starts,
// so when the last hole ends before ready + dur none can take the
// reservation and nothing is scanned (most reservations of a busy plane);
// otherwise the holes are scanned in order, first fit. Same answers as the
// vector of holes this replaced (tests/timing/test_busy_calendar.cpp checks
// against it).
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace ftlsim::timing {

class BusyCalendar {
 public:
  static constexpr size_t kMaxHoles = 32;

  explicit BusyCalendar(uint64_t min_hole = 1) : min_hole_(std::max<uint64_t>(min_hole, 1)), ring_(kInitialRing) {}

  // Earliest start >= ready of `dur` free time. Drops holes that end at or
  // before `horizon` (REQUIRES horizon <= every later ready).
  uint64_t earliest(uint64_t ready, uint64_t dur, uint64_t horizon) {
    forget(horizon);
    uint64_t s = 0;
    if (find(ready, dur, s) != n_) return s;
    return std::max(ready, free_at_);
  }
  // Reserves `dur` at earliest(ready, dur); returns the start.
  uint64_t reserve(uint64_t ready, uint64_t dur, uint64_t horizon) {
    forget(horizon);
    uint64_t s = 0;
    const uint32_t i = find(ready, dur, s);
    if (i != n_) {
      Hole& h = at(i);
      const uint64_t end = h.end;
      const bool left = s - h.start >= min_hole_;
      const bool right = end - (s + dur) >= min_hole_;
      if (left) {
        h.end = s;
        if (right) insert(i + 1, Hole{s + dur, end});
      } else if (right) {
        h.start = s + dur;
      } else {
        erase(i);
      }
      return s;
    }
    s = std::max(ready, free_at_);
    if (s - free_at_ >= min_hole_) {
      if (n_ == kMaxHoles) pop_front();
      insert(n_, Hole{free_at_, s});
    }
    free_at_ = s + dur;
    return s;
  }
  [[nodiscard]] uint64_t free_at() const { return free_at_; }
  [[nodiscard]] size_t holes() const { return n_; }
  // Hole k (k < holes()) as {start, end}, in start order (for the tests).
  [[nodiscard]] std::pair<uint64_t, uint64_t> hole(size_t k) const {
    const Hole& h = ring_[(head_ + k) & mask()];
    return {h.start, h.end};
  }

 private:
  struct Hole {
    uint64_t start, end;
  };
  static constexpr uint32_t kInitialRing = 16;  // a power of two

  Hole& at(uint32_t i) { return ring_[(head_ + i) & mask()]; }
  [[nodiscard]] uint32_t mask() const { return static_cast<uint32_t>(ring_.size()) - 1; }

  // The first hole (in order) with max(ready, start) + dur <= end, its start
  // in s; n_ when none.
  uint32_t find(uint64_t ready, uint64_t dur, uint64_t& s) {
    if (n_ == 0 || at(n_ - 1).end < ready + dur) return n_;  // often: every hole ends too early
    for (uint32_t k = 0; k < n_; ++k) {
      const Hole& h = at(k);
      s = std::max(ready, h.start);
      if (s + dur <= h.end) return k;
    }
    return n_;
  }
  void forget(uint64_t horizon) {
    while (n_ != 0 && ring_[head_].end <= horizon) pop_front();
  }
  void pop_front() {
    head_ = (head_ + 1) & mask();
    --n_;
  }
  // Inserts h before logical position i (i <= n_), moving the shorter side.
  void insert(uint32_t i, Hole h) {
    if (n_ == ring_.size()) grow();
    if (i < n_ - i) {
      head_ = (head_ - 1) & mask();
      for (uint32_t k = 0; k < i; ++k) at(k) = at(k + 1);
    } else {
      for (uint32_t k = n_; k > i; --k) at(k) = at(k - 1);
    }
    at(i) = h;
    ++n_;
  }
  // Removes logical position i (i < n_), moving the shorter side.
  void erase(uint32_t i) {
    if (i < n_ - 1 - i) {
      for (uint32_t k = i; k > 0; --k) at(k) = at(k - 1);
      head_ = (head_ + 1) & mask();
    } else {
      for (uint32_t k = i; k + 1 < n_; ++k) at(k) = at(k + 1);
    }
    --n_;
  }
  void grow() {  // rare: the ring holds the working set after a while
    std::vector<Hole> bigger(ring_.size() * 2);
    for (uint32_t k = 0; k < n_; ++k) bigger[k] = at(k);
    ring_ = std::move(bigger);
    head_ = 0;
  }

  uint64_t free_at_ = 0;
  uint64_t min_hole_ = 1;
  std::vector<Hole> ring_;  // holes_: ring_[(head_ + k) & mask()], k < n_; disjoint, by start, all before free_at_
  uint32_t head_ = 0;
  uint32_t n_ = 0;
};

}  // namespace ftlsim::timing
