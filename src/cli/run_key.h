#pragma once
// The config_key a single run writes into summary.json, and each side of
// `compare` into its own: the trace's records and every option that changes
// results, described as sim::plan_sweep describes a sweep's configuration
// (the options outside the settings, then every setting), so equal runs get
// equal keys whichever command ran them.
#include <map>
#include <string>

#include "cli/sim_options.h"
#include "cli/timing_options.h"
#include "sim/simulate.h"
#include "trace/record.h"

namespace ftlsim::cli {

// The config_key of `description` (every option that changes the results,
// a line each) on the trace `view` holds, whose placement IDs are named
// `pid_names` (a fingerprint of both, from the view's first pass when made).
[[nodiscard]] std::string trace_config_key(const std::string& description, const sim::TraceView& view,
                                           const std::map<trace::PlacementId, std::string>& pid_names);

// `point` holds one value per setting; `view` and `pid_names` as above.
[[nodiscard]] std::string run_config_key(const ModelArgs& model, const TimingArgs& timing, const Point& point,
                                         const sim::TraceView& view,
                                         const std::map<trace::PlacementId, std::string>& pid_names);

// The options outside the settings that change results or the files a run
// writes (--wrap, the timing options, ModelArgs::key_lines: --reset-at,
// --precondition, --repeat, --id-series), as the first lines of a
// configuration's description.
[[nodiscard]] std::string fixed_description(const ModelArgs& model, const TimingArgs& timing);

}  // namespace ftlsim::cli
