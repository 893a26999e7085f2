#include "sim/run_settings.h"

#include <fmt/format.h>

#include <array>
#include <limits>

#include "core/units.h"

namespace ftlsim::sim {
namespace {

using C = SimOptions;

constexpr uint64_t kMaxRepeat = 1'000'000;

inline constexpr Choice<Precondition> kPreconditionWords[] = {
    {Precondition::kNone, "none", ""},
    {Precondition::kSeq, "seq", "every logical page in order"},
    {Precondition::kRandom, "random", "every logical page in a seeded random order"},
    {Precondition::kTrace, "trace", "the pages the trace touches"}};

bool parse_flag(std::string_view setting, std::string_view text) {
  if (text == "true") return true;
  if (text == "false") return false;
  throw SettingError({std::string(setting), std::string(text), "is not true or false", Problem::Shape::kBadText});
}

std::string print_flag(bool v) { return v ? "true" : "false"; }

// device:MARKER | counters:MARKER ("" = none).
ResetAt parse_reset_at(std::string_view text) {
  ResetAt r;
  if (text.empty()) return r;
  const size_t colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  if (colon != std::string_view::npos && (kind == "device" || kind == "counters")) {
    r.kind = kind == "device" ? ResetAt::Kind::kDevice : ResetAt::Kind::kCounters;
    r.marker = parse_uint_option(text.substr(colon + 1), Message::setting("reset-at"));
    return r;
  }
  throw SettingError({"reset-at", std::string(text),
                      "is not device:MARKER (reset the whole device) or counters:MARKER (reset its counters only) "
                      "at the trace's first marker of that value",
                      Problem::Shape::kBadText});
}

std::string print_reset_at(const ResetAt& r) {
  switch (r.kind) {
    case ResetAt::Kind::kNone: return "";
    case ResetAt::Kind::kDevice: return fmt::format("device:{}", r.marker);
    case ResetAt::Kind::kCounters: return fmt::format("counters:{}", r.marker);
  }
  return "";
}

// Flags take no value: their type is empty.
constexpr std::array<Setting<C>, 5> kSettings = {{
    {"wrap", ValueKind::kWord, "", "Input", "Fold LBAs beyond the logical capacity into it (modulo) instead of failing",
     [](C& c, std::string_view t) { c.wrap = parse_flag("wrap", t); }, [](const C& c) { return print_flag(c.wrap); }},
    {"reset-at",
     ValueKind::kWord,
     "KIND:MARKER",
     "Input",
     "device:MARKER resets the whole device (mapping, units, erase counts, counters; ConfFDP's management reset) "
     "and counters:MARKER only its counters, at the trace's first marker of that value, so WAF, GC onset and the "
     "time series count from there (fast mode; not sweepable)",
     [](C& c, std::string_view t) { c.reset = parse_reset_at(t); },
     [](const C& c) { return print_reset_at(c.reset); },
     nullptr,
     {},
     false,
     "reset_at"},
    {"precondition", ValueKind::kWord, "none|seq|random|trace", "Input",
     "Fill the device before the trace, then zero the counters: none, seq (every logical page once, in order), "
     "random (every logical page once, in a random order seeded by `seed`) or trace (the pages the trace reads, "
     "writes or trims, in order); 4 KiB writes through handle 0. Reads of filled pages are reads of mapped data "
     "(not sweepable)",
     [](C& c, std::string_view t) {
       c.precondition = parse_choice<Precondition>(
           kPreconditionWords, "precondition", t,
           "is not none, seq (every logical page in order), random (every logical page in a seeded random order) "
           "or trace (the pages the trace touches)");
     },
     [](const C& c) { return std::string(choice_word<Precondition>(kPreconditionWords, c.precondition)); }},
    {"repeat", ValueKind::kInteger, "N", "Input",
     "Replay the trace N times to reach steady state; the counters cover every pass and summary.json gives each "
     "pass's (fast mode; not sweepable)",
     [](C& c, std::string_view t) { c.repeat = parse_uint_option(t, Message::setting("repeat"), 1, kMaxRepeat); },
     [](const C& c) { return fmt::format("{}", c.repeat); }},
    {"id-series",
     ValueKind::kWord,
     "",
     "Output",
     "Also write id_timeseries.csv: host bytes, GC bytes and WAF share over time per placement ID and per handle "
     "(4 B of memory per logical page)",
     [](C& c, std::string_view t) { c.id_series = parse_flag("id-series", t); },
     [](const C& c) { return print_flag(c.id_series); },
     nullptr,
     {},
     false,
     "id_series"},
}};

}  // namespace

std::span<const Setting<SimOptions>> run_settings() { return kSettings; }

bool is_flag(const Setting<SimOptions>& s) { return s.type.empty(); }

}  // namespace ftlsim::sim
