#pragma once
// How fast a trace issues its requests: requests (markers aside) and bytes
// per second over the span of its records' times, and the warning `ftlsim
// info` and `ftlsim convert` give when that is beyond any device, which
// means the times are in a smaller unit than the conversion assumed.
#include <cstdint>
#include <optional>
#include <string>

#include "trace/record.h"

namespace ftlsim::trace {

struct TraceStats;

// What the rate is computed from: every record's time (markers too, as
// `info` spans them), the requests' count, and the bytes reads and writes
// move (a trim's range moves none: mkfs discarding a whole device in a
// second is no sign of a wrong time unit).
struct RecordSpan {
  uint64_t records = 0;
  uint64_t markers = 0;
  uint64_t bytes = 0;  // of the reads and writes (sectors x sector size)
  uint64_t min_time_ns = 0;
  uint64_t max_time_ns = 0;

  void add(const Record& r, uint32_t sector_bytes) {
    if (records == 0 || r.time_ns < min_time_ns) min_time_ns = r.time_ns;
    if (records == 0 || r.time_ns > max_time_ns) max_time_ns = r.time_ns;
    ++records;
    if (r.op == static_cast<uint8_t>(Op::kMarker)) {
      ++markers;
    } else if (r.op == static_cast<uint8_t>(Op::kRead) || r.op == static_cast<uint8_t>(Op::kWrite)) {
      bytes += uint64_t{r.sectors} * sector_bytes;
    }
  }
};
[[nodiscard]] RecordSpan record_span(const TraceStats& s);

struct TraceRate {
  double requests_per_s = 0;
  double bytes_per_s = 0;
};
// nullopt when the span is 0 or there is at most one request.
[[nodiscard]] std::optional<TraceRate> trace_rate(const RecordSpan& s);

// Above what one NVMe device sustains by far (a few million IOPS, tens of
// GB/s): a trace this fast has times in a smaller unit than its conversion
// assumed (the CloudPhysics sample, whose times are seconds, read as
// microseconds gives 15.8 M requests/s).
inline constexpr double kImplausibleIops = 5e6;
inline constexpr double kImplausibleBytesPerS = 64.0 * (1ull << 30);

// "<path>: N requests in 3.5 ms is ... M requests/s and .../s, more than a
// device sustains; are the times in the unit the conversion assumed?", or ""
// when the rate is plausible (or there is none).
[[nodiscard]] std::string implausible_rate_warning(const std::string& path, const RecordSpan& s);

}  // namespace ftlsim::trace
