#include "timing/qd_sweep.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/json_writer.h"
#include "timing/timing_report.h"

namespace ftlsim::timing {

QdRow qd_row(uint32_t qd, const TimingResult& t) {
  QdRow row;
  row.qd = qd;
  row.ops = std::string(op_filter_name(t.config.ops));
  LatencyHistogram h;
  uint64_t bytes = 0;
  for (size_t k = 0; k < kHostOps; ++k) {
    const bool wanted = t.config.ops == OpFilter::kAll ||
                        (t.config.ops == OpFilter::kRead && k == static_cast<size_t>(HostOp::kRead)) ||
                        (t.config.ops == OpFilter::kWrite && k == static_cast<size_t>(HostOp::kWrite));
    if (!wanted) continue;
    h.merge(t.ops[k].latency);
    bytes += t.ops[k].bytes;
  }
  row.count = h.count();
  row.qps = per_second(t, static_cast<double>(h.count()));
  row.mb_s = per_second(t, static_cast<double>(bytes)) / 1e6;
  row.lat_mean_ns = h.mean();
  row.p50_ns = h.percentile(0.50);
  row.p95_ns = h.percentile(0.95);
  row.p99_ns = h.percentile(0.99);
  row.p99_9_ns = h.percentile(0.999);
  return row;
}

uint32_t knee_qd(std::span<const QdRow> rows) {
  double best = 0;
  for (const QdRow& r : rows) best = std::max(best, r.qps);
  uint32_t knee = 0;
  for (const QdRow& r : rows) {
    if (r.qps >= 0.9 * best && (knee == 0 || r.qd < knee)) knee = r.qd;
  }
  return knee;
}

std::string qd_sweep_csv(std::span<const QdRow> rows) {
  std::string out = "qd,ops,count,qps,mb_s,lat_mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns\n";
  for (const QdRow& r : rows) {
    out += fmt::format("{},{},{},{:.1f},{:.3f},{:.0f},{},{},{},{}\n", r.qd, r.ops, r.count, r.qps, r.mb_s,
                       r.lat_mean_ns, r.p50_ns, r.p95_ns, r.p99_ns, r.p99_9_ns);
  }
  return out;
}

std::string qd_sweep_json(std::span<const QdRow> rows) {
  JsonWriter j;
  j.begin_object();
  j.key("rows").begin_array();
  for (const QdRow& r : rows) {
    j.begin_object();
    j.field("qd", r.qd);
    j.field("ops", r.ops);
    j.field("count", r.count);
    j.field("qps", r.qps);
    j.field("mb_s", r.mb_s);
    j.field("lat_mean_ns", r.lat_mean_ns);
    j.field("p50_ns", r.p50_ns);
    j.field("p95_ns", r.p95_ns);
    j.field("p99_ns", r.p99_ns);
    j.field("p99_9_ns", r.p99_9_ns);
    j.end_object();
  }
  j.end_array();
  j.field("knee_qd", knee_qd(rows));
  j.end_object();
  return j.str();
}

std::string qd_sweep_text(std::span<const QdRow> rows) {
  std::string out = fmt::format("{:>5} {:<5} {:>9} {:>10} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8}\n", "qd", "ops",
                                "count", "QPS", "MB/s", "mean", "p50", "p95", "p99", "p99.9");
  double best = 0;
  for (const QdRow& r : rows) best = std::max(best, r.qps);
  for (const QdRow& r : rows) {
    out += fmt::format("{:>5} {:<5} {:>9} {:>10.0f} {:>9.1f} {:>8} {:>8} {:>8} {:>8} {:>8}\n", r.qd, r.ops, r.count,
                       r.qps, r.mb_s, format_ns(r.lat_mean_ns), format_ns(static_cast<double>(r.p50_ns)),
                       format_ns(static_cast<double>(r.p95_ns)), format_ns(static_cast<double>(r.p99_ns)),
                       format_ns(static_cast<double>(r.p99_9_ns)));
  }
  const uint32_t knee = knee_qd(rows);
  if (knee != 0) {
    out += fmt::format("knee       qd {}: the smallest queue depth reaching 90% of the best {:.0f} QPS\n", knee, best);
  }
  return out;
}

}  // namespace ftlsim::timing
