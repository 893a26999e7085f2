#pragma once
// Queue-depth scaling: one closed-loop timed run per placement policy and
// queue depth, reduced to a row of throughput and latency percentiles, and
// per placement the knee (the smallest queue depth that reaches 90% of its
// best throughput), as published concurrent-read tables show it.
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

// Smallest qd whose qps is at least 90% of the largest qps in `rows`
// (0 when rows is empty). Rows of one placement.
[[nodiscard]] uint32_t knee_qd(std::span<const QdRow> rows);

// The placements of `rows` in order of first appearance.
[[nodiscard]] std::vector<std::string> placements_of(std::span<const QdRow> rows);
// The rows of one placement, in their order.
[[nodiscard]] std::vector<QdRow> rows_of(std::span<const QdRow> rows, const std::string& placement);

// qd_sweep.csv, one row per placement and queue depth (placement outermost):
//   placement,qd,ops,count,qps,mib_per_s,lat_mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns
// RFC 4180 quoting (a map: placement holds commas).
[[nodiscard]] std::string qd_sweep_csv(std::span<const QdRow> rows);
// qd_sweep.json: {"rows": [...same fields...], "knee_qd": N (null with more
// than one placement), "knee_qd_by_placement": {"single": N, ...}}
[[nodiscard]] std::string qd_sweep_json(std::span<const QdRow> rows);
// The table printed on stdout (a placement column when there are several),
// with a last line per placement naming its knee.
[[nodiscard]] std::string qd_sweep_text(std::span<const QdRow> rows);

}  // namespace ftlsim::timing
