#pragma once
// How a timed run is reported: the "timing" object of summary.json,
// latency_cdf.csv, and the lines added to the text summary.
#include <string>

#include "core/json_writer.h"
#include "timing/timing_result.h"

namespace ftlsim::timing {

// Writes `"timing": {...}` into the open object of `j`: sim_time_ns, mode,
// qd (null in open loop), speed (null in closed loop), ops (per host op type
// that occurred: count, iops, mib_per_s (MiB/s), lat_ns {mean, p50, p75, p95, p99, p99.9,
// p99.99, max}), requests (the timed requests together, as timed_requests():
// count, lat_sum_ns, lat_ns {mean, p50, p95, p99, p99.9}), unmapped_reads,
// gc_copies, erases, and the details (nand, gc_waits, backwards_timestamps,
// latencies used, events interval).
void write_timing_json(JsonWriter& j, const TimingResult& t);

// latency_cdf.csv: op,latency_ns,cum_fraction; one row per non-empty
// histogram bucket (its upper edge, within [min, max]) per op type.
[[nodiscard]] std::string latency_cdf_csv(const TimingResult& t);

// Lines for the text summary (each ends in '\n').
[[nodiscard]] std::string timing_text(const TimingResult& t);

// A latency in the unit that suits it: "850ns", "40.0us", "2.35ms", "1.20s".
[[nodiscard]] std::string format_ns(double ns);

// Requests per second and decimal MB per second over t.sim_time_ns.
[[nodiscard]] double per_second(const TimingResult& t, double amount);

// The host requests the run timed (those of its op filter: every type for
// "all"), together: their latencies in one histogram, and the bytes their
// reads and writes move (a trim's range moves no data).
struct TimedRequests {
  LatencyHistogram latency;
  uint64_t data_bytes = 0;
};
[[nodiscard]] TimedRequests timed_requests(const TimingResult& t);

}  // namespace ftlsim::timing
