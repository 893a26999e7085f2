#pragma once
// Resuming a sweep from its sweep.csv.
//
// A sweep writes sweep.csv when it starts (every row missing), again at
// most once a second as configurations finish, and at the end, each time
// atomically: whenever the process stops, sweep.csv holds every row that
// was complete at the last write, and marks the others missing. Rerunning
// the same command resumes: a row whose config_id and config_key match and
// whose status is error, or done with its folder's summary.json present
// and its other result files unchanged, is carried over instead of
// simulated again.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "sim/simulate.h"
#include "sweep/sweep_pool.h"
#include "sweep/sweep_product.h"
#include "trace/record.h"

namespace ftlsim::sim {

// Thrown when a sweep stopped on SIGINT/SIGTERM after writing sweep.csv;
// `ftlsim` exits 1 with its message.
class SweepInterrupted : public SystemError {
 public:
  using SystemError::SystemError;
};

// Identity of a trace for resume: 64-bit FNV-1a over its sector size,
// record count, placement ID names and the hash of every record's bytes
// (sim::scan(): the view's first pass when made, one pass otherwise).
[[nodiscard]] uint64_t trace_fingerprint(const TraceView& trace,
                                         const std::map<trace::PlacementId, std::string>& pid_names);

// The config_key of a row: 16 hex digits hashing the build (the ftlsim
// version and the digest of its sources, core/build_identity.h), the trace
// fingerprint and `description`, the configuration as text (every setting
// as name=value, the swept ones and the rest), so a changed option, trace
// or build never matches. Every command's key is made here (cli/run_key.h).
[[nodiscard]] std::string config_key(uint64_t trace_fingerprint, std::string_view description);

// The rows of the earlier sweep.csv in the open folder `dir` by config_id,
// each as its cells by column name. Empty when the file is missing or not a
// regular file (it is read without following a symbolic link or waiting on
// a FIFO), and when it is not a sweep.csv this version can resume from (no
// config_id, status and config_key columns, or malformed CSV): then nothing
// is carried over.
[[nodiscard]] std::map<std::string, std::map<std::string, std::string>> read_sweep_rows(int dir);

// Carries complete rows of `previous` into `outcomes` (same size as
// table.ids): a row is carried when its config_key equals table.keys[i] and
// its status is done with <id>/summary.json a regular file in the open folder
// `out_dir` and the folder holding exactly what its manifest lists
// (core/output_set.h: no result file deleted, replaced or added), or error,
// unless `rerun_errors` (--force) or the error says its input changed while
// it was read (core/mapping_guard.h: such a row is not a result).
// Returns how many rows were carried.
size_t carry_over(const std::map<std::string, std::map<std::string, std::string>>& previous, const SweepTable& table,
                  int out_dir, std::vector<SweepOutcome>& outcomes, bool rerun_errors = false);

}  // namespace ftlsim::sim
