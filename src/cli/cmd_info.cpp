// `ftlsim info TRACE [--json]`: header metadata and statistics of a .ftr
// trace, as a table or as JSON. Reading the stats validates every record.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "cli/standard_streams.h"
#include "core/escape.h"
#include "core/io_units.h"
#include "core/json_writer.h"
#include "core/units.h"
#include "trace/ftr_reader.h"
#include "trace/trace_rate.h"
#include "trace/trace_stats.h"

namespace ftlsim::cli {
namespace {

using trace::Op;

struct InfoArgs {
  std::string trace;
  bool json = false;
};

std::string pid_name(const trace::TraceMeta& meta, trace::PlacementId pid) {
  const auto it = meta.pid_names.find(pid);
  return it == meta.pid_names.end() ? std::string() : it->second;
}

// The header's `devices` key (convert --merge-devices): "DEV:COUNT ..." as
// (device, requests) pairs, in the order written.
std::vector<std::pair<std::string, std::string>> merged_devices(const trace::TraceMeta& meta) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string text = meta.get("devices");
  std::string_view list = text;
  while (!list.empty()) {
    const size_t blank = std::min(list.find(' '), list.size());
    const std::string_view item = list.substr(0, blank);
    const size_t colon = item.rfind(':');
    if (colon != std::string_view::npos) {
      out.emplace_back(std::string(item.substr(0, colon)), std::string(item.substr(colon + 1)));
    }
    list.remove_prefix(std::min(blank + 1, list.size()));
  }
  return out;
}

std::string to_json(const trace::FtrReader& reader, const trace::TraceStats& s, const std::string& warning) {
  const trace::TraceMeta& meta = reader.meta();
  JsonWriter j;
  j.begin_object();
  j.field("path", reader.path());
  j.key("format").begin_object();
  j.field("version", fmt::format("{}.{}", reader.version(), reader.version_minor()));
  j.field("sector_bytes", meta.sector_bytes);
  j.field("header_bytes", reader.header_bytes());
  j.end_object();
  // A key stored twice appears once, with its first value (TraceMeta::get).
  j.key("meta").begin_object();
  std::unordered_set<std::string> seen;
  for (const auto& [k, v] : meta.kv) {
    if (seen.insert(k).second) j.field(k, v);
  }
  j.end_object();
  j.key("pid_names").begin_object();
  for (const auto& [pid, name] : meta.pid_names) j.field(std::to_string(pid), name);
  j.end_object();

  j.field("records", s.records);
  j.key("ops").begin_object();
  for (uint8_t op = 0; op < trace::kOpCount; ++op) {
    j.key(trace::op_name(static_cast<Op>(op))).begin_object();
    j.field("records", s.ops[op].records).field("bytes", s.ops[op].bytes);
    j.end_object();
  }
  j.end_object();
  j.key("pids").begin_array();
  for (const trace::PidStats& p : s.pids) {
    j.begin_object();
    j.field("pid", uint64_t{p.pid}).field("name", pid_name(meta, p.pid)).field("records", p.records);
    j.field("write_bytes", p.write_bytes).field("read_bytes", p.read_bytes).field("trim_bytes", p.trim_bytes);
    j.end_object();
  }
  j.end_array();
  j.key("footprint").begin_object();
  j.field("page_bytes", trace::kFootprintPageBytes);
  j.field("written_pages", s.written_pages).field("touched_pages", s.touched_pages);
  j.field("written_bytes", s.written_pages * trace::kFootprintPageBytes);
  j.field("touched_bytes", s.touched_pages * trace::kFootprintPageBytes);
  j.end_object();
  j.key("time_ns").begin_object();
  j.field("first", s.first_time_ns).field("last", s.last_time_ns);
  j.field("min", s.min_time_ns).field("max", s.max_time_ns);
  j.field("backwards_steps", s.backwards_timestamps);
  j.end_object();
  j.key("markers").begin_object();
  j.field("count", s.markers);
  if (s.markers > 0) {
    j.field("first", s.first_marker).field("last", s.last_marker);
  } else {
    j.key("first").null().key("last").null();
  }
  j.end_object();
  j.key("devices").begin_array();
  for (const auto& [dev, n] : merged_devices(meta)) {
    j.begin_object().field("device", dev).key("requests");
    uint64_t count = 0;
    const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), count);
    if (ec == std::errc() && end == n.data() + n.size()) {
      j.value(count);
    } else {
      j.value(n);  // header text not written by convert: shown as it is
    }
    j.end_object();
  }
  j.end_array();
  j.key("rate");
  if (const std::optional<trace::TraceRate> rate = trace::trace_rate(trace::record_span(s))) {
    j.begin_object().field("requests_per_s", rate->requests_per_s).field("bytes_per_s", rate->bytes_per_s).end_object();
  } else {
    j.null();
  }
  j.key("warnings").begin_array();
  if (!warning.empty()) j.value(warning);
  j.end_array();
  j.key("lba");
  if (s.has_lba_range()) {
    j.begin_object().field("min", s.min_lba).field("end", s.end_lba).end_object();
  } else {
    j.null();
  }
  j.end_object();
  return j.str();
}

