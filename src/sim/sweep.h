#pragma once
// What-if sweeps: option values given as lists and ranges, their Cartesian
// product, and a parallel runner that simulates every configuration of the
// product against one shared, read-only trace.
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

#include "core/error.h"
#include "sim/report.h"
#include "sim/sim_result.h"
#include "sim/simulate.h"

namespace ftlsim::sim {

// ---- Values: lists and ranges ---------------------------------------------

enum class ValueKind : uint8_t {
  kInteger,    // whole number >= 0: lists and ranges
  kReal,       // decimal number: lists and ranges
  kSize,       // byte size with binary suffix (4K, 16M): lists and ranges
  kWord,       // a name (policy, preset): lists only
  kPlacement,  // a --placement policy: lists, `map:` specs end at ';'
};

// At most this many items per option and configurations per sweep.
inline constexpr size_t kMaxItems = 10000;
inline constexpr size_t kMaxConfigurations = 100000;

// Splits the text of option `option` (e.g. "--gc-thres") into its items.
//  - Items are separated by ','; surrounding blanks are dropped.
//  - For numbers and sizes an item may be an inclusive range
//    START:STOP:STEP (STEP > 0, START <= STOP): 50:90:10 is 50,60,70,80,90;
//    16M:64M:16M is 16M,32M,48M,64M. Generated reals are printed with 12
//    significant digits, sizes with the largest exact binary suffix.
//  - For placements, a `map:` item runs to the next ';' (its own pairs are
//    comma-separated), and ';' also separates items:
//    "single,fdp;map:0=0,1=0;oracle" is single, fdp, map:0=0,1=0, oracle.
// Numbers and sizes are checked here; words and placements are returned as
// given for the caller to check. Throws InputError naming the option and the
// bad item for an empty item, a malformed number/size/range, a repeated
// item, or more than kMaxItems items.
[[nodiscard]] std::vector<std::string> expand_values(std::string_view option, ValueKind kind,
                                                     std::string_view text);

// ---- The product ----------------------------------------------------------

// Number of configurations in the product of axes of these sizes (each >= 1).
// Throws InputError beyond kMaxConfigurations.
[[nodiscard]] size_t product_size(std::span<const size_t> sizes);

// Item index on each axis for configuration `index` (< product_size) of the
// product: axes in the given order, the last axis varying fastest (like
// nested loops with the last axis innermost).
[[nodiscard]] std::vector<size_t> product_point(std::span<const size_t> sizes, size_t index);

// A short, filesystem-safe name for one configuration from its swept
// (option name without dashes, value) pairs: "gc-thres=60_placement=fdp".
// Characters other than [A-Za-z0-9.=+-] in values become '-'. A name longer
// than kMaxConfigIdBytes keeps its first kMaxConfigIdBytes - 17 bytes and
// ends in '~' and the 16 hex digits of the FNV-1a 64 hash of the full name.
inline constexpr size_t kMaxConfigIdBytes = 128;
[[nodiscard]] std::string config_id(std::span<const std::pair<std::string, std::string>> swept);

// Makes names unique in place by appending "-2", "-3", ... to repeats
// (sanitizing can map different values to one name).
void make_unique(std::vector<std::string>& names);

// ---- Running --------------------------------------------------------------

struct SweepJob {
  // Configuration, placement and options; the jobs of a sweep may share
  // one run.options.progress line (it is thread-safe).
  RunDescription run;
  // Set when the configuration was rejected before running (for example by
  // FtlConfig::validate): the job is not run and its outcome carries this.
  std::string error;
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
  // the jobs never started keep status kMissing. See InterruptScope.
  const std::atomic<bool>* cancel = nullptr;
};

// Simulates every job on min(threads, jobs) worker threads (threads == 0
// means 1), all reading `trace` in place. An InputError from one job's
// simulation is recorded in its outcome and the sweep continues. Any other
// exception (SystemError from on_done, out of memory) stops the workers from
// taking new jobs and is rethrown once all threads have joined.
// Returns one outcome per job, in job order.
[[nodiscard]] std::vector<SweepOutcome> run_sweep(const TraceView& trace, std::span<const SweepJob> jobs,
                                                  unsigned threads, const SweepCallbacks& callbacks = {});

// ---- Reporting ------------------------------------------------------------

// Blocks erased in the run: unit erases x blocks per erase unit (RU or
// line), the "erases" of summary.json.
[[nodiscard]] inline uint64_t erased_blocks(const SimResult& r) { return r.ftl.line_erases * r.blocks_per_unit; }

struct SweepTable {
  std::vector<std::string> axes;                 // swept option names (no dashes), product order
  std::vector<std::string> ids;                  // config_id per row
  std::vector<std::vector<std::string>> values;  // per row: one value per axis
  std::vector<std::string> keys;                 // config_key per row; empty: the column stays empty
};

// sweep.csv: a header, then one row per configuration in product order:
//   config_id, <each axis>, waf, host_bytes, gc_bytes, erases (blocks),
//   gc_onset_host_bytes, gc_onset_marker, invalid_pid_requests,
//   waf_share_<handle> for the union of handle names over all rows
//   (ruh0, ruh1, ..., then gc), error, status (done, error or missing),
//   config_key (see config_key()).
// Metrics are empty for failed and missing rows; onset cells are empty when
// GC never ran (the marker also when no marker preceded it); a share is
// empty where a row has no such handle. Carried-over rows are written from
// their cells. RFC 4180 quoting. Deterministic.
[[nodiscard]] std::string sweep_csv(const SweepTable& table, std::span<const SweepOutcome> outcomes);

// The cells sweep_csv writes for one outcome after its axis values, by
// column name (metrics, waf_share_*, error, status): what a snapshot keeps
// of a finished configuration without its SimResult.
[[nodiscard]] std::map<std::string, std::string> sweep_row_cells(const SweepOutcome& o);

// Quotes a CSV field when it holds ',', '"' or a line break.
[[nodiscard]] std::string csv_field(std::string_view s);

// ---- Interruption and resume ----------------------------------------------
//
// A sweep writes sweep.csv when it starts (every row missing), again at
// most once a second as configurations finish, and at the end, each time
// atomically: whenever the process stops, sweep.csv holds every row that
// was complete at the last write, and marks the others missing. Rerunning
// the same command resumes: a row whose config_id and config_key match and
// whose status is error, or done with its folder's summary.json present,
// is carried over instead of simulated again.

// While alive, the first SIGINT or SIGTERM only sets flag() (a sweep then
// starts no new configuration, and the ones running finish); a second one
// restores the default action and re-raises it, ending the process at once.
// The previous handlers are restored on destruction. The flag is
// process-wide (a signal handler has nowhere else to write): REQUIRES at
// most one InterruptScope alive at a time.
class InterruptScope {
 public:
  InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
  ~InterruptScope();
  [[nodiscard]] const std::atomic<bool>* flag() const;
  [[nodiscard]] bool interrupted() const { return flag()->load(); }
};

// Thrown when a sweep stopped on SIGINT/SIGTERM after writing sweep.csv;
// `ftlsim` exits 1 with its message.
class SweepInterrupted : public SystemError {
 public:
  using SystemError::SystemError;
};

// Identity of a trace for resume: 64-bit FNV-1a over its sector size,
// placement ID names and every record's bytes (one pass over the records).
[[nodiscard]] uint64_t trace_fingerprint(const TraceView& trace,
                                         const std::map<trace::PlacementId, std::string>& pid_names);

// The config_key of a row: 16 hex digits hashing the trace fingerprint and
// `description`, the configuration as text (every setting as name=value,
// the swept ones and the rest), so a changed option or trace never matches.
[[nodiscard]] std::string config_key(uint64_t trace_fingerprint, std::string_view description);

// The rows of an earlier sweep.csv by config_id, each as its cells by
// column name. Empty when the file is missing, and when it is not a sweep.csv
// this version can resume from (no config_id, status and config_key
// columns, or malformed CSV): then nothing is carried over.
[[nodiscard]] std::map<std::string, std::map<std::string, std::string>> read_sweep_rows(const std::string& path);

// Carries complete rows of `previous` into `outcomes` (same size as
// table.ids): a row is carried when its config_key equals table.keys[i] and
// its status is error, or done with `out_dir`/<id>/summary.json present.
// Returns how many rows were carried.
size_t carry_over(const std::map<std::string, std::map<std::string, std::string>>& previous,
                  const SweepTable& table, const std::string& out_dir, std::vector<SweepOutcome>& outcomes);

// A sweep's --out folder belongs to one sweep, the one its sweep.csv
// records (every config_id with its config_key). Before anything is written:
//  - absent, or holding nothing but ftlsim staging leftovers: kNew;
//  - holding the same sweep (equal config_ids and config_keys): kResume;
//  - holding another sweep: refused with an InputError that says to use a
//    new folder or --force; with `force`, the earlier sweep's sweep.csv and
//    configuration folders are removed and kReplaced returned;
//  - holding anything else (no sweep.csv, or entries that sweep.csv does not
//    name): refused, --force or not, since it is not a sweep's folder.
enum class SweepFolder : uint8_t { kNew, kResume, kReplaced };
SweepFolder claim_sweep_folder(const std::string& dir, const SweepTable& table, bool force);

}  // namespace ftlsim::sim
