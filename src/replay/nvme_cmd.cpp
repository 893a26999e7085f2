#include "replay/nvme_cmd.h"

#include <cstring>

namespace ftlsim::replay::nvme {
namespace {

nvme_uring_cmd blank(uint8_t opcode, uint32_t nsid) {
  nvme_uring_cmd c;
  std::memset(&c, 0, sizeof c);
  c.opcode = opcode;
  c.nsid = nsid;
  return c;
}

void set_lba_range(nvme_uring_cmd& c, uint64_t slba, uint32_t blocks) {
  c.cdw10 = static_cast<uint32_t>(slba & 0xffffffffu);
  c.cdw11 = static_cast<uint32_t>(slba >> 32);
  c.cdw12 = (blocks - 1) & 0xffffu;  // NLB, 0's based
}

}  // namespace

std::optional<uint16_t> placement_identifier(uint32_t rg, uint32_t handle, unsigned rgif) {
  if (rgif > 15) return std::nullopt;
  const unsigned handle_bits = 16 - rgif;
  if (rgif == 0 ? rg != 0 : rg >= (1u << rgif)) return std::nullopt;
  if (handle >= (1u << handle_bits)) return std::nullopt;
  return static_cast<uint16_t>((rg << handle_bits) | handle);
}

uint32_t pid_reclaim_group(uint16_t pid, unsigned rgif) { return rgif == 0 ? 0 : uint32_t{pid} >> (16 - rgif); }

uint32_t pid_handle(uint16_t pid, unsigned rgif) { return uint32_t{pid} & ((1u << (16 - rgif)) - 1); }

nvme_uring_cmd write_cmd(uint32_t nsid, uint64_t slba, uint32_t blocks, const void* buf, uint32_t bytes,
                         std::optional<uint16_t> placement_id) {
  nvme_uring_cmd c = blank(kOpWrite, nsid);
  c.addr = reinterpret_cast<uint64_t>(buf);
  c.data_len = bytes;
  set_lba_range(c, slba, blocks);
  if (placement_id) {
    c.cdw12 |= kDtypeDataPlacement << kDtypeShift;
    c.cdw13 = uint32_t{*placement_id} << kDspecShift;
  }
  return c;
}

nvme_uring_cmd read_cmd(uint32_t nsid, uint64_t slba, uint32_t blocks, void* buf, uint32_t bytes) {
  nvme_uring_cmd c = blank(kOpRead, nsid);
  c.addr = reinterpret_cast<uint64_t>(buf);
  c.data_len = bytes;
  set_lba_range(c, slba, blocks);
  return c;
}

nvme_uring_cmd deallocate_cmd(uint32_t nsid, const DsmRange* range) {
  nvme_uring_cmd c = blank(kOpDatasetManagement, nsid);
  c.addr = reinterpret_cast<uint64_t>(range);
  c.data_len = sizeof(DsmRange);
  c.cdw10 = 0;  // one range (0's based)
  c.cdw11 = kDsmAttrDeallocate;
  return c;
}

nvme_uring_cmd flush_cmd(uint32_t nsid) { return blank(kOpFlush, nsid); }

nvme_uring_cmd ruh_update_cmd(uint32_t nsid, const uint16_t* pids, uint32_t count) {
  nvme_uring_cmd c = blank(kOpIoMgmtSend, nsid);
  c.addr = reinterpret_cast<uint64_t>(pids);
  c.data_len = count * static_cast<uint32_t>(sizeof(uint16_t));
  c.cdw10 = kIoMgmtSendRuhUpdate | ((count - 1) << kIoMgmtNpidShift);
  return c;
}

}  // namespace ftlsim::replay::nvme
