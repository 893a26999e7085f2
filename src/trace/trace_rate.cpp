#include "trace/trace_rate.h"

#include <fmt/format.h>

#include "core/io_units.h"
#include "core/units.h"
#include "trace/trace_stats.h"

namespace ftlsim::trace {
namespace {

// "7.2 ms", "3.5 s": a time span with three significant digits.
std::string span_text(uint64_t ns) {
  const auto v = static_cast<double>(ns);
  if (ns < 1'000) return fmt::format("{} ns", ns);
  if (ns < 1'000'000) return fmt::format("{:.3g} us", v * 1e-3);
  if (ns < kNsPerSecond) return fmt::format("{:.3g} ms", v * 1e-6);
  return fmt::format("{:.3g} s", v * 1e-9);
}

}  // namespace

RecordSpan record_span(const TraceStats& s) {
  RecordSpan out;
  out.records = s.records;
  out.markers = s.ops[static_cast<size_t>(Op::kMarker)].records;
  out.bytes = s.ops[static_cast<size_t>(Op::kRead)].bytes + s.ops[static_cast<size_t>(Op::kWrite)].bytes;
  out.min_time_ns = s.min_time_ns;
  out.max_time_ns = s.max_time_ns;
  return out;
}

std::optional<TraceRate> trace_rate(const RecordSpan& s) {
  const uint64_t requests = s.records - s.markers;
  if (requests < 2 || s.max_time_ns == s.min_time_ns) return std::nullopt;
  const double span_s = static_cast<double>(s.max_time_ns - s.min_time_ns) * 1e-9;
  return TraceRate{static_cast<double>(requests) / span_s, static_cast<double>(s.bytes) / span_s};
}

std::string implausible_rate_warning(const std::string& path, const RecordSpan& s) {
  const std::optional<TraceRate> rate = trace_rate(s);
  if (!rate || (rate->requests_per_s <= kImplausibleIops && rate->bytes_per_s <= kImplausibleBytesPerS)) return {};
  const double mega = rate->requests_per_s * 1e-6;
  const std::string requests = mega >= 1e4 ? fmt::format("{:.0f} M ", mega)
                               : mega >= 1 ? fmt::format("{:.4g} M ", mega)
                                           : fmt::format("{:.4g} ", rate->requests_per_s);
  return fmt::format(
      "{}: {} requests in {} is {}requests/s and {}/s, more than a device sustains; are the times in the "
      "unit the conversion assumed?",
      path, s.records - s.markers, span_text(s.max_time_ns - s.min_time_ns), requests,
      format_bytes(static_cast<uint64_t>(rate->bytes_per_s)));
}

}  // namespace ftlsim::trace
