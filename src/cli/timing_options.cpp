#include "cli/timing_options.h"

#include <fmt/format.h>

#include <iterator>
#include <stdexcept>

#include "cli/flag_text.h"
#include "core/error.h"
#include "sweep/sweep_values.h"
#include "timing/timing_settings.h"

namespace ftlsim::cli {
namespace {

// The timing settings of ftlsim 0.1.0, which every config_key description
// lists (describe below), whatever their values. A timing setting added
// later is listed only when its value is not its default, so that adding it
// changes no earlier sweep's keys and those sweeps still resume (as the
// model settings do: model_settings.cpp, kLaterSettings).
constexpr std::string_view kKeyedTimingSettings[] = {"qd",         "speed",     "read-time",     "program-time",
                                                     "erase-time", "xfer-time", "event-interval"};

bool always_keyed(std::string_view name) {
  for (const std::string_view k : kKeyedTimingSettings) {
    if (k == name) return true;
  }
  return false;
}

// Refuses a list or range where one timing value is taken (the commands
// other than the default one, and the default one after expand_timing).
void one_value(const std::string& text, std::string_view name) {
  if (text.find_first_of(",:") != std::string::npos) {
    throw InputError(
        fmt::format("--{} {}: one value here (a list of timing values makes a sweep of the default "
                    "command)",
                    name, text));
  }
}

// Parses every given (or defaulted) timing text into `c`; only latencies
// when `latencies_only`.
void apply_timing(const TimingArgs& a, timing::TimingConfig& c, bool latencies_only) {
  const auto settings = timing::timing_settings();
  for (size_t i = 0; i < settings.size(); ++i) {
    const auto& s = settings[i];
    if (latencies_only && !timing::is_latency(s)) continue;
    if (a.text[i].empty()) continue;  // not given: the struct's value
    one_value(a.text[i], s.name);
    s.parse(c, a.text[i]);
  }
}

}  // namespace

TimingArgs::TimingArgs() : given(timing::timing_settings().size(), false) {
  for (const auto& s : timing::timing_settings()) text.push_back(s.default_text());
}

namespace {

// An empty text is what "not given" is stored as (open loop, an automatic
// interval): given empty, it is refused as every other option's is.
void check_given_empty(const TimingArgs& a) {
  const auto settings = timing::timing_settings();
  for (size_t i = 0; i < settings.size(); ++i) {
    if (a.given[i] && a.text[i].find_first_not_of(" \t") == std::string::npos) {
      throw InputError(fmt::format("--{}: '{}' is empty", settings[i].name, a.text[i]));
    }
  }
}

}  // namespace

size_t timing_setting_count() { return timing::timing_settings().size(); }

std::string_view timing_setting_name(size_t i) { return timing::timing_settings()[i].name; }

std::vector<std::vector<std::string>> expand_timing(const TimingArgs& a) {
  const auto settings = timing::timing_settings();
  std::vector<std::vector<std::string>> items(settings.size());
  for (size_t i = 0; i < settings.size(); ++i) {
    const auto& s = settings[i];
    const std::string& text = a.text[i];
    if (text.empty()) {  // not given, no default: open loop, speed 1, automatic interval
      items[i] = {text};
      continue;
    }
    const std::string option = fmt::format("--{}", s.name);
    // The setting's own range in a message; a word (a duration: 40us,
    // 40000ns) listed twice is found as the setting reads it.
    items[i] = sim::expand_values(
        option, s.kind, text,
        [&s](std::string_view t) {
          timing::TimingConfig scratch;
          s.parse(scratch, t);
        },
        [&s](std::string_view item) {
          timing::TimingConfig scratch;
          s.parse(scratch, item);
          return s.print(scratch);
        });
  }
  // Each point is checked whole by build_timing; here, what holds for all.
  TimingArgs first = a;
  for (size_t i = 0; i < settings.size(); ++i) first.text[i] = items[i].front();
  (void)build_timing(first);
  return items;
}

TimingArgs timing_point(const TimingArgs& a, std::span<const std::string> values) {
  TimingArgs p = a;
  for (size_t i = 0; i < p.text.size() && i < values.size(); ++i) p.text[i] = values[i];
  return p;
}

void add_timing_options(CLI::App& app, TimingArgs& a, bool host_model) {
  if (host_model) {
    app.add_flag("--timing", a.timing,
                 "Timed mode: discrete-event NAND timing (per-die and per-channel busy times, FEMU's latencies by "
                 "default), host latency percentiles, events.csv and latency_cdf.csv. Same WAF and GC counts as "
                 "fast mode")
        ->group("Timing");
  }
  const auto settings = timing::timing_settings();
  for (size_t i = 0; i < settings.size(); ++i) {
    const auto& s = settings[i];
    if (!host_model && !timing::is_latency(s)) continue;
    CLI::Option* o = app.add_option_function<std::string>(
        fmt::format("--{}", s.name),
        [&a, i](const std::string& v) {
          a.text[i] = v;
          a.given[i] = true;
          a.any_given = true;
        },
        help_flag_text(s.help));
    o->type_name(std::string(s.type))->group(std::string(s.group));
    // Shown: the struct's default, printed (speed 1; none for open loop or an automatic interval).
    const std::string shown = s.print(timing::TimingConfig{});
    if (!shown.empty()) o->default_str(shown);
  }
}

timing::TimingConfig build_latencies(const TimingArgs& a) {
  check_given_empty(a);
  timing::TimingConfig c;
  apply_timing(a, c, true);
  return c;
}

std::optional<timing::TimingConfig> build_timing(const TimingArgs& a) {
  check_given_empty(a);
  if (!a.timing) {
    if (a.any_given) {
      throw InputError(
          "--qd, --speed, --event-interval and the NAND latency options apply to timed mode; add --timing");
    }
    return std::nullopt;
  }
  const auto settings = timing::timing_settings();
  const auto index = [&](std::string_view name) {
    return static_cast<size_t>(find_setting(settings, name) - settings.data());
  };
  if (!a.text[index("qd")].empty() && !a.text[index("speed")].empty()) {
    throw InputError("--qd (closed loop) and --speed (open loop) exclude each other");
  }
  timing::TimingConfig c;
  apply_timing(a, c, false);
  return c;
}

std::string describe(const TimingArgs& a) {
  std::string out = fmt::format("timing={}", a.timing);
  const auto settings = timing::timing_settings();
  size_t keyed = 0;
  for (size_t i = 0; i < settings.size(); ++i) {
    const auto& s = settings[i];
    keyed += always_keyed(s.name) ? 1 : 0;
    if (always_keyed(s.name) || a.text[i] != s.default_text()) out += fmt::format(" {}={}", s.key_name(), a.text[i]);
  }
  if (keyed != std::size(kKeyedTimingSettings)) throw std::logic_error("a keyed timing setting has no descriptor");
  return out;
}

}  // namespace ftlsim::cli
