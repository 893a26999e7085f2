#pragma once
// Libraries name settings, not flags: their messages and help write a
// setting as `name` (core/setting.h, setting_ref()). The command line shows each as
// its option, --name. Every message the CLI prints passes through here.
#include <string>
#include <string_view>

namespace ftlsim::cli {

// `text` with every `name` (a backquoted lower-case word with dashes and
// digits) written as --name; anything else is left as it is.
[[nodiscard]] std::string flag_text(std::string_view text);

}  // namespace ftlsim::cli
