#pragma once
// CRC-32/ISO-HDLC (the zlib / PNG / Ethernet CRC: reflected polynomial
// 0xEDB88320, initial value and final xor 0xFFFFFFFF). Check value:
// crc32("123456789") == 0xCBF43926. Used for the .ftr header checksum.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ftlsim::trace {

// CRC of `size` bytes at `data`. To checksum data in pieces, pass the result
// of the previous piece as `crc` (as zlib's crc32() does); 0 starts afresh.
[[nodiscard]] uint32_t crc32(const void* data, size_t size, uint32_t crc = 0);

[[nodiscard]] inline uint32_t crc32(std::string_view bytes, uint32_t crc = 0) {
  return crc32(bytes.data(), bytes.size(), crc);
}

}  // namespace ftlsim::trace
