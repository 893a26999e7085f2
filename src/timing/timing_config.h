#pragma once
// Settings of timed mode: NAND latencies, the host model (open or closed
// loop) and the events.csv interval. One plain struct with documented
// defaults and one problems() that reports everything wrong at once.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ftl/geometry.h"

namespace ftlsim::timing {

// Open loop: each request is issued at its trace time stamp (divided by
// `speed`), whatever the device is doing. Closed loop: `qd` requests are kept
// outstanding, the next one issued when one completes, as a benchmark with
// `qd` threads would; trace time stamps are ignored.
enum class HostMode : uint8_t { kOpen, kClosed };
[[nodiscard]] std::string_view host_mode_name(HostMode m);  // "open" / "closed"

// Which requests are issued as timed requests. The others still update the
// FTL (in trace order, at the time they are reached) but take no device time:
// `kRead` measures reads against the mapping the trace's writes built.
enum class OpFilter : uint8_t { kAll, kRead, kWrite };
[[nodiscard]] std::string_view op_filter_name(OpFilter f);   // "all" / "read" / "write"
[[nodiscard]] OpFilter parse_op_filter(std::string_view s);  // throws InputError naming --ops

struct TimingConfig {
  // Per NAND page (4 KiB) and block. Defaults: FEMU bbssd's NAND_READ_LATENCY,
  // NAND_PROG_LATENCY, NAND_ERASE_LATENCY (MoatLab/FEMU hw/femu/bbssd/ftl.h).
  uint64_t read_ns = 40'000;
  uint64_t program_ns = 200'000;
  uint64_t erase_ns = 2'000'000;
  // Channel transfer of one 4 KiB page. FEMU bbssd sets ch_xfer_lat = 0 and
  // charges no channel time, so the default is 0.
  uint64_t xfer_ns = 0;
  HostMode mode = HostMode::kOpen;
  uint32_t qd = 1;     // closed loop: requests kept outstanding, >= 1
  double speed = 1.0;  // open loop: trace time is divided by this, > 0
  OpFilter ops = OpFilter::kAll;
  // events.csv interval; 0 = automatic (starts at 1 ms and doubles so that
  // the run spans at most kAutoIntervals intervals).
  uint64_t event_interval_ns = 0;

  // Every problem with these settings on geometry `g`, one message each.
  [[nodiscard]] std::vector<Problem> problems(const ftl::Geometry& g) const;
};

inline constexpr uint32_t kAutoIntervals = 256;
inline constexpr uint32_t kMaxQd = 1u << 20;
// The longest NAND operation time (read, program, erase, transfer) taken:
// 1 s, thousands of times any NAND's, so that the simulated clock (ns in
// 64 bits) cannot wrap on any trace it can run (2^62 ns of simulated time
// takes 4.6 x 10^9 of them on one die); 2^62 ns per program wrapped it
// after four.
inline constexpr uint64_t kMaxNandNs = 1'000'000'000;

}  // namespace ftlsim::timing
