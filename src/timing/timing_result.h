#pragma once
// What a timed run reports in addition to the fast-mode counters.
#include <array>
#include <cstdint>

#include "core/log_histogram.h"
#include "timing/event_series.h"
#include "timing/timing_config.h"

namespace ftlsim::timing {

// Host request types with their own latency statistics.
enum class HostOp : uint8_t { kRead, kWrite, kTrim, kCount };
inline constexpr size_t kHostOps = static_cast<size_t>(HostOp::kCount);
[[nodiscard]] constexpr const char* host_op_name(HostOp op) {
  return op == HostOp::kRead ? "read" : op == HostOp::kWrite ? "write" : "trim";
}

struct OpTiming {
  uint64_t bytes = 0;        // request bytes as in the trace
  LatencyHistogram latency;  // issue to completion, ns; count() = requests
};

struct TimingResult {
  TimingConfig config;
  // Time of the last host completion, from 0 = the first request's issue.
  uint64_t sim_time_ns = 0;
  std::array<OpTiming, kHostOps> ops;
  // Read requests none of whose slots was mapped (never written or trimmed):
  // they complete at once and are not in ops[kRead].
  uint64_t unmapped_reads = 0;
  // Open loop: records whose time stamp was below the previous one's (issued
  // at the previous time instead).
  uint64_t backwards_timestamps = 0;
  // NAND operations placed in time.
  uint64_t host_page_reads = 0;  // includes read-modify-write reads
  uint64_t host_page_programs = 0;
  uint64_t gc_copies = 0;  // each a page read plus a page program
  uint64_t erases = 0;     // per die and block row: a multi-plane erase
  // GC work that a host request had to wait for (forced GC, or a program into
  // a unit whose erase was still queued, or a read of data still being moved).
  uint64_t gc_waits = 0;
  // Plane-ns of array work and the planes there are: utilization =
  // busy / (planes x time the last NAND operation ends).
  uint64_t busy_ns = 0;
  uint64_t planes = 0;
  uint64_t nand_end_ns = 0;  // the last NAND operation ends (GC included)
  EventSeries events;

  [[nodiscard]] uint64_t nand_ops() const { return host_page_reads + host_page_programs + 2 * gc_copies + erases; }
  [[nodiscard]] double utilization() const {
    return nand_end_ns == 0 || planes == 0
               ? 0.0
               : static_cast<double>(busy_ns) / (static_cast<double>(planes) * static_cast<double>(nand_end_ns));
  }
};

}  // namespace ftlsim::timing
