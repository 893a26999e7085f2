// The default command: `ftlsim --trace X [options]` replays a trace through
// the FTL model and prints (and with --out, writes) the result. When any
// model option holds more than one value it runs the whole sweep.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <thread>

#include "cli/commands.h"
#include "cli/flag_text.h"
#include "cli/out_results.h"
#include "cli/path_option.h"
#include "cli/run_key.h"
#include "cli/sim_options.h"
#include "cli/standard_streams.h"
#include "cli/stop_signal.h"
#include "cli/timing_options.h"
#include "cli/uint_option.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/in_place_folder.h"
#include "core/io_identity.h"
#include "core/memory_budget.h"
#include "core/output_dir.h"
#include "core/progress_line.h"
#include "core/units.h"
#include "sim/memory_estimate.h"
#include "sim/report.h"
#include "sim/simulate.h"
#include "sweep/sweep_product.h"
#include "sweep/sweep_resume.h"
#include "sweep/sweep_run.h"
#include "timing/time_scale.h"
#include "trace/ftr_reader.h"

namespace ftlsim::cli {
namespace {

struct SimulateArgs {
  std::string trace;
  std::string out;
  bool no_progress = false;
  bool force = false;     // replace another configuration's results in --out (a sweep: another sweep)
  unsigned jobs = 1;      // set to the core count when registering
  std::string mem_limit;  // --mem-limit
  ModelArgs model;
  TimingArgs timing;
};

bool stderr_progress(const SimulateArgs& a) { return progress_wanted(a.no_progress); }

void run_single(const SimulateArgs& a, const Point& point) {
  sim::RunDescription run = build_run(a.model, point, a.trace);
  run.options.timing = build_timing(a.timing);
  // --out is checked before the work and written as one set at the end.
  RunInputs inputs;
  inputs.add("--trace", a.trace);
  check_not_standard_stream(inputs);
  const trace::FtrReader reader(a.trace);
  // Memory: refused before anything is allocated or written.
  sim::TraceView view{a.trace, reader.records(), reader.meta().sector_bytes};
  // The first pass over the records, once: a malformed one is refused
  // before anything else reads them all (the key, the run).
  view.scan = sim::scan(view);
  const std::optional<MemoryBudget> limit = memory_limit(a.mem_limit);
  const uint64_t need = sim::estimate_run_memory(run, sim::trace_size(view, sim::TraceSizeNeeds{}.add(run))).bytes;
  sim::check_memory(
      {&need, 1}, 1, limit,
      run.options.fit ? say("this run (`logical` fit:{:g}%)", *run.options.fit * 100) : Message("this run"));
  std::optional<OutputDir> out;
  if (!a.out.empty()) {
    out.emplace("--out", a.out, sim::output_names(), inputs);
    run.config_key = run_config_key(a.model, a.timing, point, view, reader.meta().pid_names);
    // Another configuration's results are refused without --force (the
    // rule of every output folder, cli/out_results.h).
    const KeyedEntry keyed[] = {{"summary.json", run.config_key}};
    check_out_results(*out, keyed, a.force);
  }
  if (run.options.timing && run.options.timing->mode == timing::HostMode::kOpen) {
    timing::check_issue_span(reader.records(), run.options.timing->speed, a.trace);
  }
  ProgressLine progress("simulate", reader.size() * run.options.repeat, ProgressUnit::kRecords, stderr_progress(a));
  run.options.progress = &progress;
  run.pid_names = reader.meta().pid_names;
  const sim::SimResult result = [&] {
    try {
      return sim::simulate(run.config, view, run.options, run.placement);
    } catch (const InputError&) {
      reader.check_intact();  // a record error read from a changed file is that change
      throw;
    }
  }();
  progress.finish();
  reader.check_intact();  // no results from a trace that changed under the run
  run.interval_bytes = result.interval_bytes;
  if (out) {
    out->write([&](const std::string& dir) { sim::write_outputs(dir, run, result); });
    out->publish();
  }
  fmt::print("{}", sim::summary_text(run, result, flag_of));
  if (!a.out.empty()) {
    const std::string shown = escape_for_terminal(folder_name_of(a.out));
    fmt::print("wrote      {0}/summary.json, {0}/timeseries.csv{1}{2}\n", shown,
               run.options.id_series ? fmt::format(", {}/id_timeseries.csv", shown) : "",
               result.timing ? fmt::format(", {0}/events.csv, {0}/latency_cdf.csv", shown) : "");
  }
}

// `items`: the model settings' items, then the timing settings' (expand_timing).
void run_sweep_command(const SimulateArgs& a, const std::vector<std::vector<std::string>>& items, size_t n) {
  if (a.out.empty()) {
    throw InputError(
        fmt::format("this sweep has {} configurations and needs --out DIR for sweep.csv and their results", n));
  }
  sim::SweepFolderRun run;
  run.inputs.add("--trace", a.trace);
  check_not_standard_stream(run.inputs);
  InPlaceFolder out("--out", a.out, run.inputs);  // resolved once: every later step goes through it
  const trace::FtrReader reader(a.trace);
  // The model settings, then, when one of them has a list, the timing
  // settings (the last axes). Without timing lists the settings, and so the
  // config_keys, are those of earlier versions: their sweeps still resume.
  const size_t model_count = setting_count();
  const bool timing_swept = std::any_of(items.begin() + static_cast<std::ptrdiff_t>(model_count), items.end(),
                                        [](const std::vector<std::string>& v) { return v.size() > 1; });
  std::vector<sim::SweepSetting> settings(timing_swept ? items.size() : model_count);
  for (size_t i = 0; i < settings.size(); ++i) {
    if (i < model_count) {
      const SettingInfo& s = setting_info(i);
      settings[i] = {s.name, items[i], s.always_keyed, s.default_text};
    } else {
      settings[i] = {std::string(timing_setting_name(i - model_count)), items[i], true, ""};
    }
  }
  sim::TraceView view{a.trace, reader.records(), reader.meta().sector_bytes};
  // The first pass over the records, once: a malformed one is refused before
  // anything else reads them all (the trace's hash, the estimate, the runs).
  view.scan = sim::scan(view);
  const uint64_t written = view.scan->write_bytes;
  // Options outside the settings that change results.
  const std::string fixed = fixed_description(a.model, a.timing);
  std::optional<timing::IssueSpan> span;  // read once, for the first open-loop configuration
  sim::SweepPlan plan = sim::plan_sweep(
      settings, fixed, sim::trace_fingerprint(view, reader.meta().pid_names), [&](std::span<const std::string> values) {
        const Point point(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(model_count));
        sim::RunDescription r = build_run(a.model, point, a.trace);
        r.options.timing = build_timing(timing_swept ? timing_point(a.timing, values.subspan(model_count)) : a.timing);
        const auto& t = r.options.timing;
        if (t && t->mode == timing::HostMode::kOpen) {
          if (!span) span = timing::issue_span(reader.records());
          timing::check_issue_span(*span, t->speed, a.trace);
        }
        r.pid_names = reader.meta().pid_names;
        return r;
      });
  plan.table.timed = a.timing.timing;
  // What the memory estimate needs of the trace (below); --logical fit also
  // gives sweep.csv the fitted device's columns.
  sim::TraceSizeNeeds measure;
  for (const sim::SweepJob& job : plan.jobs) measure.add(job.run);
  plan.table.fitted = measure.fit;
  // A --reset-at marker the trace lacks (not sweepable: the same in every
  // configuration) would fail each one alike: refused once, before any runs.
  for (const sim::SweepJob& job : plan.jobs) {
    if (job.run.options.reset.kind != sim::ResetAt::Kind::kNone) {
      sim::check_reset_marker(view, job.run.options.reset);
      break;
    }
  }
  // Memory: the -j largest configurations may run at once.
  std::vector<uint64_t> needs;
  // A --logical fit: configuration is counted with its fitted geometry; one
  // the fit refuses is left to fail alone, as it always did. A configuration
  // whose device cannot be laid out (an RU size that does not divide the
  // lines that configuration's --gc-thres gives under --sizing thres) is an
  // impossible one: its row carries the message, the others run.
  const sim::TraceSize size = sim::trace_size(view, measure, written);
  const std::optional<MemoryBudget> limit = memory_limit(a.mem_limit);
  for (sim::SweepJob& job : plan.jobs) {
    if (job.error.empty()) {
      try {
        needs.push_back(sim::estimate_run_memory(job.run, size).bytes);
      } catch (const InputError& e) {
        if (!job.run.options.fit) job.error = e.message();
      }
    }
  }
  const size_t at_once = std::min<size_t>(std::max(a.jobs, 1U), needs.size());
  sim::check_memory(
      needs, at_once, limit,
      fmt::format("this sweep, {} configuration{} at a time (-j {}),", at_once, at_once == 1 ? "" : "s", a.jobs), true);
  // Records of the configurations to run (set once the carried-over ones
  // are known); the note counts configurations.
  sim::SimOptions run_settings;
  a.model.apply_run_settings(run_settings);
  const uint64_t passes = run_settings.repeat;
  ProgressLine progress("sweep", reader.size() * n * passes, ProgressUnit::kRecords, stderr_progress(a));
  for (sim::SweepJob& job : plan.jobs) job.run.options.progress = &progress;

  // The folder as messages name it ("sw//" -> "sw"), and its sweep.csv.
  const std::string folder = folder_name_of(a.out);
  const std::string csv_path = folder + "/sweep.csv";
  run.out = &out;
  run.force = a.force;
  run.threads = a.jobs;
  run.on_start = [&](const sim::SweepStart& s) {
    if (s.replaced) fmt::print("replaced   the earlier sweep in {} (--force)\n", escape_for_terminal(folder));
    fmt::print("sweep      {} configurations of {} ({} records) on {} thread{}\n", n, escape_for_terminal(a.trace),
               reader.size(), s.threads, s.threads == 1 ? "" : "s");
    if (s.carried > 0) {
      fmt::print("resumed    {} of {} configurations were complete in {}\n", s.carried, n,
                 escape_for_terminal(csv_path));
    }
    std::fflush(stdout);
    progress.set_total(reader.size() * passes * (s.configurations - s.carried));
  };
  run.progress = [&](size_t done, size_t total) { progress.set_configurations_done(done, total); };
  // Ctrl-C: no new configuration starts; sweep.csv marks them missing.
  const StopSignalScope signals("interrupted: finishing the configurations in progress");
  run.stop = signals.flag();
  run.input_intact = [&reader] { return reader.intact(); };
  run.error_text = [](const Message& what) { return flag_text(what); };
  const std::vector<sim::SweepOutcome> outcomes = sim::run_sweep_in_folder(view, plan, run);
  progress.finish();
  // The folder renamed or removed while the sweep ran: the results are in
  // the folder it held, wherever that is now, and the messages say so
  // (issue #22, the hostile rerun's M3; a single run says the same,
  // core/output_dir.h). A rerun resumes only from there.
  const std::optional<InPlaceFolder::Moved> moved = out.moved();
  const std::string where = moved ? moved->where : folder;
  const std::string csv_now = where + "/sweep.csv";
  const std::string changed =
      moved ? fmt::format("--out {} changed while the run went on (now {}); ", folder, moved->now) : std::string();
  const std::string rerun = moved ? fmt::format("rerun with --out {}", where) : std::string("rerun the same command");
  if (!reader.intact()) {
    // The rows from the change on are missing in sweep.csv: a rerun of the
    // same command, once the trace is as it was, runs them.
    const auto missing = static_cast<size_t>(std::count_if(
        outcomes.begin(), outcomes.end(), [](const auto& o) { return o.status == sim::SweepStatus::kMissing; }));
    try {
      reader.check_intact();
    } catch (const InputError& e) {
      throw InputError(e.message() + Message(fmt::format("; {}{} of {} configurations are in {} ({} marked missing): "
                                                         "restore the trace and {} to resume",
                                                         changed, n - missing, n, csv_now, missing, rerun)));
    }
  }

  fmt::print("{}", sim::sweep_text(plan.table, outcomes));
  const auto count = [&](sim::SweepStatus s) {
    return static_cast<size_t>(
        std::count_if(outcomes.begin(), outcomes.end(), [s](const sim::SweepOutcome& o) { return o.status == s; }));
  };
  const size_t failed = count(sim::SweepStatus::kError);
  const size_t missing = count(sim::SweepStatus::kMissing);
  fmt::print("wrote      {}/sweep.csv and {} configuration folders\n", escape_for_terminal(where),
             n - failed - missing);
  std::fflush(stdout);
  if (missing != 0) {
    throw sim::SweepInterrupted(
        fmt::format("interrupted: {}{} of {} configurations are in {} ({} marked missing); {} to resume", changed,
                    n - missing, n, csv_now, missing, rerun));
  }
  if (failed != 0) {
    throw InputError(
        fmt::format("{}{} of {} configurations failed (see the error column of {})", changed, failed, n, csv_now));
  }
  if (moved) throw SystemError(fmt::format("{}the results are in {}", changed, where));
}

void run_simulate(const SimulateArgs& a) {
  if (a.trace.empty()) {
    throw InputError("--trace is required (ftlsim --trace FILE.ftr [options]; see ftlsim --help)");
  }
  std::vector<std::vector<std::string>> items = expand_settings(a.model);
  check_options_apply(a.model, items);
  for (std::vector<std::string>& t : expand_timing(a.timing)) items.push_back(std::move(t));
  std::vector<size_t> sizes;
  for (const auto& v : items) sizes.push_back(v.size());
  const size_t n = sim::product_size(sizes);
  if (n == 1) {
    run_single(a, first_point(items));
  } else {
    run_sweep_command(a, items, n);
  }
}

}  // namespace

Command add_simulate_options(CLI::App& root) {
  auto a = std::make_shared<SimulateArgs>();
  a->jobs = std::max(1U, std::thread::hardware_concurrency());
  root.add_option("--trace", a->trace, "Trace to simulate (.ftr; convert other formats with `ftlsim convert`)")
      ->type_name("FILE");
  add_output_path_option(root, "--out", a->out,
                         "Write summary.json and timeseries.csv into DIR (created if missing); a sweep writes "
                         "DIR/sweep.csv and one folder per configuration",
                         "--out", "folder")
      ->type_name("DIR");
  add_uint_option(root, "-j,--jobs", a->jobs, 1, kMaxJobs,
                  fmt::format("Worker threads for a sweep, 1 to {} (default: all cores, {} here)", kMaxJobs, a->jobs))
      ->type_name("N");
  add_model_options(root, a->model);
  add_timing_options(root, a->timing, true);
  add_mem_limit_option(root, a->mem_limit);
  root.add_flag("--no-progress", a->no_progress, "No progress line on stderr (shown only on a terminal)")
      ->group("Output");
  root.add_flag("--force", a->force,
                "Replace the results of another configuration in --out: an earlier, different sweep (its "
                "sweep.csv and configuration folders), or a single run's")
      ->group("Output");
  root.footer(sweep_help());
  return Command{&root, [a] { run_simulate(*a); }};
}

}  // namespace ftlsim::cli