std::string to_table(const trace::FtrReader& reader, const trace::TraceStats& s) {
  const trace::TraceMeta& meta = reader.meta();
  std::string out;
  // Header text is whatever bytes the trace holds: shown escaped.
  auto row = [&out](std::string_view label, const std::string& text) {
    out += fmt::format("{:<12}{}\n", label, escape_for_terminal(text));
  };
  row("trace", reader.path());
  row("format", fmt::format(".ftr {}.{}, {}-byte sectors, {}-byte header", reader.version(), reader.version_minor(),
                            meta.sector_bytes, reader.header_bytes()));
  for (size_t i = 0; i < meta.kv.size(); ++i) {
    row(i == 0 ? "metadata" : "", fmt::format("{} = {}", meta.kv[i].first, meta.kv[i].second));
  }
  bool first = true;
  for (const auto& [pid, name] : meta.pid_names) {
    row(first ? "pid names" : "", fmt::format("{} = {}", pid, name));
    first = false;
  }
  row("records", std::to_string(s.records));
  if (const auto devices = merged_devices(meta); !devices.empty()) {
    std::string list;
    for (const auto& [dev, n] : devices) {
      list += fmt::format("{}{} ({} request{})", list.empty() ? "" : ", ", dev, n, n == "1" ? "" : "s");
    }
    row("devices", fmt::format("{} merged into one address space: {}", devices.size(), list));
  }
  if (s.records > 0) {
    row("time", fmt::format("first {} ns, last {} ns, span {:.3f} s{}", s.first_time_ns, s.last_time_ns,
                            static_cast<double>(s.max_time_ns - s.min_time_ns) * 1e-9,
                            s.backwards_timestamps > 0 ? fmt::format(" ({} backwards steps)", s.backwards_timestamps)
                                                       : std::string()));
  }
  if (s.has_lba_range()) {
    const bool fits = s.end_lba <= UINT64_MAX / meta.sector_bytes;  // else the byte offset wraps
    row("lba range", fmt::format("[{}, {}) sectors{}", s.min_lba, s.end_lba,
                                 fits ? ", up to " + format_bytes(s.end_lba * meta.sector_bytes) : ""));
  }
  row("footprint", fmt::format("{} written, {} touched ({}-byte pages: {} / {})",
                               format_bytes(s.written_pages * trace::kFootprintPageBytes),
                               format_bytes(s.touched_pages * trace::kFootprintPageBytes), trace::kFootprintPageBytes,
                               s.written_pages, s.touched_pages));
  row("markers", s.markers == 0 ? std::string("none")
                                : fmt::format("{}, first {}, last {}", s.markers, s.first_marker, s.last_marker));

  out += fmt::format("\n{:<8}{:>14}{:>14}\n", "op", "records", "bytes");
  for (uint8_t op = 0; op < trace::kOpCount; ++op) {
    out += fmt::format("{:<8}{:>14}{:>14}\n", trace::op_name(static_cast<Op>(op)), s.ops[op].records,
                       format_bytes(s.ops[op].bytes));
  }
  out += fmt::format("\n{:<6}{:<16}{:>12}{:>14}{:>14}{:>14}\n", "pid", "name", "records", "write", "read", "trim");
  for (const trace::PidStats& p : s.pids) {
    const std::string name = escape_for_terminal(pid_name(meta, p.pid));
    out += fmt::format("{:<6}{:<16}{:>12}{:>14}{:>14}{:>14}\n", p.pid, name.empty() ? "-" : name, p.records,
                       format_bytes(p.write_bytes), format_bytes(p.read_bytes), format_bytes(p.trim_bytes));
  }
  return out;
}

void run_info(const InfoArgs& args) {
  const trace::FtrReader reader(args.trace);
  check_not_standard_stream("trace", args.trace, reader.identity());
  const trace::TraceStats stats = trace::compute_trace_stats(reader);
  const std::string warning = trace::implausible_rate_warning(reader.path(), trace::record_span(stats));
  // JSON carries the warning (stderr stays clean for `2>&1` consumers); the
  // table prints it on stderr after the table.
  fmt::print("{}", args.json ? to_json(reader, stats, warning) : to_table(reader, stats));
  if (!args.json && !warning.empty()) {
    std::fflush(stdout);
    fmt::print(stderr, "ftlsim info: warning: {}\n", escape_for_terminal(warning));
  }
}

}  // namespace

Command add_info_command(CLI::App& root) {
  auto args = std::make_shared<InfoArgs>();
  CLI::App* app = root.add_subcommand("info", "Print a .ftr trace's header and statistics");
  app->add_option("trace", args->trace, "The .ftr trace")->required();
  app->add_flag("--json", args->json, "Print JSON instead of a table");
  return Command{app, [args] { run_info(*args); }};
}

}  // namespace ftlsim::cli
