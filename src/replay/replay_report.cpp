#include "replay/replay_report.h"

#include <fmt/format.h>

#include <filesystem>

#include "core/escape.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_writer.h"
#include "core/units.h"

namespace ftlsim::replay {
namespace {

using trace::Op;

constexpr Op kDataOps[] = {Op::kWrite, Op::kRead, Op::kTrim, Op::kFlush};
constexpr double kMiB = 1024.0 * 1024.0;

double seconds(uint64_t ns) { return static_cast<double>(ns) * 1e-9; }
double per_second(uint64_t n, uint64_t ns) { return ns == 0 ? 0.0 : static_cast<double>(n) / seconds(ns); }
double us(uint64_t ns) { return static_cast<double>(ns) / 1000.0; }

std::string pid_name(const ReplayReport& r, trace::PlacementId pid) {
  const auto it = r.pid_names.find(pid);
  return it == r.pid_names.end() ? std::string() : it->second;
}

std::string status_line(const ReplayReport& r) {
  const EngineResult& e = r.result;
  if (!e.partial) return fmt::format("complete in {:.3f} s", seconds(e.elapsed_ns));
  return fmt::format("PARTIAL after {:.3f} s: {}; records [0, {}) of {} replayed", seconds(e.elapsed_ns),
                     e.stop_reason, e.records_done, r.trace_records);
}

std::string placement_text(const ReplayReport& r) {
  switch (r.plan.mode) {
    case PlacementMode::kNone: return "none";
    case PlacementMode::kStream: return "stream (pid p -> write stream p+1)";
    case PlacementMode::kNvme:
      return fmt::format("nvme (DTYPE=2, reclaim group {})", r.device_fdp ? r.device_fdp->reclaim_group_used : 0);
  }
  return "?";
}

void latency_json(JsonWriter& j, const LatencyHistogram& h) {
  j.begin_object();
  j.field("mean", us(static_cast<uint64_t>(h.mean())));
  j.field("p50", us(h.percentile(0.50)));
  j.field("p90", us(h.percentile(0.90)));
  j.field("p99", us(h.percentile(0.99)));
  j.field("p999", us(h.percentile(0.999)));
  j.field("max", us(h.max()));
  j.end_object();
}

void u128_json(JsonWriter& j, const fdp::U128& v) {
  if (v.hi == 0) {
    j.value(v.lo);
  } else {
    j.value(fdp::u128_to_decimal(v));  // beyond 2^64: a decimal string
  }
}

void stats_json(JsonWriter& j, const fdp::Statistics& s) {
  j.begin_object();
  j.key("hbmw");
  u128_json(j, s.hbmw);
  j.key("mbmw");
  u128_json(j, s.mbmw);
  j.key("mbe");
  u128_json(j, s.mbe);
  j.end_object();
}

}  // namespace

std::string summary_text(const ReplayReport& r) {
  const EngineResult& e = r.result;
  const TargetInfo& t = r.target;
  std::string out;
  auto row = [&out](std::string_view label, const std::string& text) { out += fmt::format("{:<11}{}\n", label, text); };
  row("trace", fmt::format("{} ({} records)", escape_for_terminal(r.trace_path), r.trace_records));
  row("target", fmt::format("{}: {}, {}, {}-byte blocks{}", escape_for_terminal(t.path), target_kind_name(t.kind), format_bytes(t.bytes),
                            t.block_bytes, t.created ? " (created by --create)" : ""));
  std::string mode = std::string(mode_name(r.config.mode));
  if (r.config.mode == ReplayMode::kTimed) mode += fmt::format(" x{}", r.config.speed);
  row("replay", fmt::format("{}, queue depth {}, ops {}, placement {}", mode, r.config.queue_depth,
                            r.config.ops.text(), placement_text(r)));
  row("status", status_line(r));

  out += fmt::format("{:<8}{:>10}{:>12}{:>10}{:>10}  {:>10}{:>11}{:>11}{:>11}\n", "op", "I/Os", "bytes", "IOPS",
                     "MiB/s", "lat us p50", "p99", "p99.9", "max");
  uint64_t all_ios = 0, all_bytes = 0;
  for (const Op op : kDataOps) {
    const OpTotals& o = e.ops[static_cast<size_t>(op)];
    if (r.scan.ios[static_cast<size_t>(op)] == 0) continue;  // not in the trace, or not selected
    all_ios += o.ios;
    all_bytes += o.bytes;
    out += fmt::format("{:<8}{:>10}{:>12}{:>10.0f}{:>10.1f}  {:>10.1f}{:>11.1f}{:>11.1f}{:>11.1f}{}\n", trace::op_name(op),
                       o.ios, format_bytes(o.bytes), per_second(o.ios, e.elapsed_ns),
                       per_second(o.bytes, e.elapsed_ns) / kMiB, us(o.latency_ns.percentile(0.5)),
                       us(o.latency_ns.percentile(0.99)), us(o.latency_ns.percentile(0.999)), us(o.latency_ns.max()),
                       o.errors > 0 ? fmt::format("  ({} failed)", o.errors) : std::string());
  }
  out += fmt::format("{:<8}{:>10}{:>12}{:>10.0f}{:>10.1f}\n", "total", all_ios, format_bytes(all_bytes),
                     per_second(all_ios, e.elapsed_ns), per_second(all_bytes, e.elapsed_ns) / kMiB);
  if (r.config.mode == ReplayMode::kTimed) {
    row("timing", fmt::format("{} I/Os submitted more than 1 ms after their trace time; lag p50 {:.1f} us, p99 "
                              "{:.1f} us, max {:.1f} us",
                              e.late_ios, us(e.lag_ns.percentile(0.5)), us(e.lag_ns.percentile(0.99)),
                              us(e.lag_ns.max())));
  }
  const StreamScan& s = r.scan;
  if (s.widened + s.wrapped + s.split > 0) {
    row("requests", fmt::format("{} widened to {}-byte blocks, {} folded into the target (--wrap), {} split into "
                                "I/Os of at most {}",
                                s.widened, t.block_bytes, s.wrapped, s.split, format_bytes(r.config.max_io_bytes)));
  }
  uint64_t skipped = 0;
  for (const Op op : kDataOps) skipped += s.skipped[static_cast<size_t>(op)];
  if (skipped > 0) {
    std::vector<std::string> parts;
    for (const Op op : kDataOps) {
      if (s.skipped[static_cast<size_t>(op)] > 0) {
        parts.push_back(fmt::format("{} {}", s.skipped[static_cast<size_t>(op)], trace::op_name(op)));
      }
    }
    row("skipped", fmt::format("{} records not in --ops ({})", skipped, fmt::join(parts, ", ")));
  }
  out += fmt::format("{:<6}{:<16}{:>14}{:>14}{:>14}{}\n", "pid", "name", "written", "read", "trimmed",
                     r.plan.mode == PlacementMode::kStream ? "  stream"
                     : r.plan.mode == PlacementMode::kNvme ? "  DSPEC"
                                                           : "");
  for (size_t p = 0; p < e.bytes_by_pid.size(); ++p) {
    const PidBytes& b = e.bytes_by_pid[p];
    if (b.write == 0 && b.read == 0 && b.trim == 0) continue;
    const auto pid = static_cast<trace::PlacementId>(p);
    const std::string name = escape_for_terminal(pid_name(r, pid));
    std::string where;
    if (r.plan.mode == PlacementMode::kStream && p < r.plan.stream_by_pid.size() && b.write > 0) {
      where = fmt::format("  {}", r.plan.stream_by_pid[p]);
    } else if (r.plan.mode == PlacementMode::kNvme && p < r.plan.dspec_by_pid.size() && b.write > 0) {
      where = fmt::format("  {:#06x}", r.plan.dspec_by_pid[p]);
    }
    out += fmt::format("{:<6}{:<16}{:>14}{:>14}{:>14}{}\n", p, name.empty() ? "-" : name, format_bytes(b.write),
                       format_bytes(b.read), format_bytes(b.trim), where);
  }
  if (r.device_fdp) {
    const DeviceFdpReport& d = *r.device_fdp;
    row("device", fmt::format("FDP configuration {} of endurance group {}: {} handle(s), {} reclaim group(s), RU {}",
                              d.config_index, d.endurance_group, d.handles, d.reclaim_groups,
                              format_bytes(d.ru_bytes)));
    if (d.after) {
      const auto delta = [](fdp::U128 a, fdp::U128 b) { return fdp::u128_to_double(fdp::u128_sub(a, b)); };
      row("device WAF", fmt::format("{:.4f} (FDP statistics: HBMW +{:.0f} B, MBMW +{:.0f} B, MBE +{:.0f} B)",
                                    fdp::device_waf(d.before, *d.after), delta(d.after->hbmw, d.before.hbmw),
                                    delta(d.after->mbmw, d.before.mbmw), delta(d.after->mbe, d.before.mbe)));
    }
  }
  if (r.prediction) {
    row("model WAF", fmt::format("{:.4f} (ftlsim --trace {} {})", r.prediction->waf, r.trace_path,
                                 r.prediction->options));
  }
  if (r.verify) {
    const VerifyResult& v = *r.verify;
    row("verify", fmt::format("{} units of 512 B written and {} trimmed checked{}: {} mismatches{}", v.written_units,
                              v.trimmed_units,
                              v.unchecked_units > 0 ? fmt::format(" ({} trimmed units on a device not checked)",
                                                                  v.unchecked_units)
                                                    : std::string(),
                              v.mismatches, v.first_mismatch.empty() ? "" : "; first at " + v.first_mismatch));
  }
  if (!e.registered_buffers && r.target.kind != TargetKind::kNvmeGeneric) {
    row("note", "buffers not registered with io_uring (RLIMIT_MEMLOCK too low?); plain reads and writes used");
  }
  for (const std::string& f : t.findings) row("warning", "--force: " + f);
  return out;
}

std::string summary_json(const ReplayReport& r) {
  const EngineResult& e = r.result;
  const TargetInfo& t = r.target;
  JsonWriter j;
  j.begin_object();
  j.field("ftlsim_version", "0.1.0");
  j.field("kind", "replay");
  j.field("trace", r.trace_path);
  j.key("target").begin_object();
  j.field("path", t.path);
  j.field("kind", target_kind_name(t.kind));
  j.field("bytes", t.bytes);
  j.field("block_bytes", t.block_bytes);
  j.field("created", t.created);
  j.key("forced_past").begin_array();
  for (const std::string& f : t.findings) j.value(f);
  j.end_array();
  j.end_object();
  j.key("config").begin_object();
  j.field("mode", mode_name(r.config.mode));
  j.field("queue_depth", r.config.queue_depth);
  j.field("speed", r.config.speed);
  j.key("ops").begin_array();
  for (const Op op : kDataOps) {
    if (r.config.ops.has(op)) j.value(trace::op_name(op));
  }
  j.end_array();
  j.field("placement", placement_name(r.config.placement));
  j.field("wrap", r.config.wrap);
  j.field("max_io_bytes", r.config.max_io_bytes);
  j.field("interval_bytes", r.interval_bytes);
  j.field("registered_buffers", e.registered_buffers);
  j.field("registered_file", e.registered_file);
  j.end_object();
  j.field("partial", e.partial);
  if (e.stop_reason.empty()) {
    j.key("stop_reason").null();
  } else {
    j.field("stop_reason", e.stop_reason);
  }
  j.field("elapsed_s", seconds(e.elapsed_ns));
  j.key("records").begin_object();
  j.field("total", r.trace_records);
  j.field("replayed", e.records_done);
  j.key("skipped").begin_object();
  for (const Op op : kDataOps) j.field(trace::op_name(op), r.scan.skipped[static_cast<size_t>(op)]);
  j.end_object();
  j.field("markers", r.scan.op_records[static_cast<size_t>(Op::kMarker)]);
  j.end_object();
  j.key("requests").begin_object();
  j.field("widened", r.scan.widened);
  j.field("wrapped", r.scan.wrapped);
  j.field("split", r.scan.split);
  j.end_object();
  j.key("ops").begin_object();
  uint64_t all_ios = 0, all_bytes = 0;
  for (const Op op : kDataOps) {
    const OpTotals& o = e.ops[static_cast<size_t>(op)];
    all_ios += o.ios;
    all_bytes += o.bytes;
    j.key(trace::op_name(op)).begin_object();
    j.field("ios", o.ios);
    j.field("bytes", o.bytes);
    j.field("errors", o.errors);
    j.field("iops", per_second(o.ios, e.elapsed_ns));
    j.field("mib_per_s", per_second(o.bytes, e.elapsed_ns) / kMiB);
    j.key("latency_us");
    latency_json(j, o.latency_ns);
    j.end_object();
  }
  j.end_object();
  j.key("total").begin_object();
  j.field("ios", all_ios);
  j.field("bytes", all_bytes);
  j.field("iops", per_second(all_ios, e.elapsed_ns));
  j.field("mib_per_s", per_second(all_bytes, e.elapsed_ns) / kMiB);
  j.field("max_inflight", e.max_inflight);
  j.end_object();
  j.key("timed");
  if (r.config.mode == ReplayMode::kTimed) {
    j.begin_object();
    j.field("late_ios", e.late_ios);
    j.key("lag_us");
    latency_json(j, e.lag_ns);
    j.end_object();
  } else {
    j.null();
  }
  j.key("bytes_by_placement_id").begin_array();
  for (size_t p = 0; p < e.bytes_by_pid.size(); ++p) {
    const PidBytes& b = e.bytes_by_pid[p];
    if (b.write == 0 && b.read == 0 && b.trim == 0) continue;
    j.begin_object();
    j.field("pid", uint64_t{p});
    j.field("name", pid_name(r, static_cast<trace::PlacementId>(p)));
    j.field("write", b.write).field("read", b.read).field("trim", b.trim);
    if (r.plan.mode == PlacementMode::kStream && p < r.plan.stream_by_pid.size() && b.write > 0) {
      j.field("write_stream", uint64_t{r.plan.stream_by_pid[p]});
    }
    if (r.plan.mode == PlacementMode::kNvme && p < r.plan.dspec_by_pid.size() && b.write > 0) {
      j.field("placement_identifier", uint64_t{r.plan.dspec_by_pid[p]});
    }
    j.end_object();
  }
  j.end_array();
  j.key("device_fdp");
  if (r.device_fdp) {
    const DeviceFdpReport& d = *r.device_fdp;
    j.begin_object();
    j.field("endurance_group", uint64_t{d.endurance_group});
    j.field("config_index", uint64_t{d.config_index});
    j.field("rgif", uint64_t{d.rgif});
    j.field("reclaim_groups", d.reclaim_groups);
    j.field("handles", uint64_t{d.handles});
    j.field("ru_bytes", d.ru_bytes);
    j.field("reclaim_group_used", d.reclaim_group_used);
    j.key("before");
    stats_json(j, d.before);
    j.key("after");
    if (d.after) {
      stats_json(j, *d.after);
      j.key("delta");
      stats_json(j, {fdp::u128_sub(d.after->hbmw, d.before.hbmw), fdp::u128_sub(d.after->mbmw, d.before.mbmw),
                     fdp::u128_sub(d.after->mbe, d.before.mbe)});
      j.field("waf", fdp::device_waf(d.before, *d.after));
    } else {
      j.null();
    }
    j.end_object();
  } else {
    j.null();
  }
  j.key("prediction");
  if (r.prediction) {
    j.begin_object().field("options", r.prediction->options).field("waf", r.prediction->waf).end_object();
  } else {
    j.null();
  }
  j.key("verify");
  if (r.verify) {
    const VerifyResult& v = *r.verify;
    j.begin_object();
    j.field("written_units", v.written_units).field("trimmed_units", v.trimmed_units);
    j.field("unchecked_units", v.unchecked_units).field("mismatches", v.mismatches);
    j.field("first_mismatch", v.first_mismatch);
    j.end_object();
  } else {
    j.null();
  }
  j.end_object();
  return j.str();
}

std::string events_csv(const ReplayReport& r) {
  std::string out =
      "elapsed_s,records,trace_time_ns,ios,bytes,interval_iops,interval_mib_s,interval_p50_us,interval_p99_us,"
      "interval_max_us,inflight,marker\n";
  for (const EventRow& e : r.result.events) {
    out += fmt::format("{:.6f},{},{},{},{},{:.1f},{:.3f},{:.1f},{:.1f},{:.1f},{},{}\n", seconds(e.elapsed_ns),
                       e.records, e.trace_time_ns, e.ios, e.bytes, per_second(e.interval_ios, e.interval_ns),
                       per_second(e.interval_bytes, e.interval_ns) / kMiB, us(e.interval_p50_ns),
                       us(e.interval_p99_ns), us(e.interval_max_ns), e.inflight,
                       e.marker ? fmt::format("{}", *e.marker) : std::string());
  }
  return out;
}

void write_outputs(const std::string& dir, const ReplayReport& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw SystemError(fmt::format("cannot create output directory {}: {}", dir, ec.message()));
  write_file_atomically(dir + "/summary.json", summary_json(r));
  write_file_atomically(dir + "/events.csv", events_csv(r));
}

}  // namespace ftlsim::replay
