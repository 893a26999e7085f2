// Tencent CBS block traces (SNIA IOTTA), one request per line:
//
//   Timestamp,Offset,Size,IOType,VolumeID
//
// Timestamp in seconds (decimals allowed), Offset and Size in 512-byte
// sectors, IOType 0 for a read and 1 for a write. Times become ns since the
// first record. An optional header line is skipped.
#include <fmt/format.h>

#include "core/io_units.h"
#include "trace/import/import_driver.h"

namespace ftlsim::trace::detail {
namespace {

using scan::parse_uint;
using scan::trim;

class TencentParser {
 public:
  static constexpr bool kRebaseTime = true;
  [[nodiscard]] bool has_device() const { return false; }
  [[nodiscard]] bool has_process() const { return false; }

  LineKind parse(std::string_view line, Event& ev, std::string& why, ImportSummary& s) {
    std::string_view f[6];
    if (const LineKind k = split_fixed_csv(line, f, 5, "Timestamp,Offset,Size,IOType,VolumeID", first_, why, s);
        k != LineKind::kEvent) {
      return k;
    }
    uint32_t type = 0;
    if (!scan::parse_scaled(trim(f[0]), "timestamp", kNsPerSecond, ev.time_ns, why) ||
        !parse_uint(trim(f[1]), "offset", ev.lba, why) || !parse_uint(trim(f[2]), "size", ev.sectors, why) ||
        !parse_uint(trim(f[3]), "IOType", type, why) || !parse_uint(trim(f[4]), "VolumeID", ev.dev, why)) {
      return LineKind::kBad;
    }
    if (ev.sectors == 0) {
      why = "size is 0 sectors (zero-length request)";
      return LineKind::kBad;
    }
    if (type > 1) {
      why = fmt::format("IOType {} is neither 0 (read) nor 1 (write)", type);
      return LineKind::kBad;
    }
    if (ev.lba > UINT64_MAX - ev.sectors) {
      why = fmt::format("offset {} + size {} overflows 64 bits", ev.lba, ev.sectors);
      return LineKind::kBad;
    }
    ev.op = type == 1 ? Op::kWrite : Op::kRead;
    return LineKind::kEvent;
  }

 private:
  bool first_ = true;
};

}  // namespace

void run_tencent(const DriveContext& ctx) {
  TencentParser parser;
  drive(parser, ctx);
}

}  // namespace ftlsim::trace::detail
