#include "timing/timing_report.h"

#include <fmt/format.h>

#include <array>

namespace ftlsim::timing {
namespace {

struct Quantile {
  const char* name;
  double q;
};
constexpr std::array<Quantile, 6> kQuantiles = {
    {{"p50", 0.50}, {"p75", 0.75}, {"p95", 0.95}, {"p99", 0.99}, {"p99.9", 0.999}, {"p99.99", 0.9999}}};

}  // namespace

double per_second(const TimingResult& t, double amount) {
  return t.sim_time_ns == 0 ? 0.0 : amount * 1e9 / static_cast<double>(t.sim_time_ns);
}

std::string format_ns(double ns) {
  if (ns < 1e3) return fmt::format("{:.0f}ns", ns);
  if (ns < 1e6) return fmt::format("{:.1f}us", ns / 1e3);
  if (ns < 1e9) return fmt::format("{:.2f}ms", ns / 1e6);
  return fmt::format("{:.2f}s", ns / 1e9);
}

TimedRequests timed_requests(const TimingResult& t) {
  TimedRequests r;
  for (size_t k = 0; k < kHostOps; ++k) {
    const bool wanted = t.config.ops == OpFilter::kAll ||
                        (t.config.ops == OpFilter::kRead && k == static_cast<size_t>(HostOp::kRead)) ||
                        (t.config.ops == OpFilter::kWrite && k == static_cast<size_t>(HostOp::kWrite));
    if (!wanted) continue;
    r.latency.merge(t.ops[k].latency);
    if (k != static_cast<size_t>(HostOp::kTrim)) r.data_bytes += t.ops[k].bytes;
  }
  return r;
}

void write_timing_json(JsonWriter& j, const TimingResult& t) {
  const TimingConfig& c = t.config;
  j.key("timing").begin_object();
  j.field("sim_time_ns", t.sim_time_ns);
  j.field("mode", std::string(host_mode_name(c.mode)));
  j.key("qd");
  if (c.mode == HostMode::kClosed) {
    j.value(c.qd);
  } else {
    j.null();
  }
  j.key("speed");
  if (c.mode == HostMode::kOpen) {
    j.value(c.speed);
  } else {
    j.null();
  }
  j.field("op_filter", std::string(op_filter_name(c.ops)));
  j.key("ops").begin_object();
  for (size_t k = 0; k < kHostOps; ++k) {
    const OpTiming& o = t.ops[k];
    const LatencyHistogram& h = o.latency;
    if (h.count() == 0) continue;
    j.key(host_op_name(static_cast<HostOp>(k))).begin_object();
    j.field("count", h.count());
    j.field("iops", per_second(t, static_cast<double>(h.count())));
    j.field("mib_per_s", per_second(t, static_cast<double>(o.bytes)) / (1u << 20));
    j.key("lat_ns").begin_object();
    j.field("mean", h.mean());
    for (const Quantile& q : kQuantiles) j.field(q.name, h.percentile(q.q));
    j.field("max", h.max());
    j.end_object();
    j.end_object();
  }
  j.end_object();
  // The timed requests together (sweep.csv's and qd-sweep's columns): the
  // sum of their latencies too, so that a reader gets the mean exactly.
  const TimedRequests all = timed_requests(t);
  j.key("requests").begin_object();
  j.field("count", all.latency.count());
  j.field("lat_sum_ns", all.latency.sum());
  j.key("lat_ns").begin_object();
  j.field("mean", all.latency.mean());
  for (const Quantile& q : kQuantiles) {
    if (q.q != 0.75 && q.q != 0.9999) j.field(q.name, all.latency.percentile(q.q));
  }
  j.end_object();
  j.end_object();
  j.field("unmapped_reads", t.unmapped_reads);
  j.field("gc_copies", t.gc_copies);
  j.field("erases", t.erases);
  j.field("gc_waits", t.gc_waits);
  j.field("backwards_timestamps", t.backwards_timestamps);
  j.key("nand").begin_object();
  j.field("page_reads", t.host_page_reads + t.gc_copies);
  j.field("page_programs", t.host_page_programs + t.gc_copies);
  j.field("erases", t.erases);
  j.field("ops", t.nand_ops());
  j.field("end_ns", t.nand_end_ns);
  j.field("utilization", t.utilization());
  j.end_object();
  j.key("latencies_ns").begin_object();
  j.field("read", c.read_ns);
  j.field("program", c.program_ns);
  j.field("erase", c.erase_ns);
  j.field("xfer", c.xfer_ns);
  j.end_object();
  j.field("events_interval_ns", t.events.interval_ns());
  j.end_object();
}

std::string latency_cdf_csv(const TimingResult& t) {
  std::string out = "op,latency_ns,cum_fraction\n";
  for (size_t k = 0; k < kHostOps; ++k) {
    const LatencyHistogram& h = t.ops[k].latency;
    const double n = static_cast<double>(h.count());
    h.for_each_bucket([&](uint64_t upper, uint64_t cumulative) {
      out += fmt::format("{},{},{:.6f}\n", host_op_name(static_cast<HostOp>(k)), upper,
                         static_cast<double>(cumulative) / n);
    });
  }
  return out;
}

std::string timing_text(const TimingResult& t) {
  const TimingConfig& c = t.config;
  std::string out;
  const std::string host = c.mode == HostMode::kClosed ? fmt::format("closed loop, qd {}", c.qd)
                                                       : fmt::format("open loop, speed {}", c.speed);
  out += fmt::format("timing     {}{}; NAND read {}, program {}, erase {}, transfer {}\n", host,
                     c.ops == OpFilter::kAll ? "" : fmt::format(", only {}s timed", op_filter_name(c.ops)),
                     format_ns(static_cast<double>(c.read_ns)), format_ns(static_cast<double>(c.program_ns)),
                     format_ns(static_cast<double>(c.erase_ns)), format_ns(static_cast<double>(c.xfer_ns)));
  out += fmt::format("device     {} of simulated time; {} page reads, {} programs, {} erases; utilization {:.1f}%\n",
                     format_ns(static_cast<double>(t.sim_time_ns)), t.host_page_reads + t.gc_copies,
                     t.host_page_programs + t.gc_copies, t.erases, 100.0 * t.utilization());
  out += fmt::format("{:<6} {:>9} {:>10} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}\n", "op", "count", "IOPS",
                     "MiB/s", "mean", "p50", "p95", "p99", "p99.9", "p99.99", "max");
  for (size_t k = 0; k < kHostOps; ++k) {
    const LatencyHistogram& h = t.ops[k].latency;
    if (h.count() == 0) continue;
    out += fmt::format(
        "{:<6} {:>9} {:>10.0f} {:>9.1f} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}\n",
        host_op_name(static_cast<HostOp>(k)), h.count(), per_second(t, static_cast<double>(h.count())),
        per_second(t, static_cast<double>(t.ops[k].bytes)) / (1u << 20), format_ns(h.mean()),
        format_ns(static_cast<double>(h.percentile(0.50))), format_ns(static_cast<double>(h.percentile(0.95))),
        format_ns(static_cast<double>(h.percentile(0.99))), format_ns(static_cast<double>(h.percentile(0.999))),
        format_ns(static_cast<double>(h.percentile(0.9999))), format_ns(static_cast<double>(h.max())));
  }
  if (t.unmapped_reads != 0) {
    out += fmt::format("unmapped   {} read requests of never-written LBAs completed at once (not in the read row)\n",
                       t.unmapped_reads);
  }
  if (t.gc_waits != 0) {
    out += fmt::format("gc waits   {} times host work waited for queued GC work (forced GC, or data it moves)\n",
                       t.gc_waits);
  }
  return out;
}

}  // namespace ftlsim::timing
