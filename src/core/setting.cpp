#include "core/setting.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include "core/io_units.h"
#include "core/units.h"

namespace ftlsim {

Message Problem::message() const {
  if (setting.empty()) return reason;
  const Message name = Message::setting(setting);
  if (shape == Shape::kUnknown) {
    // "unknown policy" for the victim policies, "unknown preset" for presets.
    return name + Message(fmt::format(": unknown {} '{}' ", setting == "victim" ? "policy" : setting, value)) + reason;
  }
  if (shape == Shape::kBadText) return name + Message(fmt::format(": '{}' ", value)) + reason;
  if (shape == Shape::kInParens) return name + Message(fmt::format(" ({}) ", value)) + reason;
  // A reason may go on after a colon: "`blocks` 3: at least 4 lines are needed".
  const std::string after = reason.str().rfind(':', 0) == 0 ? "" : " ";
  return name + Message(value.empty() ? after : fmt::format(" {}{}", value, after)) + reason;
}

Message join(const std::vector<Problem>& problems) {
  std::vector<Message> messages;
  messages.reserve(problems.size());
  for (const Problem& p : problems) messages.push_back(p.message());
  return join(messages, "; ");
}

SettingError::SettingError(Problem p) : InputError(p.message()), problem_(std::move(p)) {}

double parse_real(std::string_view setting, std::string_view text) {
  double v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || text.empty() || !std::isfinite(v)) {
    throw SettingError({std::string(setting), std::string(text), "is not a number", Problem::Shape::kBadText});
  }
  return v;
}

uint64_t parse_u64(std::string_view setting, std::string_view text) {
  return parse_uint_option(text, Message::setting(setting));
}

uint32_t parse_u32(std::string_view setting, std::string_view text) {
  return static_cast<uint32_t>(
      parse_uint_option(text, Message::setting(setting), 0, std::numeric_limits<uint32_t>::max()));
}

uint32_t parse_u32_count(std::string_view setting, std::string_view text, uint32_t least) {
  if (const auto v = parse_count(text); v && *v < least) return static_cast<uint32_t>(*v);
  return static_cast<uint32_t>(
      parse_uint_option(text, Message::setting(setting), least, std::numeric_limits<uint32_t>::max()));
}

uint64_t parse_bytes(std::string_view setting, std::string_view text) {
  return parse_size_or_throw(text, Message::setting(setting));
}

uint64_t parse_duration(std::string_view setting, std::string_view text) {
  if (const auto ns = parse_duration_ns(text)) return *ns;
  throw SettingError({std::string(setting), std::string(text), "is not a duration (examples: 40us, 2ms, 500ns)",
                      Problem::Shape::kBadText});
}

std::string print_real(double v) { return fmt::format("{}", v); }

std::string print_duration(uint64_t ns) {
  static constexpr std::pair<uint64_t, const char*> kUnits[] = {{kNsPerSecond, "s"}, {1'000'000, "ms"}, {1'000, "us"}};
  if (ns == 0) return "0";
  for (const auto& [unit, name] : kUnits) {
    if (ns % unit == 0) return fmt::format("{}{}", ns / unit, name);
  }
  return fmt::format("{}ns", ns);
}

}  // namespace ftlsim
