#pragma once
// Libraries name settings, not flags: a Message holds the settings it names
// apart from its text (core/message.h). The command line shows each as its
// option, --name; every message the CLI prints passes through here.
#include <string>
#include <string_view>

#include "core/message.h"

namespace ftlsim::cli {

// "--gc-thres": setting `name` as the option that sets it.
[[nodiscard]] std::string flag_of(std::string_view name);

// `m` with each setting it names written as its flag; the rest of its text
// (a trace path, a value, a placement ID's name) is printed as it is, so a
// backquote the user gave stays a backquote.
[[nodiscard]] std::string flag_text(const Message& m);

// The same for help text the settings' tables write (constant text of the
// libraries, no user data in it): every backquoted lower-case name.
[[nodiscard]] std::string help_flag_text(std::string_view help);

}  // namespace ftlsim::cli
