#include "core/message.h"

#include <utility>

namespace ftlsim {

Message::Message(std::string text) {
  if (!text.empty()) parts_.push_back({std::move(text), false});
}

Message Message::setting(std::string_view name) {
  Message m;
  m.parts_.push_back({std::string(name), true});
  return m;
}

Message& Message::operator+=(const Message& m) {
  for (const Part& p : m.parts_) {
    if (!p.setting && !parts_.empty() && !parts_.back().setting) {
      parts_.back().text += p.text;
    } else {
      parts_.push_back(p);
    }
  }
  return *this;
}

std::string show_setting(std::string_view name, SettingShow show) {
  if (show != nullptr) return show(name);
  std::string out;
  out.reserve(name.size() + 2);
  out += '`';
  out.append(name);
  out += '`';
  return out;
}

std::string Message::str(SettingShow show) const {
  std::string out;
  for (const Part& p : parts_) out += p.setting ? show_setting(p.text, show) : p.text;
  return out;
}

Message Message::replaced(std::string_view from, std::string_view to) const {
  Message out = *this;
  if (from.empty()) return out;
  for (Part& p : out.parts_) {
    if (p.setting) continue;
    for (size_t at = p.text.find(from); at != std::string::npos; at = p.text.find(from, at + to.size())) {
      p.text.replace(at, from.size(), to);
    }
  }
  return out;
}

std::vector<std::string> Message::settings() const {
  std::vector<std::string> out;
  for (const Part& p : parts_) {
    if (p.setting) out.push_back(p.text);
  }
  return out;
}

Message join(const std::vector<Message>& messages, std::string_view separator) {
  Message out;
  for (size_t i = 0; i < messages.size(); ++i) {
    if (i > 0) out += Message(separator);
    out += messages[i];
  }
  return out;
}

namespace {

bool name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

// The length of the `name` at format[i] (a backquote), 0 if none is there.
size_t setting_at(std::string_view format, size_t i) {
  if (i + 1 >= format.size() || format[i + 1] < 'a' || format[i + 1] > 'z') return 0;
  size_t j = i + 1;
  while (j < format.size() && name_char(format[j])) ++j;
  return j < format.size() && format[j] == '`' ? j + 1 - i : 0;
}

// `piece` of a format with its automatic argument ids ("{}", "{:.4g}") made
// explicit, counting on from `next`, so that each piece is formatted alone
// with all the arguments.
std::string numbered(std::string_view piece, size_t& next) {
  std::string out;
  for (size_t i = 0; i < piece.size(); ++i) {
    const char c = piece[i];
    if ((c == '{' || c == '}') && i + 1 < piece.size() && piece[i + 1] == c) {
      out += c;
      out += c;
      ++i;
      continue;
    }
    out += c;
    if (c == '{' && i + 1 < piece.size() && (piece[i + 1] == '}' || piece[i + 1] == ':')) out += std::to_string(next++);
  }
  return out;
}

}  // namespace

namespace detail {

Message say_args(std::string_view format, fmt::format_args args) {
  Message out;
  size_t next = 0;
  size_t start = 0;
  const auto flush = [&](size_t end) {
    if (end > start) out += Message(fmt::vformat(numbered(format.substr(start, end - start), next), args));
  };
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '`') continue;
    const size_t n = setting_at(format, i);
    if (n == 0) continue;
    flush(i);
    out += Message::setting(format.substr(i + 1, n - 2));
    i += n - 1;
    start = i + 1;
  }
  flush(format.size());
  return out;
}

}  // namespace detail
}  // namespace ftlsim
