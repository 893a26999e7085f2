#pragma once
// Marker sidecars: application progress logged beside a block trace, merged
// into the converted trace as marker records (`ftlsim convert --markers`).
//
// Format: one "<time_ns> <value>" pair per line, blank-separated, times on
// the clock of the capture (CLOCK_MONOTONIC for tools/capture_blktrace.sh's
// ftrace route and for tools/geth_patch's ethstate, whose sidecar writes
// "<t_ns> <block>"). Lines starting with '#' and blank lines are skipped.
// Times must not go backwards.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ftlsim::trace {

struct MarkerPoint {
  uint64_t time_ns = 0;  // on the sidecar's clock
  uint64_t value = 0;    // becomes the marker record's `lba`
};

// Parses sidecar text; `source` names it in errors. Throws
// InputError("<source>: line N: <what>") for a malformed line or a time
// earlier than the line before.
[[nodiscard]] std::vector<MarkerPoint> parse_marker_sidecar(std::string_view text, const std::string& source);

// Reads and parses the sidecar file at `path` (InputError when missing).
[[nodiscard]] std::vector<MarkerPoint> load_marker_sidecar(const std::string& path);

}  // namespace ftlsim::trace
