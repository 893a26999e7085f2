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
    heap_.assign(1, entry(0, kNoUnit));  // index 0 unused, as in pqueue.c
    heap_.reserve(t.size() + 1);
    pos_.assign(t.size(), 0);
  }

  void on_close(const UnitTable& t, UnitId u) {
    if (!t.full(u)) insert(t, u);
  }

  // Always inlined (into the host path): the common case is a store or two.
  [[gnu::always_inline]] void on_invalidate(const UnitTable& t, UnitId u) {
    const uint32_t i = pos_[u];
    if (i != 0) [[likely]] {
      // pqueue_change_priority after the key fell by one. Its percolate_down
      // branch never moves anything then: the heap held before, so the old
      // key was at most each child's and the new one is below them. Only the
      // bubble-up can act, and skipping the no-op saves the child
      // comparisons on every invalidation. The entry's copy of the key is
      // kept equal to t.valid[u], so the parent check is one load (heap_[i/2])
      // after pos_[u], with no lookup of the parent's unit in t.
      // The moving entry is built from u and k, not read back from heap_[i]
      // after storing its key (a 4-byte store then an 8-byte load of it
      // cannot be forwarded and stalls).
      const uint32_t k = t.valid[u];
      if (i > 1 && key(heap_[i / 2]) > k) {
        bubble_up(i, entry(k, u));
      } else {
        heap_[i] = entry(k, u);
      }
    } else {
      insert(t, u);  // it was full: its first invalidation queues it
    }
  }

  UnitId select(const UnitTable& t, const GcAsk& ask) {
    if (heap_.size() == 1) return kNoUnit;
    const UnitId top = unit(heap_[1]);
    if (!ask.requeue) {
      // Most background passes decline (rule 12). When the entry's key
      // (t.valid[top]) already leaves too few invalid slots, so does any
      // unwritten count: decline without loading the unit's counts.
      if (!ask.force && t.slots_per_unit - key(heap_[1]) < ask.min_invalid) return kNoUnit;
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
  [[nodiscard]] UnitId peek() const { return heap_.size() > 1 ? unit(heap_[1]) : kNoUnit; }

  // Software pipelining for invalidations (PageFtl::prefetch_mapped and
  // prefetch_queued): a few requests ahead, the unit's heap position; closer,
  // its entry and the entry's parent, which on_invalidate() compares. Always
  // inlined: GCC deletes calls to a function that only prefetches.
  [[gnu::always_inline]] void prefetch_unit(UnitId u) const { __builtin_prefetch(&pos_[u], 0, 3); }
  [[gnu::always_inline]] void prefetch_entry(UnitId u) const {
    const uint32_t i = pos_[u];
    if (i != 0) {
      __builtin_prefetch(&heap_[i], 1, 3);
      __builtin_prefetch(&heap_[i / 2], 0, 3);
    }
  }

  // True when select() for a background pass on the line path (no requeue)
  // declines at once: a unit is queued and the top's key alone leaves fewer
  // than min_invalid invalid slots.
  [[nodiscard]] bool declines_background(const UnitTable& t, uint32_t min_invalid) const {
    return heap_.size() > 1 && t.slots_per_unit - key(heap_[1]) < min_invalid;
  }

  // True when invalidating a slot of u now would leave u at the top: u is
  // queued and has at most the top's valid count, so that afterwards it has
  // fewer than the top (or is the top). One more than the top's would tie,
  // and a tie does not move up.
  [[nodiscard]] bool may_become_top(const UnitTable& t, UnitId u) const {
    return pos_[u] != 0 && t.valid[u] <= key(heap_[1]);
  }

  [[nodiscard]] uint64_t queued(const UnitTable& /*t*/) const { return heap_.size() - 1; }
  // The heap's shape, for the invariant check and tests: index -> unit
  // (index 0 unused), and the key each entry holds (equal to t.valid).
  [[nodiscard]] std::vector<UnitId> order() const {
    std::vector<UnitId> out(heap_.size());
    for (size_t i = 0; i < heap_.size(); ++i) out[i] = unit(heap_[i]);
    return out;
  }
  [[nodiscard]] uint32_t key_at(uint32_t i) const { return key(heap_[i]); }
  [[nodiscard]] uint32_t position(UnitId u) const { return pos_[u]; }

 private:
  // A heap entry carries its unit's key (valid slots) so that the
  // comparisons read the heap array only: one cache line holds both
  // children. Packed in one 64-bit word (key in the low half, unit in the
  // high half), so that an entry moves as one load and one store.
  using Entry = uint64_t;
  static Entry entry(uint32_t k, UnitId u) { return uint64_t{u} << 32 | k; }
  static uint32_t key(Entry e) { return static_cast<uint32_t>(e); }
  static UnitId unit(Entry e) { return static_cast<UnitId>(e >> 32); }

  // Moves `moving`, which belongs at index i, up past every parent with a
  // greater key. Out of line: most invalidations move nothing.
  [[gnu::noinline]] void bubble_up(uint32_t at, Entry moving) {
    Entry* const h = heap_.data();
    uint32_t* const pos = pos_.data();
    const uint32_t k = key(moving);
    size_t i = at;  // 64-bit indices: no zero extension in the loop
    while (i > 1) {
      const Entry parent = h[i / 2];
      if (key(parent) <= k) break;
      h[i] = parent;
      pos[unit(parent)] = static_cast<uint32_t>(i);
      i /= 2;
    }
    h[i] = moving;
    pos[unit(moving)] = static_cast<uint32_t>(i);
  }
  // pqueue.c maxchild: the left child unless the right one exists and the
  // left one's key is greater; the walk down stops where there is no child.
  void percolate_down(uint32_t at) {
    Entry* const h = heap_.data();
    uint32_t* const pos = pos_.data();
    const size_t n = heap_.size();
    size_t i = at;  // 64-bit indices: no zero extension in the loop
    const Entry moving = h[i];
    const uint32_t k = key(moving);
    for (size_t c = 2 * i; c < n; c = 2 * i) {
      Entry child = h[c];
      if (c + 1 < n && key(child) > key(h[c + 1])) child = h[++c];
      if (k <= key(child)) break;
      // The next level's pair of children (4c, 4c + 1 or 4c + 2, 4c + 3: 16
      // bytes, one line) while this level moves: the walk down a deep heap is
      // a chain of dependent loads otherwise.
      __builtin_prefetch(&h[std::min(4 * c, n - 1)], 0, 3);
      h[i] = child;
      pos[unit(child)] = static_cast<uint32_t>(i);
      i = c;
    }
    h[i] = moving;
    pos[unit(moving)] = static_cast<uint32_t>(i);
  }
  void insert(const UnitTable& t, UnitId u) {
    const Entry e = entry(t.valid[u], u);
    heap_.push_back(e);
    bubble_up(static_cast<uint32_t>(heap_.size() - 1), e);
  }
  void pop() {
    const UnitId top = unit(heap_[1]);
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
