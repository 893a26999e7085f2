#pragma once
// Allocation-free scanning of text traces: lines out of a mapped buffer,
// fields out of a line, and checked decimal numbers. Every importer parses
// through these, so a line costs a memchr, a few compares and from_chars.
// (split_list, for option values, allocates its result.)
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace ftlsim::trace::scan {

[[nodiscard]] constexpr bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
[[nodiscard]] constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The longest line any text input may have (every trace format and the
// sidecars: pid maps, hint logs, marker files). A longer one is not text.
inline constexpr size_t kMaxLineBytes = 4096;

// Walks `text` line by line. A line excludes its '\n' and one trailing '\r'
// (CRLF files); the last line need not end in '\n'. Line numbers count from 1.
//
// A line is looked for within kMaxLineBytes + 2 bytes of its start (its
// bytes, a '\r' and the '\n'), never further: a longer line is returned cut
// to its first kMaxLineBytes + 1 bytes with overlong() true, whatever the size
// of the file (a 100 GB file without a newline costs one memchr over 4 KiB,
// not a scan of 100 GB). The caller refuses it, or, to skip it
// (--skip-bad), calls skip_overlong(), which reads on to its end.
class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : text_(text) {}

  // Stores the next line in `line` and returns true, or false at the end.
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    const char* start = text_.data() + pos_;
    const size_t remaining = text_.size() - pos_;
    const size_t window = std::min(remaining, kMaxLineBytes + 2);
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', window));
    size_t len = nl != nullptr ? static_cast<size_t>(nl - start) : window;
    if (len > 0 && start[len - 1] == '\r' && (nl != nullptr || window == remaining)) --len;
    ++line_no_;
    if (len > kMaxLineBytes) {
      overlong_ = true;
      pos_ += kMaxLineBytes + 1;
      line = std::string_view(start, kMaxLineBytes + 1);
      return true;
    }
    overlong_ = false;
    pos_ += nl != nullptr ? static_cast<size_t>(nl - start) + 1 : window;
    line = std::string_view(start, len);
    return true;
  }
  // Whether the line next() returned is longer than kMaxLineBytes (it was
  // cut, and the cursor stands inside it).
  [[nodiscard]] bool overlong() const { return overlong_; }
  // Moves past the rest of an overlong line: its '\n', or the end of the text.
  // Reads on as far as the line goes (linear in its length).
  void skip_overlong() {
    if (!overlong_) return;
    overlong_ = false;
    const auto* nl = static_cast<const char*>(std::memchr(text_.data() + pos_, '\n', text_.size() - pos_));
    pos_ = nl != nullptr ? static_cast<size_t>(nl - text_.data()) + 1 : text_.size();
  }
  [[nodiscard]] uint64_t line_no() const { return line_no_; }
  // Bytes of the text consumed so far (the lines returned and their ends).
  [[nodiscard]] size_t pos() const { return pos_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  uint64_t line_no_ = 0;
  bool overlong_ = false;
};

// The message for an overlong line (LineCursor::overlong()).
[[nodiscard]] inline std::string overlong_line_message() {
  return fmt::format("line is more than {0} bytes long (limit {0}); is this a text trace?", kMaxLineBytes);
}

[[nodiscard]] inline std::string_view trim(std::string_view s) {
  size_t b = 0;
  size_t e = s.size();
  while (b < e && is_blank(s[b])) ++b;
  while (e > b && is_blank(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// True when `s` holds only blanks.
[[nodiscard]] inline bool is_blank_line(std::string_view s) { return trim(s).empty(); }

// The non-empty comma-separated items of an option value ("a, b,,c" ->
// a, b, c), trimmed; views into `spec`. For options, not per-line parsing.
[[nodiscard]] inline std::vector<std::string_view> split_list(std::string_view spec) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos <= spec.size()) {
    const size_t comma = std::min(spec.find(',', pos), spec.size());
    const std::string_view item = trim(spec.substr(pos, comma - pos));
    if (!item.empty()) out.push_back(item);
    pos = comma + 1;
  }
  return out;
}

// Blank-separated tokens of a line, consumed left to right.
class Tokens {
 public:
  explicit Tokens(std::string_view s) : s_(s) {}
  // The next token, or an empty view when none is left.
  std::string_view next() {
    while (i_ < s_.size() && is_blank(s_[i_])) ++i_;
    const size_t start = i_;
    while (i_ < s_.size() && !is_blank(s_[i_])) ++i_;
    return s_.substr(start, i_ - start);
  }
  // The unconsumed rest, leading blanks skipped.
  std::string_view rest() {
    while (i_ < s_.size() && is_blank(s_[i_])) ++i_;
    return s_.substr(i_);
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

// Splits a line on `sep` into at most N fields; returns how many fields the
// line has (which may exceed N; fields past N are not stored). A field that
// starts with '"' runs to the next '"' followed by `sep` or the end of line;
// its quotes are removed (a doubled "" inside stays doubled).
template <size_t N>
[[nodiscard]] size_t split(std::string_view line, char sep, std::string_view (&out)[N]) {
  size_t n = 0;
  size_t i = 0;
  while (true) {
    std::string_view field;
    if (i < line.size() && line[i] == '"') {
      size_t j = i + 1;
      while (true) {
        const size_t q = line.find('"', j);
        if (q == std::string_view::npos) {  // unterminated: take the rest
          field = line.substr(i + 1);
          i = line.size();
          break;
        }
        if (q + 1 < line.size() && line[q + 1] == '"') {
          j = q + 2;
          continue;
        }
        field = line.substr(i + 1, q - i - 1);
        i = q + 1;
        // Anything between the closing quote and the separator is kept out.
        const size_t s = line.find(sep, i);
        i = s == std::string_view::npos ? line.size() : s;
        break;
      }
    } else {
      const size_t s = line.find(sep, i);
      const size_t end = s == std::string_view::npos ? line.size() : s;
      field = line.substr(i, end - i);
      i = end;
    }
    if (n < N) out[n] = field;
    ++n;
    if (i >= line.size()) break;
    ++i;                     // past the separator
    if (i == line.size()) {  // a trailing separator ends in an empty field
      if (n < N) out[n] = std::string_view();
      ++n;
      break;
    }
  }
  return n;
}

// Input text as it may appear in a message, unquoted: at most `max` bytes
// (then "..."), control and non-ASCII bytes shown as '?', so a message stays
// one printable line whatever the input holds.
[[nodiscard]] inline std::string printable(std::string_view tok, size_t max = 32) {
  std::string out;
  for (size_t i = 0; i < tok.size() && i < max; ++i) {
    const auto c = static_cast<unsigned char>(tok[i]);
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  if (tok.size() > max) out += "...";
  return out;
}

// A token as it may appear in a message: printable(), in single quotes.
[[nodiscard]] inline std::string quote(std::string_view tok) {
  std::string out = "'";
  out += printable(tok);
  out += '\'';
  return out;
}

// Parses all of `tok` as an unsigned decimal into `value`, or returns false
// with the reason, naming `what`, in `why` (the only path that allocates).
template <typename T>
[[nodiscard]] bool parse_uint(std::string_view tok, std::string_view what, T& value, std::string& why) {
  if (tok.empty()) {
    why = fmt::format("{} is missing", what);
    return false;
  }
  const char* first = tok.data();
  const char* last = tok.data() + tok.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec == std::errc() && ptr == last) return true;
  if (ec == std::errc::result_out_of_range) {
    why = fmt::format("{} {} does not fit in {} bits", what, quote(tok), 8 * sizeof(T));
  } else if (tok[0] == '-' && tok.size() > 1 && tok.find_first_not_of("0123456789", 1) == std::string_view::npos) {
    why = fmt::format("{} {} is negative", what, quote(tok));
  } else {
    why = fmt::format("{} {} is not a decimal integer", what, quote(tok));
  }
  return false;
}

// Parses an unsigned decimal with an optional fraction ("12", "12.5",
// "0.000123456") and returns value * scale, `scale` being the number of
// output units per input unit (a power of ten up to 1e9: 1e9 turns seconds
// into ns). Fraction digits finer than one output unit are dropped
// (truncation). False with `why` when malformed or when the result
// overflows 64 bits.
[[nodiscard]] inline bool parse_scaled(std::string_view tok, std::string_view what, uint64_t scale, uint64_t& value,
                                       std::string& why) {
  const size_t dot = tok.find('.');
  const std::string_view int_part = tok.substr(0, dot);
  const std::string_view frac_part = dot == std::string_view::npos ? std::string_view() : tok.substr(dot + 1);
  const auto not_a_number = [&] {
    why = fmt::format("{} {} is not a decimal number", what, quote(tok));
    return false;
  };
  uint64_t whole = 0;
  if (!int_part.empty() || dot == std::string_view::npos) {
    if (!parse_uint(int_part, what, whole, why)) {
      if (dot != std::string_view::npos && why.find("not a decimal") != std::string::npos) return not_a_number();
      return false;
    }
  } else if (frac_part.empty()) {
    return not_a_number();  // "."
  }
  uint64_t frac = 0;
  uint64_t unit = scale;  // output units per fraction digit
  for (const char c : frac_part) {
    if (!is_digit(c)) return not_a_number();
    unit /= 10;
    frac += static_cast<uint64_t>(c - '0') * unit;  // unit 0: finer than an output unit
  }
  if (whole > (std::numeric_limits<uint64_t>::max() - frac) / scale) {
    why = fmt::format("{} {} overflows 64 bits once scaled", what, quote(tok));
    return false;
  }
  value = whole * scale + frac;
  return true;
}

// Case-insensitive ASCII equality.
[[nodiscard]] inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

}  // namespace ftlsim::trace::scan
