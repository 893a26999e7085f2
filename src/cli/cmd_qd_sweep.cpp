// `ftlsim qd-sweep`: the trace replayed in timed mode, closed loop, once per
// queue depth; one table of QPS and latency percentiles per queue depth and
// the knee where throughput stops scaling.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>
#include <thread>

#include "cli/commands.h"
#include "cli/out_results.h"
#include "cli/path_option.h"
#include "cli/run_key.h"
#include "cli/sim_options.h"
#include "cli/standard_streams.h"
#include "cli/timing_options.h"
#include "cli/uint_option.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/io_identity.h"
#include "core/memory_budget.h"
#include "core/output_dir.h"
#include "core/progress_line.h"
#include "core/units.h"
#include "sim/memory_estimate.h"
#include "sim/report.h"
#include "sim/simulate.h"
#include "sweep/sweep_values.h"
#include "timing/qd_sweep.h"
#include "trace/ftr_reader.h"

namespace ftlsim::cli {
namespace {

struct QdSweepArgs {
  std::string trace;
  std::string qd = "1,2,4,8,16,32,64,128";
  std::string ops = "all";
  std::string out;
  unsigned jobs = 1;
  bool no_progress = false;
  bool force = false;     // replace another qd-sweep's results in --out
  std::string mem_limit;  // --mem-limit
  ModelArgs model;
  TimingArgs timing;
};

std::vector<uint32_t> parse_qds(const std::string& text) {
  // A depth past the depths' range is refused naming it, also one past 64
  // bits (a list item, a range's START or STOP); other malformed text gets
  // expand_values' own message.
  const auto refuse = [](std::string_view item) {
    throw InputError(fmt::format("--qd: {} is not between 1 and {}", item, timing::kMaxQd));
  };
  const auto check = [&refuse](std::string_view item) {
    if (!item.empty() && item.find_first_not_of("0123456789") == std::string_view::npos) refuse(item);
  };
  std::vector<uint32_t> qds;
  for (const std::string& item : sim::expand_values("--qd", sim::ValueKind::kInteger, text, check)) {
    const uint64_t v = std::stoull(item);  // expand_values checked it is a whole number
    if (v == 0 || v > timing::kMaxQd) refuse(item);
    qds.push_back(static_cast<uint32_t>(v));
  }
  return qds;
}

void run_qd_sweep(const QdSweepArgs& a) {
  if (a.trace.empty()) throw InputError("qd-sweep: --trace is required");
  const std::vector<uint32_t> qds = parse_qds(a.qd);
  const timing::OpFilter ops = timing::parse_op_filter(a.ops);
  const std::vector<std::vector<std::string>> items = expand_settings(a.model);
  check_options_apply(a.model, items);
  const size_t placement_index = setting_index("placement");
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].size() > 1 && i != placement_index) {
      throw InputError(fmt::format("qd-sweep takes a list for --placement and --qd only; --{} has {} values",
                                   setting_info(i).name, items[i].size()));
    }
  }
  // One run description per placement (checked before any work).
  const std::vector<std::string>& placements = items[placement_index];
  std::vector<sim::RunDescription> runs;
  for (const std::string& p : placements) {
    Point point = first_point(items);
    point[placement_index] = p;
    runs.push_back(build_run(a.model, point, a.trace));
  }
  // qd-sweep writes qd_sweep.csv and qd_sweep.json only: the time series'
  // options would change nothing but the memory they take.
  const auto no_series = [](std::string_view option) {
    return InputError(
        fmt::format("{}: qd-sweep writes no time series (only qd_sweep.csv and qd_sweep.json); a "
                    "single timed run writes them: ftlsim --trace T --timing --qd N --out DIR",
                    option));
  };
  if (a.model.is_given("interval")) throw no_series("--interval");
  if (runs[0].options.id_series) throw no_series("--id-series");
  timing::TimingConfig base = build_latencies(a.timing);
  base.mode = timing::HostMode::kClosed;
  base.ops = ops;
  // --out is checked now and written as one set at the end.
  RunInputs inputs;
  inputs.add("--trace", a.trace);
  check_not_standard_stream(inputs);
  std::optional<OutputDir> out;
  if (!a.out.empty()) {
    out.emplace("--out", a.out, std::vector<std::string>{"qd_sweep.csv", "qd_sweep.json"}, inputs);
  }
  const trace::FtrReader reader(a.trace);
  sim::TraceView view{a.trace, reader.records(), reader.meta().sector_bytes};
  // The first pass over the records, once: a malformed one is refused
  // before anything else reads them all (the key, the estimate, the runs).
  view.scan = sim::scan(view);
  // The qd-sweep's configuration: the trace, the options outside the
  // settings, each placement's settings, the queue depths and the requests
  // timed. Another one's results in --out are refused without --force
  // (cli/out_results.h).
  std::string key;
  if (out) {
    std::string description = "qd-sweep\n" + fixed_description(a.model, a.timing) + "qd=";
    for (size_t i = 0; i < qds.size(); ++i) description += fmt::format("{}{}", i == 0 ? "" : ",", qds[i]);
    description += fmt::format("\nops={}\n", timing::op_filter_name(ops));
    for (const std::string& p : placements) {
      Point point = first_point(items);
      point[placement_index] = p;
      description += "--\n" + key_description(point);
    }
    key = trace_config_key(description, view, reader.meta().pid_names);
    const KeyedEntry keyed[] = {{"qd_sweep.json", key}};
    check_out_results(*out, keyed, a.force);
  }
  if (ops != timing::OpFilter::kAll) {
    const auto want = static_cast<uint8_t>(ops == timing::OpFilter::kRead ? trace::Op::kRead : trace::Op::kWrite);
    const auto recs = reader.records();
    if (std::none_of(recs.begin(), recs.end(), [want](const trace::Record& r) { return r.op == want; })) {
      throw InputError(fmt::format("{}: no {} requests to time (--ops {}): the trace has none", a.trace,
                                   timing::op_filter_name(ops), timing::op_filter_name(ops)));
    }
  }

  // One run per placement and queue depth (placement outermost) on up to -j
  // threads; results do not depend on -j.
  const size_t n = placements.size() * qds.size();
  std::vector<timing::QdRow> rows(n);
  std::vector<std::exception_ptr> errors(n);
  std::atomic<size_t> next{0};
  ProgressLine progress("qd-sweep", reader.size() * n, ProgressUnit::kRecords, progress_wanted(a.no_progress));
  std::atomic<size_t> done{0};
  std::optional<ftl::Geometry> simulated;  // the first run's device (--logical fit: as fitted), for qd_sweep.json
  auto worker = [&] {
    for (size_t i = next++; i < n; i = next++) {
      const sim::RunDescription& run = runs[i / qds.size()];
      const uint32_t qd = qds[i % qds.size()];
      try {
        sim::SimOptions o = run.options;
        o.timing = base;
        o.timing->qd = qd;
        o.progress = &progress;
        const sim::SimResult r = sim::simulate(run.config, view, o, run.placement);
        rows[i] = timing::qd_row(qd, *r.timing);
        if (i == 0) simulated = sim::simulated_geometry(run, r);
        rows[i].placement = placements[i / qds.size()];
      } catch (...) {
        errors[i] = std::current_exception();
      }
      if (progress.enabled()) progress.set_note(fmt::format("{}/{} runs done", ++done, n));
    }
  };
  const size_t threads = std::min<size_t>(std::max(a.jobs, 1U), n);
  std::vector<uint64_t> needs;
  sim::TraceSizeNeeds measure;
  for (const sim::RunDescription& run : runs) measure.add(run);
  const sim::TraceSize size = sim::trace_size(view, measure);
  for (const sim::RunDescription& run : runs) {
    sim::RunDescription timed = run;
    timed.options.timing = base;
    needs.insert(needs.end(), qds.size(), sim::estimate_run_memory(timed, size).bytes);
  }
  sim::check_memory(needs, threads, memory_limit(a.mem_limit),
                    fmt::format("this qd-sweep, {} run{} at a time (-j {}),", threads, threads == 1 ? "" : "s", a.jobs),
                    true);
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  progress.finish();
  reader.check_intact();  // no results from a trace that changed under the runs
  for (size_t i = 0; i < n; ++i) {
    if (!errors[i]) continue;
    try {
      std::rethrow_exception(errors[i]);
    } catch (const InputError& e) {
      if (placements.size() == 1) throw;
      throw InputError(Message(fmt::format("--placement {}: ", placements[i / qds.size()])) + e.message());
    }
  }

  if (ops != timing::OpFilter::kAll &&
      std::all_of(rows.begin(), rows.end(), [](const timing::QdRow& r) { return r.count == 0; })) {
    throw InputError(fmt::format("{}: no {} requests to time (the trace has none, or all were of unmapped LBAs)",
                                 a.trace, timing::op_filter_name(ops)));
  }
  // Requests that take no device time (trims, reads of unmapped LBAs) make
  // no throughput: every row would read 0 QPS and the knee be meaningless.
  if (std::all_of(rows.begin(), rows.end(), [](const timing::QdRow& r) { return r.qps == 0; })) {
    throw InputError(
        fmt::format("{}: no request takes device time at any queue depth (the trace's requests are trims or reads of "
                    "unmapped LBAs, or it has none): nothing to time",
                    a.trace));
  }
  if (out) {
    out->write([&](const std::string& dir) {
      write_file_atomically(dir + "/qd_sweep.csv", timing::qd_sweep_csv(rows));
      timing::QdSource source;
      source.trace = a.trace;
      source.preset = runs[0].preset.empty() ? std::string("custom") : runs[0].preset;
      const ftl::Geometry g = simulated ? *simulated : runs[0].config.geometry;
      source.logical_bytes = g.logical_bytes;
      source.physical_bytes = g.physical_bytes();
      source.gc_thres_pcent = runs[0].config.gc.thres_pcent;
      source.config_key = key;
      write_file_atomically(dir + "/qd_sweep.json", timing::qd_sweep_json(rows, source));
    });
    out->publish();
  }
  fmt::print("qd-sweep   {} ({} records), closed loop, {} requests timed{}\n", escape_for_terminal(a.trace),
             reader.size(), timing::op_filter_name(ops),
             placements.size() > 1 ? fmt::format(", {} placements", placements.size()) : std::string());
  fmt::print("{}", timing::qd_sweep_text(rows));
  if (!a.out.empty())
    fmt::print("wrote      {0}/qd_sweep.csv, {0}/qd_sweep.json\n", escape_for_terminal(folder_name_of(a.out)));
}

}  // namespace

