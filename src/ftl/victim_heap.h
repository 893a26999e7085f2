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
#include <algorithm>
#include <cstdint>
#include <vector>

#include "ftl/unit_table.h"
#include "ftl/victim_policy.h"

namespace ftlsim::ftl {

class HeapVictims {
 public:
  void init(const UnitTable& t, uint64_t /*seed*/) {
    heap_.assign(1, Entry{0, kNoUnit});  // index 0 unused, as in pqueue.c
    heap_.reserve(t.size() + 1);
    pos_.assign(t.size(), 0);
  }

  void on_close(const UnitTable& t, UnitId l) {
    if (!t.full(l)) insert(t, l);
  }

  void on_invalidate(const UnitTable& t, UnitId l) {
    const uint32_t i = pos_[l];
    if (i != 0) {
      // pqueue_change_priority after the key fell by one. Its percolate_down
      // branch never moves anything then: the heap held before, so the old
      // key was at most each child's and the new one is below them. Only the
      // bubble-up can act, and skipping the no-op saves the child
      // comparisons on every invalidation. The entry's copy of the key is
      // kept equal to t.valid[l], so the parent check is one load (heap_[i/2])
      // after pos_[l], with no lookup of the parent's unit in t.
      // The moving entry is built from l and k, not read back from heap_[i]
      // after storing its key (a 4-byte store then an 8-byte load of it
      // cannot be forwarded and stalls).
      const uint32_t k = t.valid[l];
      if (i > 1 && heap_[i / 2].key > k) {
        bubble_up(i, Entry{k, l});
      } else {
        heap_[i].key = k;
      }
    } else {
      insert(t, l);  // it was full: its first invalidation queues it
    }
  }

  UnitId select(const UnitTable& t, const GcAsk& ask) {
    if (heap_.size() == 1) return kNoUnit;
    const Entry first = heap_[1];
    const UnitId top = first.unit;
    if (!ask.requeue) {
      // Most background passes decline (rule 12). When the entry's key
      // (t.valid[top]) already leaves too few invalid slots, so does any
      // unwritten count: decline without loading the unit's counts.
      if (!ask.force && t.slots_per_unit - first.key < ask.min_invalid) return kNoUnit;
      if (declines(t, top, ask)) return kNoUnit;  // rule 12: left in place
      pop();
      return top;
    }
    pop();
    if (declines(t, top, ask)) {  // rule 13: popped and inserted again
      insert(t, top);
      return kNoUnit;
    }
    return top;
  }

  // The unit select() would look at now (kNoUnit: none queued), for
  // prefetching the next victim's maps; changes nothing.
  [[nodiscard]] UnitId peek() const { return heap_.size() > 1 ? heap_[1].unit : kNoUnit; }

  // Software pipelining for invalidations (PageFtl::prefetch_mapped and
  // prefetch_queued): a few requests ahead, the unit's heap position; closer,
  // its entry and the entry's parent, which on_invalidate() compares. Always
  // inlined: GCC deletes calls to a function that only prefetches.
  [[gnu::always_inline]] void prefetch_unit(UnitId l) const { __builtin_prefetch(&pos_[l], 0, 3); }
  [[gnu::always_inline]] void prefetch_entry(UnitId l) const {
    const uint32_t i = pos_[l];
    if (i != 0) {
      __builtin_prefetch(&heap_[i], 1, 3);
      __builtin_prefetch(&heap_[i / 2], 0, 3);
    }
  }

  // True when select() for a background pass on the line path (no requeue)
  // declines at once: a unit is queued and the top's key alone leaves fewer
  // than min_invalid invalid slots.
  [[nodiscard]] bool declines_background(const UnitTable& t, uint32_t min_invalid) const {
    return heap_.size() > 1 && t.slots_per_unit - heap_[1].key < min_invalid;
  }

  // True when invalidating a slot of l now would leave l at the top: l is
  // queued and has at most the top's valid count, so that afterwards it has
  // fewer than the top (or is the top). One more than the top's would tie,
  // and a tie does not move up.
  [[nodiscard]] bool may_become_top(const UnitTable& t, UnitId l) const {
    return pos_[l] != 0 && t.valid[l] <= heap_[1].key;
  }

  [[nodiscard]] uint64_t queued(const UnitTable& /*t*/) const { return heap_.size() - 1; }
  // The heap's shape, for the invariant check and tests: index -> unit
  // (index 0 unused), and the key each entry holds (equal to t.valid).
  [[nodiscard]] std::vector<UnitId> order() const {
    std::vector<UnitId> out(heap_.size());
    for (size_t i = 0; i < heap_.size(); ++i) out[i] = heap_[i].unit;
    return out;
  }
  [[nodiscard]] uint32_t key_at(uint32_t i) const { return heap_[i].key; }
  [[nodiscard]] uint32_t position(UnitId l) const { return pos_[l]; }

 private:
  // A heap entry carries its unit's key (valid slots) so that the
  // comparisons read the heap array only: one cache line holds both children.
  struct Entry {
    uint32_t key;
    UnitId unit;
  };

  void place(uint32_t i, Entry e) {
    heap_[i] = e;
    pos_[e.unit] = i;
  }
  // Moves `moving`, which belongs at index i, up past every parent with a
  // greater key.
  void bubble_up(uint32_t i, Entry moving) {
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
      // The next level's pair of children (4c, 4c + 1 or 4c + 2, 4c + 3: 16
      // bytes, one line) while this level moves: the walk down a deep heap is
      // a chain of dependent loads otherwise.
      __builtin_prefetch(&heap_[std::min<size_t>(4 * size_t{c}, heap_.size() - 1)], 0, 3);
      place(i, heap_[c]);
      i = c;
    }
    place(i, moving);
  }
  void insert(const UnitTable& t, UnitId l) {
    const Entry e{t.valid[l], l};
    heap_.push_back(e);
    bubble_up(static_cast<uint32_t>(heap_.size() - 1), e);
  }
  void pop() {
    const UnitId top = heap_[1].unit;
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
