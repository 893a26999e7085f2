#pragma once
// Options naming where results go (--out DIR, -o FILE), registered so that
// an empty value is refused when the command line is parsed: `--out ""`
// (a script's `--out "$DIR"` with DIR unset) used to run with no output
// folder at all, exit 0, its results printed and lost.
#include <CLI/CLI.hpp>

#include <string>

namespace ftlsim::cli {

// `shown` names the option in the message ("--out", "-o"); `what` is
// "folder" or "file".
inline CLI::Option* add_output_path_option(CLI::App& app, const std::string& names, std::string& field,
                                           const std::string& description, const std::string& shown,
                                           const std::string& what) {
  return app.add_option_function<std::string>(
      names,
      [&field, shown, what](const std::string& v) {
        if (v.empty()) throw CLI::ValidationError(shown + " '': an empty " + what + " name; give a " + what);
        field = v;
      },
      description);
}

}  // namespace ftlsim::cli
