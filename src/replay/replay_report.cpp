#include "replay/replay_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/atomic_file.h"
#include "core/build_identity.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/json_writer.h"
#include "core/units.h"
#include "core/version.h"
#include "replay/data_pattern.h"
#include "replay/nvme_cmd.h"

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
  return fmt::format("PARTIAL after {:.3f} s: {}; records [0, {}) of {} replayed", seconds(e.elapsed_ns), e.stop_reason,
                     e.records_done, r.trace_records);
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

void u128_json(JsonWriter& j, const nvme_fdp::U128& v) {
  if (v.hi == 0) {
    j.value(v.lo);
  } else {
    j.value(nvme_fdp::u128_to_decimal(v));  // beyond 2^64: a decimal string
  }
}

void stats_json(JsonWriter& j, const nvme_fdp::Statistics& s) {
  j.begin_object();
  j.key("hbmw");
  u128_json(j, s.hbmw);
  j.key("mbmw");
  u128_json(j, s.mbmw);
  j.key("mbe");
  u128_json(j, s.mbe);
  j.end_object();
}

// The placement table: per device handle, bytes sent, RUAMW moved, and the
// model's handle of the same number beside it when --predict ran.
std::string placement_table(const ReplayReport& r, const std::vector<HandleCheck>& checks) {
  const DeviceFdpReport& d = *r.device_fdp;
  const Prediction* m = r.prediction ? &*r.prediction : nullptr;
  // The model's handle of number `ruh`, or with none its shared GC handle.
  const auto model_of = [&](std::optional<uint32_t> ruh) -> const ModelHandle* {
    if (m == nullptr) return nullptr;
    for (const ModelHandle& h : m->handles) {
      if (h.ruh == ruh) return &h;
    }
    return nullptr;
  };
  std::string out =
      fmt::format("{:<8}{:<8}{:>12}{:>14}{:>14}  {:<8}", "handle", "PID", "sent", "RUAMW moved", "RUAMW now", "check");
  if (m != nullptr) out += fmt::format("{:>14}{:>10}", "model host", "model WAF");
  out += "\n";
  uint64_t sent_total = 0;
  for (const HandleCheck& c : checks) {
    sent_total += c.sent_bytes;
    out += fmt::format("{:<8}{:<8}{:>12}{:>14}{:>14}  {:<8}", c.handle, fmt::format("{:#06x}", c.pid),
                       format_bytes(c.sent_bytes), format_bytes(c.moved_bytes), fmt::format("{} blk", c.ruamw_after),
                       c.match ? "ok" : "MISMATCH");
    if (m != nullptr) {
      const ModelHandle* h = model_of(uint32_t{c.handle});
      out += h == nullptr ? fmt::format("{:>14}{:>10}", "-", "-")
                          : fmt::format("{:>14}{:>10.4f}", format_bytes(h->host_bytes), h->waf_share);
    }
    out += "\n";
  }
  if (m != nullptr) {
    if (const ModelHandle* gc = model_of(std::nullopt)) {
      out += fmt::format("{:<8}{:<8}{:>12}{:>14}{:>14}  {:<8}{:>14}{:>10.4f}\n", gc->name, "-", "-", "-", "-", "",
                         "GC copies", gc->waf_share);
    }
  }
  if (d.after) {
    const double hbmw = nvme_fdp::u128_to_double(nvme_fdp::u128_sub(d.after->hbmw, d.before.hbmw));
    out += fmt::format("{:<8}{:<8}{:>12}{:>14}{:>14}  {:<8}", "total", "", format_bytes(sent_total),
                       fmt::format("HBMW {}", format_bytes(static_cast<uint64_t>(hbmw))), "",
                       static_cast<double>(sent_total) == hbmw ? "ok" : "MISMATCH");
    if (m != nullptr) out += fmt::format("{:>14}{:>10.4f}", format_bytes(m->host_bytes), m->waf);
    out += "\n";
    out += fmt::format("{:<8}device {:.4f} (delta MBMW / delta HBMW)", "WAF", nvme_fdp::device_waf(d.before, *d.after));
    if (m != nullptr) out += fmt::format(", model {:.4f}", m->waf);
    out += "\n";
  }
  return out;
}

void events_json(JsonWriter& j, const std::vector<nvme_fdp::Event>& events) {
  j.begin_array();
  for (const nvme_fdp::Event& e : events) {
    j.begin_object();
    j.field("type", uint64_t{e.type}).field("name", nvme_fdp::event_type_name(e.type));
    j.field("flags", uint64_t{e.flags}).field("pid", uint64_t{e.pid}).field("nsid", uint64_t{e.nsid});
    j.field("rgid", uint64_t{e.rgid}).field("ruhid", uint64_t{e.ruhid});
    j.end_object();
  }
  j.end_array();
}

