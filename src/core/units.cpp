#include "core/units.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include "core/error.h"

namespace ftlsim {

std::optional<uint64_t> parse_size(std::string_view text) {
  uint64_t value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || ptr == first) return std::nullopt;
  std::string_view suffix(ptr, static_cast<size_t>(last - ptr));
  // Accept K, KB, KiB (and lower case k); all binary.
  if (suffix.size() == 3 && (suffix.substr(1) == "iB" || suffix.substr(1) == "ib")) {
    suffix = suffix.substr(0, 1);
  } else if (suffix.size() == 2 && (suffix[1] == 'B' || suffix[1] == 'b')) {
    suffix = suffix.substr(0, 1);
  }
  unsigned shift = 0;
  if (suffix.empty() || suffix == "B" || suffix == "b") {
    shift = 0;
  } else if (suffix.size() == 1) {
    switch (suffix[0]) {
      case 'k':
      case 'K': shift = 10; break;
      case 'm':
      case 'M': shift = 20; break;
      case 'g':
      case 'G': shift = 30; break;
      case 't':
      case 'T': shift = 40; break;
      case 'p':
      case 'P': shift = 50; break;
      default: return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (shift > 0 && value > (std::numeric_limits<uint64_t>::max() >> shift)) return std::nullopt;
  return value << shift;
}

uint64_t parse_size_or_throw(std::string_view text, const Message& what) {
  auto v = parse_size(text);
  if (!v) {
    throw InputError(what + Message(fmt::format(": '{}' is not a size (examples: 4096, 4K, 16M, 64G)", text)));
  }
  return *v;
}

namespace {

enum class Whole { kOk, kMalformed, kTooLarge };

// parse_count's grammar, telling a malformed text from one beyond 64 bits.
Whole parse_whole(std::string_view text, uint64_t& value) {
  const size_t e = text.find_first_of("eE");
  const std::string_view mantissa = text.substr(0, e);
  const auto digits_only = [](std::string_view t) {
    return !t.empty() && t.find_first_not_of("0123456789") == std::string_view::npos;
  };
  if (!digits_only(mantissa)) return Whole::kMalformed;
  uint64_t exponent = 0;
  if (e != std::string_view::npos) {
    const std::string_view ex = text.substr(e + 1);
    if (!digits_only(ex)) return Whole::kMalformed;
    if (std::from_chars(ex.data(), ex.data() + ex.size(), exponent).ec != std::errc()) return Whole::kTooLarge;
  }
  const auto [ptr, ec] = std::from_chars(mantissa.data(), mantissa.data() + mantissa.size(), value);
  if (ec != std::errc()) return Whole::kTooLarge;
  for (uint64_t i = 0; i < exponent && value != 0; ++i) {
    if (value > std::numeric_limits<uint64_t>::max() / 10) return Whole::kTooLarge;
    value *= 10;
  }
  return Whole::kOk;
}

}  // namespace

std::optional<uint64_t> parse_count(std::string_view text) {
  uint64_t v = 0;
  if (parse_whole(text, v) != Whole::kOk) return std::nullopt;
  return v;
}

uint64_t parse_uint_option(std::string_view text, const Message& what, uint64_t min, uint64_t max) {
  const auto range = [&] { return fmt::format("a whole number from {} to {}", min, max); };
  uint64_t v = 0;
  const Whole w = parse_whole(text, v);
  if (w == Whole::kMalformed) {
    const bool negative =
        text.size() > 1 && text[0] == '-' && text.find_first_not_of("0123456789.", 1) == std::string_view::npos;
    throw InputError(what + Message(fmt::format(": '{}' is {}; give {}", text,
                                                negative ? "negative" : "not a whole number", range())));
  }
  if (w == Whole::kTooLarge || v > max) {
    throw InputError(what + Message(fmt::format(": {} is too large; give {}", text, range())));
  }
  if (v < min) throw InputError(what + Message(fmt::format(": {} is too small; give {}", text, range())));
  return v;
}

std::string format_size_exact(uint64_t bytes) {
  static constexpr std::array<std::pair<unsigned, char>, 5> kSuffixes = {
      {{50, 'P'}, {40, 'T'}, {30, 'G'}, {20, 'M'}, {10, 'K'}}};
  for (const auto& [shift, suffix] : kSuffixes) {
    const uint64_t unit = uint64_t{1} << shift;
    if (bytes != 0 && bytes % unit == 0) return fmt::format("{}{}", bytes / unit, suffix);
  }
  return fmt::format("{}", bytes);
}

std::string format_bytes(uint64_t bytes) {
  static constexpr std::array<const char*, 6> kUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes);
  size_t u = 0;
  while (v >= 1024.0 && u + 1 < kUnits.size()) {
    v /= 1024.0;
    ++u;
  }
  if (u == 0) return fmt::format("{} B", bytes);
  return fmt::format("{:.2f} {}", v, kUnits[u]);
}

std::optional<uint64_t> parse_duration_ns(std::string_view text) {
  size_t unit_at = text.size();
  while (unit_at > 0 && ((text[unit_at - 1] >= 'a' && text[unit_at - 1] <= 'z') ||
                         (text[unit_at - 1] >= 'A' && text[unit_at - 1] <= 'Z'))) {
    --unit_at;
  }
  const std::string_view number = text.substr(0, unit_at);
  const std::string_view unit = text.substr(unit_at);
  double scale = 0;
  if (unit.empty() || unit == "ns") {
    scale = 1;
  } else if (unit == "us") {
    scale = 1e3;
  } else if (unit == "ms") {
    scale = 1e6;
  } else if (unit == "s") {
    scale = 1e9;
  } else {
    return std::nullopt;
  }
  if (number.empty() || number.front() == ' ' || number.back() == ' ') return std::nullopt;
  double v = 0;
  const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (ec != std::errc() || ptr != number.data() + number.size() || !std::isfinite(v) || v < 0) return std::nullopt;
  const double ns = std::round(v * scale);
  if (ns >= 0x1.0p64) return std::nullopt;
  return static_cast<uint64_t>(ns);
}

}  // namespace ftlsim
