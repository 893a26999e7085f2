#include "sweep/sweep_values.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <utility>

#include "core/error.h"
#include "core/units.h"
#include "sim/fit.h"

namespace ftlsim::sim {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

[[noreturn]] void bad_item(std::string_view option, std::string_view item, std::string_view why) {
  throw InputError(fmt::format("{}: '{}' {}", option, item, why));
}

std::optional<double> parse_real(std::string_view s) {
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty() || !std::isfinite(v)) return std::nullopt;
  return v;
}

const char* kind_noun(ValueKind kind) {
  switch (kind) {
    case ValueKind::kInteger: return "is not a whole number";
    case ValueKind::kReal: return "is not a number";
    case ValueKind::kSize: return "is not a size (examples: 4096, 4K, 16M, 64G)";
    default: return "is not valid";
  }
}

// True when `item` reads as one value of `kind` (a number within 64 bits,
// a finite real, a size).
bool parses(ValueKind kind, std::string_view item) {
  return kind == ValueKind::kReal   ? parse_real(item).has_value()
         : kind == ValueKind::kSize ? parse_size(item).has_value()
                                    : parse_count(item).has_value();
}

// One number or size item, checked; returns it as given. One that does not
// parse is refused by the setting's own parser (`check`) when there is one,
// which names the setting's range.
void check_scalar(std::string_view option, ValueKind kind, std::string_view item, const ItemCheck& check) {
  if (!parses(kind, item) && check) check(item);
  if (kind == ValueKind::kInteger) {
    (void)parse_uint_option(item, option);  // the one integer parser: its message names the range
    return;
  }
  if (!parses(kind, item)) bad_item(option, item, kind_noun(kind));
}

// START:STOP:STEP, inclusive, appended to `out`.
void expand_range(std::string_view option, ValueKind kind, std::string_view item, std::vector<std::string>& out,
                  const ItemCheck& check) {
  const size_t c1 = item.find(':');
  const size_t c2 = item.find(':', c1 + 1);
  if (c2 == std::string_view::npos || item.find(':', c2 + 1) != std::string_view::npos) {
    bad_item(option, item, "is not a range START:STOP:STEP");
  }
  const std::string_view parts[3] = {trim(item.substr(0, c1)), trim(item.substr(c1 + 1, c2 - c1 - 1)),
                                     trim(item.substr(c2 + 1))};
  for (size_t p = 0; p < 3; ++p) {
    const std::string_view part = parts[p];
    if (parses(kind, part)) continue;
    // START and STOP are values of the setting: its parser names its range.
    if (p < 2 && check && !part.empty()) check(part);
    // Digits only, and yet no 64-bit number: too large, not malformed.
    if (kind == ValueKind::kInteger && !part.empty() &&
        part.find_first_not_of("0123456789") == std::string_view::npos) {
      bad_item(option, item, fmt::format("is not a range START:STOP:STEP: '{}' is too large (past 2^64-1)", part));
    }
    bad_item(option, item, fmt::format("is not a range START:STOP:STEP: '{}' {}", part, kind_noun(kind)));
  }
  auto too_many = [&] { bad_item(option, item, fmt::format("gives more than {} values", kMaxItems)); };
  if (kind == ValueKind::kReal) {
    const double start = *parse_real(parts[0]), stop = *parse_real(parts[1]), step = *parse_real(parts[2]);
    if (!(step > 0)) bad_item(option, item, "has a step that is not above 0");
    if (start > stop) bad_item(option, item, "has START above STOP");
    // A small tolerance so that 0.1:0.3:0.1 includes 0.3 despite rounding.
    const double count = std::floor((stop - start) / step + 1e-9) + 1;
    if (count > static_cast<double>(kMaxItems)) too_many();
    for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
      out.push_back(fmt::format("{:.12g}", start + static_cast<double>(i) * step));
    }
    return;
  }
  const bool size = kind == ValueKind::kSize;
  const uint64_t start = size ? *parse_size(parts[0]) : *parse_count(parts[0]);
  const uint64_t stop = size ? *parse_size(parts[1]) : *parse_count(parts[1]);
  const uint64_t step = size ? *parse_size(parts[2]) : *parse_count(parts[2]);
  if (step == 0) bad_item(option, item, "has a step that is not above 0");
  if (start > stop) bad_item(option, item, "has START above STOP");
  if ((stop - start) / step + 1 > kMaxItems) too_many();
  for (uint64_t v = start; v <= stop; v += step) {
    out.push_back(size ? format_size_exact(v) : fmt::format("{}", v));
    if (stop - v < step) break;  // no overflow past UINT64_MAX
  }
}

