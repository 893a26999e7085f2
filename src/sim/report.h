#pragma once
// Turns a SimResult into the files and text a user reads: summary.json,
// timeseries.csv and the short human summary. JSON and CSV are deterministic
// (no wall-clock values), so equal runs give byte-identical files.
#include <map>
#include <string>
#include <vector>

#include "ftl/ftl_config.h"
#include "sim/sim_result.h"
#include "sim/simulate.h"
#include "trace/record.h"

namespace ftlsim::sim {

struct RunDescription {
  std::string trace_path;
  std::string preset;            // "" when the geometry was given option by option
  std::string rules = "femu";    // --rules
  std::string sizing = "lines";  // --sizing as resolved
  ftl::FtlConfig config;
  SimOptions options;
  fdp::PlacementSetup placement;
  uint64_t interval_bytes = 0;  // the interval actually used
  std::map<trace::PlacementId, std::string> pid_names;
  // Identifies the configuration and trace (sweep_resume.h's config_key);
  // written into summary.json when set, so a later run into the same
  // folder can tell whether it holds this configuration's results.
  std::string config_key;
};

// "none", "seq", "random", "trace" (--precondition).
[[nodiscard]] std::string_view precondition_name(Precondition p);
// The geometry simulated: with --logical fit: its logical size is the fitted one.
[[nodiscard]] ftl::Geometry simulated_geometry(const RunDescription& run, const SimResult& r);
[[nodiscard]] std::string summary_json(const RunDescription& run, const SimResult& r);
[[nodiscard]] std::string timeseries_csv(const SimResult& r);
// The text report; the settings it names are written by `show` (nullptr:
// `name`, core/message.h).
[[nodiscard]] std::string summary_text(const RunDescription& run, const SimResult& r, SettingShow show = nullptr);

// The names write_outputs() may write: an output folder holding anything
// else is not replaced (core/output_dir.h).
[[nodiscard]] const std::vector<std::string>& output_names();

// Creates `dir` if needed and writes summary.json and timeseries.csv into it
// (--id-series also id_timeseries.csv, timed runs also events.csv and latency_cdf.csv), each new (an existing
// name is refused). `dir` is meant to be an OutputDir's staging folder,
// published as one set when the run is complete. Throws SystemError.
void write_outputs(const std::string& dir, const RunDescription& run, const SimResult& r);

}  // namespace ftlsim::sim
