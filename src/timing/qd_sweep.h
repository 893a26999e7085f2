#pragma once
// Queue-depth scaling: one closed-loop timed run per placement policy and
// queue depth, reduced to a row of throughput and latency percentiles, and
// per placement the knee (where throughput flattens: knee_qd), as published
// concurrent-read tables show it.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "timing/timing_result.h"

namespace ftlsim::timing {

struct QdRow {
  std::string placement;  // the --placement item as given: "single", "fdp", "map:0=0,1=1"
  uint32_t qd = 0;
  std::string ops;  // the op filter: "all", "read" or "write"
  uint64_t count = 0;
  double qps = 0;
  double mib_per_s = 0;  // MiB/s (2^20 bytes per second of simulated time)
  double lat_mean_ns = 0;
  uint64_t p50_ns = 0, p95_ns = 0, p99_ns = 0, p99_9_ns = 0;
};

// The row of a closed-loop run: the timed requests of its op filter (all
// types together for "all").
[[nodiscard]] QdRow qd_row(uint32_t qd, const TimingResult& t);

// The row of any timed run, all host requests together (its op filter),
// with its config.qd (meaningful in closed loop): what compare and sweep.csv
// report.
[[nodiscard]] inline QdRow timed_row(const TimingResult& t) { return qd_row(t.config.qd, t); }

// The knee's share of the best throughput (analysis/ftlsim_analysis/qd.py's
// KNEE_SHARE is the same rule).
inline constexpr double kKneeShare = 0.95;
// Where throughput flattens: the smallest qd k whose qps is at least
// kKneeShare of the largest qps in `rows`, provided a qd of 2k or more is in
// `rows` too (doubling the queue past k then added at most 5.3%); 0 when
// there is no such qd (still rising at the deepest queue swept) or no rows.
// Rows of one placement.
[[nodiscard]] uint32_t knee_qd(std::span<const QdRow> rows);

// The placements of `rows` in order of first appearance.
[[nodiscard]] std::vector<std::string> placements_of(std::span<const QdRow> rows);
// The rows of one placement, in their order.
[[nodiscard]] std::vector<QdRow> rows_of(std::span<const QdRow> rows, const std::string& placement);

// qd_sweep.csv, one row per placement and queue depth (placement outermost):
//   placement,qd,ops,count,qps,mib_per_s,lat_mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns
// RFC 4180 quoting (a map: placement holds commas).
[[nodiscard]] std::string qd_sweep_csv(std::span<const QdRow> rows);
// What qd_sweep.json records of the runs for a figure's title: the trace and
// the device, in summary.json's shape ("trace", "config": {"preset",
// "geometry": {"logical_bytes", "physical_bytes"}, "gc": {"thres_pcent"}}).
struct QdSource {
  std::string trace;
  std::string preset;  // "custom" when the geometry was given option by option
  uint64_t logical_bytes = 0, physical_bytes = 0;
  double gc_thres_pcent = 0;
  std::string config_key;  // the trace and every option of the qd-sweep ("" = not written)
};

// qd_sweep.json: {"trace", "config_key" (when set), "config" (QdSource), "rows": [...same fields...], "knee_qd": N
// (null with more than one placement or no knee), "knee_qd_by_placement": {"single": N or null, ...}}
[[nodiscard]] std::string qd_sweep_json(std::span<const QdRow> rows, const QdSource& source = {});
// The table printed on stdout (a placement column when there are several),
// with a last line per placement naming its knee.
[[nodiscard]] std::string qd_sweep_text(std::span<const QdRow> rows);

}  // namespace ftlsim::timing
