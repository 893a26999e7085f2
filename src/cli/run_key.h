#pragma once
// The config_key a single run writes into summary.json, and each side of
// `compare` into its own: the trace's records and every option that changes
// results, described as sim::plan_sweep describes a sweep's configuration
// (the options outside the settings, then every setting), so equal runs get
// equal keys whichever command ran them.
#include <string>

#include "cli/sim_options.h"
#include "cli/timing_options.h"
#include "sim/simulate.h"
#include "trace/ftr_reader.h"

namespace ftlsim::cli {

// The config_key of `description` (every option that changes the results,
// a line each) on the trace `view` holds, which `reader` reads (a
// fingerprint of its records, from the view's first pass when made).
[[nodiscard]] std::string trace_config_key(const std::string& description, const sim::TraceView& view,
                                           const trace::FtrReader& reader);

// `point` holds one value per setting; `view` the run's trace, `reader` its reader.
[[nodiscard]] std::string run_config_key(const ModelArgs& model, const TimingArgs& timing, const Point& point,
                                         const sim::TraceView& view, const trace::FtrReader& reader);

// The options outside the settings that change results or the files a run
// writes (--wrap, the timing options, ModelArgs::key_lines: --reset-at,
// --precondition, --repeat, --id-series), as the first lines of a
// configuration's description.
[[nodiscard]] std::string fixed_description(const ModelArgs& model, const TimingArgs& timing);

}  // namespace ftlsim::cli