void ruh_json(JsonWriter& j, const std::vector<nvme_fdp::RuhStatus>& status) {
  j.begin_array();
  for (const nvme_fdp::RuhStatus& s : status) {
    j.begin_object().field("pid", uint64_t{s.pid}).field("ruhid", uint64_t{s.ruhid});
    j.field("ruamw", s.ruamw_lbas).end_object();
  }
  j.end_array();
}

}  // namespace

std::vector<HandleCheck> handle_checks(const ReplayReport& r) {
  std::vector<HandleCheck> out;
  if (!r.device_fdp || r.device_fdp->ruh_after.size() != r.device_fdp->ruh_before.size()) return out;
  const DeviceFdpReport& d = *r.device_fdp;
  const uint64_t ru_lbas = d.lba_bytes == 0 ? 0 : d.ru_bytes / d.lba_bytes;
  if (ru_lbas == 0) return out;
  const auto unlisted = [&](size_t p) {
    return std::find(d.unlisted_pids.begin(), d.unlisted_pids.end(), p) != d.unlisted_pids.end();
  };
  for (size_t i = 0; i < d.ruh_before.size(); ++i) {
    HandleCheck c;
    c.pid = d.ruh_before[i].pid;
    c.handle = nvme::pid_handle(c.pid, d.rgif);
    c.ruamw_before = d.ruh_before[i].ruamw_lbas;
    c.ruamw_after = d.ruh_after[i].ruamw_lbas;
    for (size_t p = 0; p < r.result.bytes_by_pid.size(); ++p) {
      const uint64_t w = r.result.bytes_by_pid[p].write;
      if (w == 0) continue;
      const bool here = unlisted(p) ? c.pid == 0 : p < r.plan.dspec_by_pid.size() && r.plan.dspec_by_pid[p] == c.pid;
      if (here) c.sent_bytes += w;
    }
    const uint64_t moved =
        nvme_fdp::ruamw_consumed(std::min(c.ruamw_before, ru_lbas), std::min(c.ruamw_after, ru_lbas), ru_lbas);
    c.moved_bytes = moved * d.lba_bytes;
    c.match = (c.sent_bytes / d.lba_bytes) % ru_lbas == moved && c.sent_bytes % d.lba_bytes == 0;
    out.push_back(c);
  }
  return out;
}

namespace {}  // namespace

