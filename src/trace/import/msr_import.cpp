// MSR Cambridge block traces (SNIA IOTTA), one request per line:
//
//   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
//
// Timestamp is a Windows FILETIME (100 ns ticks since 1601); Type is Read or
// Write (any case); Offset and Size are bytes. Records get the 512-byte
// sectors covering [Offset, Offset + Size) (unaligned requests are counted)
// and times in ns since the first record. An optional header line is
// skipped. ResponseTime must be a number but is not kept.
#include <fmt/format.h>

#include "trace/import/import_driver.h"

namespace ftlsim::trace::detail {
namespace {

using scan::parse_uint;
using scan::trim;

class MsrParser {
 public:
  static constexpr bool kRebaseTime = true;
  [[nodiscard]] bool has_device() const { return false; }  // DiskNumber is not a MAJ,MIN
  [[nodiscard]] bool has_process() const { return false; }

  LineKind parse(std::string_view line, Event& ev, std::string& why, ImportSummary& s) {
    std::string_view f[8];
    if (const LineKind k =
            split_fixed_csv(line, f, 7, "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime", first_, why, s);
        k != LineKind::kEvent) {
      return k;
    }
    uint64_t ticks = 0;
    uint64_t offset = 0;
    uint64_t size = 0;
    uint64_t response = 0;
    if (!parse_uint(trim(f[0]), "timestamp", ticks, why) || !parse_uint(trim(f[2]), "disk number", ev.dev, why) ||
        !parse_uint(trim(f[4]), "offset", offset, why) || !parse_uint(trim(f[5]), "size", size, why) ||
        !parse_uint(trim(f[6]), "response time", response, why)) {
      return LineKind::kBad;
    }
    if (ticks > UINT64_MAX / 100) {
      why = fmt::format("timestamp {} overflows 64-bit nanoseconds", ticks);
      return LineKind::kBad;
    }
    ev.time_ns = ticks * 100;
    if (!parse_rw_word(f[3], "Write", "Read", "type", ev, why)) return LineKind::kBad;
    return covering_sectors(offset, size, ev, why, s) ? LineKind::kEvent : LineKind::kBad;
  }

 private:
  bool first_ = true;
};

}  // namespace

void run_msr(const DriveContext& ctx) {
  MsrParser parser;
  drive(parser, ctx);
}

}  // namespace ftlsim::trace::detail
