#pragma once
// Greedy victim selection exactly as FEMU keeps it (docs/model.md, "Victim
// queue"): a binary min-heap over the closed units with an invalid (or
// unwritten) slot, keyed by valid slots, with the bubble-up, child choice and
// percolate-down rules of FEMU's hw/femu/lib/pqueue.c, so that ties among
// equal counts come out in the same order. A fully valid unit waits outside
// the heap until its first invalidation.
//
// Cost: O(log units) per invalidation of a queued unit; in practice one or
// two key comparisons, since a key only ever falls by one. Each heap entry
// holds its unit's key (a copy of t.valid, updated on every invalidation),
// so comparisons touch the heap array only. The arrays are small (8 + 4
// bytes per unit).
#include <cstdint>
#include <vector>

#include "ftl/line_table.h"
#include "ftl/victim_policy.h"

namespace ftlsim::ftl {

class HeapVictims {
 public:
  void init(const LineTable& t, uint64_t /*seed*/) {
    heap_.assign(1, Entry{0, kNoLine});  // index 0 unused, as in pqueue.c
    heap_.reserve(t.size() + 1);
    pos_.assign(t.size(), 0);
  }

  void on_close(const LineTable& t, LineId l) {
    if (!t.full(l)) insert(t, l);
  }

  void on_invalidate(const LineTable& t, LineId l) {
    const uint32_t i = pos_[l];
    if (i != 0) {
      // pqueue_change_priority after the key fell by one. Its percolate_down
      // branch never moves anything then: the heap held before, so the old
      // key was at most each child's and the new one is below them. Only the
      // bubble-up can act, and skipping the no-op saves the child
      // comparisons on every invalidation. The entry's copy of the key is
      // kept equal to t.valid[l], so the parent check is one load (heap_[i/2])
      // after pos_[l], with no lookup of the parent's unit in t.
      const uint32_t k = t.valid[l];
      heap_[i].key = k;
      if (i > 1 && heap_[i / 2].key > k) bubble_up(i);
    } else {
      insert(t, l);  // it was full: its first invalidation queues it
    }
  }

  LineId select(const LineTable& t, const GcAsk& ask) {
    if (heap_.size() == 1) return kNoLine;
    const LineId top = heap_[1].unit;
    if (!ask.requeue) {
      if (declines(t, top, ask)) return kNoLine;  // rule 12: left in place
      pop();
      return top;
    }
    pop();
    if (declines(t, top, ask)) {  // rule 13: popped and inserted again
      insert(t, top);
      return kNoLine;
    }
    return top;
  }

  // The unit select() would look at now (kNoLine: none queued), for
  // prefetching the next victim's maps; changes nothing.
  [[nodiscard]] LineId peek() const { return heap_.size() > 1 ? heap_[1].unit : kNoLine; }

  [[nodiscard]] uint64_t queued(const LineTable& /*t*/) const { return heap_.size() - 1; }
  // The heap's shape, for the invariant check and tests: index -> unit
  // (index 0 unused), and the key each entry holds (equal to t.valid).
  [[nodiscard]] std::vector<LineId> order() const {
    std::vector<LineId> out(heap_.size());
    for (size_t i = 0; i < heap_.size(); ++i) out[i] = heap_[i].unit;
    return out;
  }
  [[nodiscard]] uint32_t key_at(uint32_t i) const { return heap_[i].key; }
  [[nodiscard]] uint32_t position(LineId l) const { return pos_[l]; }

 private:
  // A heap entry carries its unit's key (valid slots) so that the
  // comparisons read the heap array only: one cache line holds both children.
  struct Entry {
    uint32_t key;
    LineId unit;
  };

  void place(uint32_t i, Entry e) {
    heap_[i] = e;
    pos_[e.unit] = i;
  }
  void bubble_up(uint32_t i) {
    const Entry moving = heap_[i];
    while (i > 1 && heap_[i / 2].key > moving.key) {
      place(i, heap_[i / 2]);
      i /= 2;
    }
    place(i, moving);
  }
  // pqueue.c maxchild: the left child unless the right one exists and the
  // left one's key is greater; 0 when there is no child.
  uint32_t child(uint32_t i) const {
    const uint32_t c = 2 * i;
    const auto n = static_cast<uint32_t>(heap_.size());
    if (c >= n) return 0;
    return (c + 1 < n && heap_[c].key > heap_[c + 1].key) ? c + 1 : c;
  }
  void percolate_down(uint32_t i) {
    const Entry moving = heap_[i];
    for (uint32_t c = child(i); c != 0 && moving.key > heap_[c].key; c = child(i)) {
      place(i, heap_[c]);
      i = c;
    }
    place(i, moving);
  }
  void insert(const LineTable& t, LineId l) {
    heap_.push_back(Entry{t.valid[l], l});
    bubble_up(static_cast<uint32_t>(heap_.size() - 1));
  }
  void pop() {
    const LineId top = heap_[1].unit;
    heap_[1] = heap_.back();
    heap_.pop_back();
    if (heap_.size() > 1) percolate_down(1);
    pos_[top] = 0;
  }

  std::vector<Entry> heap_;    // heap_[1..n]
  std::vector<uint32_t> pos_;  // per unit: index in heap_, 0 when not queued
};

static_assert(VictimSelector<HeapVictims>);

}  // namespace ftlsim::ftl
