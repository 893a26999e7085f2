#pragma once
// The discrete-event queue of timed mode: a binary min-heap of small PODs in
// a pre-reserved vector, ordered by time and then by a sequence number given
// at push, so that events at the same time pop in the order they were pushed
// (deterministic, like gem5's event priorities); pop_push() is a pop and a
// push in one pass down. No allocation per event once the heap has grown to
// its working size.
//
// Time only moves forward: an event is never pushed before the time of the
// last one popped (the simulated now). Builds with FTL invariant checks
// (FTLSIM_INVARIANTS: the debug and asan presets) check it on every push
// and throw std::logic_error, as the engine's invariant checks do; release
// builds do not check.
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/invariants.h"

namespace ftlsim::timing {

enum class EventKind : uint8_t {
  kArrival,     // open loop: record `index` is due at `time`
  kCompletion,  // a host request issued at `start` completes at `time`
};

struct Event {
  uint64_t time = 0;
  uint64_t seq = 0;    // set by push(); the tie-break
  uint64_t start = 0;  // kCompletion: issue time
  uint64_t index = 0;  // the record
  EventKind kind = EventKind::kArrival;
  uint8_t op = 0;  // kCompletion: HostOp
};

class EventQueue {
 public:
  void reserve(size_t n) { heap_.reserve(n); }
  [[nodiscard]] bool empty() const { return heap_.empty(); }
  [[nodiscard]] size_t size() const { return heap_.size(); }
  // Adds e (its seq is overwritten). REQUIRES e.time >= the time of the
  // last event popped (checked with FTLSIM_INVARIANTS).
  void push(Event e) {
    check(e);
    e.seq = next_seq_++;
    heap_.push_back(e);
    sift_up(heap_.size() - 1, e);
  }
  // The earliest event (smallest time, then smallest seq). REQUIRES !empty().
  [[nodiscard]] const Event& top() const {
    assert(!heap_.empty());
    return heap_.front();
  }
  // Removes and returns top(). REQUIRES !empty().
  Event pop() {
    assert(!heap_.empty());
    const Event e = heap_.front();
    const Event last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(last);
    if constexpr (kCheckInvariants) now_ = e.time;
    return e;
  }
  // pop() then push(e), in one pass down the heap (the same order as the two
  // calls: seq is still given at the push). REQUIRES !empty().
  Event pop_push(Event e) {
    assert(!heap_.empty());
    const Event top = heap_.front();
    if constexpr (kCheckInvariants) now_ = top.time;
    check(e);
    e.seq = next_seq_++;
    sift_down(e);
    return top;
  }

 private:
  // a before b: earlier time, then earlier push.
  static bool before(const Event& a, const Event& b) { return a.time != b.time ? a.time < b.time : a.seq < b.seq; }
  void check(const Event& e) const {
    if constexpr (kCheckInvariants) {
      if (e.time < now_) {
        throw std::logic_error("EventQueue: an event at " + std::to_string(e.time) +
                               " ns pushed after the queue reached " + std::to_string(now_) + " ns");
      }
    }
  }
  // Puts e at position i (a hole) or above it.
  void sift_up(size_t i, const Event& e) {
    while (i != 0) {
      const size_t parent = (i - 1) / 2;
      if (!before(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }
  // Puts e at the root (a hole) or below it.
  void sift_down(const Event& e) {
    const size_t n = heap_.size();
    size_t i = 0;
    for (;;) {
      size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && before(heap_[c + 1], heap_[c])) ++c;
      if (!before(heap_[c], e)) break;
      heap_[i] = heap_[c];
      i = c;
    }
    heap_[i] = e;
  }
  std::vector<Event> heap_;
  uint64_t next_seq_ = 0;
  uint64_t now_ = 0;  // time of the last event popped (kept with FTLSIM_INVARIANTS only)
};

}  // namespace ftlsim::timing
