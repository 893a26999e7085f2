// The default command: `ftlsim --trace X [options]` replays a trace through
// the FTL model and prints (and with --out, writes) the result. When any
// model option holds more than one value it runs the whole sweep.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <thread>

#include "cli/commands.h"
#include "cli/sim_options.h"
#include "cli/timing_options.h"
#include "cli/uint_option.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/io_identity.h"
#include "core/output_dir.h"
#include "core/progress_line.h"
#include "core/units.h"
#include "sim/report.h"
#include "sim/simulate.h"
#include "sim/interrupt_scope.h"
#include "sim/sweep_csv.h"
#include "sim/sweep_folder.h"
#include "sim/sweep_pool.h"
#include "sim/sweep_product.h"
#include "sim/sweep_resume.h"
#include "timing/time_scale.h"
#include "trace/ftr_reader.h"

namespace ftlsim::cli {
namespace {

struct SimulateArgs {
  std::string trace;
  std::string out;
  bool no_progress = false;
  bool force = false;  // a sweep replaces an earlier, different sweep in --out
  unsigned jobs = 1;  // set to the core count when registering
  ModelArgs model;
  TimingArgs timing;
};

bool stderr_progress(const SimulateArgs& a) { return !a.no_progress && ::isatty(STDERR_FILENO) == 1; }

void run_single(const SimulateArgs& a, const Point& point) {
  sim::RunDescription run = build_run(a.model, point, a.trace);
  run.options.timing = build_timing(a.timing);
  // --out is checked before the work and written as one set at the end.
  RunInputs inputs;
  inputs.add("--trace", a.trace);
  std::optional<OutputDir> out;
  if (!a.out.empty()) out.emplace("--out", a.out, sim::output_names(), inputs);
  const trace::FtrReader reader(a.trace);
  if (run.options.timing && run.options.timing->mode == timing::HostMode::kOpen) {
    timing::check_issue_span(reader.records(), run.options.timing->speed, a.trace);
  }
  ProgressLine progress("simulate", reader.size(), ProgressUnit::kRecords, stderr_progress(a));
  run.options.progress = &progress;
  run.pid_names = reader.meta().pid_names;
  const sim::TraceView view{a.trace, reader.records(), reader.meta().sector_bytes};
  const sim::SimResult result = sim::simulate(run.config, view, run.options, run.placement);
  progress.finish();
  reader.check_intact();  // no results from a trace that changed under the run
  run.interval_bytes = result.interval_bytes;
  if (out) {
    sim::write_outputs(out->staging(), run, result);
    out->publish();
  }
  fmt::print("{}", sim::summary_text(run, result));
  if (!a.out.empty()) {
    const std::string shown = escape_for_terminal(a.out);
    fmt::print("wrote      {0}/summary.json, {0}/timeseries.csv{1}\n", shown,
               result.timing ? fmt::format(", {0}/events.csv, {0}/latency_cdf.csv", shown) : "");
  }
}

std::string onset_text(const sim::SimResult& r) {
  if (!r.gc_onset) return "never";
  std::string s = "after " + format_bytes(r.gc_onset->host_bytes);
  if (r.gc_onset->marker) s += fmt::format(", marker {}", *r.gc_onset->marker);
  return s;
}

// One line per configuration: the swept values, WAF, GC onset (or the error).
std::string sweep_table(const sim::SweepTable& t, std::span<const sim::SweepOutcome> outcomes) {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header = t.axes;
  header.emplace_back("WAF");
  header.emplace_back("GC onset");
  cells.push_back(header);
  for (size_t i = 0; i < outcomes.size(); ++i) {
    std::vector<std::string> row = t.values[i];
    const sim::SweepOutcome& o = outcomes[i];
    if (o.result) {
      row.push_back(fmt::format("{:.4f}", o.result->ftl.waf()));
      row.push_back(onset_text(*o.result));
    } else if (o.status == sim::SweepStatus::kDone) {  // carried over from an earlier run
      const auto cell = [&](const char* c) { return o.carried.count(c) != 0 ? o.carried.at(c) : std::string(); };
      // Printed as an uninterrupted run prints it: rounded to 4 decimals.
      const std::string waf = cell("waf");
      double v = 0;
      const auto [wend, wec] = std::from_chars(waf.data(), waf.data() + waf.size(), v);
      row.push_back(wec == std::errc() && wend == waf.data() + waf.size() ? fmt::format("{:.4f}", v) : waf);
      const std::string onset = cell("gc_onset_host_bytes");
      uint64_t bytes = 0;
      const auto [end, ec] = std::from_chars(onset.data(), onset.data() + onset.size(), bytes);
      std::string text = onset.empty() ? "never" : ec == std::errc() ? "after " + format_bytes(bytes) : onset;
      if (!cell("gc_onset_marker").empty()) text += ", marker " + cell("gc_onset_marker");
      row.push_back(std::move(text));
    } else if (o.status == sim::SweepStatus::kError) {
      row.emplace_back("-");
      row.push_back("error: " + o.error);
    } else {
      row.emplace_back("-");
      row.emplace_back("missing (not run: interrupted)");
    }
    cells.push_back(std::move(row));
  }
  std::vector<size_t> width(header.size(), 0);
  for (const auto& row : cells) {
    for (size_t c = 0; c + 1 < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  for (const auto& row : cells) {
    for (size_t c = 0; c < row.size(); ++c) {
      out += c + 1 < row.size() ? fmt::format("{:<{}}  ", row[c], width[c]) : row[c];
    }
    out += '\n';
  }
  return out;
}

// `items`: the model settings' items, then the timing settings' (expand_timing).
void run_sweep_command(const SimulateArgs& a, const std::vector<std::vector<std::string>>& items, size_t n) {
  if (a.out.empty()) {
    throw InputError(fmt::format(
        "this sweep has {} configurations and needs --out DIR for sweep.csv and their results", n));
  }
  RunInputs inputs;
  inputs.add("--trace", a.trace);
  check_output_folder("--out", a.out, inputs);
  const trace::FtrReader reader(a.trace);
  const size_t settings = items.size();  // model, then timing
  const auto name = [](size_t i) {
    return i < kSettingCount ? setting_info(i).name : timing_setting_name(i - kSettingCount);
  };
  std::vector<size_t> sizes(settings);
  std::vector<size_t> axes;  // settings with more than one value
  for (size_t i = 0; i < settings; ++i) {
    sizes[i] = items[i].size();
    if (sizes[i] > 1) axes.push_back(i);
  }
  sim::SweepTable table;
  for (const size_t i : axes) table.axes.emplace_back(name(i));
  table.timed = a.timing.timing;
  // Resume identity of each row: the trace and every setting of its point.
  const uint64_t trace_id =
      sim::trace_fingerprint({a.trace, reader.records(), reader.meta().sector_bytes}, reader.meta().pid_names);
  std::vector<sim::SweepJob> jobs(n);
  for (size_t k = 0; k < n; ++k) {
    const std::vector<size_t> at = sim::product_point(sizes, k);
    std::vector<std::string> all(settings);  // this configuration's value of every setting
    for (size_t i = 0; i < settings; ++i) all[i] = items[i][at[i]];
    Point point;
    std::copy_n(all.begin(), kSettingCount, point.begin());
    const TimingArgs timing_args = timing_point(a.timing, std::span(all).subspan(kSettingCount));
    std::vector<std::pair<std::string, std::string>> swept;
    std::vector<std::string> values;
    for (const size_t i : axes) {
      swept.emplace_back(name(i), all[i]);
      values.push_back(all[i]);
    }
    table.ids.push_back(sim::config_id(swept));
    table.values.push_back(std::move(values));
    // Resume identity: the options outside the settings that change
    // results, and every model setting.
    std::string description = fmt::format("wrap={}\n{}\n", a.model.wrap, describe(timing_args));
    for (size_t i = 0; i < kSettingCount; ++i) description += fmt::format("{}={}\n", setting_info(i).name, point[i]);
    table.keys.push_back(sim::config_key(trace_id, description));
    try {
      jobs[k].run = build_run(a.model, point, a.trace);
      jobs[k].run.options.timing = build_timing(timing_args);
      const auto& timing = jobs[k].run.options.timing;
      if (timing && timing->mode == timing::HostMode::kOpen) {
        timing::check_issue_span(reader.records(), timing->speed, a.trace);
      }
      jobs[k].run.pid_names = reader.meta().pid_names;
    } catch (const InputError& e) {
      jobs[k].error = e.what();
    }
  }
  sim::make_unique(table.ids);

  // The folder belongs to one sweep: the same one resumes, another is
  // refused (or, with --force, its files are removed), all before anything
  // is written.
  const std::string csv_path = a.out + "/sweep.csv";
  if (sim::claim_sweep_folder(a.out, table, a.force) == sim::SweepFolder::kReplaced) {
    fmt::print("replaced   the earlier sweep in {} (--force)\n", a.out);
  }
  std::error_code ec;
  std::filesystem::create_directories(a.out, ec);
  if (ec) throw SystemError(fmt::format("cannot create output directory {}: {}", a.out, ec.message()));

  // Rows complete in an earlier run of the same command are carried over;
  // the rest run. sweep.csv is rewritten (atomically) now, at most once a
  // second as configurations finish, and at the end: an interrupted sweep
  // leaves its complete rows and marks the others missing (sim/sweep_resume.h).
  std::vector<sim::SweepOutcome> outcomes(n);
  const size_t carried = sim::carry_over(sim::read_sweep_rows(csv_path), table, a.out, outcomes);
  std::vector<size_t> todo;
  std::vector<sim::SweepJob> todo_jobs;
  for (size_t k = 0; k < n; ++k) {
    if (outcomes[k].status != sim::SweepStatus::kMissing) continue;
    todo.push_back(k);
    todo_jobs.push_back(std::move(jobs[k]));
  }
  std::vector<sim::SweepOutcome> snapshot = outcomes;  // light copies: cells, no SimResult
  std::mutex snapshot_mutex;
  auto last_write = std::chrono::steady_clock::now();
  write_file_atomically(csv_path, sim::sweep_csv(table, snapshot), Existing::kReplace);

  const unsigned threads = static_cast<unsigned>(std::min<size_t>(std::max(a.jobs, 1U), std::max<size_t>(todo.size(), 1)));
  fmt::print("sweep      {} configurations of {} ({} records) on {} thread{}\n", n, escape_for_terminal(a.trace), reader.size(),
             threads, threads == 1 ? "" : "s");
  if (carried > 0) fmt::print("resumed    {} of {} configurations were complete in {}\n", carried, n, csv_path);
  std::fflush(stdout);
  // Records of all configurations to run; the note counts configurations.
  ProgressLine progress("sweep", reader.size() * todo.size(), ProgressUnit::kRecords, stderr_progress(a));
  for (sim::SweepJob& job : todo_jobs) job.run.options.progress = &progress;
  const sim::InterruptScope interrupt;
  sim::SweepCallbacks callbacks;
  callbacks.cancel = interrupt.flag();
  callbacks.on_done = [&](size_t j, const sim::SweepOutcome& o) {
    const size_t i = todo[j];
    if (o.result) {
      // Each configuration's folder appears complete or not at all.
      sim::RunDescription run = todo_jobs[j].run;
      run.interval_bytes = o.result->interval_bytes;
      OutputDir folder("--out", a.out + "/" + table.ids[i], sim::output_names(), inputs);
      sim::write_outputs(folder.staging(), run, *o.result);
      folder.publish();
    }
    const std::lock_guard lock(snapshot_mutex);
    snapshot[i].status = o.status;
    snapshot[i].error = o.error;
    snapshot[i].carried = sim::sweep_row_cells(o);
    const auto now = std::chrono::steady_clock::now();
    if (now - last_write >= std::chrono::seconds(1)) {
      write_file_atomically(csv_path, sim::sweep_csv(table, snapshot), Existing::kReplace);
      last_write = now;
    }
  };
  callbacks.progress = [&](size_t done, size_t total) {
    if (progress.enabled()) progress.set_note(fmt::format("{}/{} configurations done", done, total));
  };
  const sim::TraceView view{a.trace, reader.records(), reader.meta().sector_bytes};
  std::vector<sim::SweepOutcome> ran = sim::run_sweep(view, todo_jobs, threads, callbacks);
  progress.finish();
  for (size_t j = 0; j < todo.size(); ++j) outcomes[todo[j]] = std::move(ran[j]);

  write_file_atomically(csv_path, sim::sweep_csv(table, outcomes), Existing::kReplace);
  fmt::print("{}", sweep_table(table, outcomes));
  const auto count = [&](sim::SweepStatus s) {
    return static_cast<size_t>(
        std::count_if(outcomes.begin(), outcomes.end(), [s](const sim::SweepOutcome& o) { return o.status == s; }));
  };
  const size_t failed = count(sim::SweepStatus::kError);
  const size_t missing = count(sim::SweepStatus::kMissing);
  fmt::print("wrote      {}/sweep.csv and {} configuration folders\n", escape_for_terminal(a.out), n - failed - missing);
  std::fflush(stdout);
  if (missing != 0) {
    throw sim::SweepInterrupted(fmt::format(
        "interrupted: {} of {} configurations are in {} ({} marked missing); rerun the same command to resume",
        n - missing, n, csv_path, missing));
  }
  if (failed != 0) {
    throw InputError(fmt::format("{} of {} configurations failed (see the error column of {}/sweep.csv)", failed,
                                 n, a.out));
  }
}

void run_simulate(const SimulateArgs& a) {
  if (a.trace.empty()) {
    throw InputError("--trace is required (ftlsim --trace FILE.ftr [options]; see ftlsim --help)");
  }
  std::vector<std::vector<std::string>> items = expand_settings(a.model);
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
  root.add_option("--trace", a->trace, "Trace to replay (.ftr; convert other formats with `ftlsim convert`)")
      ->type_name("FILE");
  root.add_option("--out", a->out,
                  "Write summary.json and timeseries.csv into DIR (created if missing); a sweep writes "
                  "DIR/sweep.csv and one folder per configuration")
      ->type_name("DIR");
  add_uint_option(root, "-j,--jobs", a->jobs, 1, kMaxJobs,
                  fmt::format("Worker threads for a sweep, 1 to {} (default: all cores, {} here)", kMaxJobs, a->jobs))
      ->type_name("N");
  add_model_options(root, a->model);
  add_timing_options(root, a->timing, true);
  root.add_flag("--no-progress", a->no_progress, "No progress line on stderr (shown only on a terminal)")
      ->group("Output");
  root.add_flag("--force", a->force,
                "A sweep: replace an earlier, different sweep in --out (its sweep.csv and configuration folders)")
      ->group("Output");
  root.footer(sweep_help());
  return Command{&root, [a] { run_simulate(*a); }};
}

}  // namespace ftlsim::cli
