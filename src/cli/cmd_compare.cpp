// `ftlsim compare`: two configurations side by side, in the layout of the
// seed study's table (metric | a | b | change), on one trace or, with
// --trace-b, side b on a trace of its own (the study's two host modes).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>

#include "cli/commands.h"
#include "cli/flag_text.h"
#include "cli/out_results.h"
#include "cli/parse_error_text.h"
#include "cli/path_option.h"
#include "cli/run_key.h"
#include "cli/sim_options.h"
#include "cli/standard_streams.h"
#include "cli/timing_options.h"
#include "core/atomic_file.h"
#include "core/csv_field.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/io_identity.h"
#include "core/memory_budget.h"
#include "core/output_dir.h"
#include "core/progress_line.h"
#include "core/units.h"
#include "fdp/handle_stats.h"
#include "sim/memory_estimate.h"
#include "sim/report.h"
#include "sweep/sweep_csv.h"
#include "sweep/sweep_pool.h"
#include "sweep/sweep_run.h"
#include "timing/qd_sweep.h"
#include "timing/time_scale.h"
#include "timing/timing_report.h"
#include "trace/ftr_reader.h"

namespace ftlsim::cli {
namespace {

constexpr const char* kCompareFooter = R"(--a and --b are option lists applied on top of the common options (the
default command's Device, GC, FDP and Output options, given after `compare`);
an omitted or empty side is the common options alone. Each side must be one
configuration: no lists or ranges. --trace-b FILE replays side b on FILE
instead of --trace (the two traces are checked alike: memory, --out, a file
that changes while read); the table then names both traces, and compare.csv
ends with the rows trace and trace_records for both. Both run in parallel on 2 threads. The
change column is (b - a) / a in percent. The table shows WAF, host writes,
GC copies, erases (blocks), GC onset (host writes and the last marker before
it), invalid placement ID events, host writes per placement ID and each
handle's WAF share; with --timing (common, or in --a/--b) also IOPS and the
mean, p50, p99 and p99.9 latency of all host requests (compare.csv: iops,
lat_mean_ns, lat_p50_ns, lat_p99_ns, lat_p99_9_ns). compare.csv holds the
same rows as raw numbers (metric,a,b,change_pct).

Examples:
  ftlsim compare --trace x.ftr --a "--placement single" --b "--placement fdp"
  ftlsim compare --trace x.ftr --preset femu-eth --gc-thres 60 \
      --a "--placement fdp --ruh-type ii" --b "--placement fdp --ruh-type pi" --out cmp/
  ftlsim compare --trace x.ftr --timing --qd 16 --a "--placement single" --b "--placement fdp"
  ftlsim compare --trace nonfdp.ftr --trace-b fdp.ftr --a "--placement single" --b "--placement fdp")";

struct CompareArgs {
  std::string trace;
  std::string trace_b;  // --trace-b: side b's own trace ("" = --trace)
  std::string out;
  std::string a, b;
  bool no_progress = false;
  bool force = false;     // replace another comparison's results in --out
  std::string mem_limit;  // --mem-limit
  ModelArgs model;
  TimingArgs timing;
};

// One side: its run, and what its config_key is computed from.
struct Side {
  sim::RunDescription run;
  ModelArgs model;
  TimingArgs timing;
  Point point;
};

// Compare runs one configuration per side: setting `name` with `values` > 1
// values is refused, said of the options both sides share (`shared`) or of
// a side's own (the caller names the side).
void refuse_list(std::string_view name, size_t values, bool shared) {
  if (values <= 1) return;
  throw InputError(
      fmt::format("--{} has {} values{}; compare takes one configuration per side ({}run a sweep for lists)", name,
                  values, shared ? " among the options both sides share" : "",
                  shared ? "give each side its value in --a and --b, or " : ""));
}

// The common options with `extra` (an option list such as "--placement fdp"
// or "--qd 16") parsed on top, as one configuration replaying `trace`.
Side side_run(const CompareArgs& c, std::string_view side, const std::string& extra, const std::string& trace) {
  Side out{{}, c.model, c.timing, {}};
  ModelArgs& m = out.model;
  TimingArgs& t = out.timing;
  try {
    CLI::App overlay{"", std::string(side)};
    add_model_options(overlay, m);
    add_timing_options(overlay, t, true);
    parse_overlay(overlay, extra);
  } catch (const CLI::ExtrasError& e) {
    // Options of compare itself (--out, --mem-limit, --force, ...) or none at all.
    throw InputError(
        fmt::format("{} \"{}\": {}; a side takes the device, GC, FDP and timing options only (give "
                    "compare's own options, e.g. --out or --mem-limit, outside --a and --b)",
                    side, extra, e.what()));
  } catch (const CLI::ParseError& e) {
    throw InputError(fmt::format("{} \"{}\": {}", side, extra, parse_error_text(e, false)));
  }
  try {
    const std::vector<std::vector<std::string>> items = expand_settings(m);
    check_options_apply(m, items, &c.model);
    for (size_t i = 0; i < items.size(); ++i) refuse_list(setting_info(i).name, items[i].size(), false);
    out.point = first_point(items);
    out.run = build_run(m, out.point, trace);
    out.run.options.timing = build_timing(t);
    return out;
  } catch (const InputError& e) {
    throw InputError(Message(fmt::format("{} \"{}\": ", side, extra)) + e.message());
  }
}

std::string percent(double a, double b) {
  if (a == 0) return {};
  return fmt::format("{:+.1f}%", 100.0 * (b - a) / a);
}

std::string pct_raw(double a, double b) {
  if (a == 0) return {};
  return fmt::format("{:.6f}", 100.0 * (b - a) / a);
}

struct Line {
  std::string label;                     // printed: "WAF"
  std::string metric;                    // compare.csv: "waf"
  std::string a, b, change;              // as printed
  std::string csv_a, csv_b, csv_change;  // raw numbers, for compare.csv
};

// A number on both sides; `text` prints it, `raw` writes it to the CSV.
template <class T, class Text, class Raw>
Line number_line(std::string label, std::string metric, T va, T vb, Text text, Raw raw) {
  const auto da = static_cast<double>(va), db = static_cast<double>(vb);
  return {std::move(label), std::move(metric), text(va), text(vb), percent(da, db), raw(va), raw(vb), pct_raw(da, db)};
}

// A value that may be missing on either side ("-" printed, empty in the CSV,
// no change).
template <class T, class Text, class Raw>
Line optional_line(std::string label, std::string metric, std::optional<T> va, std::optional<T> vb, Text text,
                   Raw raw) {
  if (va && vb) return number_line(std::move(label), std::move(metric), *va, *vb, text, raw);
  auto cell = [&](const std::optional<T>& v) { return v ? text(*v) : std::string("-"); };
  auto csv = [&](const std::optional<T>& v) { return v ? raw(*v) : std::string(); };
  return {std::move(label), std::move(metric), cell(va), cell(vb), "", csv(va), csv(vb), ""};
}

// The name a side's trace gives placement ID `pid` ("" when none).
std::string pid_name(const sim::RunDescription& r, uint16_t pid) {
  const auto it = r.pid_names.find(pid);
  return it == r.pid_names.end() ? std::string() : it->second;
}

// A placement ID's name in the table: each side's trace names its IDs (two
// traces may name one ID differently: "wal / flush").
std::string pid_label(const sim::RunDescription& ra, const sim::RunDescription& rb, uint16_t pid) {
  const std::string na = escape_for_terminal(pid_name(ra, pid)), nb = escape_for_terminal(pid_name(rb, pid));
  if (na.empty() && nb.empty()) return "";
  if (na == nb || nb.empty()) return " (" + na + ")";
  if (na.empty()) return " (" + nb + ")";
  return " (" + na + " / " + nb + ")";
}

// `ra` and `rb` name the placement IDs of each side's trace.
std::vector<Line> compare_lines(const sim::RunDescription& ra, const sim::RunDescription& rb, const sim::SimResult& a,
                                const sim::SimResult& b) {
  const auto bytes = [](uint64_t v) { return format_bytes(v); };
  const auto integer = [](uint64_t v) { return fmt::format("{}", v); };
  const auto ratio4 = [](double v) { return fmt::format("{:.4f}", v); };
  const auto ratio6 = [](double v) { return fmt::format("{:.6f}", v); };
  constexpr uint64_t kSlot = ftl::kSlotBytes;
  std::vector<Line> lines;
  lines.push_back(number_line("WAF", "waf", a.ftl.waf(), b.ftl.waf(), ratio4, ratio6));
  lines.push_back(
      number_line("host writes", "host_bytes", a.ftl.host_slots * kSlot, b.ftl.host_slots * kSlot, bytes, integer));
  lines.push_back(number_line("GC copies", "gc_bytes", a.ftl.gc_slots * kSlot, b.ftl.gc_slots * kSlot, bytes, integer));
  lines.push_back(
      number_line("erases (blocks)", "erases", sim::erased_blocks(a), sim::erased_blocks(b), integer, integer));
  const auto onset = [](const sim::SimResult& r) {
    return r.gc_onset ? std::optional<uint64_t>(r.gc_onset->host_bytes) : std::nullopt;
  };
  const auto marker = [](const sim::SimResult& r) { return r.gc_onset ? r.gc_onset->marker : std::nullopt; };
  lines.push_back(optional_line("GC onset (host writes)", "gc_onset_host_bytes", onset(a), onset(b), bytes, integer));
  Line m = optional_line("GC onset (marker)", "gc_onset_marker", marker(a), marker(b), integer, integer);
  m.change.clear();  // a marker is a position, not an amount
  m.csv_change.clear();
  lines.push_back(std::move(m));
  lines.push_back(number_line("invalid placement IDs", "invalid_pid_requests", a.invalid_pid_requests,
                              b.invalid_pid_requests, integer, integer));

  // The devices, when the two sides did not simulate the same one (the
  // options differ in geometry, or --logical fit sized each to its trace):
  // a WAF is then of another device, and the table says so.
  const ftl::Geometry ga = sim::simulated_geometry(ra, a), gb = sim::simulated_geometry(rb, b);
  if (ga.logical_bytes != gb.logical_bytes || ga.physical_bytes() != gb.physical_bytes() || ga.lines() != gb.lines()) {
    const auto pct1 = [](double v) { return fmt::format("{:.1f}%", 100.0 * v); };
    lines.push_back(
        number_line("device: logical capacity", "logical_bytes", ga.logical_bytes, gb.logical_bytes, bytes, integer));
    lines.push_back(number_line("device: physical capacity", "physical_bytes", ga.physical_bytes(), gb.physical_bytes(),
                                bytes, integer));
    lines.push_back(number_line("device: over-provisioning", "over_provisioning", ga.over_provisioning(),
                                gb.over_provisioning(), pct1, ratio6));
    lines.push_back(number_line("device: lines", "lines", ga.lines(), gb.lines(), integer, integer));
  }

  // Host bytes per placement ID (equal on both sides when they replay one trace).
  std::vector<uint16_t> pids;
  for (const sim::SimResult* r : {&a, &b}) {
    for (const auto& entry : r->host_bytes_by_pid) {
      if (std::find(pids.begin(), pids.end(), entry.first) == pids.end()) pids.push_back(entry.first);
    }
  }
  std::sort(pids.begin(), pids.end());
  const auto pid_bytes = [](const sim::SimResult& r, uint16_t pid) -> uint64_t {
    for (const auto& [p, n] : r.host_bytes_by_pid) {
      if (p == pid) return n;
    }
    return 0;
  };
  // An ID the two traces name differently holds different data on each
  // side (the study's captures: ID 3 is l0_compaction in one, mid_compaction
  // in the other): both amounts are shown, no change between them.
  for (const uint16_t pid : pids) {
    Line l = number_line(fmt::format("host writes PID {}{}", pid, pid_label(ra, rb, pid)),
                         fmt::format("host_bytes_pid_{}", pid), pid_bytes(a, pid), pid_bytes(b, pid), bytes, integer);
    const std::string na = pid_name(ra, pid), nb = pid_name(rb, pid);
    if (!na.empty() && !nb.empty() && na != nb) {
      l.change.clear();
      l.csv_change.clear();
    }
    lines.push_back(std::move(l));
  }

  // WAF share per handle: ruh0, ruh1, ..., then the shared gc handle. A
  // handle's change is shown only when both sides have the same handles:
  // under `single` ruh0 holds all the data, under `fdp` one ID's, and
  // 1.21 against 0.04 would read as -97% of something.
  std::vector<std::string> handles;
  const auto names = [](const sim::SimResult& r) {
    std::vector<std::string> n;
    for (const fdp::HandleStats& h : r.handles) n.push_back(h.name);
    std::sort(n.begin(), n.end());
    return n;
  };
  const bool same_handles = names(a) == names(b);
  for (const sim::SimResult* r : {&a, &b}) {
    for (const fdp::HandleStats& h : r->handles) {
      if (std::find(handles.begin(), handles.end(), h.name) == handles.end()) handles.push_back(h.name);
    }
  }
  std::sort(handles.begin(), handles.end(), fdp::handle_name_before);
  const auto share = [](const sim::SimResult& r, const std::string& name) -> std::optional<double> {
    for (const fdp::HandleStats& h : r.handles) {
      if (h.name == name) return h.waf_share;
    }
    return std::nullopt;
  };
  for (const std::string& h : handles) {
    Line l = optional_line("WAF share " + h, "waf_share_" + h, share(a, h), share(b, h), ratio4, ratio6);
    if (!same_handles) {
      l.change.clear();
      l.csv_change.clear();
    }
    lines.push_back(std::move(l));
  }

  // Timed mode (--timing on either side): all host requests together.
  if (a.timing || b.timing) {
    const auto row = [](const sim::SimResult& r) {
      return r.timing ? std::optional<timing::QdRow>(timing::timed_row(*r.timing)) : std::nullopt;
    };
    const std::optional<timing::QdRow> ta = row(a), tb = row(b);
    const auto pick = [](const std::optional<timing::QdRow>& t, auto field) {
      return t ? std::optional<double>(field(*t)) : std::nullopt;
    };
    const auto iops_text = [](double v) { return fmt::format("{:.0f}", v); };
    const auto iops_raw = [](double v) { return fmt::format("{:.1f}", v); };
    const auto ns_text = [](double v) { return timing::format_ns(v); };
    const auto ns_raw = [](double v) { return fmt::format("{:.0f}", v); };
    lines.push_back(optional_line("IOPS", "iops", pick(ta, [](const timing::QdRow& t) { return t.qps; }),
                                  pick(tb, [](const timing::QdRow& t) { return t.qps; }), iops_text, iops_raw));
    struct Latency {
      const char* label;
      const char* metric;
      double (*get)(const timing::QdRow&);
    };
    static constexpr Latency kLatencies[] = {
        {"latency mean", "lat_mean_ns", [](const timing::QdRow& t) { return t.lat_mean_ns; }},
        {"latency p50", "lat_p50_ns", [](const timing::QdRow& t) { return static_cast<double>(t.p50_ns); }},
        {"latency p99", "lat_p99_ns", [](const timing::QdRow& t) { return static_cast<double>(t.p99_ns); }},
        {"latency p99.9", "lat_p99_9_ns", [](const timing::QdRow& t) { return static_cast<double>(t.p99_9_ns); }},
    };
    for (const Latency& l : kLatencies) {
      lines.push_back(optional_line(l.label, l.metric, pick(ta, l.get), pick(tb, l.get), ns_text, ns_raw));
    }
  }
  return lines;
}

void run_compare(const CompareArgs& c) {
  if (c.trace.empty()) throw InputError("compare: --trace is required (see ftlsim compare --help)");
  if (c.a.empty() && c.b.empty()) {
    throw InputError(
        "compare: --a and --b are both empty or not given: give at least one side its options, e.g. --a "
        "\"--placement single\" --b \"--placement fdp\"");
  }
  // A list among the options both sides share: said of them, not of --a.
  {
    const std::vector<std::vector<std::string>> model = expand_settings(c.model);
    for (size_t i = 0; i < model.size(); ++i) refuse_list(setting_info(i).name, model[i].size(), true);
    if (c.timing.timing) {
      const std::vector<std::vector<std::string>> timed = expand_timing(c.timing);
      for (size_t i = 0; i < timed.size(); ++i) refuse_list(timing_setting_name(i), timed[i].size(), true);
    }
  }
  const bool two_traces = !c.trace_b.empty();
  const std::array<std::string, 2> paths = {c.trace, two_traces ? c.trace_b : c.trace};
  std::array<Side, 2> sides = {side_run(c, "--a", c.a, paths[0]), side_run(c, "--b", c.b, paths[1])};
  // --out is checked now and written as one set (a/, b/, compare.csv) at the end.
  RunInputs inputs;
  inputs.add("--trace", c.trace);
  if (two_traces) inputs.add("--trace-b", c.trace_b);
  check_not_standard_stream(inputs);
  std::optional<OutputDir> out_dir;
  if (!c.out.empty()) out_dir.emplace("--out", c.out, std::vector<std::string>{"a", "b", "compare.csv"}, inputs);
  // One reader per trace; side b shares a's when it has none of its own.
  std::vector<std::unique_ptr<trace::FtrReader>> readers;
  readers.push_back(std::make_unique<trace::FtrReader>(paths[0]));
  if (two_traces) readers.push_back(std::make_unique<trace::FtrReader>(paths[1]));
  const std::array<const trace::FtrReader*, 2> reader = {readers.front().get(), readers.back().get()};
  const auto check_intact = [&] {
    for (const auto& r : readers) r->check_intact();
  };
  std::array<sim::TraceView, 2> views;
  std::array<uint64_t, 2> written{};
  std::vector<sim::SweepJob> jobs(2);
  for (size_t i = 0; i < 2; ++i) {
    views[i] = {paths[i], reader[i]->records(), reader[i]->meta().sector_bytes};
    // The first pass over the records: a malformed one is refused before
    // the trace's hash (the config_key) reads the rest.
    views[i].scan = sim::scan(views[i]);
    written[i] = views[i].scan->write_bytes;
    jobs[i].run = sides[i].run;
    jobs[i].run.pid_names = reader[i]->meta().pid_names;
    jobs[i].run.config_key =
        run_config_key(sides[i].model, sides[i].timing, sides[i].point, views[i], reader[i]->meta().pid_names);
    jobs[i].trace = &views[i];
    const auto& t = jobs[i].run.options.timing;
    if (t && t->mode == timing::HostMode::kOpen) timing::check_issue_span(reader[i]->records(), t->speed, paths[i]);
  }
  // Another comparison's results (either side another configuration or
  // trace) are refused without --force (cli/out_results.h).
  if (out_dir) {
    const KeyedEntry keyed[] = {{"a/summary.json", jobs[0].run.config_key}, {"b/summary.json", jobs[1].run.config_key}};
    check_out_results(*out_dir, keyed, c.force);
  }
  std::array<std::string, 2> dirs;
  sim::SweepCallbacks callbacks;
  callbacks.error_text = [](const Message& what) { return flag_text(what); };
  ProgressLine progress("compare", reader[0]->size() + reader[1]->size(), ProgressUnit::kRecords,
                        progress_wanted(c.no_progress));
  for (sim::SweepJob& j : jobs) j.run.options.progress = &progress;
  callbacks.progress = [&](size_t done, size_t total) { progress.set_configurations_done(done, total); };
  const std::array<uint64_t, 2> needs = {
      sim::estimate_run_memory(jobs[0].run,
                               sim::trace_size(views[0], sim::TraceSizeNeeds{}.add(jobs[0].run), written[0]))
          .bytes,
      sim::estimate_run_memory(jobs[1].run,
                               sim::trace_size(views[1], sim::TraceSizeNeeds{}.add(jobs[1].run), written[1]))
          .bytes};
  const std::optional<MemoryBudget> limit = memory_limit(c.mem_limit);
  sim::check_memory(needs, 2, limit, "this comparison, a and b at once,");
  // The staging folder (and any missing parent of --out) is made only once
  // every check above has passed, so a refusal leaves nothing behind.
  if (out_dir) {
    dirs = {out_dir->staging() + "/a", out_dir->staging() + "/b"};
    callbacks.on_done = [&](size_t i, const sim::SweepOutcome& o) {
      if (o.result) out_dir->write([&](const std::string&) { sim::write_job_outputs(dirs[i], jobs[i], *o.result); });
    };
  }
  const std::vector<sim::SweepOutcome> outcomes = sim::run_sweep(views[0], jobs, 2, callbacks);
  progress.finish();
  check_intact();  // no results from a trace that changed under the runs
  for (size_t i = 0; i < 2; ++i) {
    if (!outcomes[i].result) {
      throw InputError(fmt::format("{} \"{}\": {}", i == 0 ? "--a" : "--b", i == 0 ? c.a : c.b, outcomes[i].error));
    }
  }
  std::vector<Line> lines = compare_lines(jobs[0].run, jobs[1].run, *outcomes[0].result, *outcomes[1].result);

  const std::string ha = "a: " + (c.a.empty() ? std::string("(common options)") : c.a);
  const std::string hb = "b: " + (c.b.empty() ? std::string("(common options)") : c.b);
  size_t wm = std::string_view("metric").size(), wa = ha.size(), wb = hb.size();
  for (const Line& l : lines) {
    wm = std::max(wm, l.label.size());
    wa = std::max(wa, l.a.size());
    wb = std::max(wb, l.b.size());
  }
  std::string out;
  if (two_traces) {
    out = fmt::format("trace a    {} ({} records)\ntrace b    {} ({} records)\n", escape_for_terminal(paths[0]),
                      reader[0]->size(), escape_for_terminal(paths[1]), reader[1]->size());
  } else {
    out = fmt::format("trace      {} ({} records)\n", escape_for_terminal(c.trace), reader[0]->size());
  }
  auto row = [&](std::string_view label, std::string_view va, std::string_view vb, std::string_view change) {
    std::string line = fmt::format("{:<{}}  {:>{}}  {:>{}}  {}", label, wm, va, wa, vb, wb, change);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  row("metric", ha, hb, "change");
  for (const Line& l : lines) row(l.label, l.a, l.b, l.change);
  fmt::print("{}", out);
  if (!c.out.empty()) {
    // Each side's trace, as given, and its record count (text rows: no change).
    lines.push_back({"", "trace", "", "", "", paths[0], paths[1], ""});
    lines.push_back({"", "trace_records", "", "", "", fmt::format("{}", reader[0]->size()),
                     fmt::format("{}", reader[1]->size()), ""});
    std::string csv = "metric,a,b,change_pct\n";
    for (const Line& l : lines) {
      csv += fmt::format("{},{},{},{}\n", csv_field(l.metric), csv_field(l.csv_a), csv_field(l.csv_b), l.csv_change);
    }
    out_dir->write([&](const std::string& dir) { write_file_atomically(dir + "/compare.csv", csv); });
    out_dir->publish();
    fmt::print("wrote      {0}/a/, {0}/b/, {0}/compare.csv\n", escape_for_terminal(folder_name_of(c.out)));
  }
}

}  // namespace

Command add_compare_command(CLI::App& root) {
  auto c = std::make_shared<CompareArgs>();
  CLI::App* app = root.add_subcommand(
      "compare", "Run two configurations of one trace (or side b on a trace of its own) and compare them side by side");
  app->add_option("--trace", c->trace, "Trace to simulate (.ftr); side a's only, with --trace-b")
      ->type_name("FILE")
      ->required();
  app->add_option("--trace-b", c->trace_b, "Side b's trace (.ftr), when it is not --trace's (default: --trace)")
      ->type_name("FILE");
  app->add_option("--a", c->a,
                  "Options of configuration a, on top of the common ones (e.g. \"--placement single\"; "
                  "default: none, the common options alone)")
      ->type_name("\"OPTIONS\"");
  app->add_option("--b", c->b,
                  "Options of configuration b, on top of the common ones (e.g. \"--placement fdp\"; "
                  "default: none)")
      ->type_name("\"OPTIONS\"");
  add_output_path_option(*app, "--out", c->out,
                         "Write DIR/a/ and DIR/b/ (summary.json, timeseries.csv) and DIR/compare.csv", "--out",
                         "folder")
      ->type_name("DIR");
  add_model_options(*app, c->model);
  add_timing_options(*app, c->timing, true);
  add_mem_limit_option(*app, c->mem_limit);
  app->add_flag("--no-progress", c->no_progress, "No progress line on stderr (shown only on a terminal)")
      ->group("Output");
  app->add_flag("--force", c->force,
                "Replace the results of another comparison in --out (either side another configuration or trace); "
                "without it such a folder is refused, and the same comparison replaces its own results")
      ->group("Output");
  app->footer(kCompareFooter);
  return Command{app, [c] { run_compare(*c); }};
}

std::vector<std::string> cli_args(int argc, const char* const* argv) {
  std::vector<std::string> args;
  bool in_compare = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "compare") in_compare = true;
    if (in_compare && (arg == "--a" || arg == "--b") && i + 1 < argc) {
      // An empty list is the default: drop it (CLI11 reads "--a=" as no value).
      if (argv[i + 1][0] != '\0') args.push_back(fmt::format("{}={}", arg, argv[i + 1]));
      ++i;
      continue;
    }
    args.emplace_back(arg);
  }
  return args;
}

}  // namespace ftlsim::cli
