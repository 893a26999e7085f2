#pragma once
// A read-only view of `--logical fit:`'s remap table (built by sim/fit.h):
// trace slot -> dense device slot for the trace's address space [0, space),
// either flat (an entry per slot: a trace that touches most of its address
// space) or in blocks of kBlockSlots slots reached through a directory with
// one entry per block of the address space (a sparse one). A lookup is one
// load, or two.
#include <cstdint>

namespace ftlsim::trace {

// What the table holds for a slot no record touches: no device slot.
inline constexpr uint32_t kUntouchedSlot = 0xFFFFFFFFu;

struct SlotRemap {
  static constexpr unsigned kBlockBits = 12;
  static constexpr uint64_t kBlockSlots = uint64_t{1} << kBlockBits;

  const uint32_t* dir = nullptr;    // per block of the address space: its block in `slots`; nullptr: flat
  const uint32_t* slots = nullptr;  // the blocks' entries, or (flat) an entry per slot
  uint64_t space = 0;               // slots remapped; 0: none (no fit)

  [[nodiscard]] bool empty() const { return space == 0; }
  // The device slot of trace slot `slot` (< space), kUntouchedSlot when no
  // record touches it.
  [[nodiscard, gnu::always_inline]] uint32_t at(uint64_t slot) const {
    return dir == nullptr ? slots[slot] : at_blocked(slot);
  }
  // at() of a table in blocks (REQUIRES dir != nullptr), for a caller that
  // has told the two kinds apart once (the simulation driver).
  [[nodiscard, gnu::always_inline]] uint32_t at_blocked(uint64_t slot) const {
    return slots[(uint64_t{dir[slot >> kBlockBits]} << kBlockBits) | (slot & (kBlockSlots - 1))];
  }
};

}  // namespace ftlsim::trace
