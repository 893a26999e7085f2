#pragma once
// Per-line state shared by the FTL engine and the victim policies: flat
// arrays indexed by line id.
#include <cstdint>
#include <vector>

namespace ftlsim::ftl {

using LineId = uint32_t;
inline constexpr LineId kNoLine = 0xFFFFFFFFu;

enum class LineState : uint8_t { kFree, kOpen, kClosed };

struct LineTable {
  uint32_t slots_per_line = 0;
  std::vector<uint32_t> valid;        // valid slots
  std::vector<LineState> state;
  std::vector<uint64_t> close_stamp;  // host slots written when the line closed (age for FIFO/CB)
  std::vector<uint32_t> erase_count;  // every block of a line is erased with it

  void resize(uint32_t lines, uint32_t slots) {
    slots_per_line = slots;
    valid.assign(lines, 0);
    state.assign(lines, LineState::kFree);
    close_stamp.assign(lines, 0);
    erase_count.assign(lines, 0);
  }
  [[nodiscard]] uint32_t size() const { return static_cast<uint32_t>(valid.size()); }
  [[nodiscard]] uint32_t invalid(LineId l) const { return slots_per_line - valid[l]; }
};

}  // namespace ftlsim::ftl
