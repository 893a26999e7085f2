#pragma once
// CLI11's parse errors in ftlsim's words, for the command line and for the
// option lists compare's --a and --b hold.
#include <CLI/CLI.hpp>
#include <string>

namespace ftlsim::cli {

// CLI11's text, except where it names its own terms: an option given twice
// ("--trace: At Most 1 required but received 2") or without its value
// ("--gc-thres: 1 required PCT missing"). `dash_o`: -o was given (gen,
// convert and dump's -o is --out to CLI11: the spelling given is named).
[[nodiscard]] std::string parse_error_text(const CLI::ParseError& e, bool dash_o);

}  // namespace ftlsim::cli
