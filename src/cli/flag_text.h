#pragma once
// Libraries name settings, not flags: their messages and help write a
// setting as `name` (core/setting.h, setting_ref()). The command line shows each as
// its option, --name. Every message the CLI prints passes through here.
#include <string>
#include <string_view>

namespace ftlsim::cli {

// Whether `name` is an option libraries may name: a model or timing setting,
// or one of the few command options they refer to (--out, --force, ...).
[[nodiscard]] bool is_option_name(std::string_view name);

// `text` with every `name` that is an option (is_option_name) written as
// --name; anything else, a trace path or a placement ID's name with
// backquotes included, is left as it is.
[[nodiscard]] std::string flag_text(std::string_view text);

// The same for help text the settings' tables write (no user data in it):
// every backquoted lower-case name, since the tables are being built then.
[[nodiscard]] std::string help_flag_text(std::string_view help);

}  // namespace ftlsim::cli
