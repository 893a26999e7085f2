#pragma once
// One trace record as stored in a .ftr file (docs/trace_format.md): 24 bytes,
// little-endian, read in place from the mapped file.
#include <bit>
#include <cstdint>
#include <string_view>

namespace ftlsim::trace {

static_assert(std::endian::native == std::endian::little,
              "the .ftr reader maps records in place and needs a little-endian host");

enum class Op : uint8_t {
  kWrite = 0,
  kRead = 1,
  kTrim = 2,    // trim / discard / deallocate
  kFlush = 3,   // cache flush; lba and sectors are 0
  kMarker = 4,  // application progress: `lba` holds the value (e.g. a block number)
};
inline constexpr uint8_t kOpCount = 5;

// Placement ID used when a trace carries no tags.
using PlacementId = uint16_t;

struct Record {
  uint64_t time_ns;  // since trace start; non-decreasing is not required
  uint64_t lba;      // first sector (sector size in the header); marker: progress value
  uint32_t sectors;  // length in sectors; 0 for flush and marker
  PlacementId pid;   // placement ID the host tagged the request with (0 when untagged)
  uint8_t op;        // an Op value; anything >= kOpCount is corrupt
  uint8_t flags;     // reserved, written as 0
};
static_assert(sizeof(Record) == 24);

[[nodiscard]] constexpr bool is_valid_op(uint8_t op) { return op < kOpCount; }

[[nodiscard]] constexpr std::string_view op_name(Op op) {
  switch (op) {
    case Op::kWrite: return "write";
    case Op::kRead: return "read";
    case Op::kTrim: return "trim";
    case Op::kFlush: return "flush";
    case Op::kMarker: return "marker";
  }
  return "unknown";
}

}  // namespace ftlsim::trace
