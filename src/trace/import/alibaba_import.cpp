// Alibaba cloud block traces (block-traces of the 2020 release), one request
// per line:
//
//   device_id,opcode,offset,length,timestamp
//
// opcode R or W (any case), offset and length in bytes, timestamp in
// microseconds. Records get the covering 512-byte sectors (unaligned
// requests counted) and times in ns since the first record. An optional
// header line is skipped.
#include <fmt/format.h>

#include "trace/import/import_driver.h"

namespace ftlsim::trace::detail {
namespace {

using scan::parse_uint;
using scan::trim;

class AlibabaParser {
 public:
  static constexpr bool kRebaseTime = true;
  [[nodiscard]] bool has_device() const { return false; }
  [[nodiscard]] bool has_process() const { return false; }

  LineKind parse(std::string_view line, Event& ev, std::string& why, ImportSummary& s) {
    std::string_view f[6];
    if (const LineKind k = split_fixed_csv(line, f, 5, "device_id,opcode,offset,length,timestamp", first_, why, s);
        k != LineKind::kEvent) {
      return k;
    }
    uint64_t offset = 0;
    uint64_t length = 0;
    if (!parse_uint(trim(f[0]), "device_id", ev.dev, why) || !parse_uint(trim(f[2]), "offset", offset, why) ||
        !parse_uint(trim(f[3]), "length", length, why) ||
        !scan::parse_scaled(trim(f[4]), "timestamp", 1000, ev.time_ns, why)) {
      return LineKind::kBad;
    }
    if (!parse_rw_word(f[1], "W", "R", "opcode", ev, why)) return LineKind::kBad;
    return covering_sectors(offset, length, ev, why, s) ? LineKind::kEvent : LineKind::kBad;
  }

 private:
  bool first_ = true;
};

}  // namespace

void run_alibaba(const DriveContext& ctx) {
  AlibabaParser parser;
  drive(parser, ctx);
}

}  // namespace ftlsim::trace::detail
