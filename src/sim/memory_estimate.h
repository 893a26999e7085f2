#pragma once
// The memory a run will allocate, estimated before it allocates anything,
// so a run that cannot fit is refused with the figure (core/memory_budget.h)
// instead of being killed by the kernel halfway. The estimate counts what
// grows with the configuration and the trace (docs/bad_input.md, "Memory"):
//   per logical slot   4 B (l2p), + 8 B with --placement oracle or interval
//   per physical slot  4 B (p2l) + 1/8 B (valid bits)
//   per unit           34 B (unit table, owner, free lists, result copies),
//                      8 B per pool (each pool's victim queue spans every unit),
//                      44 B more in timed mode
//   per stream         112 B; per die (timed) 256 B
//   events.csv (timed) per interval 320 B, 7.4 KiB per kind with events:
//                      at most 257 intervals (automatic), 100,001 (given)
//   write orders       8 B per entry (the layout's and the engine's copy)
//   timeseries         one row per --interval of written bytes (x --repeat),
//                      at most one per request; with --id-series a row more
//                      per placement ID written and per handle, in each
//   oracle             1 B per written slot
//   the program        7 MiB (code, libraries, fixed tables)
// Each big array is rounded up to the 2 MiB huge pages it is allocated in.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/memory_budget.h"
#include "sim/fit.h"
#include "sim/report.h"
#include "sim/simulate.h"

namespace ftlsim::sim {

struct MemoryEstimate {
  uint64_t bytes = 0;
  uint64_t slot_bytes = 0;  // of which the per-slot maps
};

// What the estimate needs of the trace, read once (one pass over the
// records) for all the configurations of a sweep.
struct TraceSize {
  uint64_t records = 0;
  uint64_t written_bytes = 0;  // trace_write_bytes
  // For --logical fit: runs, whose geometry comes from the trace's footprint.
  std::optional<FitFootprint> fit;
  // For --id-series runs: the placement IDs the write records carry (each
  // gets a row of id_timeseries.csv per timeseries row).
  std::optional<uint32_t> write_pids;
};
// What runs need measured beyond the records and the written bytes.
struct TraceSizeNeeds {
  bool fit = false;         // the footprint (sim/fit.h): a --logical fit: run
  bool write_pids = false;  // the write records' placement IDs: an --id-series run
  // Adds what estimating `run` needs (call once per run of a sweep).
  TraceSizeNeeds& add(const RunDescription& run) {
    fit = fit || run.options.fit.has_value();
    write_pids = write_pids || run.options.id_series;
    return *this;
  }
};
[[nodiscard]] TraceSize trace_size(const TraceView& trace, TraceSizeNeeds needs = {});
// The same with the written bytes already counted (trace_write_bytes, the
// first pass over a trace, which also refuses a malformed record).
[[nodiscard]] TraceSize trace_size(const TraceView& trace, TraceSizeNeeds needs, uint64_t written_bytes);

// The estimate of simulate(run.config, trace, run.options, run.placement)
// with its layout. A --logical fit: run (run.options.fit; `trace` must have
// its footprint) is estimated with its fitted geometry and its remap table
// (4 B per slot the trace addresses), so callers count it with the runs
// beside it; an --id-series run needs `trace`'s write_pids. Throws
// InputError for a configuration run_layout or the fit refuses (as simulate
// would).
[[nodiscard]] MemoryEstimate estimate_run_memory(const RunDescription& run, const TraceSize& trace);

// Refuses (InputError, before anything is allocated) when the `at_once`
// largest of `estimates` together exceed `limit` (none: no limit). `what`
// names the run in the message ("this run", "this sweep, 4 configurations
// at a time (-j 4),"); `jobs_option`: the command has -j, so the message
// suggests fewer jobs when more than one runs at once.
void check_memory(std::span<const uint64_t> estimates, size_t at_once, const std::optional<MemoryBudget>& limit,
                  const Message& what, bool jobs_option = false);

}  // namespace ftlsim::sim
