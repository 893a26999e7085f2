#pragma once
// Integer options registered so that CLI11 does not convert them itself
// (it wraps "-1" to 2^64-1, takes "1e26" and saturates 2^64): the value is
// parsed by parse_uint_option (core/units.h), the one integer parser, with
// the option's valid range in the message.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/units.h"

namespace ftlsim::cli {

// Upper bound of -j: threads beyond this are a typo, not a machine.
inline constexpr uint64_t kMaxJobs = 4096;

// "--jobs" for "-j,--jobs": the name messages use.
[[nodiscard]] inline std::string long_option_name(const std::string& names) {
  const size_t comma = names.rfind(',');
  return comma == std::string::npos ? names : names.substr(comma + 1);
}

template <typename T>
CLI::Option* add_uint_option(CLI::App& app, const std::string& names, T& field, uint64_t min, uint64_t max,
                             const std::string& description) {
  const std::string name = long_option_name(names);
  return app.add_option_function<std::string>(
      names,
      [&field, name, min, max](const std::string& v) {
        try {
          field = static_cast<T>(parse_uint_option(v, name, min, max));
        } catch (const InputError& e) {
          throw CLI::ValidationError(e.what());
        }
      },
      description);
}

}  // namespace ftlsim::cli
