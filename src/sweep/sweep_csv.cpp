#include "sweep/sweep_csv.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <span>
#include <vector>

#include "core/csv_field.h"
#include "fdp/handle_stats.h"
#include "ftl/geometry.h"
#include "timing/qd_sweep.h"

namespace ftlsim::sim {

namespace {

// The metric columns between the axes and the waf_share_* columns.
constexpr std::array<std::string_view, 8> kMetricColumns = {"waf",
                                                            "host_bytes",
                                                            "gc_bytes",
                                                            "erases",
                                                            "gc_onset_host_bytes",
                                                            "gc_onset_marker",
                                                            "invalid_pid_requests",
                                                            "ru_not_fully_written"};
// Timed mode: requests per second and latencies in ns of all host requests.
constexpr std::array<std::string_view, 5> kTimedColumns = {"iops", "lat_mean_ns", "lat_p50_ns", "lat_p99_ns",
                                                           "lat_p99_9_ns"};
// --logical fit: the device each configuration was sized to (its
// over-provisioning moves with the fill level by whole pages per block).
constexpr std::array<std::string_view, 3> kFitColumns = {"logical_bytes", "physical_bytes", "over_provisioning"};
constexpr std::string_view kSharePrefix = "waf_share_";

}  // namespace

std::map<std::string, std::string> sweep_row_cells(const SweepOutcome& o) {
  if (!o.result && !o.carried.empty()) return o.carried;
  std::map<std::string, std::string> cells;
  if (o.result) {
    const SimResult& r = *o.result;
    cells["waf"] = fmt::format("{:.6f}", r.ftl.waf());
    cells["host_bytes"] = fmt::format("{}", r.ftl.host_slots * ftl::kSlotBytes);
    cells["gc_bytes"] = fmt::format("{}", r.ftl.gc_slots * ftl::kSlotBytes);
    cells["erases"] = fmt::format("{}", erased_blocks(r));
    if (r.gc_onset) {
      cells["gc_onset_host_bytes"] = fmt::format("{}", r.gc_onset->host_bytes);
      if (r.gc_onset->marker) cells["gc_onset_marker"] = fmt::format("{}", *r.gc_onset->marker);
    }
    cells["invalid_pid_requests"] = fmt::format("{}", r.invalid_pid_requests);
    cells["ru_not_fully_written"] = fmt::format("{}", r.ftl.units_not_fully_written);
    if (r.fitted_geometry) {
      cells["logical_bytes"] = fmt::format("{}", r.fitted_geometry->logical_bytes);
      cells["physical_bytes"] = fmt::format("{}", r.fitted_geometry->physical_bytes());
      cells["over_provisioning"] = fmt::format("{:.6f}", r.fitted_geometry->over_provisioning());
    }
    for (const fdp::HandleStats& h : r.handles)
      cells[std::string(kSharePrefix) + h.name] = fmt::format("{:.6f}", h.waf_share);
    if (r.timing) {
      const timing::QdRow t = timing::timed_row(*r.timing);
      cells["iops"] = fmt::format("{:.1f}", t.qps);
      cells["lat_mean_ns"] = fmt::format("{:.0f}", t.lat_mean_ns);
      cells["lat_p50_ns"] = fmt::format("{}", t.p50_ns);
      cells["lat_p99_ns"] = fmt::format("{}", t.p99_ns);
      cells["lat_p99_9_ns"] = fmt::format("{}", t.p99_9_ns);
    }
  }
  cells["error"] = o.error;
  cells["status"] = std::string(status_name(o.status));
  return cells;
}

std::string sweep_csv(const SweepTable& table, std::span<const SweepOutcome> outcomes) {
  std::vector<std::map<std::string, std::string>> rows;
  rows.reserve(outcomes.size());
  std::vector<std::string> handles;
  for (const SweepOutcome& o : outcomes) {
    rows.push_back(sweep_row_cells(o));
    for (const auto& [column, unused] : rows.back()) {
      if (column.compare(0, kSharePrefix.size(), kSharePrefix) != 0) continue;
      const std::string name = column.substr(kSharePrefix.size());
      if (std::find(handles.begin(), handles.end(), name) == handles.end()) handles.push_back(name);
    }
  }
  std::sort(handles.begin(), handles.end(), fdp::handle_name_before);

  std::string out = "config_id";
  for (const std::string& axis : table.axes) {
    out += ',';
    out += csv_field(axis);
  }
  // The named columns between the axes and the shares, in order: the
  // metrics, the fitted device's, the timed ones.
  std::vector<std::string_view> named(kMetricColumns.begin(), kMetricColumns.end());
  if (table.fitted) named.insert(named.end(), kFitColumns.begin(), kFitColumns.end());
  if (table.timed) named.insert(named.end(), kTimedColumns.begin(), kTimedColumns.end());
  for (const std::string_view column : named) {
    out += ',';
    out += column;
  }
  for (const std::string& h : handles) {
    out += ',';
    out += csv_field(std::string(kSharePrefix) + h);
  }
  out += ",error,status,config_key\n";

  const auto cell = [](const std::map<std::string, std::string>& row, const std::string& column) {
    const auto it = row.find(column);
    return it == row.end() ? std::string() : csv_field(it->second);
  };
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const auto& row = rows[i];
    out += csv_field(table.ids[i]);
    for (const std::string& v : table.values[i]) {
      out += ',';
      out += csv_field(v);
    }
    for (const std::string_view column : named) {
      out += ',';
      out += cell(row, std::string(column));
    }
    for (const std::string& h : handles) {
      out += ',';
      out += cell(row, std::string(kSharePrefix) + h);
    }
    out += ',';
    out += cell(row, "error");
    out += ',';
    out += cell(row, "status");
    out += ',';
    if (i < table.keys.size()) out += csv_field(table.keys[i]);
    out += '\n';
  }
  return out;
}

}  // namespace ftlsim::sim
