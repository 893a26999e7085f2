#pragma once
// `--logical fit:P%`: size the simulated device from the trace. The trace's
// footprint (the distinct 4 KiB slots its writes, reads and trims touch) is
// remapped densely in first-touch order, and the logical capacity becomes
// footprint / P, so any capture can be put at a chosen fill level without
// capturing it again.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ftl/ftl_config.h"
#include "sim/simulate.h"

namespace ftlsim::sim {

// "fit:85%" -> 0.85; nullopt when `text` does not start with "fit:".
// Throws InputError for a malformed or out-of-range percentage.
[[nodiscard]] std::optional<double> parse_fit(std::string_view text);

// A slot of the trace's address space that no record touches: no dense slot.
inline constexpr uint32_t kFitUntouched = 0xFFFFFFFFu;

struct FitMap {
  std::vector<uint32_t> slot_of;  // original slot -> dense slot (kFitUntouched: untouched)
  uint64_t footprint = 0;         // distinct slots touched
};

// Enumerates the trace's slots as the driver does (records the driver would
// refuse are skipped here; the driver reports them). Throws InputError when
// the trace addresses more than 2^28 slots (1 TiB) or touches none.
[[nodiscard]] FitMap fit_trace(const TraceView& trace);

// What sizing needs of the trace without the remap table: the slots it
// addresses (the table's length) and the distinct ones it touches. One pass
// for the address space, one with a bit per slot (at most 32 MiB) for the
// footprint; the footprint is left 0 when the space is past what fit
// remaps (fit_trace refuses it, and so does fitted_config).
struct FitFootprint {
  uint64_t space = 0;      // slots the trace addresses (the remap table's length)
  uint64_t footprint = 0;  // distinct slots touched
};
[[nodiscard]] FitFootprint fit_footprint(const TraceView& trace);

// The configuration `given` becomes under fit: its logical capacity
// ceil(footprint / fraction) slots and, with `fit_op`, the pages per block
// that keep that over-provisioning. Computed in double and checked
// before any integer conversion: a share so small that the capacity passes
// what a geometry holds, or pages per block past 32 bits, is refused with
// the true figure. Throws InputError "`logical` fit:P%: ..." (also for the
// space and empty-footprint refusals of fit_trace, with `trace_path`).
[[nodiscard]] ftl::FtlConfig fitted_config(const ftl::FtlConfig& given, const FitFootprint& fp, double fraction,
                                           std::optional<double> fit_op, const std::string& trace_path);

}  // namespace ftlsim::sim
