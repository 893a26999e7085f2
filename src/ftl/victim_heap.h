#pragma once
// Greedy victim selection exactly as FEMU keeps it (docs/model.md, "Victim
// queue"): a binary min-heap over the closed units with an invalid (or
// unwritten) slot, keyed by valid slots, with the bubble-up, child choice and
// percolate-down rules of FEMU's hw/femu/lib/pqueue.c, so that ties among
// equal counts come out in the same order. A fully valid unit waits outside
// the heap until its first invalidation.
//
// Cost: O(log units) per invalidation of a queued unit; in practice one or
// two key comparisons, since a key only ever falls by one. The arrays are
// small (one entry per unit) and stay in cache.
#include <cstdint>
#include <vector>

#include "ftl/line_table.h"
#include "ftl/victim_policy.h"

namespace ftlsim::ftl {

class HeapVictims {
 public:
  void init(const LineTable& t, uint64_t /*seed*/) {
    heap_.assign(1, kNoLine);  // index 0 unused, as in pqueue.c
    heap_.reserve(t.size() + 1);
    pos_.assign(t.size(), 0);
  }

  void on_close(const LineTable& t, LineId l) {
    if (!t.full(l)) insert(t, l);
  }

  void on_invalidate(const LineTable& t, LineId l) {
    if (pos_[l] != 0) {
      reposition(t, l);
    } else {
      insert(t, l);  // it was full: its first invalidation queues it
    }
  }

  LineId select(const LineTable& t, const GcAsk& ask) {
    if (heap_.size() == 1) return kNoLine;
    const LineId top = heap_[1];
    if (!ask.requeue) {
      if (declines(t, top, ask)) return kNoLine;  // rule 12: left in place
      pop(t);
      return top;
    }
    pop(t);
    if (declines(t, top, ask)) {  // rule 13: popped and inserted again
      insert(t, top);
      return kNoLine;
    }
    return top;
  }

  [[nodiscard]] uint64_t queued(const LineTable& /*t*/) const { return heap_.size() - 1; }
  // The heap's shape, for the invariant check and tests: index -> unit.
  [[nodiscard]] const std::vector<LineId>& order() const { return heap_; }
  [[nodiscard]] uint32_t position(LineId l) const { return pos_[l]; }

 private:
  uint32_t key(const LineTable& t, uint32_t i) const { return t.valid[heap_[i]]; }

  void place(uint32_t i, LineId l) {
    heap_[i] = l;
    pos_[l] = i;
  }
  void bubble_up(const LineTable& t, uint32_t i) {
    const LineId moving = heap_[i];
    const uint32_t k = t.valid[moving];
    while (i > 1 && key(t, i / 2) > k) {
      place(i, heap_[i / 2]);
      i /= 2;
    }
    place(i, moving);
  }
  // pqueue.c maxchild: the left child unless the right one exists and the
  // left one's key is greater; 0 when there is no child.
  uint32_t child(const LineTable& t, uint32_t i) const {
    const uint32_t c = 2 * i;
    const auto n = static_cast<uint32_t>(heap_.size());
    if (c >= n) return 0;
    return (c + 1 < n && key(t, c) > key(t, c + 1)) ? c + 1 : c;
  }
  void percolate_down(const LineTable& t, uint32_t i) {
    const LineId moving = heap_[i];
    const uint32_t k = t.valid[moving];
    for (uint32_t c = child(t, i); c != 0 && k > key(t, c); c = child(t, i)) {
      place(i, heap_[c]);
      i = c;
    }
    place(i, moving);
  }
  void insert(const LineTable& t, LineId l) {
    heap_.push_back(l);
    bubble_up(t, static_cast<uint32_t>(heap_.size() - 1));
  }
  void pop(const LineTable& t) {
    const LineId top = heap_[1];
    heap_[1] = heap_.back();
    heap_.pop_back();
    if (heap_.size() > 1) percolate_down(t, 1);
    pos_[top] = 0;
  }
  // pqueue_change_priority after the key fell by one. Its percolate_down
  // branch never moves anything then: the heap held before, so the old key
  // was at most each child's and the new one is below them. Only the
  // bubble-up can act, and skipping the no-op saves the child comparisons on
  // every invalidation.
  void reposition(const LineTable& t, LineId l) {
    const uint32_t i = pos_[l];
    if (i > 1 && key(t, i / 2) > t.valid[l]) bubble_up(t, i);
  }

  std::vector<LineId> heap_;   // heap_[1..n]
  std::vector<uint32_t> pos_;  // per unit: index in heap_, 0 when not queued
};

static_assert(VictimSelector<HeapVictims>);

}  // namespace ftlsim::ftl
