// The FtrWriter-backed use of generate(), kept apart from synth.cpp so that
// code generating into memory links without the .ftr writer.
#include <fmt/format.h>

#include "core/error.h"
#include "trace/ftr_writer.h"
#include "workload/synth.h"

namespace ftlsim::workload {
namespace {

// An FtrWriter that refuses the record after the `left`-th, and adds to the
// progress line every kProgressBatch records.
struct BoundedWriter {
  trace::FtrWriter& writer;
  uint64_t left;
  uint64_t limit;
  const std::string& path;
  ProgressCounter progress;
  void append(const trace::Record& r) {
    if (left == 0) {
      throw InputError(
          fmt::format("{}: gen stopped after {} records, the most the output's free space allows "
                      "(random reads and trims ran past the estimate); nothing was written",
                      path, limit));
    }
    --left;
    writer.append(r);
    progress.tick(limit - left);
  }
};

}  // namespace

namespace {

GenerateStats generate_into(const SynthSpec& spec, trace::FtrWriter& writer, const std::string& path,
                            uint64_t max_records, ProgressLine* progress) {
  BoundedWriter sink{writer, max_records, max_records, path, ProgressCounter(progress)};
  const GenerateStats stats = generate(spec, sink);
  writer.finish();
  sink.progress.finish(max_records - sink.left);
  return stats;
}

}  // namespace

GenerateStats write_ftr(const SynthSpec& spec, const std::string& path, Existing existing, uint64_t max_records,
                        ProgressLine* progress) {
  spec.validate();  // before creating any file
  trace::FtrWriter writer(path, make_trace_meta(spec), existing);
  return generate_into(spec, writer, path, max_records, progress);
}

GenerateStats write_ftr(const SynthSpec& spec, OutputFile out, uint64_t max_records, ProgressLine* progress) {
  spec.validate();  // before creating any file
  const std::string path = out.path();
  trace::FtrWriter writer(std::move(out), make_trace_meta(spec));
  return generate_into(spec, writer, path, max_records, progress);
}

}  // namespace ftlsim::workload
