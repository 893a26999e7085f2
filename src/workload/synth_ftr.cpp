// The FtrWriter-backed use of generate(), kept apart from synth.cpp so that
// code generating into memory links without the .ftr writer.
#include "trace/ftr_writer.h"
#include "workload/synth.h"

namespace ftlsim::workload {

GenerateStats write_ftr(const SynthSpec& spec, const std::string& path, Existing existing) {
  spec.validate();  // before creating any file
  trace::FtrWriter writer(path, make_trace_meta(spec), existing);
  const GenerateStats stats = generate(spec, writer);
  writer.finish();
  return stats;
}

}  // namespace ftlsim::workload
