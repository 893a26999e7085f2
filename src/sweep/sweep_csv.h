#pragma once
// sweep.csv: one row per configuration of a sweep, written from the
// outcomes of this run and the rows carried over from an earlier one.
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "sweep/sweep_pool.h"
#include "sweep/sweep_product.h"

namespace ftlsim::sim {

// sweep.csv: a header, then one row per configuration in product order:
//   config_id, <each axis>, waf, host_bytes, gc_bytes, erases (blocks),
//   gc_onset_host_bytes, gc_onset_marker, invalid_pid_requests,
//   ru_not_fully_written,
//   when table.fitted: logical_bytes, physical_bytes, over_provisioning
//   (the device --logical fit sized for the row),
//   when table.timed: iops, lat_mean_ns, lat_p50_ns, lat_p99_ns,
//   lat_p99_9_ns (all host requests of the run: timing::timed_row),
//   waf_share_<handle> for the union of handle names over all rows
//   (ruh0, ruh1, ..., then gc), error, status (done, error or missing),
//   config_key (see config_key()).
// Metrics are empty for failed and missing rows; onset cells are empty when
// GC never ran (the marker also when no marker preceded it); a share is
// empty where a row has no such handle. Carried-over rows are written from
// their cells. RFC 4180 quoting. Deterministic.
[[nodiscard]] std::string sweep_csv(const SweepTable& table, std::span<const SweepOutcome> outcomes);

// The cells sweep_csv writes for one outcome after its axis values, by
// column name (metrics, waf_share_*, error, status): what a snapshot keeps
// of a finished configuration without its SimResult.
[[nodiscard]] std::map<std::string, std::string> sweep_row_cells(const SweepOutcome& o);

}  // namespace ftlsim::sim
