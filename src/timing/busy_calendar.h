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
// Finding the hole. Holes are disjoint and kept in start order, so their ends
// ascend too. A reservation of `dur` ready at `ready` fits hole [start, end)
// iff max(ready, start) + dur <= end, that is iff end >= ready + dur AND
// end - start >= dur. So the first hole it fits is the first hole at least
// dur long whose end is at least ready + dur: among holes at least dur long,
// those ending late enough are a suffix, found by binary search. Every hole
// is at least min_hole long (shorter gaps are not kept), so a reservation of
// at most min_hole (a read on a plane, a transfer on a channel) takes the
// first hole ending late enough; a reservation of exactly `long_hole` (a
// program on a plane) searches a second list, of the holes at least that
// long, kept beside the list of all holes. Other durations (erases) scan the
// holes in order, as first fit reads. When the last hole ends before ready +
// dur, nothing is searched (most reservations of a busy plane).
//
// Each list is an array with free room at both ends: dropping the earliest
// and adding at the end (most changes) move nothing; taking part of a hole
// shifts only the shorter side. The answers and holes are those of one
// vector of holes scanned in order (tests/timing/test_busy_calendar.cpp
// checks against it).
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace ftlsim::timing {

class BusyCalendar {
 public:
  static constexpr size_t kMaxHoles = 32;

  // long_hole: the duration whose reservations search the list of long
  // holes (0 or <= min_hole: no such list).
  explicit BusyCalendar(uint64_t min_hole = 1, uint64_t long_hole = 0)
      : min_hole_(std::max<uint64_t>(min_hole, 1)), long_(long_hole > min_hole_ ? long_hole : kNoLong) {}

  // Earliest start >= ready of `dur` free time. Drops holes that end at or
  // before `horizon` (REQUIRES horizon <= every later ready).
  uint64_t earliest(uint64_t ready, uint64_t dur, uint64_t horizon) {
    if (all_.size() != 0) {
      forget(horizon);
      if (all_.size() != 0 && all_.back().end >= ready + dur) {
        if (dur <= min_hole_ && all_.front().end >= ready + dur) return std::max(ready, all_.front().start);
        const Found f = find(ready, dur);
        if (f.i != kNone) return f.s;
      }
    }
    return std::max(ready, free_at_);
  }
  // Reserves `dur` at earliest(ready, dur); returns the start. Inline: the
  // common cases (no hole, or every hole ends too early) cost a few
  // instructions; a search is out of line.
  uint64_t reserve(uint64_t ready, uint64_t dur, uint64_t horizon) {
    if (all_.size() != 0) {
      forget(horizon);
      if (all_.size() != 0 && all_.back().end >= ready + dur) {
        uint64_t s = 0;
        if (take_from_first(ready, dur, kNone64, s)) return s;
        s = take_first_fit(ready, dur);
        if (s != kNone64) return s;
      }
    }
    const uint64_t s = std::max(ready, free_at_);
    if (s - free_at_ >= min_hole_) add_hole(s);
    free_at_ = s + dur;
    return s;
  }
  // Reserves `dur` at earliest(ready, dur) if that is before `limit`;
  // returns earliest(ready, dur) either way.
  uint64_t reserve_before(uint64_t ready, uint64_t dur, uint64_t horizon, uint64_t limit) {
    if (all_.size() != 0) {
      forget(horizon);
      if (all_.size() != 0 && all_.back().end >= ready + dur) {
        uint64_t s = 0;
        if (take_from_first(ready, dur, limit, s)) return s;
        s = take_first_fit(ready, dur, limit);
        if (s != kNone64) return s;
      }
    }
    const uint64_t s = std::max(ready, free_at_);
    if (s < limit) {
      if (s - free_at_ >= min_hole_) add_hole(s);
      free_at_ = s + dur;
    }
    return s;
  }
  [[nodiscard]] uint64_t free_at() const { return free_at_; }
  [[nodiscard]] size_t holes() const { return all_.size(); }
  // Hole k (k < holes()) as {start, end}, in start order (for the tests).
  [[nodiscard]] std::pair<uint64_t, uint64_t> hole(size_t k) const {
    const Hole& h = all_[static_cast<uint32_t>(k)];
    return {h.start, h.end};
  }
  // The list of long holes (for the tests): count and hole k.
  [[nodiscard]] size_t long_holes() const { return longs_.size(); }
  [[nodiscard]] std::pair<uint64_t, uint64_t> long_hole(size_t k) const {
    const Hole& h = longs_[static_cast<uint32_t>(k)];
    return {h.start, h.end};
  }

 private:
  static constexpr uint64_t kNoLong = ~uint64_t{0};
  static constexpr uint32_t kNone = ~uint32_t{0};
  static constexpr uint64_t kNone64 = ~uint64_t{0};
  struct Hole {
    uint64_t start, end;
  };
  // Holes in start order in an array with room at both ends.
  class List {
   public:
    [[nodiscard]] uint32_t size() const { return e_ - b_; }
    const Hole& operator[](uint32_t i) const { return buf_[b_ + i]; }
    Hole& operator[](uint32_t i) { return buf_[b_ + i]; }
    [[nodiscard]] const Hole& front() const { return buf_[b_]; }
    Hole& front() { return buf_[b_]; }
    [[nodiscard]] const Hole& back() const { return buf_[e_ - 1]; }
    // The first hole whose end is >= t (size() when none): ends ascend.
    [[nodiscard]] uint32_t first_ending_at_or_after(uint64_t t) const {
      const Hole* h = buf_.data() + b_;
      uint32_t lo = 0, len = size();
      while (len != 0) {
        const uint32_t half = len / 2;
        if (h[lo + half].end < t) {
          lo += half + 1;
          len -= half + 1;
        } else {
          len = half;
        }
      }
      return lo;
    }
    // The hole starting at `start`. REQUIRES: there is one.
    [[nodiscard]] uint32_t index_of(uint64_t start) const {
      const Hole* h = buf_.data() + b_;
      uint32_t lo = 0, len = size();
      while (len != 0) {
        const uint32_t half = len / 2;
        if (h[lo + half].start < start) {
          lo += half + 1;
          len -= half + 1;
        } else {
          len = half;
        }
      }
      return lo;
    }
    void pop_front() {
      if (++b_ == e_) b_ = e_ = 0;
    }
    void push_back(Hole h) {
      if (e_ == buf_.size()) room_at_back();
      buf_[e_++] = h;
    }
    // Inserts h before position i (i <= size()), moving the shorter side.
    void insert(uint32_t i, Hole h) {
      if (i < size() / 2 && b_ != 0) {
        --b_;
        for (uint32_t k = b_; k < b_ + i; ++k) buf_[k] = buf_[k + 1];
      } else {
        if (e_ == buf_.size()) room_at_back();
        for (uint32_t k = e_; k > b_ + i; --k) buf_[k] = buf_[k - 1];
        ++e_;
      }
      buf_[b_ + i] = h;
    }
    // Removes position i (i < size()), moving the shorter side.
    void erase(uint32_t i) {
      if (i < size() / 2) {
        for (uint32_t k = b_ + i; k > b_; --k) buf_[k] = buf_[k - 1];
        ++b_;
      } else {
        for (uint32_t k = b_ + i; k + 1 < e_; ++k) buf_[k] = buf_[k + 1];
        --e_;
      }
      if (b_ == e_) b_ = e_ = 0;
    }

   private:
    // Room for one more at the back: the holes move to the front of the
    // array if it is at most half full, else it doubles.
    void room_at_back() {
      const uint32_t n = size();
      if (buf_.size() >= 16 && 2 * n <= buf_.size()) {
        std::copy(buf_.begin() + b_, buf_.begin() + e_, buf_.begin());
      } else {
        std::vector<Hole> bigger(std::max<size_t>(16, 2 * buf_.size()));
        std::copy(buf_.begin() + b_, buf_.begin() + e_, bigger.begin());
        buf_ = std::move(bigger);
      }
      b_ = 0;
      e_ = n;
    }
    std::vector<Hole> buf_;   // allocated at the first hole
    uint32_t b_ = 0, e_ = 0;  // holes: buf_[b_, e_)
  };

  // A hole for a reservation: its index in all_ (kNone: none), in longs_
  // (kNone: not known or not long) and the start.
  struct Found {
    uint32_t i = kNone;
    uint32_t k = kNone;
    uint64_t s = 0;
  };

  [[nodiscard]] bool is_long(uint64_t start, uint64_t end) const { return end - start >= long_; }

  // The first hole (in order) with max(ready, start) + dur <= end.
  // REQUIRES: the last hole ends at or after ready + dur.
  [[nodiscard]] Found find(uint64_t ready, uint64_t dur) const {
    Found f;
    if (dur <= min_hole_) {  // every hole is long enough: the first ending late enough
      f.i = all_.front().end >= ready + dur ? 0 : all_.first_ending_at_or_after(ready + dur);
      f.s = std::max(ready, all_[f.i].start);
      return f;
    }
    if (dur == long_) {  // the first long hole ending late enough
      f.k = longs_.size() == 0 || longs_.front().end >= ready + dur ? 0 : longs_.first_ending_at_or_after(ready + dur);
      if (f.k == longs_.size()) return Found{};
      const Hole& h = longs_[f.k];
      f.s = std::max(ready, h.start);
      f.i = all_.front().start == h.start ? 0 : all_.index_of(h.start);
      return f;
    }
    for (uint32_t k = 0; k < all_.size(); ++k) {
      const Hole& h = all_[k];
      const uint64_t s = std::max(ready, h.start);
      if (s + dur <= h.end) return Found{k, kNone, s};
    }
    return Found{};
  }
  // Most reads: a reservation of at most min_hole that fits the first hole
  // (then its first fit) from the hole's start. Sets s and, if s < limit,
  // takes it; false when the general path must decide (another hole, or a
  // part left before s).
  bool take_from_first(uint64_t ready, uint64_t dur, uint64_t limit, uint64_t& s) {
    if (dur > min_hole_) return false;
    Hole& h = all_.front();
    if (h.end < ready + dur) return false;
    s = std::max(ready, h.start);
    if (s >= limit) return true;
    if (s - h.start >= min_hole_) return false;
    // The first hole, if long, is the first long hole.
    const bool was_long = is_long(h.start, h.end);
    if (h.end - (s + dur) >= min_hole_) {
      h.start = s + dur;
      if (was_long) {
        if (is_long(h.start, h.end)) {
          longs_.front().start = h.start;
        } else {
          longs_.pop_front();
        }
      }
    } else {
      all_.pop_front();
      if (was_long) longs_.pop_front();
    }
    return true;
  }
  // Reserves `dur` in the first hole it fits if that starts before `limit`;
  // returns its start, kNone64 when none fits.
  [[gnu::noinline]] uint64_t take_first_fit(uint64_t ready, uint64_t dur, uint64_t limit = kNone64) {
    const Found f = find(ready, dur);
    if (f.i == kNone) return kNone64;
    const uint64_t s = f.s;
    if (s >= limit) return s;
    Hole& h = all_[f.i];
    const uint64_t start = h.start;
    const uint64_t end = h.end;
    const bool left = s - start >= min_hole_;
    const bool right = end - (s + dur) >= min_hole_;
    if (left) {
      h.end = s;
      if (right) all_.insert(f.i + 1, Hole{s + dur, end});
    } else if (right) {
      h.start = s + dur;
    } else {
      all_.erase(f.i);
    }
    if (!is_long(start, end)) return s;  // its parts are shorter still: the long list is unchanged
    // Replace it in the long list by its long parts.
    const uint32_t k = f.k != kNone ? f.k : longs_.front().start == start ? 0 : longs_.index_of(start);
    const bool left_long = left && is_long(start, s);
    const bool right_long = right && is_long(s + dur, end);
    if (left_long) {
      longs_[k].end = s;
      if (right_long) longs_.insert(k + 1, Hole{s + dur, end});
    } else if (right_long) {
      longs_[k].start = s + dur;
    } else {
      longs_.erase(k);
    }
    return s;
  }
  // The gap [free_at_, s) before a reservation at the end becomes a hole.
  [[gnu::noinline]] void add_hole(uint64_t s) {
    if (all_.size() == kMaxHoles) {  // drop the earliest
      if (longs_.size() != 0 && longs_.front().start == all_.front().start) longs_.pop_front();
      all_.pop_front();
    }
    all_.push_back(Hole{free_at_, s});
    if (is_long(free_at_, s)) longs_.push_back(Hole{free_at_, s});
  }
  // REQUIRES: a hole. Long holes are among all holes: one ends by the
  // horizon only if the first hole does.
  void forget(uint64_t horizon) {
    if (all_.front().end <= horizon) forget_slow(horizon);
  }
  [[gnu::noinline]] void forget_slow(uint64_t horizon) {
    while (all_.size() != 0 && all_.front().end <= horizon) all_.pop_front();
    while (longs_.size() != 0 && longs_.front().end <= horizon) longs_.pop_front();
  }

  uint64_t free_at_ = 0;
  uint64_t min_hole_ = 1;
  uint64_t long_ = kNoLong;  // holes at least this long are also in longs_ (kNoLong: none)
  List all_;                 // every hole: disjoint, by start, all before free_at_
  List longs_;               // the holes at least long_ long, by start
};

}  // namespace ftlsim::timing
