#pragma once
// Per-unit state shared by the FTL engine and the victim policies: flat
// arrays indexed by unit id (a line on FEMU's line path, a reclaim unit
// under FDP).
#include <cstdint>
#include <vector>

namespace ftlsim::ftl {

using UnitId = uint32_t;
inline constexpr UnitId kNoUnit = 0xFFFFFFFFu;

enum class UnitState : uint8_t { kFree, kOpen, kClosed };

struct UnitTable {
  uint32_t slots_per_unit = 0;
  std::vector<uint32_t> valid;      // valid slots
  std::vector<uint32_t> unwritten;  // slots a unit closed early never had programmed (else 0)
  std::vector<UnitState> state;
  std::vector<uint64_t> close_stamp;  // host slots written when the unit closed (age for FIFO/CB)
  std::vector<uint32_t> erase_count;  // every block of a unit is erased with it

  void resize(uint32_t units, uint32_t slots) {
    slots_per_unit = slots;
    valid.assign(units, 0);
    unwritten.assign(units, 0);
    state.assign(units, UnitState::kFree);
    close_stamp.assign(units, 0);
    erase_count.assign(units, 0);
  }
  [[nodiscard]] uint32_t size() const { return static_cast<uint32_t>(valid.size()); }
  // Programmed slots whose data is dead (unwritten slots are not invalid).
  [[nodiscard]] uint32_t invalid(UnitId u) const { return slots_per_unit - valid[u] - unwritten[u]; }
  // A closed unit whose every slot holds live data: nothing to gain from it.
  [[nodiscard]] bool full(UnitId u) const { return valid[u] == slots_per_unit; }
};

}  // namespace ftlsim::ftl
