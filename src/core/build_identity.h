#pragma once
// Which build of ftlsim this is: its version (core/version.h) and the digest
// of the sources it was built from (every file below src/, made at build
// time by core/source_digest.cmake). Two commits of one version can compute
// different numbers (issue #22, the hostile rerun's W5), so every config_key
// hashes both (sweep/sweep_resume.h): results another build computed are
// never resumed or kept as this one's. summary.json, qd_sweep.json and
// `ftlsim --version` name them.
#include <string>
#include <string_view>

namespace ftlsim {

// 16 hex digits (generated source_digest.cpp).
[[nodiscard]] std::string_view source_digest();

// This build, as `ftlsim --version` prints it: "ftlsim 0.1.0 (sources 0123456789abcdef)".
[[nodiscard]] std::string this_build();

}  // namespace ftlsim
