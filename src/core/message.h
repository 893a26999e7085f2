#pragma once
// A message for the user in which the settings it names are held apart
// from the rest of its text. Libraries name settings, never flags: cli/
// shows each setting part as its option (--gc-thres) and prints every other
// part as it is, so a value or a file name the user gave is never read for
// setting names, whatever it holds.
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

namespace ftlsim {

// How a setting part is written: "`gc-thres`" (Message::str()) or cli/'s "--gc-thres".
using SettingShow = std::string (*)(std::string_view name);

class Message {
 public:
  Message() = default;
  Message(std::string text);  // plain text, never read for setting names
  Message(std::string_view text) : Message(std::string(text)) {}
  Message(const char* text) : Message(std::string(text)) {}

  // The setting `name` ("gc-thres").
  [[nodiscard]] static Message setting(std::string_view name);

  Message& operator+=(const Message& m);
  friend Message operator+(Message a, const Message& b) { return a += b; }

  // The text, each setting written by `show` (by default in backquotes: `gc-thres`).
  [[nodiscard]] std::string str(SettingShow show = nullptr) const;
  [[nodiscard]] bool empty() const { return parts_.empty(); }
  // The same with every `from` in its plain text written as `to`.
  [[nodiscard]] Message replaced(std::string_view from, std::string_view to) const;
  // The settings it names, in order.
  [[nodiscard]] std::vector<std::string> settings() const;

 private:
  struct Part {
    std::string text;
    bool setting = false;
  };
  std::vector<Part> parts_;
};

// "`gc-thres`" written by `show` (nullptr: in backquotes).
[[nodiscard]] std::string show_setting(std::string_view name, SettingShow show = nullptr);

namespace detail {
[[nodiscard]] Message say_args(std::string_view format, fmt::format_args args);
}

// A message from a format written in the library: each `name` (backquoted,
// lower-case, letters, digits and '-') in the format is a setting; every
// argument is plain text, so a backquote in a value stays a backquote.
//   say("`gc-thres-high` {} is below `gc-thres` {}", high, low)
template <class... T>
[[nodiscard]] Message say(fmt::format_string<T...> format, T&&... args) {
  const fmt::string_view f = format;
  return detail::say_args(std::string_view(f.data(), f.size()), fmt::make_format_args(args...));
}

// The messages joined by `separator` ("a; b").
[[nodiscard]] Message join(const std::vector<Message>& messages, std::string_view separator);

}  // namespace ftlsim
