// NVMe command encoding (src/replay/nvme_cmd.h), checked byte by byte
// against the layout of struct nvme_uring_cmd in the kernel's
// include/uapi/linux/nvme_ioctl.h (opcode at 0, nsid at 4, addr at 24,
// data_len at 36, cdw10..cdw15 at 40..60) and the NVM Command Set's Write
// command fields (CDW12 NLB 0's based in bits 15:0, DTYPE in 23:20; CDW13
// DSPEC in 31:16), with the placement identifier of TP4146.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>

#include "replay/nvme_cmd.h"

namespace nvme = ftlsim::replay::nvme;

namespace {

std::array<uint8_t, 72> bytes_of(const nvme_uring_cmd& c) {
  static_assert(sizeof(nvme_uring_cmd) == 72);
  std::array<uint8_t, 72> b{};
  std::memcpy(b.data(), &c, sizeof c);
  return b;
}

uint32_t u32_at(const std::array<uint8_t, 72>& b, size_t off) {
  return uint32_t{b[off]} | uint32_t{b[off + 1]} << 8 | uint32_t{b[off + 2]} << 16 | uint32_t{b[off + 3]} << 24;
}

uint64_t u64_at(const std::array<uint8_t, 72>& b, size_t off) {
  return uint64_t{u32_at(b, off)} | uint64_t{u32_at(b, off + 4)} << 32;
}

}  // namespace

TEST_CASE("placement identifier: reclaim group in the top RGIF bits", "[replay][unit]") {
  // RGIF 0: one reclaim group, the PID is the placement handle.
  CHECK(nvme::placement_identifier(0, 0, 0) == uint16_t{0});
  CHECK(nvme::placement_identifier(0, 7, 0) == uint16_t{7});
  CHECK(nvme::placement_identifier(0, 0xffff, 0) == uint16_t{0xffff});
  CHECK_FALSE(nvme::placement_identifier(1, 0, 0));  // no bits for a group
  // RGIF 4: group in bits 15:12, handle in 11:0. Group 3, handle 5 -> 0x3005.
  CHECK(nvme::placement_identifier(3, 5, 4) == uint16_t{0x3005});
  CHECK(nvme::placement_identifier(15, 0xfff, 4) == uint16_t{0xffff});
  CHECK_FALSE(nvme::placement_identifier(16, 0, 4));
  CHECK_FALSE(nvme::placement_identifier(0, 0x1000, 4));
  // RGIF 8: 0x01 << 8 | 0x02.
  CHECK(nvme::placement_identifier(1, 2, 8) == uint16_t{0x0102});
  CHECK_FALSE(nvme::placement_identifier(0, 0, 16));
  // And back.
  CHECK(nvme::pid_reclaim_group(0x3005, 4) == 3);
  CHECK(nvme::pid_handle(0x3005, 4) == 5);
  CHECK(nvme::pid_reclaim_group(0x1234, 0) == 0);
  CHECK(nvme::pid_handle(0x1234, 0) == 0x1234);
}

TEST_CASE("write command with placement: DTYPE 2 and DSPEC = PID", "[replay][unit]") {
  alignas(4096) static uint8_t buf[8192];
  const uint64_t slba = 0x0000'0012'3456'789aULL;
  const nvme_uring_cmd c = nvme::write_cmd(3, slba, 16, buf, 8192, uint16_t{0x3005});
  const auto b = bytes_of(c);
  CHECK(b[0] == 0x01);                                      // opcode: Write
  CHECK(b[1] == 0);                                         // flags
  CHECK(u32_at(b, 4) == 3);                                 // nsid
  CHECK(u64_at(b, 24) == reinterpret_cast<uint64_t>(buf));  // addr
  CHECK(u32_at(b, 36) == 8192);                             // data_len
  CHECK(u32_at(b, 40) == 0x3456789a);                       // CDW10: SLBA bits 31:0
  CHECK(u32_at(b, 44) == 0x00000012);                       // CDW11: SLBA bits 63:32
  CHECK(u32_at(b, 48) == (15u | (2u << 20)));               // CDW12: NLB 16 -> 15, DTYPE 2 in bits 23:20
  CHECK(u32_at(b, 52) == 0x3005'0000u);                     // CDW13: DSPEC in bits 31:16
  CHECK(u32_at(b, 56) == 0);                                // CDW14
  CHECK(u32_at(b, 60) == 0);                                // CDW15
  CHECK(u32_at(b, 64) == 0);                                // timeout_ms: the driver's default
  CHECK(u64_at(b, 16) == 0);                                // no metadata
}

TEST_CASE("write without placement, read, deallocate and flush", "[replay][unit]") {
  alignas(4096) static uint8_t buf[4096];
  const auto w = bytes_of(nvme::write_cmd(1, 8, 1, buf, 4096, std::nullopt));
  CHECK(w[0] == 0x01);
  CHECK(u32_at(w, 48) == 0);  // NLB 1 -> 0, no DTYPE
  CHECK(u32_at(w, 52) == 0);  // no DSPEC
  const auto r = bytes_of(nvme::read_cmd(1, 8, 65536, buf, 4096));
  CHECK(r[0] == 0x02);
  CHECK(u32_at(r, 40) == 8);
  CHECK(u32_at(r, 48) == 0xffff);  // the largest NLB

  const nvme::DsmRange range{0, 256, 0x1'0000'0000ULL};
  const auto d = bytes_of(nvme::deallocate_cmd(7, &range));
  CHECK(d[0] == 0x09);  // Dataset Management
  CHECK(u32_at(d, 4) == 7);
  CHECK(u64_at(d, 24) == reinterpret_cast<uint64_t>(&range));
  CHECK(u32_at(d, 36) == 16);         // one 16-byte range
  CHECK(u32_at(d, 40) == 0);          // NR: 1 range, 0's based
  CHECK(u32_at(d, 44) == (1u << 2));  // AD: deallocate
  uint8_t rb[16];
  std::memcpy(rb, &range, 16);
  CHECK(rb[4] == 0x00);
  CHECK(rb[5] == 0x01);   // length in LBAs at bytes 7:4 (256, not 0's based)
  CHECK(rb[12] == 0x01);  // starting LBA at bytes 15:8: 2^32
  const auto f = bytes_of(nvme::flush_cmd(2));
  CHECK(f[0] == 0x00);
  CHECK(u32_at(f, 4) == 2);
  CHECK(u32_at(f, 48) == 0);
}

TEST_CASE("RUH Update: I/O Management Send, MO 1, NPID 0's based in CDW10 31:16", "[replay][unit]") {
  static const uint16_t pids[3] = {0x0000, 0x0001, 0x1002};
  const auto b = bytes_of(nvme::ruh_update_cmd(1, pids, 3));
  CHECK(b[0] == 0x1D);                                                   // opcode: I/O Management Send
  CHECK(u32_at(b, 4) == 1);                                              // nsid
  CHECK(u64_at(b, 24) == reinterpret_cast<uint64_t>(pids));              // addr: the PID list
  CHECK(u32_at(b, 36) == 6);                                             // data_len: 3 x 2 bytes, no more
  CHECK(u32_at(b, 40) == (1u | (2u << 16)));                             // CDW10: MO 1, NPID 3 -> 2
  for (size_t off = 44; off < 72; off += 4) CHECK(u32_at(b, off) == 0);  // CDW11..15, timeout
  const auto one = bytes_of(nvme::ruh_update_cmd(1, pids, 1));
  CHECK(u32_at(one, 40) == 1u);  // one PID: NPID 0
  CHECK(u32_at(one, 36) == 2);
}
