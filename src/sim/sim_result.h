#pragma once
// What one simulation run reports.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fdp/handle_stats.h"
#include "ftl/ftl_stats.h"
#include "ftl/geometry.h"
#include "timing/timing_result.h"

namespace ftlsim::sim {

struct TimeseriesRow {
  uint64_t host_bytes = 0;
  uint64_t trace_time_ns = 0;
  double waf = 0;           // cumulative
  double interval_waf = 0;  // since the previous row (0 when no host bytes in between)
  uint32_t free_units = 0;
  double valid_ratio = 0;          // valid slots / physical slots
  uint64_t gc_bytes = 0;           // cumulative
  uint64_t erases = 0;             // cumulative unit erases
  std::optional<uint64_t> marker;  // last marker value seen
};

// Where the time series' next row falls once `host_bytes` are written: the
// first multiple of `interval` (> 0) above it, or UINT64_MAX when that does
// not fit in 64 bits. One row per request at most, however small the
// interval: a request that crosses several multiples adds one row.
[[nodiscard]] inline uint64_t next_row_after(uint64_t host_bytes, uint64_t interval) {
  const uint64_t q = host_bytes / interval;  // (q + 1) x interval fits iff q < UINT64_MAX / interval
  return q >= UINT64_MAX / interval ? UINT64_MAX : (q + 1) * interval;
}

// --id-series: one placement ID's or handle's cumulative counts at a
// timeseries row (id_timeseries.csv).
struct IdSeriesRow {
  enum class Kind : uint8_t { kPid, kPrecondition, kHandle };
  uint64_t host_bytes = 0;  // the row's: all host bytes so far
  Kind kind = Kind::kPid;
  uint32_t id = 0;             // the placement ID, or the handle number (FdpConfig::handles: the shared "gc" handle)
  uint64_t id_host_bytes = 0;  // host slots written with this ID / through this handle, x 4 KiB
  uint64_t id_gc_bytes = 0;    // GC copies of data written with this ID / out of units this handle filled, x 4 KiB
};

struct GcOnset {
  uint64_t host_bytes = 0;         // host bytes written when the first GC pass ran
  uint64_t trace_time_ns = 0;      // time of the request that triggered it
  std::optional<uint64_t> marker;  // last marker before it
  // Timed mode: when that request was issued, in simulated time (0 = the
  // first request's issue; in a closed loop not the trace's time).
  std::optional<uint64_t> sim_time_ns;
};

struct RequestCounts {
  uint64_t writes = 0, reads = 0, trims = 0, flushes = 0, markers = 0;
  uint64_t read_slots = 0;
  uint64_t unmapped_read_slots = 0;  // reads of never-written or trimmed slots
  uint64_t rmw_slots = 0;            // partial-slot writes (read-modify-write)
  uint64_t rmw_read_slots = 0;       // ... of which the old slot was mapped and had to be read
  uint64_t partial_trim_slots = 0;   // partly covered by a trim: left mapped
  uint64_t wrapped_requests = 0;     // requests folded into the device with --wrap
  uint64_t trim_extra_slots = 0;     // --trim-range plus-one: mapped slots after a range it unmapped
};

// What --precondition wrote before the trace (the counters then restart at 0).
struct PreconditionCounts {
  uint64_t host_slots = 0;  // slots written, one request each
  uint64_t gc_slots = 0;    // GC copies while filling
  uint64_t gc_passes = 0;
  uint64_t unit_erases = 0;
  uint64_t mapped_slots = 0;  // mapped when the trace starts
};

// One pass of --repeat: what it added to the counters.
struct PassCounts {
  uint64_t host_slots = 0;
  uint64_t gc_slots = 0;
  uint64_t unit_erases = 0;
  [[nodiscard]] double waf() const {
    return host_slots == 0 ? 0.0 : static_cast<double>(host_slots + gc_slots) / static_cast<double>(host_slots);
  }
};

struct SimResult {
  // --reset-at: index of the marker record at which the device or its
  // counters were reset (every counter below counts from there); none when
  // the trace has no such marker or no reset was asked for.
  std::optional<uint64_t> reset_record;
  ftl::FtlStats ftl;
  RequestCounts requests;
  std::optional<PreconditionCounts> precondition;  // --precondition: what it did (none: not asked for)
  std::vector<PassCounts> passes;                  // --repeat N > 1: one entry per pass
  std::optional<GcOnset> gc_onset;
  std::vector<TimeseriesRow> timeseries;
  std::vector<IdSeriesRow> id_timeseries;  // --id-series: per row, each ID that wrote, then each handle
  std::vector<std::pair<uint16_t, uint64_t>> host_bytes_by_pid;  // pids that wrote, ascending
  uint64_t host_sent_bytes = 0;  // bytes the host sent in write requests: the FDP log's HBMW (FEMU's count)
  uint32_t erase_min = 0,
           erase_max = 0;  // per block (= per unit: every block of a unit is erased with it) erase counts
  double erase_mean = 0;
  uint32_t free_units_end = 0;
  uint64_t mapped_slots_end = 0;
  uint64_t records = 0;
  uint64_t interval_bytes = 0;                   // timeseries interval used
  std::vector<fdp::HandleStats> handles;         // fdp/handle_stats.h
  uint64_t invalid_pid_requests = 0;             // FDP event: placement ID with no handle
  uint64_t ru_bytes = 0;                         // size of an erase unit (a line without FDP)
  uint32_t units = 0;                            // erase units in the device
  uint32_t units_per_group = 0;                  // per reclaim group (thresholds apply to these)
  uint32_t blocks_per_unit = 0;                  // NAND blocks erased with a unit
  uint64_t fit_footprint_slots = 0;              // --logical fit: the trace's footprint in 4 KiB slots (0: no fit)
  std::optional<ftl::Geometry> fitted_geometry;  // --logical fit: the device simulated
  double wall_seconds = 0;
  // Requests the engine's lean loop applied (PageFtl::write_plain), the rest
  // going through step(): for the tests, which cannot tell the two apart by
  // any counter. Not reported.
  uint64_t lean_requests = 0;
  std::optional<timing::TimingResult> timing;  // timed mode only
  std::vector<uint32_t> l2p;  // SimOptions::keep_l2p: physical slot per logical slot (0xFFFFFFFF unmapped)
};

// Blocks erased in the run: unit erases x blocks per erase unit (RU or
// line), the "erases" of summary.json and sweep.csv.
[[nodiscard]] inline uint64_t erased_blocks(const SimResult& r) { return r.ftl.unit_erases * r.blocks_per_unit; }

}  // namespace ftlsim::sim