// The value of a checked number or size item as text, for comparing items:
// equal exactly when the items are the same value.
std::string value_text(std::string_view option, ValueKind kind, std::string_view item) {
  switch (kind) {
    case ValueKind::kInteger: return std::to_string(parse_uint_option(item, option));
    case ValueKind::kReal: {
      const double v = *parse_real(item);
      return fmt::format("{}", v == 0 ? 0.0 : v);  // the shortest text that reads back to v; -0 is 0
    }
    case ValueKind::kSize:
      if (item.substr(0, 4) == "fit:") return fmt::format("fit:{}", *parse_fit(item));
      return std::to_string(*parse_size(item));
    default: return std::string(item);
  }
}

}  // namespace

std::vector<std::string> expand_values(std::string_view option, ValueKind kind, std::string_view text,
                                       const ItemCheck& check, const CanonicalFn& canonical) {
  std::vector<std::string> items;
  if (trim(text).empty()) bad_item(option, text, "is empty");
  auto add = [&](std::string_view item) {
    item = trim(item);
    if (item.empty()) throw InputError(fmt::format("{} {}: an item of the list is empty", option, text));
    if (kind == ValueKind::kWord || kind == ValueKind::kPlacement) {
      items.emplace_back(item);
    } else if (kind == ValueKind::kSize && item.substr(0, 4) == "fit:") {
      (void)parse_fit(item);  // --logical fit:P% (sim/fit.h), a word among sizes
      items.emplace_back(item);
    } else if (item.find(':') != std::string_view::npos) {
      expand_range(option, kind, item, items, check);
    } else {
      check_scalar(option, kind, item, check);
      items.emplace_back(item);
    }
  };
  if (kind == ValueKind::kPlacement) {
    // Groups end at ';'; within a group, items end at ',' until one starts
    // with "map:", which takes the rest of the group.
    std::string_view rest = text;
    while (true) {
      const size_t semi = rest.find(';');
      std::string_view group = rest.substr(0, semi);
      while (true) {
        const std::string_view head = trim(group);
        if (head.substr(0, 4) == "map:") {
          add(head);
          break;
        }
        const size_t comma = group.find(',');
        add(group.substr(0, comma));
        if (comma == std::string_view::npos) break;
        group.remove_prefix(comma + 1);
      }
      if (semi == std::string_view::npos) break;
      rest.remove_prefix(semi + 1);
    }
  } else {
    std::string_view rest = text;
    while (true) {
      const size_t comma = rest.find(',');
      add(rest.substr(0, comma));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  if (items.size() > kMaxItems) {
    throw InputError(fmt::format("{}: more than {} values", option, kMaxItems));
  }
  std::map<std::string, std::string_view> seen;  // value -> the first item that has it
  for (const std::string& item : items) {
    const bool words = kind == ValueKind::kWord || kind == ValueKind::kPlacement;
    const std::string value = words ? (canonical ? canonical(item) : item) : value_text(option, kind, item);
    const auto [at, first] = seen.emplace(value, item);
    if (first) continue;
    if (at->second == item) bad_item(option, item, "is listed twice");
    bad_item(
        option, item,
        fmt::format("is the same value as '{}', listed before it: a sweep runs each configuration once", at->second));
  }
  return items;
}

}  // namespace ftlsim::sim
