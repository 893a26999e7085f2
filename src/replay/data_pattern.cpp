#include "replay/data_pattern.h"

#include <fmt/format.h>

#include <cstring>

namespace ftlsim::replay {
namespace {

constexpr char kMagic[8] = {'F', 'T', 'L', 'S', 'I', 'M', 'R', 'P'};

constexpr uint8_t filler_byte(uint32_t i) { return static_cast<uint8_t>((i * 31u + 7u) & 0xffu); }

}  // namespace

void fill_pattern(std::span<uint8_t> buf) {
  for (size_t u = 0; u + kPatternUnit <= buf.size(); u += kPatternUnit) {
    std::memset(buf.data() + u, 0, kPatternHeader);
    for (uint32_t i = kPatternHeader; i < kPatternUnit; ++i) buf[u + i] = filler_byte(i);
  }
}

void stamp_pattern(std::span<uint8_t> buf, uint64_t offset, uint32_t record, uint16_t pid) {
  for (size_t u = 0; u + kPatternUnit <= buf.size(); u += kPatternUnit) {
    uint8_t* h = buf.data() + u;
    const uint64_t at = offset + u;
    std::memcpy(h, kMagic, 8);
    std::memcpy(h + 8, &at, 8);
    std::memcpy(h + 16, &record, 4);
    std::memcpy(h + 20, &pid, 2);
  }
}

std::string check_unit(std::span<const uint8_t> unit, uint64_t offset, uint32_t record, uint16_t pid) {
  if (unit.size() < kPatternUnit) return "short unit";
  if (std::memcmp(unit.data(), kMagic, 8) != 0) return "no replay header (never written by this replay?)";
  uint64_t at = 0;
  uint32_t rec = 0;
  uint16_t id = 0;
  std::memcpy(&at, unit.data() + 8, 8);
  std::memcpy(&rec, unit.data() + 16, 4);
  std::memcpy(&id, unit.data() + 20, 2);
  if (at != offset) return fmt::format("holds the data of offset {}", at);
  if (rec != record) return fmt::format("written by record {}, expected record {}", rec, record);
  if (id != pid) return fmt::format("placement ID {} in its header, expected {}", id, pid);
  for (uint32_t i = 22; i < kPatternHeader; ++i) {
    if (unit[i] != 0) return fmt::format("header byte {} is {:#04x}, expected 0", i, unit[i]);
  }
  for (uint32_t i = kPatternHeader; i < kPatternUnit; ++i) {
    if (unit[i] != filler_byte(i))
      return fmt::format("filler byte {} is {:#04x}, expected {:#04x}", i, unit[i], filler_byte(i));
  }
  return {};
}

}  // namespace ftlsim::replay
