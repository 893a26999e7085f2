#pragma once
// Layout constants of the .ftr header, shared by FtrWriter and FtrReader.
// docs/trace_format.md is the specification; this file must agree with it.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/io_units.h"
#include "trace/record.h"

namespace ftlsim::trace::ftr {

inline constexpr std::string_view kMagic{"FTLTRACE", 8};
inline constexpr uint16_t kVersionMajor = 1;
inline constexpr uint16_t kVersionMinor = 0;
inline constexpr uint32_t kRecordBytes = 24;
// Size of the fixed part; meta and pid-name entries follow it.
inline constexpr uint32_t kFixedHeaderBytes = 48;
inline constexpr uint32_t kHeaderAlign = 8;

// Byte offsets of the fixed header fields (all little-endian).
inline constexpr size_t kOffMagic = 0;          // u8[8]
inline constexpr size_t kOffVersionMajor = 8;   // u16
inline constexpr size_t kOffVersionMinor = 10;  // u16
inline constexpr size_t kOffFlags = 12;         // u32, no bit defined in 1.0
inline constexpr size_t kOffHeaderBytes = 16;   // u32
inline constexpr size_t kOffRecordBytes = 20;   // u32
inline constexpr size_t kOffSectorBytes = 24;   // u32
inline constexpr size_t kOffHeaderCrc = 28;     // u32
inline constexpr size_t kOffRecordCount = 32;   // u64
inline constexpr size_t kOffMetaCount = 40;     // u32
inline constexpr size_t kOffPidNameCount = 44;  // u32

// Entry layouts: meta = u16 key_len, u16 reserved, u32 value_len, key, value;
// pid name = u16 pid, u16 name_len, name.
inline constexpr size_t kMetaEntryFixedBytes = 8;
inline constexpr size_t kPidNameEntryFixedBytes = 4;

// Length limits (exclusive upper bounds).
inline constexpr uint64_t kKeyLimit = uint64_t{1} << 16;
inline constexpr uint64_t kNameLimit = uint64_t{1} << 16;
inline constexpr uint64_t kValueLimit = uint64_t{1} << 24;

// Sector sizes a v1 file may declare: a power of two from kMinSectorBytes
// to kMaxSectorBytes (core/io_units.h), so a slot always holds a whole number of sectors.
[[nodiscard]] constexpr bool valid_sector_bytes(uint32_t s) {
  return s >= kMinSectorBytes && s <= kMaxSectorBytes && (s & (s - 1)) == 0;
}
// Those sizes for messages: "512, 1024, 2048 or 4096".
[[nodiscard]] inline std::string valid_sector_bytes_text() {
  std::string out = std::to_string(kMinSectorBytes);
  for (uint32_t s = kMinSectorBytes * 2; s <= kMaxSectorBytes; s *= 2) {
    out += (s == kMaxSectorBytes ? " or " : ", ") + std::to_string(s);
  }
  return out;
}

static_assert(offsetof(Record, time_ns) == 0 && offsetof(Record, lba) == 8 && offsetof(Record, sectors) == 16 &&
                  offsetof(Record, pid) == 20 && offsetof(Record, op) == 22 && offsetof(Record, flags) == 23,
              "Record must match the on-disk layout in docs/trace_format.md");

// Unaligned little-endian access (the host is little-endian, see record.h).
template <typename T>
[[nodiscard]] inline T load(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
inline void store(unsigned char* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

}  // namespace ftlsim::trace::ftr
