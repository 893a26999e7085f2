#pragma once
// blktrace binary records built field by field from linux/blktrace_api.h,
// for the blktrace import's tests (library and CLI).
#include <linux/blktrace_api.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ftlsim::trace::test::blktrace {

inline constexpr uint32_t kDev816 = (8u << 20) | 16u;  // 8,16 as the kernel's dev_t

struct Ev {
  uint64_t time;
  uint32_t cpu;
  uint32_t pid;
  uint32_t action;  // __BLK_TA_* | BLK_TC_ACT(categories)
  uint64_t sector;
  uint32_t bytes;
  std::string pdu = {};
  uint32_t device = kDev816;
  uint32_t magic = BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION;
};

inline uint32_t tc(uint32_t categories) { return BLK_TC_ACT(categories); }

inline std::string bytes_of(const Ev& e, bool swap = false) {
  blk_io_trace t{};
  t.magic = e.magic;
  t.time = e.time;
  t.sector = e.sector;
  t.bytes = e.bytes;
  t.action = e.action;
  t.pid = e.pid;
  t.device = e.device;
  t.cpu = e.cpu;
  t.pdu_len = static_cast<uint16_t>(e.pdu.size());
  if (swap) {
    t.magic = __builtin_bswap32(t.magic);
    t.time = __builtin_bswap64(t.time);
    t.sector = __builtin_bswap64(t.sector);
    t.bytes = __builtin_bswap32(t.bytes);
    t.action = __builtin_bswap32(t.action);
    t.pid = __builtin_bswap32(t.pid);
    t.device = __builtin_bswap32(t.device);
    t.cpu = __builtin_bswap32(t.cpu);
    t.pdu_len = __builtin_bswap16(t.pdu_len);
  }
  std::string out(sizeof t, '\0');
  std::memcpy(out.data(), &t, sizeof t);
  return out + e.pdu;
}

inline std::string file_of(const std::vector<Ev>& evs, bool swap = false) {
  std::string out;
  for (const Ev& e : evs) out += bytes_of(e, swap);
  return out;
}

}  // namespace ftlsim::trace::test::blktrace
