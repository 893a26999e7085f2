#include "sim/memory_estimate.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <vector>

#include "core/error.h"
#include "core/units.h"
#include "fdp/fdp_config.h"
#include "fdp/placement.h"
#include "ftl/ftl_layout.h"
#include "sim/id_series.h"
#include "sim/run_layout.h"
#include "sim/sim_result.h"
#include "timing/event_series.h"
#include "timing/gc_queue.h"
#include "timing/timing_config.h"

namespace ftlsim::sim {
namespace {

constexpr uint64_t kHugePage = uint64_t{2} << 20;
// The program and its libraries (about 6 MiB resident) and the fixed tables
// (the two pid tables of 65536 entries, histograms): 7 MiB.
constexpr uint64_t kFixedBytes = uint64_t{7} << 20;

// A HugeArray of `n` elements of `size` bytes: whole 2 MiB pages.
uint64_t huge(uint64_t n, uint64_t size) { return (n * size + kHugePage - 1) / kHugePage * kHugePage; }

// The placement IDs write records carry (those IdSeries counts).
uint32_t write_pid_count(const TraceView& trace) {
  std::vector<uint64_t> seen(65536 / 64, 0);
  uint32_t n = 0;
  for (const trace::Record& r : trace.records) {
    if (r.op != static_cast<uint8_t>(trace::Op::kWrite)) continue;
    uint64_t& w = seen[r.pid / 64];
    const uint64_t bit = uint64_t{1} << (r.pid % 64);
    n += (w & bit) == 0 ? 1 : 0;
    w |= bit;
  }
  return n;
}

}  // namespace

TraceSize trace_size(const TraceView& trace, TraceSizeNeeds needs) {
  return trace_size(trace, needs, trace_write_bytes(trace));
}

TraceSize trace_size(const TraceView& trace, TraceSizeNeeds needs, uint64_t written_bytes) {
  TraceSize t{trace.records.size(), written_bytes, std::nullopt, std::nullopt};
  if (needs.fit) t.fit = fit_footprint(trace);
  if (needs.write_pids) t.write_pids = write_pid_count(trace);
  return t;
}

MemoryEstimate estimate_run_memory(const RunDescription& run, const TraceSize& trace) {
  if (run.options.fit) {
    if (!trace.fit) throw std::logic_error("estimate_run_memory: a fit run needs the trace's footprint");
    RunDescription fitted = run;
    fitted.config = fitted_config(run.config, *trace.fit, *run.options.fit, run.options.fit_op, run.trace_path);
    fitted.options.fit.reset();
    MemoryEstimate e = estimate_run_memory(fitted, trace);
    e.bytes += fit_table_bytes(trace.fit->space, trace.fit->touched_blocks);  // the remap table
    return e;
  }
  const ftl::Geometry& g = run.config.geometry;
  const fdp::FdpConfig fdp = fdp::effective_config(run.placement);
  const ftl::FtlLayout layout = run_layout(g, fdp);
  const bool timed = run.options.timing.has_value();
  const uint64_t logical = g.logical_slots();
  const uint64_t physical = layout.physical_slots();
  MemoryEstimate e;
  e.slot_bytes = huge(logical, 4) + huge(physical, 4) + huge((physical + 63) / 64, 8);
  if (run.options.keep_l2p) e.slot_bytes += logical * 4;
  if (run.options.id_series) e.slot_bytes += logical * 4 + 65537 * 24;  // a tag per logical slot; per-tag counts
  // --precondition: the random order (4 B per logical slot) or the trace's footprint (a bit per slot).
  if (run.options.precondition == Precondition::kRandom) e.slot_bytes += logical * 4;
  if (run.options.precondition == Precondition::kTrace) e.slot_bytes += logical / 8 + 8;
  const uint64_t units = layout.units;
  uint64_t b = kFixedBytes;
  b += units * 34 + uint64_t{layout.pools} * (units + 1) * 8 + uint64_t{layout.pools} * 128;
  b += uint64_t{layout.streams()} * 112;
  uint64_t order_entries = 0;
  for (const auto& o : layout.write_orders) order_entries += o.size();
  b += order_entries * 8 + units * 4;
  // Timed mode: per-unit and per-die tables, and the GC queue's first ring
  // (it grows with the work queued, which no estimate before the run knows).
  if (timed) b += units * 44 + uint64_t{g.dies()} * 256 + timing::GcQueue::kFirstRingBytes;
  // And events.csv's intervals: at most kAutoIntervals of the automatic
  // interval, kMaxIntervals of one given (--event-interval), one more while
  // the last is added, each at most EventSeries::max_bytes_per_interval().
  if (timed) {
    const uint64_t intervals =
        (run.options.timing->event_interval_ns == 0 ? timing::kAutoIntervals : timing::EventSeries::kMaxIntervals) + 1;
    b += intervals * timing::EventSeries::max_bytes_per_interval();
  }
  // Timeseries rows: one per interval of written bytes (every pass's, with
  // --repeat), but at most one per request, and the last.
  const uint64_t written = trace.written_bytes;
  const uint64_t passes = std::max<uint64_t>(run.options.repeat, 1);
  const uint64_t all_written = written > UINT64_MAX / passes ? UINT64_MAX : written * passes;
  const uint64_t interval = run.options.interval_bytes != 0 ? run.options.interval_bytes
                                                            : std::max<uint64_t>(all_written / 100, ftl::kSlotBytes);
  const uint64_t rows = std::min(all_written / interval, trace.records * passes) + 2;
  b += rows * sizeof(TimeseriesRow) * 2;  // a vector grows to twice what it holds
  if (run.options.id_series) {
    // id_timeseries: at each row, one per placement ID written so far (the
    // data --precondition wrote counts as one more) and one per handle.
    if (!trace.write_pids) throw std::logic_error("estimate_run_memory: an --id-series run needs the trace's IDs");
    const uint64_t per_row = uint64_t{*trace.write_pids} + (run.options.precondition != Precondition::kNone ? 1 : 0) +
                             IdSeries::handle_rows(fdp);
    b += rows * per_row * sizeof(IdSeriesRow) * 2;
  }
  if (run.placement.placement.kind == fdp::PlacementKind::kOracle) {
    b += logical * 8 + 2 * (written / ftl::kSlotBytes + trace.records);
  } else if (run.placement.placement.kind == fdp::PlacementKind::kInterval) {
    b += logical * 8;
  }
  e.bytes = e.slot_bytes + b;
  return e;
}

void check_memory(std::span<const uint64_t> estimates, size_t at_once, const std::optional<MemoryBudget>& limit,
                  const Message& what, bool jobs_option) {
  if (!limit || estimates.empty()) return;
  std::vector<uint64_t> sorted(estimates.begin(), estimates.end());
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  const size_t n = std::min(std::max<size_t>(at_once, 1), sorted.size());
  uint64_t need = 0;
  for (size_t i = 0; i < n; ++i) need += sorted[i];
  if (need <= limit->bytes) return;
  throw InputError(
      what +
      Message(fmt::format(
          " needs about {} of memory ({} bytes: the maps of the device's slots, its "
          "units and tables, the time series, timed mode's events; docs/bad_input.md, Memory), more than the {} available (",
          format_bytes(need), need, format_bytes(limit->bytes))) +
      limit->source +
      say("); give a smaller geometry{}, or `mem-limit` SIZE to allow more (off: no limit)",
          jobs_option && n > 1 ? " or fewer jobs (-j)" : ""));
}

}  // namespace ftlsim::sim
