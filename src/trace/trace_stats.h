#pragma once
// Summary statistics of a trace, as `ftlsim info` prints them: counts and
// bytes per op and per placement ID, the 4 KiB-page footprint, time span,
// markers and LBA range. Computing them validates every record.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/io_units.h"
#include "trace/ftr_reader.h"
#include "trace/record.h"

namespace ftlsim::trace {

// The footprint counts pages of this size, whatever the trace's sector size.
inline constexpr uint64_t kFootprintPageBytes = kSlotBytes;

struct OpStats {
  uint64_t records = 0;
  uint64_t bytes = 0;  // sectors * sector_bytes; 0 for flush and marker
};

struct PidStats {
  PlacementId pid = 0;
  uint64_t records = 0;  // records of every op carrying this pid
  uint64_t write_bytes = 0;
  uint64_t read_bytes = 0;
  uint64_t trim_bytes = 0;
};

struct TraceStats {
  uint64_t records = 0;
  uint32_t sector_bytes = kSectorBytes;
  std::array<OpStats, kOpCount> ops{};  // indexed by Op value
  std::vector<PidStats> pids;           // every pid with a record, ascending

  // Distinct kFootprintPageBytes pages written, and touched by a write, read
  // or trim (a request covering part of a page touches the whole page).
  // written_pages <= touched_pages.
  uint64_t written_pages = 0;
  uint64_t touched_pages = 0;
  bool footprint_by_bitmap = true;  // false: the sparse fallback was used

  // Timestamps in ns; all 0 for an empty trace. backwards_timestamps counts
  // records whose time is below the previous record's.
  uint64_t first_time_ns = 0;
  uint64_t last_time_ns = 0;
  uint64_t min_time_ns = 0;
  uint64_t max_time_ns = 0;
  uint64_t backwards_timestamps = 0;

  // Marker records and the values (`lba`) of the first and last one.
  uint64_t markers = 0;
  uint64_t first_marker = 0;
  uint64_t last_marker = 0;

  // Sectors [min_lba, end_lba) span every write, read and trim; both 0 when
  // there is none (check has_lba_range()).
  uint64_t min_lba = 0;
  uint64_t end_lba = 0;

  [[nodiscard]] const OpStats& op(Op o) const { return ops[static_cast<uint8_t>(o)]; }
  [[nodiscard]] bool has_lba_range() const { return end_lba > min_lba; }
};

struct StatsOptions {
  // Largest bitmap (1 bit per page, up to the highest page) the footprint
  // may use; above it, or if it cannot be allocated, page ranges are sorted
  // and merged instead (memory then grows with the number of distinct
  // ranges, not with the address span). Default 2 GiB.
  uint64_t max_bitmap_bytes = uint64_t{2} << 30;
};

// Statistics of `records`, whose LBAs count `sector_bytes`-byte sectors.
// Throws InputError("<source_name>: record I: <reason>") for the first record
// that check_record() rejects (I 0-based).
// REQUIRES: sector_bytes is 512, 1024, 2048 or 4096.
[[nodiscard]] TraceStats compute_trace_stats(std::span<const Record> records, uint32_t sector_bytes,
                                             const std::string& source_name, const StatsOptions& options = {});

// The same for an open trace; errors name reader.path().
[[nodiscard]] TraceStats compute_trace_stats(const FtrReader& reader, const StatsOptions& options = {});

}  // namespace ftlsim::trace
