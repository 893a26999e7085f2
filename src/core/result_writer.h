#pragma once
// Which build of ftlsim wrote a result file (summary.json, qd_sweep.json,
// a replay's summary.json): its "ftlsim_version" and "ftlsim_sources"
// fields (core/build_identity.h). Results another build computed are
// another configuration (their config_key differs); these name that build
// in the refusal.
#include <optional>
#include <string>
#include <string_view>

namespace ftlsim {

struct ResultWriter {
  std::string version;
  std::optional<std::string> sources;  // absent: from before builds were recorded
};

// The writer named by the JSON text of a result file ftlsim wrote (its
// JsonWriter layout: `"ftlsim_version": "0.1.0"`, `"ftlsim_sources":
// "0123456789abcdef"`); nullopt when it names none.
[[nodiscard]] std::optional<ResultWriter> result_writer(std::string_view json);

// True when `w` is this build: the same version and sources.
[[nodiscard]] bool is_this_build(const ResultWriter& w);

// "ftlsim 0.1.0 (sources 0123456789abcdef)", or "ftlsim 0.1.0 from before
// the sources were recorded".
[[nodiscard]] std::string describe(const ResultWriter& w);

}  // namespace ftlsim
