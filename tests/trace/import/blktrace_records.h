#pragma once
// blktrace binary records built field by field from linux/blktrace_api.h,
// for the blktrace import's tests (library and CLI).
#include <linux/blktrace_api.h>

#include <cstdint>
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

// The record's bytes, each field written out in the byte order asked for
// (as linux/blktrace_api.h lays them out: no padding, 48 bytes), then the
// payload.
inline std::string bytes_of(const Ev& e, bool big_endian = false) {
  std::string out;
  const auto put = [&out, big_endian](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) {
      const int shift = 8 * (big_endian ? bytes - 1 - i : i);
      out.push_back(static_cast<char>((v >> shift) & 0xFF));
    }
  };
  put(e.magic, 4);
  put(0, 4);  // sequence
  put(e.time, 8);
  put(e.sector, 8);
  put(e.bytes, 4);
  put(e.action, 4);
  put(e.pid, 4);
  put(e.device, 4);
  put(e.cpu, 4);
  put(0, 2);  // error
  put(e.pdu.size(), 2);
  static_assert(sizeof(blk_io_trace) == 48);
  return out + e.pdu;
}

inline std::string file_of(const std::vector<Ev>& evs, bool big_endian = false) {
  std::string out;
  for (const Ev& e : evs) out += bytes_of(e, big_endian);
  return out;
}

}  // namespace ftlsim::trace::test::blktrace
