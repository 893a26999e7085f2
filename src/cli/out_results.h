#pragma once
// Whose results an output folder holds: the one rule of every command that
// writes an output folder. A run writes the config_key of what it computed
// (the trace's records and every option that changes its results,
// cli/run_key.h) into the folder's result files; rerunning the same
// configuration replaces its own results, while a folder holding the
// results of another configuration or trace (another key, or a result file
// without one) is refused unless the command's replace flag is given:
//   simulate (one run)  summary.json                      --force
//   compare             a/summary.json, b/summary.json    --force
//   qd-sweep            qd_sweep.json                     --force
//   replay --out        summary.json                      --replace-out
// (replay's --force overrides the target's safety findings: replacing a
// report must not need it.) A sweep's folder follows the same rule through
// its sweep.csv (sweep/sweep_folder.h): the same sweep resumes, another is
// refused unless --force.
// The files are read through the folder OutputDir resolved and checked.
#include <span>
#include <string>
#include <string_view>

#include "core/output_dir.h"

namespace ftlsim::cli {

// One result file of an output folder ("a/summary.json") and the
// config_key this run writes into it.
struct KeyedEntry {
  std::string entry;
  std::string key;
};

// The config_key in the JSON text of a result file: "none" when it has none
// (written before keys were, or by another kind of run).
[[nodiscard]] std::string key_in_json(const std::string& text);

// Throws InputError, unless `replace`, when `out` holds a result file of
// another kind of run (one of the files listed above that `entries` lacks:
// "--out DIR: holds the results of another kind of run (DIR/ENTRY); ...").
// Throws InputError ("--out DIR: holds the results of another configuration
// or trace (DIR/ENTRY); give another folder, or FLAG to replace them") when
// one of `entries` exists in `out` with another key, unless `replace`; when
// another build wrote them (another version or other sources,
// core/build_identity.h, core/result_writer.h), the message names it.
// `flag` names the command's replace flag ("--force").
void check_out_results(const OutputDir& out, std::span<const KeyedEntry> entries, bool replace,
                       std::string_view flag = "--force");

}  // namespace ftlsim::cli
