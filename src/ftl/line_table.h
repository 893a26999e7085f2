#pragma once
// Per-unit state shared by the FTL engine and the victim policies: flat
// arrays indexed by unit id (a line, or a reclaim unit under FDP).
#include <cstdint>
#include <vector>

namespace ftlsim::ftl {

using LineId = uint32_t;
inline constexpr LineId kNoLine = 0xFFFFFFFFu;

enum class LineState : uint8_t { kFree, kOpen, kClosed };

struct LineTable {
  uint32_t slots_per_line = 0;
  std::vector<uint32_t> valid;        // valid slots
  std::vector<uint32_t> unwritten;    // slots a unit closed early never had programmed (else 0)
  std::vector<LineState> state;
  std::vector<uint64_t> close_stamp;  // host slots written when the unit closed (age for FIFO/CB)
  std::vector<uint32_t> erase_count;  // every block of a unit is erased with it

  void resize(uint32_t lines, uint32_t slots) {
    slots_per_line = slots;
    valid.assign(lines, 0);
    unwritten.assign(lines, 0);
    state.assign(lines, LineState::kFree);
    close_stamp.assign(lines, 0);
    erase_count.assign(lines, 0);
  }
  [[nodiscard]] uint32_t size() const { return static_cast<uint32_t>(valid.size()); }
  // Programmed slots whose data is dead (unwritten slots are not invalid).
  [[nodiscard]] uint32_t invalid(LineId l) const { return slots_per_line - valid[l] - unwritten[l]; }
  // A closed unit whose every slot holds live data: nothing to gain from it.
  [[nodiscard]] bool full(LineId l) const { return valid[l] == slots_per_line; }
};

}  // namespace ftlsim::ftl
