#include "cli/run_key.h"

#include <fmt/format.h>

#include "sim/simulate.h"
#include "sweep/sweep_resume.h"

namespace ftlsim::cli {

std::string fixed_description(const ModelArgs& model, const TimingArgs& timing) {
  return fmt::format("{}{}\n{}", model.wrap_key_line(), describe(timing), model.key_lines());
}

std::string trace_config_key(const std::string& description, const sim::TraceView& view,
                             const std::map<trace::PlacementId, std::string>& pid_names) {
  return sim::config_key(sim::trace_fingerprint(view, pid_names), description);
}

std::string run_config_key(const ModelArgs& model, const TimingArgs& timing, const Point& point,
                           const sim::TraceView& view, const std::map<trace::PlacementId, std::string>& pid_names) {
  return trace_config_key(fixed_description(model, timing) + key_description(point), view, pid_names);
}

}  // namespace ftlsim::cli
