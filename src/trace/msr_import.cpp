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

#include "trace/import_driver.h"

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
    if (scan::is_blank_line(line)) return LineKind::kSkip;
    std::string_view f[8];
    const size_t n = scan::split(line, ',', f);
    if (first_) {
      first_ = false;
      if (looks_like_header(f[0])) {
        ++s.header_lines;
        return LineKind::kSkip;
      }
    }
    if (n != 7) {
      why = fmt::format("expected 7 fields (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime), found {}", n);
      return LineKind::kBad;
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
    const std::string_view type = trim(f[3]);
    if (scan::iequals(type, "Write")) {
      ev.op = Op::kWrite;
    } else if (scan::iequals(type, "Read")) {
      ev.op = Op::kRead;
    } else {
      why = fmt::format("type {} is neither Read nor Write", scan::quote(type));
      return LineKind::kBad;
    }
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
