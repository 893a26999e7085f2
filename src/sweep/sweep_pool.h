#pragma once
// Runs a sweep's configurations on a pool of worker threads that all read
// one shared, read-only trace.
//
// Determinism: a configuration's result depends only on its own config and
// the trace (simulate() keeps no shared mutable state), so results, files
// and sweep.csv are identical for any number of threads.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/message.h"
#include "sim/report.h"
#include "sim/sim_result.h"
#include "sim/simulate.h"

namespace ftlsim::sim {

struct SweepJob {
  // Configuration, placement and options; the jobs of a sweep may share
  // one run.options.progress line (it is thread-safe).
  RunDescription run;
  // Set when the configuration was rejected before running (for example by
  // FtlConfig::validate): the job is not run and its outcome carries this.
  Message error;
  // When set, the trace this job simulates instead of run_sweep's `trace`
  // (compare across two traces); it must outlive run_sweep.
  const TraceView* trace = nullptr;
};

// A configuration's row: simulated (done), refused with an InputError
// (error), or not run because the sweep was interrupted (missing).
enum class SweepStatus : uint8_t { kMissing, kDone, kError };
[[nodiscard]] std::string_view status_name(SweepStatus s);  // "missing", "done", "error"

struct SweepOutcome {
  std::optional<SimResult> result;  // set when simulated in this run
  std::string error;                // the InputError message when it failed
  SweepStatus status = SweepStatus::kMissing;
  // A row carried over on resume from an earlier sweep.csv (result empty):
  // its cells by column name, written back as they were.
  std::map<std::string, std::string> carried;
};

struct SweepCallbacks {
  // Called on the worker thread right after job i finished (success or
  // InputError), possibly concurrently for different jobs; for example to
  // write that configuration's own files. May throw (see run_sweep).
  std::function<void(size_t index, const SweepOutcome&)> on_done;
  // Called after on_done, serialized, with the number of jobs done so far.
  std::function<void(size_t done, size_t total)> progress;
  // When set and true, workers take no new job (the ones running finish);
  // the jobs never started keep status kMissing (cli/stop_signal.h sets it on Ctrl-C).
  const std::atomic<bool>* cancel = nullptr;
  // When set, asked after each job: false once the trace changed on disk
  // (shrank, grew, rewritten: trace::FtrReader::intact). That job's outcome,
  // whatever it was (a record error made up by the zeros of a lost page,
  // say), becomes kMissing, and no new job starts: nothing computed from a
  // changed file is valid, and a resumed sweep runs those rows again.
  std::function<bool()> input_intact;
  // When set, turns a job's InputError message into the text its outcome
  // keeps (cli/ shows the settings messages name as its flags); otherwise
  // Message::str().
  std::function<std::string(const Message&)> error_text;
};

// Simulates every job on min(threads, jobs) worker threads (threads == 0
// means 1), all reading `trace` (or a job's own SweepJob::trace) in place. An InputError from one job's
// simulation is recorded in its outcome and the sweep continues, unless the
// trace changed (callbacks.input_intact): then the sweep stops. Any other
// exception (SystemError from on_done, out of memory) stops the workers from
// taking new jobs and is rethrown once all threads have joined.
// Returns one outcome per job, in job order.
[[nodiscard]] std::vector<SweepOutcome> run_sweep(const TraceView& trace, std::span<const SweepJob> jobs,
                                                  unsigned threads, const SweepCallbacks& callbacks = {});

}  // namespace ftlsim::sim
