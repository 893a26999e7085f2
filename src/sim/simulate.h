#pragma once
// Simulates a trace: its records through the FTL (fast mode), collecting the
// result. Records are read in place; nothing is allocated per record.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "core/io_units.h"
#include "core/progress_line.h"
#include "fdp/fdp_config.h"
#include "fdp/placement.h"
#include "ftl/ftl_config.h"
#include "sim/sim_result.h"
#include "sim/trace_scan.h"
#include "timing/timing_config.h"
#include "trace/record.h"

namespace ftlsim::sim {

// --reset-at: at the first marker record with this value, reset the whole
// device (kDevice: mapping, units, erase counts, write pointers and counters,
// as ConfFDP's management reset re-initialises its FTL) or only the counters
// (kCounters), so WAF, GC onset and the time series count from there.
struct ResetAt {
  enum class Kind : uint8_t { kNone, kDevice, kCounters };
  Kind kind = Kind::kNone;
  uint64_t marker = 0;
};

// --precondition: what is written before the trace, each slot once as one
// 4 KiB write through handle 0 (RG 0), after which the counters are zeroed
// (docs/model.md, "Preconditioning and steady state").
enum class Precondition : uint8_t {
  kNone,
  kSeq,     // every logical slot, in ascending order
  kRandom,  // every logical slot, in a random order (seeded by the GC seed)
  kTrace,   // the slots the trace reads, writes or trims, in ascending order
};

struct SimOptions {
  // A timeseries row every this many host bytes; 0 = 1% of the trace's
  // written bytes x repeat (at least one slot).
  uint64_t interval_bytes = 0;
  // Fold requests beyond the logical capacity back into it (slot modulo
  // capacity) instead of failing.
  bool wrap = false;
  // When set, the records applied are added to it every kProgressBatch
  // records and at the end (core/progress_line.h; thread-safe, so a sweep's
  // runs may share one). The CLI sets it when stderr is a terminal.
  ProgressLine* progress = nullptr;
  // --logical fit:P%: the logical capacity is the trace's footprint / P, the
  // touched slots remapped densely in first-touch order (sim/fit.h); the
  // configuration's logical_bytes is then ignored.
  std::optional<double> fit;
  // With fit: keep this over-provisioning by deriving the pages per block
  // (the lines, dies and planes stay); nullopt keeps the geometry as given.
  std::optional<double> fit_op;
  // Keep the final logical-to-physical map in SimResult::l2p (tests compare
  // it with the reference FTL's: physical slots numbered as docs/model.md,
  // "Where slots live").
  bool keep_l2p = false;
  // Timed mode (--timing): NAND latencies and the host model. Without it the
  // run is fast mode. Both make the same FTL decisions (src/timing/).
  std::optional<timing::TimingConfig> timing;
  ResetAt reset;  // fast mode only
  Precondition precondition = Precondition::kNone;
  // --repeat: the trace is run this many times (>= 1; fast mode only),
  // pass k with its times shifted by k x (span + mean gap between records).
  uint64_t repeat = 1;
  // --id-series: keep SimResult::id_timeseries (per placement ID and per
  // handle); tags every written logical slot with its ID (4 B per logical
  // slot) so GC copies can be counted per ID.
  bool id_series = false;
};

struct TraceView {
  TraceView() = default;
  TraceView(std::string trace_path, std::span<const trace::Record> trace_records, uint32_t sector = kSectorBytes)
      : path(std::move(trace_path)), records(trace_records), sector_bytes(sector) {}

  std::string path;  // for error messages
  std::span<const trace::Record> records;
  uint32_t sector_bytes = kSectorBytes;
  // The first pass's findings once a command has made it (scan()), so that
  // later steps do not read every record again; empty: they scan themselves.
  std::optional<TraceScan> scan;
};

// The first pass over the records (sim/trace_scan.h): `trace.scan` when
// made, else made now. Throws InputError "<path>: record <i>: <reason>"
// for the first malformed record (trace::record_ok).
[[nodiscard]] TraceScan scan(const TraceView& trace);

// Throws InputError "<path>: record <i>: <reason>" for a malformed record or
// an LBA beyond the logical capacity (unless opts.wrap), and InputError for
// an invalid configuration.
[[nodiscard]] SimResult simulate(const ftl::FtlConfig& cfg, const TraceView& trace, const SimOptions& opts,
                                 const fdp::PlacementSetup& setup = {});

// With `reset` (--reset-at KIND:M), throws InputError unless the trace holds
// a marker record of value M: a reset that never happens would leave every
// counter counting the whole trace. simulate() checks it before any work;
// a sweep, once before its configurations.
void check_reset_marker(const TraceView& trace, const ResetAt& reset);

// Host bytes the trace writes (for the default interval and the memory
// estimate): scan(trace).write_bytes.
[[nodiscard]] uint64_t trace_write_bytes(const TraceView& trace);

}  // namespace ftlsim::sim
