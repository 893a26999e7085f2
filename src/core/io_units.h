#pragma once
// The sizes and time units every layer shares, each defined once with the
// arithmetic that ties them (as LevelDB's db/log_format.h does). Code that
// means one of these writes its name, never the number.
#include <cstdint>

namespace ftlsim {

// A sector: the unit of block-layer addresses. Linux counts every block
// device's LBAs in 512-byte sectors whatever its logical block size
// (include/linux/blk_types.h, SECTOR_SHIFT 9), so blktrace, the kernel's
// block tracepoints and the MSR/Alibaba/Tencent/DiskSim traces address in
// them; byte-addressed requests are widened to whole sectors. A .ftr record
// counts in its header's sector size (kMinSectorBytes..kMaxSectorBytes).
inline constexpr uint32_t kSectorBytes = 512;

// A slot: the FTL's mapping unit, FEMU's 4 KiB page (secsz 512 x
// secs_per_pg 8). The maps hold one entry per slot; a larger NAND page holds
// several (16 KiB: 4 slots).
inline constexpr uint32_t kSlotBytes = 4096;
inline constexpr uint32_t kSectorsPerSlot = kSlotBytes / kSectorBytes;  // 8
static_assert(kSlotBytes % kSectorBytes == 0);

// The sector sizes a .ftr file may declare: powers of two from one sector
// to one slot, so that a slot always holds a whole number of sectors.
inline constexpr uint32_t kMinSectorBytes = kSectorBytes;
inline constexpr uint32_t kMaxSectorBytes = kSlotBytes;

// Trace timestamps, timed mode and replay count nanoseconds.
inline constexpr uint64_t kNsPerSecond = 1'000'000'000;

}  // namespace ftlsim