Command add_qd_sweep_command(CLI::App& root) {
  auto a = std::make_shared<QdSweepArgs>();
  a->jobs = std::max(1U, std::thread::hardware_concurrency());
  CLI::App* sub = root.add_subcommand(
      "qd-sweep",
      "Replay a trace in timed mode, closed loop, at each queue depth (and each --placement of a list): QPS, "
      "MiB/s and latency percentiles per queue depth, and the knee where throughput flattens (the smallest queue depth reaching 95% "
      "of the best QPS, if one twice as deep was swept; the rule of analysis/plot_qd.py)");
  sub->footer(
      "--placement takes a list here (the other model options one value each): every placement runs at every\n"
      "queue depth, and qd_sweep.csv has one row per placement and queue depth, placement first:\n"
      "  placement,qd,ops,count,qps,mib_per_s,lat_mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns\n"
      "qd_sweep.json holds the same rows, knee_qd (null with several placements or no knee), knee_qd_by_placement,\n"
      "and the trace and device (trace, config) for a figure's title.\n"
      "Example: single and FDP latency across queue depths, in one CSV:\n"
      "  ftlsim qd-sweep --trace traces/demo.ftr --placement single,fdp --qd 1,4,16 --out out/qd");
  sub->add_option("--trace", a->trace, "Trace to simulate (.ftr)")->type_name("FILE")->required();
  sub->add_option("--qd", a->qd, "Queue depths: a list or a range START:STOP:STEP")
      ->type_name("LIST")
      ->default_str(a->qd);
  sub->add_option("--ops", a->ops,
                  "Requests to time: all, read or write. The others update the FTL in trace order but take no "
                  "device time (read: reads against the mapping the trace's writes built)")
      ->type_name("all|read|write")
      ->default_str(a->ops);
  add_output_path_option(*sub, "--out", a->out, "Write qd_sweep.csv and qd_sweep.json into DIR", "--out", "folder")
      ->type_name("DIR");
  add_uint_option(*sub, "-j,--jobs", a->jobs, 1, kMaxJobs,
                  fmt::format("Queue depths run in parallel, 1 to {} (default: all cores, {} here)", kMaxJobs, a->jobs))
      ->type_name("N");
  add_model_options(*sub, a->model);
  // The time series' options are refused here (qd-sweep writes none): kept
  // for that message, left out of --help.
  for (const char* name : {"--interval", "--id-series"}) sub->get_option(name)->group("");
  add_timing_options(*sub, a->timing, false);
  add_mem_limit_option(*sub, a->mem_limit);
  sub->add_flag("--no-progress", a->no_progress, "No progress line on stderr (shown only on a terminal)");
  sub->add_flag("--force", a->force,
                "Replace the results of another qd-sweep in --out (other queue depths, options or trace); without "
                "it such a folder is refused, and the same qd-sweep replaces its own results");
  return Command{sub, [a] { run_qd_sweep(*a); }};
}

}  // namespace ftlsim::cli
