#pragma once
// Trace time to issue time for the open loop of timed simulation and for
// `replay --mode timed`: (time stamp - first time stamp) / speed. Both refuse
// a --speed or a trace span whose issue times would not fit, before any
// work, instead of converting an out-of-range double to uint64_t (undefined
// behaviour) or clamping silently.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/setting.h"
#include "trace/record.h"

namespace ftlsim::timing {

// The latest issue time, 2^62 ns (about 146 years): beyond any real trace,
// and it leaves room for device time on top within 64 bits.
inline constexpr uint64_t kMaxIssueNs = uint64_t{1} << 62;
// --speed outside [1e-6, 1e9] is a typo, not a replay: at 1e-6 a 1 s trace
// takes 11.6 days, at 1e9 a 1 s trace takes 1 ns.
inline constexpr double kMinSpeed = 1e-6;
inline constexpr double kMaxSpeed = 1e9;

[[nodiscard]] inline bool speed_in_range(double speed) {
  return std::isfinite(speed) && speed >= kMinSpeed && speed <= kMaxSpeed;
}

// "`speed` X is out of range: give a number from 1e-06 to 1e+09 (...)".
// REQUIRES: !speed_in_range(speed).
[[nodiscard]] inline Problem speed_problem(double speed) {
  return {"speed", fmt::format("{}", speed),
          fmt::format("is out of range: give a number from {:g} to {:g} (2 = twice as fast)", kMinSpeed, kMaxSpeed)};
}

// delta_ns / speed rounded to 1 ns, saturated at kMaxIssueNs (never reached
// after check_issue_span). REQUIRES speed_in_range(speed).
[[nodiscard]] inline uint64_t scaled_issue_ns(uint64_t delta_ns, double speed) {
  if (speed == 1.0) return delta_ns < kMaxIssueNs ? delta_ns : kMaxIssueNs;
  const double t = std::round(static_cast<double>(delta_ns) / speed);
  return t < static_cast<double>(kMaxIssueNs) ? static_cast<uint64_t>(t) : kMaxIssueNs;
}

// The largest issue time after the first record's: its record and span.
struct IssueSpan {
  uint64_t span_ns = 0;
  size_t record = 0;
  uint64_t time_ns = 0;  // the record's time stamp
};

[[nodiscard]] inline IssueSpan issue_span(std::span<const trace::Record> records) {
  IssueSpan s;
  if (records.empty()) return s;
  const uint64_t t0 = records[0].time_ns;
  for (size_t i = 1; i < records.size(); ++i) {
    const uint64_t t = records[i].time_ns;
    if (t > t0 && t - t0 > s.span_ns) s = {t - t0, i, t};
  }
  return s;
}

// Throws InputError naming `trace_path` and the record when the trace's
// largest issue time (`span`, from issue_span), divided by `speed`, passes
// kMaxIssueNs. An out-of-range speed is refused first, with speed_problem().
inline void check_issue_span(const IssueSpan& span, double speed, std::string_view trace_path) {
  if (!speed_in_range(speed)) throw SettingError(speed_problem(speed));
  const double issue = static_cast<double>(span.span_ns) / speed;
  if (issue >= static_cast<double>(kMaxIssueNs)) {
    throw InputError(
        say("{}: record {}: time stamp {} ns is {:.3g} s after the first record's; at `speed` {} it would be issued "
            "{:.3g} s after the start, beyond the {:.3g} s (2^62 ns) timed replay and timed simulation can represent",
            trace_path, span.record, span.time_ns, static_cast<double>(span.span_ns) * 1e-9, speed, issue * 1e-9,
            static_cast<double>(kMaxIssueNs) * 1e-9));
  }
}

inline void check_issue_span(std::span<const trace::Record> records, double speed, std::string_view trace_path) {
  check_issue_span(issue_span(records), speed, trace_path);
}

}  // namespace ftlsim::timing