std::string summary_text(const ReplayReport& r, SettingShow show) {
  const EngineResult& e = r.result;
  const TargetInfo& t = r.target;
  std::string out;
  auto row = [&out](std::string_view label, const std::string& text) { out += fmt::format("{:<11}{}\n", label, text); };
  row("trace", fmt::format("{} ({} records)", escape_for_terminal(r.trace_path), r.trace_records));
  row("target", fmt::format("{}: {}, {}, {}-byte blocks{}", escape_for_terminal(t.path), target_kind_name(t.kind),
                            format_bytes(t.bytes), t.block_bytes,
                            !t.created          ? std::string()
                            : r.created_removed ? " (created by " + show_setting("create", show) +
                                                      "; removed again: no record was done)"
                                                : " (created by " + show_setting("create", show) + ")"));
  std::string mode = std::string(mode_name(r.config.mode));
  if (r.config.mode == ReplayMode::kTimed) mode += fmt::format(" x{}", r.config.speed);
  row("replay", fmt::format("{}, queue depth {}, ops {}, placement {}", mode, r.config.queue_depth, r.config.ops.text(),
                            placement_text(r)));
  row("status", status_line(r));

  out += fmt::format("{:<8}{:>10}{:>12}{:>10}{:>10}  {:>10}{:>11}{:>11}{:>11}\n", "op", "I/Os", "bytes", "IOPS",
                     "MiB/s", "lat us p50", "p99", "p99.9", "max");
  uint64_t all_ios = 0, all_bytes = 0;
  for (const Op op : kDataOps) {
    const OpTotals& o = e.ops[static_cast<size_t>(op)];
    if (r.scan.ios[static_cast<size_t>(op)] == 0) continue;  // not in the trace, or not selected
    all_ios += o.ios;
    all_bytes += o.bytes;
    out += fmt::format("{:<8}{:>10}{:>12}{:>10.0f}{:>10.1f}  {:>10.1f}{:>11.1f}{:>11.1f}{:>11.1f}{}\n",
                       trace::op_name(op), o.ios, format_bytes(o.bytes), per_second(o.ios, e.elapsed_ns),
                       per_second(o.bytes, e.elapsed_ns) / kMiB, us(o.latency_ns.percentile(0.5)),
                       us(o.latency_ns.percentile(0.99)), us(o.latency_ns.percentile(0.999)), us(o.latency_ns.max()),
                       o.errors > 0 ? fmt::format("  ({} failed)", o.errors) : std::string());
  }
  out += fmt::format("{:<8}{:>10}{:>12}{:>10.0f}{:>10.1f}\n", "total", all_ios, format_bytes(all_bytes),
                     per_second(all_ios, e.elapsed_ns), per_second(all_bytes, e.elapsed_ns) / kMiB);
  if (r.config.mode == ReplayMode::kTimed) {
    row("timing",
        fmt::format("{} I/Os submitted more than 1 ms after their trace time; lag p50 {:.1f} us, p99 "
                    "{:.1f} us, max {:.1f} us",
                    e.late_ios, us(e.lag_ns.percentile(0.5)), us(e.lag_ns.percentile(0.99)), us(e.lag_ns.max())));
  }
  const StreamScan& s = r.scan;
  if (s.narrowed > 0) {
    row("trims", fmt::format("{} narrowed to the whole {}-byte blocks inside them ({} with none: not sent), so "
                             "that no sector the trace did not trim is discarded",
                             s.narrowed, t.block_bytes, s.dropped_trims));
  }
  if (s.widened + s.wrapped + s.split > 0) {
    row("requests", fmt::format("{} widened to {}-byte blocks, {} folded into the target ({}), {} split into "
                                "I/Os of at most {}",
                                s.widened, t.block_bytes, s.wrapped, show_setting("wrap", show), s.split,
                                format_bytes(r.config.max_io_bytes)));
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
    row("skipped",
        fmt::format("{} records not in {} ({})", skipped, show_setting("ops", show), fmt::join(parts, ", ")));
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
    row("device",
        fmt::format("FDP configuration {} of endurance group {}: {} handle(s), {} reclaim group(s), RU {}",
                    d.config_index, d.endurance_group, d.handles, d.reclaim_groups, format_bytes(d.ru_bytes)));
    if (d.after) {
      const auto delta = [](nvme_fdp::U128 a, nvme_fdp::U128 b) {
        return nvme_fdp::u128_to_double(nvme_fdp::u128_sub(a, b));
      };
      row("device WAF", fmt::format("{:.4f} (FDP statistics: HBMW +{:.0f} B, MBMW +{:.0f} B, MBE +{:.0f} B)",
                                    nvme_fdp::device_waf(d.before, *d.after), delta(d.after->hbmw, d.before.hbmw),
                                    delta(d.after->mbmw, d.before.mbmw), delta(d.after->mbe, d.before.mbe)));
    }
    if (!d.unlisted_pids.empty()) {
      row("unlisted", fmt::format("trace placement ID(s) {} have no handle and were sent anyway "
                                  "({}): expected in placement handle 0",
                                  fmt::join(d.unlisted_pids, ","), show_setting("allow-unlisted-pids", show)));
    }
    const std::vector<HandleCheck> checks = handle_checks(r);
    if (!checks.empty()) out += placement_table(r, checks);
    if (d.events_read) {
      std::map<uint8_t, uint64_t> by_type;
      for (const nvme_fdp::Event& ev : d.events) ++by_type[ev.type];
      std::vector<std::string> parts;
      for (const auto& [type, n] : by_type) parts.push_back(fmt::format("{} {}", n, nvme_fdp::event_type_name(type)));
      row("events", fmt::format("{} host event(s) logged during the replay{}{}; invalid placement identifier: {}",
                                d.events.size(), parts.empty() ? "" : ": ", fmt::join(parts, ", "),
                                by_type[nvme_fdp::kEventInvalidPid]));
    }
    if (!d.events_error.empty()) row("events", "not counted: " + d.events_error);
    if (d.ruh_update) {
      std::vector<std::string> parts;
      for (const nvme_fdp::RuhStatus& st : d.ruh_update->ruh_status) {
        parts.push_back(fmt::format("{:#06x}: {} blk", st.pid, st.ruamw_lbas));
      }
      const double mbmw =
          d.after ? nvme_fdp::u128_to_double(nvme_fdp::u128_sub(d.ruh_update->stats.mbmw, d.after->mbmw)) : 0.0;
      row("RUH update", fmt::format("PIDs {} updated; RUAMW now {}; MBMW +{:.0f} B by the update",
                                    fmt::join(d.ruh_update->pids, ","), fmt::join(parts, ", "), mbmw));
    }
  }
  if (r.prediction && !r.device_fdp) {
    row("model WAF",
        fmt::format("{:.4f} (ftlsim --trace {} {})", r.prediction->waf, r.trace_path, r.prediction->options));
  } else if (r.prediction) {
    row("model", fmt::format("ftlsim --trace {} {}", r.trace_path, r.prediction->options));
  }
  if (r.verify) {
    const VerifyResult& v = *r.verify;
    row("verify", fmt::format("{} units of {} B written and {} trimmed checked{}: {} mismatches{}", v.written_units,
                              kPatternUnit, v.trimmed_units,
                              v.unchecked_units > 0
                                  ? fmt::format(" ({} trimmed units on a device not checked)", v.unchecked_units)
                                  : std::string(),
                              v.mismatches, v.first_mismatch.empty() ? "" : "; first at " + v.first_mismatch) +
                      fmt::format(" ({} read back in {:.2f} s)", format_bytes(v.read_bytes), v.seconds) +
                      (v.interrupted ? fmt::format("; INTERRUPTED: only the first {} of the target checked",
                                                   format_bytes(v.checked_bytes))
                                     : std::string()));
  }
  if (!e.registered_buffers && r.target.kind != TargetKind::kNvmeGeneric) {
    row("note", "buffers not registered with io_uring (RLIMIT_MEMLOCK too low?); plain reads and writes used");
  }
  for (const std::string& f : t.findings) row("warning", show_setting("force", show) + ": " + f);
  return out;
}

