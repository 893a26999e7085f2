#pragma once
// Settings of a live replay (`ftlsim replay`): one plain struct whose every
// field has a documented default, and one problems() that reports every
// mistake at once. Parsing of the option words lives here too so that the
// CLI and the tests agree on them.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/setting.h"
#include "trace/record.h"

namespace ftlsim::replay {

enum class ReplayMode : uint8_t {
  kAfap,   // as fast as possible: the queue is kept full
  kTimed,  // record i is submitted no earlier than (t_i - t_0) / speed after the start
};

enum class PlacementMode : uint8_t {
  kNone,    // plain reads and writes; placement IDs are only counted
  kStream,  // Linux 6.16+ io_uring write streams: pid p goes to stream p + 1
  kNvme,    // NVMe passthrough on /dev/ngXnY: writes carry DTYPE=2, DSPEC=placement identifier
};

[[nodiscard]] std::string_view mode_name(ReplayMode m);
[[nodiscard]] std::string_view placement_name(PlacementMode p);
[[nodiscard]] std::optional<ReplayMode> parse_mode(std::string_view s);
[[nodiscard]] std::optional<PlacementMode> parse_placement(std::string_view s);

// Which trace ops are sent to the target; the others are skipped (counted).
// Markers are never sent; they label events.csv rows.
struct OpSet {
  std::array<bool, trace::kOpCount> on{};  // indexed by Op value

  [[nodiscard]] bool has(trace::Op op) const { return on[static_cast<size_t>(op)]; }
  // "write,read,trim" and so on; names are write, read, trim, flush.
  // Throws InputError naming --ops and the bad word.
  [[nodiscard]] static OpSet parse(std::string_view list);
  [[nodiscard]] std::string text() const;  // "write,read,trim"
};

struct ReplayConfig {
  ReplayMode mode = ReplayMode::kAfap;
  // I/Os in flight at most; 1..4096.
  uint32_t queue_depth = 32;
  // Timed mode only: trace time runs this many times faster than real time
  // (2 = twice as fast). > 0.
  double speed = 1.0;
  OpSet ops = OpSet::parse("write,read,trim");
  PlacementMode placement = PlacementMode::kNone;
  // Fold requests beyond the end of the target back into it (offset modulo
  // the target size) instead of refusing the trace.
  bool wrap = false;
  // Largest single I/O; longer trace requests are split. A multiple of 4 KiB,
  // 4 KiB..64 MiB.
  uint32_t max_io_bytes = 1u << 20;
  // NVMe placement only: the reclaim group the placement identifiers name.
  uint16_t reclaim_group = 0;
  // An events.csv row each time this many bytes have completed; 0 = 1% of the
  // bytes the replay moves (at least one row at the end).
  uint64_t interval_bytes = 0;

  // Every problem (empty when valid).
  [[nodiscard]] std::vector<Problem> problems() const;
};

}  // namespace ftlsim::replay
