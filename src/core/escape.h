#pragma once
// User-controlled text (file names, trace header metadata, placement-ID
// names) as it may be printed in a message or a text report: one line, no
// terminal control sequences, valid UTF-8. Used wherever such text reaches
// a terminal, most of all in main()'s one error line.
#include <string>
#include <string_view>

namespace ftlsim {

// `s` with every byte a terminal could act on shown as an escape: C0
// controls and DEL as \n, \t, \r or \xNN; C1 controls (U+0080-U+009F, e.g.
// the one-byte CSI) and bytes that are not part of valid UTF-8 as \xNN per
// byte. Printable ASCII and valid UTF-8 text pass unchanged (a backslash
// too, so a Windows path reads as typed).
[[nodiscard]] std::string escape_for_terminal(std::string_view s);

// Length of the valid UTF-8 sequence starting at s[i] (1-4), or 0 when the
// byte there does not start one (overlong forms, surrogates and code points
// above U+10FFFF are invalid). Shared with the JSON writer.
[[nodiscard]] size_t utf8_sequence_length(std::string_view s, size_t i);

}  // namespace ftlsim
