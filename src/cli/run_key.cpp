#include "cli/run_key.h"

#include <fmt/format.h>

#include "sim/simulate.h"
#include "sweep/sweep_resume.h"

namespace ftlsim::cli {

std::string fixed_description(const ModelArgs& model, const TimingArgs& timing) {
  return fmt::format("wrap={}\n{}\n{}", model.wrap, describe(timing), model.key_lines());
}

std::string trace_config_key(const std::string& description, const trace::FtrReader& reader) {
  const sim::TraceView view{reader.path(), reader.records(), reader.meta().sector_bytes};
  return sim::config_key(sim::trace_fingerprint(view, reader.meta().pid_names), description);
}

std::string run_config_key(const ModelArgs& model, const TimingArgs& timing, const Point& point,
                           const trace::FtrReader& reader) {
  return trace_config_key(fixed_description(model, timing) + key_description(point), reader);
}

}  // namespace ftlsim::cli
