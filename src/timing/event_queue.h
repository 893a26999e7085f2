#pragma once
// The discrete-event queue of timed mode: a binary min-heap of small PODs in
// a pre-reserved vector, ordered by time and then by a sequence number given
// at push, so that events at the same time pop in the order they were pushed
// (deterministic, like gem5's event priorities). No allocation per event once
// the heap has grown to its working size.
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
    if constexpr (kCheckInvariants) {
      if (e.time < now_) {
        throw std::logic_error("EventQueue: an event at " + std::to_string(e.time) +
                               " ns pushed after the queue reached " + std::to_string(now_) + " ns");
      }
    }
    e.seq = next_seq_++;
    heap_.push_back(e);
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }
  // The earliest event (smallest time, then smallest seq). REQUIRES !empty().
  [[nodiscard]] const Event& top() const {
    assert(!heap_.empty());
    return heap_.front();
  }
  // Removes and returns top(). REQUIRES !empty().
  Event pop() {
    assert(!heap_.empty());
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    const Event e = heap_.back();
    heap_.pop_back();
    if constexpr (kCheckInvariants) now_ = e.time;
    return e;
  }

 private:
  // Heap order: std::*_heap keep the "largest" on top, so "larger" = later.
  // A function object, not a function pointer: the heap algorithms inline it.
  struct Later {
    bool operator()(const Event& a, const Event& b) const { return a.time != b.time ? a.time > b.time : a.seq > b.seq; }
  };
  std::vector<Event> heap_;
  uint64_t next_seq_ = 0;
  uint64_t now_ = 0;  // time of the last event popped (kept with FTLSIM_INVARIANTS only)
};

}  // namespace ftlsim::timing
