#pragma once
// Counters the FTL keeps exactly. All sizes are in 4 KiB slots.
#include <cstdint>
#include <limits>

namespace ftlsim::ftl {

inline constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

struct FtlStats {
  uint64_t host_slots = 0;        // slots programmed for host writes
  uint64_t gc_slots = 0;          // slots relocated by GC
  uint64_t programmed_slots = 0;  // every slot program, counted where it happens
  uint64_t trimmed_slots = 0;     // mapped slots a trim unmapped
  uint64_t unit_erases = 0;       // units erased (each erases the layout's blocks_per_unit blocks)
  uint64_t gc_passes = 0;         // passes that took a victim
  uint64_t gc_forced_passes = 0;
  uint64_t gc_background_passes = 0;
  uint64_t gc_background_declined = 0;    // background passes whose best victim had < 1/8 invalid
  uint64_t gc_onset_host_slots = kNever;  // host slots written when the first pass ran
  // FDP events of units closed before they were full (PageFtl::close_early):
  // each such close is one "reclaim unit not fully written"; those closed by
  // the RU time limit are also "reclaim unit time limit exceeded".
  uint64_t units_not_fully_written = 0;
  uint64_t unit_time_limit_exceeded = 0;
  uint64_t unwritten_slots = 0;  // slots those units never had programmed

  [[nodiscard]] uint64_t nand_slots() const { return host_slots + gc_slots; }
  [[nodiscard]] double waf() const {
    return host_slots == 0 ? 0.0 : static_cast<double>(nand_slots()) / static_cast<double>(host_slots);
  }
};

}  // namespace ftlsim::ftl
