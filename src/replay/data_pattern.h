#pragma once
// The bytes a replay writes, so that the target can be checked afterwards.
// Every 512-byte unit of a write carries a 32-byte header
//   [0, 8)   magic "FTLSIMRP"
//   [8, 16)  byte offset of the unit in the target (u64 LE)
//   [16, 20) index of the trace record that wrote it (u32 LE)
//   [20, 22) the record's placement ID (u16 LE)
//   [22, 32) zero
// followed by 480 filler bytes that depend only on their position in the
// unit. Deterministic: equal replays write equal bytes.
#include <cstdint>
#include <span>
#include <string>

namespace ftlsim::replay {

inline constexpr uint32_t kPatternUnit = 512;
inline constexpr uint32_t kPatternHeader = 32;

// Writes the filler into every unit of `buf` (size a multiple of kPatternUnit);
// headers are left zero. Done once per buffer; stamp() then rewrites only the
// headers.
void fill_pattern(std::span<uint8_t> buf);

// Writes the header of every unit of `buf` (size a multiple of kPatternUnit):
// the unit at buf[k * 512] gets offset + k * 512. REQUIRES the filler is in place.
void stamp_pattern(std::span<uint8_t> buf, uint64_t offset, uint32_t record, uint16_t pid);

// "" when `unit` (kPatternUnit bytes) is what stamp_pattern wrote at `offset`
// for `record` with placement ID `pid`; otherwise what differs, e.g.
// "written by record 7, expected 9".
[[nodiscard]] std::string check_unit(std::span<const uint8_t> unit, uint64_t offset, uint32_t record, uint16_t pid);

}  // namespace ftlsim::replay
