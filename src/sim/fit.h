#pragma once
// `--logical fit:P%`: size the simulated device from the trace. The trace's
// footprint (the distinct 4 KiB slots its writes, reads and trims touch) is
// remapped densely in first-touch order, and the logical capacity becomes
// footprint / P, so any capture can be put at a chosen fill level without
// capturing it again.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/simulate.h"

namespace ftlsim::sim {

// "fit:85%" -> 0.85; nullopt when `text` does not start with "fit:".
// Throws InputError for a malformed or out-of-range percentage.
[[nodiscard]] std::optional<double> parse_fit(std::string_view text);

struct FitMap {
  std::vector<uint32_t> slot_of;  // original slot -> dense slot (0xFFFFFFFF: untouched)
  uint64_t footprint = 0;         // distinct slots touched
  uint64_t logical_slots = 0;     // ceil(footprint / fraction)
};

// Enumerates the trace's slots as the driver does (records the driver would
// refuse are skipped here; the driver reports them). Throws InputError when
// the trace addresses more than 2^28 slots (1 TiB) or touches none.
[[nodiscard]] FitMap fit_trace(const TraceView& trace, double fraction);

}  // namespace ftlsim::sim
