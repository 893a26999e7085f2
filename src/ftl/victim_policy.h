#pragma once
// What a victim policy is, for PageFtl: a C++20 concept instead of a base
// class, so the engine calls the policy directly (no virtual call per slot).
//
// The engine tells the policy when a unit closes and when a closed unit loses
// a valid slot, and asks it for a victim once per GC pass with a GcAsk. The
// policy applies the decline rule itself (docs/model.md rules 12 and 13),
// because how a declined victim is put back is part of the policy's order.
#include <concepts>
#include <cstdint>

#include "ftl/unit_table.h"

namespace ftlsim::ftl {

struct GcAsk {
  bool force = false;
  // A background pass takes a victim only with at least this many invalid
  // slots (FEMU: slots per unit / 8) ...
  uint32_t min_invalid = 0;
  // ... and, when `requeue` (FEMU's FDP path, rule 13), a victim with no
  // valid slot is taken whatever it holds, and a declined one is taken out of
  // the policy's order and put back in (the line path, rule 12, leaves it).
  bool requeue = false;
  uint64_t now = 0;  // host slots written so far (the age clock of cost-benefit)
  // False when no unit holds unwritten slots (no unit closed early), so that
  // a unit's invalid slots are slots_per_unit - valid without loading
  // t.unwritten, which is then all zero.
  bool unwritten = true;
};

// True when a background pass must leave `unit` (the policy's choice) alone.
[[nodiscard]] inline bool declines(const UnitTable& t, UnitId unit, const GcAsk& ask) {
  if (ask.force) return false;
  if (ask.requeue && t.valid[unit] == 0) return false;
  return (ask.unwritten ? t.invalid(unit) : t.slots_per_unit - t.valid[unit]) < ask.min_invalid;
}

template <class V>
concept VictimSelector = std::copyable<V> && requires(V v, const UnitTable& t, UnitId unit, const GcAsk& ask) {
  v.init(t, uint64_t{1});                            // before first use; the seed is for the random policies
  v.on_close(t, unit);                               // unit was closed (full or not)
  v.on_invalidate(t, unit);                          // closed unit lost a valid slot (t.valid[unit] already lowered)
  { v.select(t, ask) } -> std::same_as<UnitId>;      // the victim, removed from the policy; kNoUnit: none
  { v.queued(t) } -> std::convertible_to<uint64_t>;  // candidates waiting (0: a pass finds none)
};

}  // namespace ftlsim::ftl
