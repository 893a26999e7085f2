#include "sweep/sweep_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>

#include "core/atomic_file.h"
#include "core/dir_fd.h"
#include "core/error.h"
#include "core/output_dir.h"
#include "core/units.h"
#include "sweep/sweep_csv.h"
#include "sweep/sweep_folder.h"
#include "sweep/sweep_resume.h"

namespace ftlsim::sim {

SweepPlan plan_sweep(std::span<const SweepSetting> settings, std::string_view fixed, uint64_t trace_fingerprint,
                     const BuildRun& build) {
  std::vector<size_t> sizes;
  std::vector<size_t> axes;  // settings with more than one value
  for (size_t i = 0; i < settings.size(); ++i) {
    sizes.push_back(settings[i].values.size());
    if (sizes[i] > 1) axes.push_back(i);
  }
  const size_t n = product_size(sizes);
  SweepPlan plan;
  for (const size_t i : axes) plan.table.axes.push_back(settings[i].name);
  plan.jobs.resize(n);
  std::vector<std::string> point(settings.size());
  for (size_t k = 0; k < n; ++k) {
    const std::vector<size_t> at = product_point(sizes, k);
    for (size_t i = 0; i < settings.size(); ++i) point[i] = settings[i].values[at[i]];
    std::vector<std::pair<std::string, std::string>> swept;
    std::vector<std::string> values;
    for (const size_t i : axes) {
      swept.emplace_back(settings[i].name, point[i]);
      values.push_back(point[i]);
    }
    plan.table.ids.push_back(config_id(swept));
    plan.table.values.push_back(std::move(values));
    // Resume identity of the row: the trace and every setting of its point.
    std::string description(fixed);
    for (size_t i = 0; i < settings.size(); ++i) {
      if (settings[i].always_keyed || point[i] != settings[i].default_value) {
        description += fmt::format("{}={}\n", settings[i].name, point[i]);
      }
    }
    plan.table.keys.push_back(config_key(trace_fingerprint, description));
    try {
      plan.jobs[k].run = build(point);
      plan.jobs[k].run.config_key = plan.table.keys.back();  // also in its summary.json
    } catch (const InputError& e) {
      plan.jobs[k].error = e.message();
    }
  }
  make_unique(plan.table.ids);
  return plan;
}

void write_job_outputs(const std::string& dir, const SweepJob& job, const SimResult& result) {
  RunDescription run = job.run;
  run.interval_bytes = result.interval_bytes;
  write_outputs(dir, run, result);
}

std::vector<SweepOutcome> run_sweep_in_folder(const TraceView& trace, SweepPlan& plan, const SweepFolderRun& run) {
  const SweepTable& table = plan.table;
  const size_t n = plan.jobs.size();
  // The folder belongs to one sweep: the same one resumes, another is
  // refused (or, with force, its files are removed), all before anything
  // is written.
  SweepStart start;
  start.configurations = n;
  InPlaceFolder& out = *run.out;
  start.replaced = claim_sweep_folder(out, table, run.force) == SweepFolder::kReplaced;
  const int out_fd = out.create();

  // Rows complete in an earlier run of the same sweep are carried over; the
  // rest run. sweep.csv is rewritten (atomically) now, at most once a second
  // as configurations finish, and at the end: an interrupted sweep leaves
  // its complete rows and marks the others missing (sweep_resume.h). All of
  // it through the folder resolved once (its /proc/self/fd/N path).
  const std::string csv_path = out.entry("sweep.csv");
  size_t rows_in_csv = 0;  // done or error rows in sweep.csv as last written
  const auto write_csv = [&](const std::vector<SweepOutcome>& rows) {
    try {
      write_file_atomically(csv_path, sweep_csv(table, rows), Existing::kReplace);
    } catch (const SystemError& e) {
      throw SystemError(out.shown_error(e.what()));
    }
    rows_in_csv = static_cast<size_t>(std::count_if(
        rows.begin(), rows.end(), [](const SweepOutcome& o) { return o.status != SweepStatus::kMissing; }));
  };
  std::vector<SweepOutcome> outcomes(n);
  start.carried = carry_over(read_sweep_rows(out_fd), table, out_fd, outcomes, run.force);
  std::vector<size_t> todo;
  std::vector<SweepJob> todo_jobs;
  for (size_t k = 0; k < n; ++k) {
    if (outcomes[k].status != SweepStatus::kMissing) continue;
    todo.push_back(k);
    todo_jobs.push_back(std::move(plan.jobs[k]));
  }
  std::vector<SweepOutcome> snapshot = outcomes;  // light copies: cells, no SimResult
  std::mutex snapshot_mutex;
  auto last_write = std::chrono::steady_clock::now();
  write_csv(snapshot);

  start.threads = static_cast<unsigned>(std::min<size_t>(std::max(run.threads, 1U), std::max<size_t>(todo.size(), 1)));
  if (run.on_start) run.on_start(start);
  SweepCallbacks callbacks;
  callbacks.cancel = run.stop;
  callbacks.progress = run.progress;
  callbacks.input_intact = run.input_intact;
  callbacks.error_text = run.error_text;
  callbacks.on_done = [&](size_t j, const SweepOutcome& o) {
    const size_t i = todo[j];
    if (o.result) {
      // Each configuration's folder appears complete or not at all.
      OutputDir folder(Message::setting("out"), out_fd, out.path(), table.ids[i], output_names(), run.inputs);
      folder.write([&](const std::string& dir) { write_job_outputs(dir, todo_jobs[j], *o.result); });
      folder.publish();
    }
    const std::lock_guard lock(snapshot_mutex);
    snapshot[i].status = o.status;
    snapshot[i].error = o.error;
    snapshot[i].carried = sweep_row_cells(o);
    const auto now = std::chrono::steady_clock::now();
    if (now - last_write >= std::chrono::seconds(1)) {
      write_csv(snapshot);
      last_write = now;
    }
  };
  std::vector<SweepOutcome> ran;
  // A worker failed (e.g. the disk is full): the rows finished since the
  // last once-a-second write are kept, so a resume does not run them again.
  // The snapshot is written only if it can be; the first failure is the one
  // reported, with what sweep.csv holds and how to go on (as an interrupted
  // sweep says).
  const auto save_rows = [&] {
    try {
      const std::lock_guard lock(snapshot_mutex);
      write_csv(snapshot);
    } catch (...) {
    }
    return Message(
        fmt::format("; {} of {} configurations are in {}/sweep.csv ({} marked missing): rerun the same "
                    "command to resume once the cause is fixed",
                    rows_in_csv, n, out.path(), n - rows_in_csv));
  };
  try {
    ran = run_sweep(trace, todo_jobs, start.threads, callbacks);
  } catch (const SystemError& e) {
    throw SystemError(e.message() + save_rows());
  } catch (const InputError& e) {
    throw InputError(e.message() + save_rows());
  } catch (...) {
    (void)save_rows();
    throw;
  }
  for (size_t j = 0; j < todo.size(); ++j) outcomes[todo[j]] = std::move(ran[j]);
  write_csv(outcomes);
  return outcomes;
}

namespace {

// A cell as a number of type T, or nullopt when it is empty or not one
// (an error text).
template <class T>
std::optional<T> cell_as(const std::string& text) {
  T v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}
std::optional<uint64_t> whole_cell(const std::string& text) { return cell_as<uint64_t>(text); }
std::optional<double> cell_number(const std::string& text) { return cell_as<double>(text); }

// A real cell rounded to `decimals`, or the text as it is when not a number.
std::string real_cell(const std::string& text, int decimals) {
  const auto v = cell_number(text);
  return v ? fmt::format("{:.{}f}", *v, decimals) : text;
}

// A fraction's cell in percent with one decimal ("0.464" -> "46.4%"), or the
// text as it is when not a number.
std::string percent_cell(const std::string& text) {
  const auto v = cell_number(text);
  return v ? fmt::format("{:.1f}%", 100.0 * *v) : text;
}

}  // namespace

std::string sweep_text(const SweepTable& t, std::span<const SweepOutcome> outcomes) {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header = t.axes;
  header.emplace_back("WAF");
  if (t.fitted) header.emplace_back("OP");
  if (t.timed) {
    header.emplace_back("IOPS");
    header.emplace_back("p99 latency");
  }
  header.emplace_back("GC onset");
  cells.push_back(header);
  for (size_t i = 0; i < outcomes.size(); ++i) {
    std::vector<std::string> row = t.values[i];
    const SweepOutcome& o = outcomes[i];
    if (o.status == SweepStatus::kDone) {
      // The row's sweep.csv cells, whether it ran now or was carried over
      // from an earlier run, so both print alike.
      const std::map<std::string, std::string> c = o.result ? sweep_row_cells(o) : o.carried;
      const auto cell = [&](const char* name) { return c.count(name) != 0 ? c.at(name) : std::string(); };
      row.push_back(real_cell(cell("waf"), 4));
      if (t.fitted) row.push_back(percent_cell(cell("over_provisioning")));
      if (t.timed) {
        row.push_back(real_cell(cell("iops"), 0));
        const auto p99 = whole_cell(cell("lat_p99_ns"));
        row.push_back(p99 ? fmt::format("{:.1f} us", static_cast<double>(*p99) / 1e3) : cell("lat_p99_ns"));
      }
      const std::string onset = cell("gc_onset_host_bytes");
      const auto bytes = whole_cell(onset);
      std::string text = onset.empty() ? "never" : bytes ? "after " + format_bytes(*bytes) : onset;
      if (!cell("gc_onset_marker").empty()) text += ", marker " + cell("gc_onset_marker");
      row.push_back(std::move(text));
    } else {
      row.emplace_back("-");
      if (t.fitted) row.emplace_back("-");
      if (t.timed) {
        row.emplace_back("-");
        row.emplace_back("-");
      }
      row.push_back(o.status == SweepStatus::kError ? "error: " + o.error : "missing (not run: interrupted)");
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

}  // namespace ftlsim::sim