std::string summary_json(const ReplayReport& r) {
  const EngineResult& e = r.result;
  const TargetInfo& t = r.target;
  JsonWriter j;
  j.begin_object();
  j.field("ftlsim_version", std::string(kVersion));
  j.field("ftlsim_sources", std::string(source_digest()));
  j.field("kind", "replay");
  if (!r.config_key.empty()) j.field("config_key", r.config_key);
  j.field("trace", r.trace_path);
  j.key("target").begin_object();
  j.field("path", t.path);
  j.field("kind", target_kind_name(t.kind));
  j.field("bytes", t.bytes);
  j.field("block_bytes", t.block_bytes);
  j.field("created", t.created);
  j.field("removed", r.created_removed);
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
  j.field("narrowed_trims", r.scan.narrowed).field("dropped_trims", r.scan.dropped_trims);
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
      stats_json(j, {nvme_fdp::u128_sub(d.after->hbmw, d.before.hbmw), nvme_fdp::u128_sub(d.after->mbmw, d.before.mbmw),
                     nvme_fdp::u128_sub(d.after->mbe, d.before.mbe)});
      j.field("waf", nvme_fdp::device_waf(d.before, *d.after));
    } else {
      j.null();
    }
    j.field("nsid", uint64_t{d.nsid});
    j.field("lba_bytes", uint64_t{d.lba_bytes});
    j.key("ruh_before");
    ruh_json(j, d.ruh_before);
    j.key("ruh_after");
    ruh_json(j, d.ruh_after);
    j.key("unlisted_pids").begin_array();
    for (const uint16_t p : d.unlisted_pids) j.value(uint64_t{p});
    j.end_array();
    j.key("handle_checks").begin_array();
    for (const HandleCheck& c : handle_checks(r)) {
      j.begin_object().field("handle", uint64_t{c.handle}).field("pid", uint64_t{c.pid});
      j.field("sent_bytes", c.sent_bytes).field("ruamw_before", c.ruamw_before).field("ruamw_after", c.ruamw_after);
      j.field("moved_bytes", c.moved_bytes).field("match", c.match).end_object();
    }
    j.end_array();
    j.key("events");
    if (d.events_read) {
      events_json(j, d.events);
    } else {
      j.null();
    }
    j.key("ruh_update");
    if (d.ruh_update) {
      j.begin_object();
      j.key("pids").begin_array();
      for (const uint16_t p : d.ruh_update->pids) j.value(uint64_t{p});
      j.end_array();
      j.key("ruh_status");
      ruh_json(j, d.ruh_update->ruh_status);
      j.key("stats");
      stats_json(j, d.ruh_update->stats);
      j.end_object();
    } else {
      j.null();
    }
    j.end_object();
  } else {
    j.null();
  }
  j.key("prediction");
  if (r.prediction) {
    j.begin_object().field("options", r.prediction->options).field("waf", r.prediction->waf);
    j.field("host_bytes", r.prediction->host_bytes);
    j.key("handles").begin_array();
    for (const ModelHandle& h : r.prediction->handles) {
      j.begin_object().field("name", h.name).field("host_bytes", h.host_bytes);
      j.field("gc_out_bytes", h.gc_out_bytes).field("waf_share", h.waf_share).end_object();
    }
    j.end_array();
    j.end_object();
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
    j.field("read_bytes", v.read_bytes).field("seconds", v.seconds);
    j.field("interrupted", v.interrupted).field("checked_bytes", v.checked_bytes);
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
                       per_second(e.interval_bytes, e.interval_ns) / kMiB, us(e.interval_p50_ns), us(e.interval_p99_ns),
                       us(e.interval_max_ns), e.inflight, e.marker ? fmt::format("{}", *e.marker) : std::string());
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
