#pragma once
// The 4 KiB slots one read/write/trim record covers, shared by the driver and
// by anything that must enumerate slots exactly as it does (the oracle).
#include <cstdint>

#include "core/io_units.h"
#include "trace/record.h"

namespace ftlsim::trace {

struct SlotSpan {
  uint64_t first_slot = 0;
  uint64_t slots = 0;
  bool head_partial = false;  // the first slot is covered only in part
  bool tail_partial = false;  // the last slot is covered only in part
  bool wrapped = false;       // folded into the device (only when allowed)
  bool out_of_range = false;  // beyond the device and not allowed to wrap
};

// REQUIRES r.sectors > 0, sector_bytes > 0, logical_sectors > 0.
[[nodiscard]] inline SlotSpan slot_span(const Record& r, uint64_t sector_bytes, uint64_t logical_sectors, bool wrap) {
  SlotSpan s;
  uint64_t lba = r.lba;
  if (lba >= logical_sectors || logical_sectors - lba < r.sectors) {
    if (!wrap) {
      s.out_of_range = true;
      return s;
    }
    s.wrapped = true;
    lba %= logical_sectors;  // the tail past the end wraps slot by slot (slot_lpn)
  }
  const uint64_t begin = lba * sector_bytes;
  const uint64_t end = begin + uint64_t{r.sectors} * sector_bytes;
  s.first_slot = begin / kSlotBytes;
  s.slots = (end + kSlotBytes - 1) / kSlotBytes - s.first_slot;
  s.head_partial = begin % kSlotBytes != 0;
  s.tail_partial = end % kSlotBytes != 0;
  return s;
}

// Logical slot k of a span on a device of `logical_slots` slots.
[[nodiscard]] inline uint32_t slot_lpn(uint64_t slot, uint64_t logical_slots) {
  return static_cast<uint32_t>(slot < logical_slots ? slot : slot % logical_slots);
}

}  // namespace ftlsim::trace
