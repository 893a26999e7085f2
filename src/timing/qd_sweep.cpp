#include "timing/qd_sweep.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/build_identity.h"
#include "core/csv_field.h"
#include "core/json_writer.h"
#include "core/version.h"
#include "timing/timing_report.h"

namespace ftlsim::timing {

QdRow qd_row(uint32_t qd, const TimingResult& t) {
  QdRow row;
  row.qd = qd;
  row.ops = std::string(op_filter_name(t.config.ops));
  const TimedRequests all = timed_requests(t);
  const LatencyHistogram& h = all.latency;
  const uint64_t bytes = all.data_bytes;
  row.count = h.count();
  row.qps = per_second(t, static_cast<double>(h.count()));
  row.mib_per_s = per_second(t, static_cast<double>(bytes)) / (1u << 20);
  row.lat_mean_ns = h.mean();
  row.p50_ns = h.percentile(0.50);
  row.p95_ns = h.percentile(0.95);
  row.p99_ns = h.percentile(0.99);
  row.p99_9_ns = h.percentile(0.999);
  return row;
}

uint32_t knee_qd(std::span<const QdRow> rows) {
  double best = 0;
  uint32_t deepest = 0;
  for (const QdRow& r : rows) {
    best = std::max(best, r.qps);
    deepest = std::max(deepest, r.qd);
  }
  uint32_t knee = 0;
  for (const QdRow& r : rows) {
    if (r.qps >= kKneeShare * best && (knee == 0 || r.qd < knee)) knee = r.qd;
  }
  // Throughput flattened only if a queue depth of 2 x knee or more was swept.
  return knee != 0 && uint64_t{deepest} >= 2 * uint64_t{knee} ? knee : 0;
}

std::vector<std::string> placements_of(std::span<const QdRow> rows) {
  std::vector<std::string> out;
  for (const QdRow& r : rows) {
    if (std::find(out.begin(), out.end(), r.placement) == out.end()) out.push_back(r.placement);
  }
  return out;
}

std::vector<QdRow> rows_of(std::span<const QdRow> rows, const std::string& placement) {
  std::vector<QdRow> out;
  for (const QdRow& r : rows) {
    if (r.placement == placement) out.push_back(r);
  }
  return out;
}

std::string qd_sweep_csv(std::span<const QdRow> rows) {
  std::string out = "placement,qd,ops,count,qps,mib_per_s,lat_mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns\n";
  for (const QdRow& r : rows) {
    out += fmt::format("{},{},{},{},{:.1f},{:.3f},{:.0f},{},{},{},{}\n", csv_field(r.placement), r.qd, r.ops, r.count,
                       r.qps, r.mib_per_s, r.lat_mean_ns, r.p50_ns, r.p95_ns, r.p99_ns, r.p99_9_ns);
  }
  return out;
}

std::string qd_sweep_json(std::span<const QdRow> rows, const QdSource& source) {
  const std::vector<std::string> placements = placements_of(rows);
  JsonWriter j;
  j.begin_object();
  j.field("ftlsim_version", std::string(kVersion));
  j.field("ftlsim_sources", std::string(source_digest()));
  j.field("trace", source.trace);
  if (!source.config_key.empty()) j.field("config_key", source.config_key);
  j.key("config").begin_object();
  j.field("preset", source.preset);
  j.key("geometry").begin_object();
  j.field("logical_bytes", source.logical_bytes);
  j.field("physical_bytes", source.physical_bytes);
  j.end_object();
  j.key("gc").begin_object();
  j.field("thres_pcent", source.gc_thres_pcent);
  j.end_object();
  j.end_object();
  j.key("rows").begin_array();
  for (const QdRow& r : rows) {
    j.begin_object();
    j.field("placement", r.placement);
    j.field("qd", r.qd);
    j.field("ops", r.ops);
    j.field("count", r.count);
    j.field("qps", r.qps);
    j.field("mib_per_s", r.mib_per_s);
    j.field("lat_mean_ns", r.lat_mean_ns);
    j.field("p50_ns", r.p50_ns);
    j.field("p95_ns", r.p95_ns);
    j.field("p99_ns", r.p99_ns);
    j.field("p99_9_ns", r.p99_9_ns);
    j.end_object();
  }
  j.end_array();
  const auto knee_value = [&](uint32_t knee) {
    if (knee != 0) {
      j.value(knee);
    } else {
      j.null();
    }
  };
  j.key("knee_qd");
  if (placements.size() <= 1) {
    knee_value(knee_qd(rows));
  } else {
    j.null();
  }
  j.key("knee_qd_by_placement").begin_object();
  for (const std::string& p : placements) {
    j.key(p);
    knee_value(knee_qd(rows_of(rows, p)));
  }
  j.end_object();
  j.end_object();
  return j.str();
}

std::string qd_sweep_text(std::span<const QdRow> rows) {
  const std::vector<std::string> placements = placements_of(rows);
  const bool several = placements.size() > 1;
  size_t wp = std::string_view("placement").size();
  for (const std::string& p : placements) wp = std::max(wp, p.size());
  const auto lead = [&](std::string_view p) { return several ? fmt::format("{:<{}} ", p, wp) : std::string(); };
  std::string out =
      lead("placement") + fmt::format("{:>5} {:<5} {:>9} {:>10} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8}\n", "qd", "ops",
                                      "count", "QPS", "MiB/s", "mean", "p50", "p95", "p99", "p99.9");
  for (const QdRow& r : rows) {
    out += lead(r.placement) +
           fmt::format("{:>5} {:<5} {:>9} {:>10.0f} {:>9.1f} {:>8} {:>8} {:>8} {:>8} {:>8}\n", r.qd, r.ops, r.count,
                       r.qps, r.mib_per_s, format_ns(r.lat_mean_ns), format_ns(static_cast<double>(r.p50_ns)),
                       format_ns(static_cast<double>(r.p95_ns)), format_ns(static_cast<double>(r.p99_ns)),
                       format_ns(static_cast<double>(r.p99_9_ns)));
  }
  for (const std::string& p : placements) {
    const std::vector<QdRow> sub = rows_of(rows, p);
    double best = 0;
    uint32_t deepest = 0;
    for (const QdRow& r : sub) {
      best = std::max(best, r.qps);
      deepest = std::max(deepest, r.qd);
    }
    const uint32_t knee = knee_qd(sub);
    const std::string who = several ? p + ": " : std::string();
    if (knee == 0) {
      out += fmt::format(
          "knee       {}none: QPS still rising at QD {} (no QD at {:.0f}% of the best {:.0f} QPS with "
          "twice that QD swept)\n",
          who, deepest, kKneeShare * 100, best);
      continue;
    }
    out += fmt::format(
        "knee       {}qd {}: the smallest queue depth reaching {:.0f}% of the best {:.0f} QPS, with "
        "QD {} swept\n",
        who, knee, kKneeShare * 100, best, deepest);
  }
  return out;
}

}  // namespace ftlsim::timing
