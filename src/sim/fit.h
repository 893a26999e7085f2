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

#include "core/huge_array.h"
#include "ftl/ftl_config.h"
#include "sim/simulate.h"
#include "trace/slot_remap.h"

namespace ftlsim::sim {

// "fit:85%" -> 0.85; nullopt when `text` does not start with "fit:".
// Throws InputError for a malformed or out-of-range percentage.
[[nodiscard]] std::optional<double> parse_fit(std::string_view text);

// The remap table (trace/slot_remap.h): trace slot -> dense slot, for the
// slots [0, space) the trace addresses, in blocks of kBlockSlots slots. Only
// the blocks the trace touches hold entries; the directory (one entry per
// block of the address space, in zero pages the kernel backs only where
// written) names each touched block's entries, and every untouched block
// shares one block of trace::kUntouchedSlot. So a sparse trace costs what it
// touches: two 4 KiB writes 1 TiB apart take two blocks (32 KiB) and a
// 1 MiB directory, not 4 B for each of the 2^28 slots between them. A
// trace that touches most of its space (the blocks would take half of a
// flat table or more) gets the flat table: one load a lookup, not two.
class FitMap {
 public:
  static constexpr unsigned kBlockBits = trace::SlotRemap::kBlockBits;
  static constexpr uint64_t kBlockSlots = trace::SlotRemap::kBlockSlots;

  [[nodiscard]] trace::SlotRemap view() const { return {flat_ ? nullptr : dir_.data(), slots_.data(), space_}; }
  [[nodiscard]] uint64_t space() const { return space_; }
  [[nodiscard]] uint64_t footprint() const { return footprint_; }
  // Blocks holding entries: the touched ones and the shared untouched one
  // (0 when flat).
  [[nodiscard]] uint64_t blocks() const { return flat_ ? 0 : slots_.size() >> kBlockBits; }
  [[nodiscard]] bool flat() const { return flat_; }

 private:
  friend FitMap fit_trace(const TraceView& trace);
  HugeArray<uint32_t> dir_;      // per block of the address space: its block in slots_ (0: untouched)
  std::vector<uint32_t> slots_;  // block 0: all trace::kUntouchedSlot; then the touched blocks (flat: per slot)
  bool flat_ = false;            // the blocks would take half a flat table or more: flat, one load a lookup
  uint64_t space_ = 0;
  uint64_t footprint_ = 0;
};

// Enumerates the trace's slots as the driver does (records the driver would
// refuse are skipped here; the driver reports them). Throws InputError when
// the trace addresses more than 2^32 - 2 slots (16 TiB) or touches none.
[[nodiscard]] FitMap fit_trace(const TraceView& trace);

// Bytes of the remap table for a trace that addresses `space` slots and
// touches `touched_blocks` of its blocks: the directory and the blocks, or
// the flat table (FitMap's choice).
[[nodiscard]] uint64_t fit_table_bytes(uint64_t space, uint64_t touched_blocks);

// What sizing needs of the trace without the remap table: the slots it
// addresses, the distinct ones it touches and the table's blocks they lie
// in. One pass for the address space, one for the touched blocks, one with
// a bit per slot of the touched blocks (512 B a block) for the footprint;
// the footprint is left 0 when the space is past what fit remaps
// (fit_trace refuses it, and so does fitted_config).
struct FitFootprint {
  uint64_t space = 0;           // slots the trace addresses (the remap table's length)
  uint64_t footprint = 0;       // distinct slots touched
  uint64_t touched_blocks = 0;  // FitMap blocks holding a touched slot
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
