#pragma once
// A whole sweep into its --out folder: the configurations of the product of
// the settings' values, the folder claimed (sweep_folder.h), rows complete
// in an earlier run carried over (sweep_resume.h), the rest simulated on the
// worker pool (sweep_pool.h) with each configuration's files written as it
// finishes, and sweep.csv (sweep_csv.h) rewritten as the sweep goes. The
// command line (src/cli) builds the settings and prints; nothing here
// parses options or installs signal handlers.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/in_place_folder.h"
#include "core/io_identity.h"
#include "sim/report.h"
#include "sim/simulate.h"
#include "sweep/sweep_pool.h"
#include "sweep/sweep_product.h"

namespace ftlsim::sim {

// One setting of the configurations: its option name without dashes and its
// values; more than one value makes it an axis of the product.
struct SweepSetting {
  std::string name;
  std::vector<std::string> values;
  // In every config_key (the settings of earlier versions); otherwise only
  // when the value is not `default_value`, so that adding a setting leaves
  // the keys of earlier sweeps as they were.
  bool always_keyed = true;
  std::string default_value = {};
};

// Builds the run of one configuration from one value per setting (in the
// order of the settings). Throws InputError for an invalid configuration.
using BuildRun = std::function<RunDescription(std::span<const std::string> point)>;

// The configurations of a sweep: its table and one job per row.
struct SweepPlan {
  SweepTable table;
  std::vector<SweepJob> jobs;
};

// The product of `settings` in product order (sweep_product.h): a row per
// configuration, named by config_id from its swept values (made unique),
// keyed by config_key from `trace_fingerprint`, `fixed` (the options outside
// the settings that change results, as text) and every setting's value
// (SweepSetting::always_keyed).
// A configuration that `build` refuses gets the InputError's message as its
// job's error. Throws InputError beyond kMaxConfigurations.
[[nodiscard]] SweepPlan plan_sweep(std::span<const SweepSetting> settings, std::string_view fixed,
                                   uint64_t trace_fingerprint, const BuildRun& build);

// Writes one finished job's files (summary.json, timeseries.csv, and in
// timed mode events.csv and latency_cdf.csv) into `dir` (sim/report.h).
void write_job_outputs(const std::string& dir, const SweepJob& job, const SimResult& result);

// What run_sweep_in_folder found before running anything.
struct SweepStart {
  size_t configurations = 0;
  size_t carried = 0;     // rows carried over from the folder's sweep.csv
  bool replaced = false;  // `force` removed another sweep from the folder
  unsigned threads = 0;   // worker threads that will run
};

struct SweepFolderRun {
  InPlaceFolder* out = nullptr;  // the --out folder, resolved once (core/in_place_folder.h)
  bool force = false;            // replace another sweep in the folder (sweep_folder.h); rerun this sweep's error rows
  RunInputs inputs;              // no configuration folder may hold one of these
  unsigned threads = 1;
  // Called once the folder is claimed and sweep.csv first written, before
  // the first configuration runs.
  std::function<void(const SweepStart&)> on_start;
  // Called after each configuration, serialized (sweep_pool.h).
  std::function<void(size_t done, size_t total)> progress;
  // When it becomes true no new configuration starts; those not run stay
  // missing in sweep.csv, to be resumed by running the same sweep again.
  const std::atomic<bool>* stop = nullptr;
  // False once the trace changed on disk (sweep_pool.h): the configuration
  // that noticed, and those not started, stay missing.
  std::function<bool()> input_intact;
  // How a configuration's error is kept in sweep.csv (SweepCallbacks::error_text).
  std::function<std::string(const Message&)> error_text;
};

// Runs `plan` against `trace` into `run.out`: claims the folder, carries
// over complete rows, writes sweep.csv (all rows, the others missing), runs
// the rest on min(run.threads, rows to run) threads, writing each
// configuration's folder <out>/<config_id>/ as one set as it finishes
// and sweep.csv again at most once a second, and writes the final sweep.csv.
// Returns one outcome per row (carried rows hold their cells). Throws
// InputError when the folder is not this sweep's (sweep_folder.h) and
// SystemError when a file cannot be written. The jobs are moved from.
[[nodiscard]] std::vector<SweepOutcome> run_sweep_in_folder(const TraceView& trace, SweepPlan& plan,
                                                            const SweepFolderRun& run);

// The printed table of a sweep: one line per configuration with the swept
// values, WAF and GC onset, or the error, or "missing" when it was not run.
[[nodiscard]] std::string sweep_text(const SweepTable& table, std::span<const SweepOutcome> outcomes);

}  // namespace ftlsim::sim
