#pragma once
// NVMe I/O commands as NVMe passthrough sends them (struct nvme_uring_cmd of
// linux/nvme_ioctl.h, carried by IORING_OP_URING_CMD on /dev/ngXnY), and the
// FDP placement identifier. Pure encoding: nothing here touches a device, so
// every field is unit-tested.
//
// Field positions (NVM Command Set Specification 1.0, Write command; FDP from
// TP4146, NVMe 2.1; docs/fdp.md, Vocabulary):
//   CDW10/11  starting LBA, low / high 32 bits
//   CDW12     [15:0] NLB, 0's based; [23:20] DTYPE (2 = data placement)
//   CDW13     [31:16] DSPEC (the placement identifier when DTYPE = 2)
// Dataset Management (deallocate): CDW10 [7:0] number of ranges, 0's based;
// CDW11 bit 2 AD; the data buffer holds 16-byte ranges (context attributes,
// length in LBAs, not 0's based; starting LBA).
// I/O Management Send (FDP, TP4146): CDW10 [7:0] management operation
// (1 = Reclaim Unit Handle Update), [31:16] number of placement identifiers,
// 0's based; the data buffer holds the 16-bit placement identifiers.
#include <linux/nvme_ioctl.h>

#include <cstdint>
#include <optional>

namespace ftlsim::replay::nvme {

inline constexpr uint8_t kOpFlush = 0x00;
inline constexpr uint8_t kOpWrite = 0x01;
inline constexpr uint8_t kOpRead = 0x02;
inline constexpr uint8_t kOpDatasetManagement = 0x09;
inline constexpr uint8_t kOpIoMgmtReceive = 0x12;
inline constexpr uint8_t kOpIoMgmtSend = 0x1D;

inline constexpr uint32_t kDtypeDataPlacement = 2;
inline constexpr unsigned kDtypeShift = 20;              // CDW12
inline constexpr unsigned kDspecShift = 16;              // CDW13
inline constexpr uint32_t kDsmAttrDeallocate = 1u << 2;  // CDW11 AD
inline constexpr uint32_t kIoMgmtSendRuhUpdate = 1;      // CDW10 MO
inline constexpr unsigned kIoMgmtNpidShift = 16;         // CDW10 NPID
// NLB is 16 bits, 0's based: at most 65536 LBAs per read or write.
inline constexpr uint32_t kMaxBlocksPerCommand = 65536;

// One Dataset Management range (16 bytes, little-endian).
struct DsmRange {
  uint32_t context_attributes = 0;
  uint32_t blocks = 0;  // length in logical blocks (not 0's based)
  uint64_t slba = 0;
};
static_assert(sizeof(DsmRange) == 16);

// The placement identifier of placement handle `handle` in reclaim group
// `rg`: PID = (rg << (16 - rgif)) | handle, where RGIF (FDP configuration
// descriptor, FDPA bits 3:0) is the number of most significant PID bits that
// name the reclaim group. nullopt when rg does not fit in rgif bits, handle
// does not fit in the 16 - rgif bits left, or rgif > 15.
[[nodiscard]] std::optional<uint16_t> placement_identifier(uint32_t rg, uint32_t handle, unsigned rgif);
// The reverse: reclaim group and placement handle of a PID. REQUIRES rgif <= 15.
[[nodiscard]] uint32_t pid_reclaim_group(uint16_t pid, unsigned rgif);
[[nodiscard]] uint32_t pid_handle(uint16_t pid, unsigned rgif);

// Write of `blocks` LBAs (1..kMaxBlocksPerCommand) from `buf` (`bytes` long)
// at `slba`; with a placement identifier it carries DTYPE=2, DSPEC=pid.
// Everything not named is zero.
[[nodiscard]] nvme_uring_cmd write_cmd(uint32_t nsid, uint64_t slba, uint32_t blocks, const void* buf, uint32_t bytes,
                                       std::optional<uint16_t> placement_id);
[[nodiscard]] nvme_uring_cmd read_cmd(uint32_t nsid, uint64_t slba, uint32_t blocks, void* buf, uint32_t bytes);
// Deallocate the one range in *range (which must stay alive until completion).
[[nodiscard]] nvme_uring_cmd deallocate_cmd(uint32_t nsid, const DsmRange* range);
[[nodiscard]] nvme_uring_cmd flush_cmd(uint32_t nsid);
// Reclaim Unit Handle Update of the `count` (1..65536) placement
// identifiers at `pids` (which must stay alive until completion): each
// handle then references a new, empty reclaim unit.
[[nodiscard]] nvme_uring_cmd ruh_update_cmd(uint32_t nsid, const uint16_t* pids, uint32_t count);

}  // namespace ftlsim::replay::nvme
