#pragma once
// NAND geometry and the logical space the host sees.
//
// A *line* is one block from every plane of every LUN (FEMU's superblock);
// lines are the unit of allocation and GC. Bookkeeping is in 4 KiB mapping
// units ("slots"): a NAND page of 16 KiB holds 4 slots. With FEMU's 4 KiB
// pages a slot is a page.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/io_units.h"
#include "core/setting.h"

namespace ftlsim::ftl {

using ftlsim::kSectorBytes;  // core/io_units.h
using ftlsim::kSectorsPerSlot;
using ftlsim::kSlotBytes;

// Physical slot numbers are 32-bit, with one value reserved as "none"
// (kUnmapped): a geometry holds at most 2^32 - 2 slots (16 TiB).
inline constexpr uint64_t kMaxPhysicalSlots = (uint64_t{1} << 32) - 2;

// An unsigned 128-bit integer: a product of five 32-bit counts and a small
// factor, exact.
__extension__ typedef unsigned __int128 exact_u128;
[[nodiscard]] std::string exact_text(exact_u128 v);  // decimal digits

// The counts are 32-bit; every product of them below is valid (does not
// wrap) once problems() is empty, which bounds the slots, and so every
// product of counts, by kMaxPhysicalSlots.
struct Geometry {
  uint32_t channels = 8;
  uint32_t luns_per_channel = 8;
  uint32_t planes_per_lun = 1;
  uint32_t blocks_per_plane = 256;  // = number of lines
  uint32_t pages_per_block = 256;
  uint32_t page_bytes = kSlotBytes;  // a multiple of kSlotBytes
  uint64_t logical_bytes = 0;        // host-visible capacity, multiple of 4 KiB

  [[nodiscard]] uint32_t dies() const { return channels * luns_per_channel; }
  [[nodiscard]] uint32_t blocks_per_line() const { return dies() * planes_per_lun; }
  [[nodiscard]] uint32_t lines() const { return blocks_per_plane; }
  [[nodiscard]] uint32_t slots_per_page() const { return page_bytes / kSlotBytes; }
  [[nodiscard]] uint64_t slots_per_block() const { return uint64_t{pages_per_block} * slots_per_page(); }
  [[nodiscard]] uint64_t block_bytes() const { return uint64_t{pages_per_block} * page_bytes; }
  [[nodiscard]] uint64_t slots_per_line() const { return slots_per_block() * blocks_per_line(); }
  [[nodiscard]] uint64_t physical_slots() const { return slots_per_line() * lines(); }
  [[nodiscard]] uint64_t physical_bytes() const { return physical_slots() * kSlotBytes; }
  [[nodiscard]] uint64_t logical_slots() const { return logical_bytes / kSlotBytes; }
  // physical / logical - 1
  [[nodiscard]] double over_provisioning() const;

  // channels x LUNs x planes x blocks x pages x slots per page, exact.
  [[nodiscard]] exact_u128 exact_slots() const;

  // Every problem found (empty when the geometry is usable).
  [[nodiscard]] std::vector<Problem> problems() const;
};

// The geometry of preset `name` (ftl/presets.h, the table of presets).
// Throws SettingError naming `preset`.
[[nodiscard]] Geometry preset_geometry(std::string_view name);

// Blocks per plane needed to hold `logical_bytes` with over-provisioning
// `op` (physical >= logical * (1 + op)), for capacity-plus-OP configuration.
[[nodiscard]] uint32_t blocks_for_capacity(const Geometry& g, uint64_t logical_bytes, double op);

}  // namespace ftlsim::ftl
