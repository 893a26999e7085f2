#include "cli/timing_options.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>

#include "core/error.h"
#include "core/units.h"
#include "sim/sweep_values.h"

namespace ftlsim::cli {
namespace {

// Refuses a list or range where one timing value is taken (the commands
// other than the default one, and the default one after expand_timing).
void one_value(const std::string& text, const char* option) {
  if (text.find_first_of(",:") != std::string::npos) {
    throw InputError(fmt::format("{} {}: one value here (a list of timing values makes a sweep of the default "
                                 "command)",
                                 option, text));
  }
}

uint64_t duration(const std::string& text, const char* option) {
  one_value(text, option);
  if (const auto ns = parse_duration_ns(text)) return *ns;
  throw InputError(fmt::format("{}: '{}' is not a duration (examples: 40us, 2ms, 500ns)", option, text));
}

// The fields of TimingArgs that take lists, in product order.
struct TimingSetting {
  std::string_view name;  // without dashes
  std::string TimingArgs::*field;
  sim::ValueKind kind;    // kWord: a duration, lists only
};
constexpr std::array<TimingSetting, kTimingSettingCount> kTimingSettings = {{
    {"qd", &TimingArgs::qd, sim::ValueKind::kInteger},
    {"speed", &TimingArgs::speed, sim::ValueKind::kReal},
    {"read-time", &TimingArgs::read_time, sim::ValueKind::kWord},
    {"program-time", &TimingArgs::program_time, sim::ValueKind::kWord},
    {"erase-time", &TimingArgs::erase_time, sim::ValueKind::kWord},
    {"xfer-time", &TimingArgs::xfer_time, sim::ValueKind::kWord},
    {"event-interval", &TimingArgs::event_interval, sim::ValueKind::kWord},
}};

}  // namespace

std::string_view timing_setting_name(size_t i) { return kTimingSettings.at(i).name; }

std::vector<std::vector<std::string>> expand_timing(const TimingArgs& a) {
  std::vector<std::vector<std::string>> items(kTimingSettingCount);
  for (size_t i = 0; i < kTimingSettingCount; ++i) {
    const TimingSetting& t = kTimingSettings[i];
    const std::string& text = a.*t.field;
    if (text.empty()) {  // not given, no default: open loop, speed 1, automatic interval
      items[i] = {text};
      continue;
    }
    const std::string option = fmt::format("--{}", t.name);
    items[i] = sim::expand_values(option, t.kind, text);
    if (t.kind == sim::ValueKind::kWord) {
      for (const std::string& item : items[i]) (void)duration(item, option.c_str());
    }
  }
  // Each point is checked whole by build_timing; here, what holds for all.
  TimingArgs first = a;
  for (size_t i = 0; i < kTimingSettingCount; ++i) first.*kTimingSettings[i].field = items[i].front();
  (void)build_timing(first);
  return items;
}

TimingArgs timing_point(const TimingArgs& a, std::span<const std::string> values) {
  TimingArgs p = a;
  for (size_t i = 0; i < kTimingSettingCount && i < values.size(); ++i) p.*kTimingSettings[i].field = values[i];
  return p;
}

void add_timing_options(CLI::App& app, TimingArgs& a, bool host_model) {
  auto given = [&a](std::string& field) {
    return [&a, &field](const std::string& v) {
      field = v;
      a.any_given = true;
    };
  };
  if (host_model) {
    app.add_flag("--timing", a.timing,
                 "Timed mode: discrete-event NAND timing (per-die and per-channel busy times, FEMU's latencies by "
                 "default), host latency percentiles, events.csv and latency_cdf.csv. Same WAF and GC counts as "
                 "fast mode")
        ->group("Timing");
    app.add_option_function<std::string>("--qd", given(a.qd),
                                         "Closed loop: keep N requests outstanding, issuing the next record when one "
                                         "completes (trace time stamps ignored). Default: open loop. A list makes a "
                                         "sweep (or see ftlsim qd-sweep)")
        ->type_name("N")
        ->group("Timing");
    app.add_option_function<std::string>("--speed", given(a.speed),
                                         "Open loop: issue each record at its time stamp divided by X (2 = twice "
                                         "as fast)")
        ->type_name("X")
        ->default_str("1")
        ->group("Timing");
    app.add_option_function<std::string>("--event-interval", given(a.event_interval),
                                         "Simulated time per events.csv row (default: automatic, at most 256 rows)")
        ->type_name("DURATION")
        ->group("Timing");
  }
  app.add_option_function<std::string>("--read-time", given(a.read_time), "NAND page read (array) time")
      ->type_name("DURATION")
      ->default_str(a.read_time)
      ->group("Timing");
  app.add_option_function<std::string>("--program-time", given(a.program_time), "NAND page program time")
      ->type_name("DURATION")
      ->default_str(a.program_time)
      ->group("Timing");
  app.add_option_function<std::string>("--erase-time", given(a.erase_time), "NAND block erase time")
      ->type_name("DURATION")
      ->default_str(a.erase_time)
      ->group("Timing");
  app.add_option_function<std::string>("--xfer-time", given(a.xfer_time),
                                       "Channel transfer time of one 4 KiB page (FEMU charges none)")
      ->type_name("DURATION")
      ->default_str(a.xfer_time)
      ->group("Timing");
}

timing::TimingConfig build_latencies(const TimingArgs& a) {
  timing::TimingConfig c;
  c.read_ns = duration(a.read_time, "--read-time");
  c.program_ns = duration(a.program_time, "--program-time");
  c.erase_ns = duration(a.erase_time, "--erase-time");
  c.xfer_ns = duration(a.xfer_time, "--xfer-time");
  return c;
}

std::optional<timing::TimingConfig> build_timing(const TimingArgs& a) {
  if (!a.timing) {
    if (a.any_given) {
      throw InputError("--qd, --speed, --event-interval and the NAND latency options apply to timed mode; add --timing");
    }
    return std::nullopt;
  }
  timing::TimingConfig c = build_latencies(a);
  if (!a.qd.empty() && !a.speed.empty()) {
    throw InputError("--qd (closed loop) and --speed (open loop) exclude each other");
  }
  one_value(a.qd, "--qd");
  one_value(a.speed, "--speed");
  if (!a.qd.empty()) {
    c.mode = timing::HostMode::kClosed;
    // Range checked by TimingConfig::problems with the other settings.
    c.qd = static_cast<uint32_t>(parse_uint_option(a.qd, "--qd", 0, UINT32_MAX));
  }
  if (!a.speed.empty()) {
    double v = 0;
    const auto [p, ec] = std::from_chars(a.speed.data(), a.speed.data() + a.speed.size(), v);
    if (ec != std::errc() || p != a.speed.data() + a.speed.size() || !std::isfinite(v)) {
      throw InputError(fmt::format("--speed: '{}' is not a number", a.speed));
    }
    c.speed = v;
  }
  if (!a.event_interval.empty()) {
    c.event_interval_ns = duration(a.event_interval, "--event-interval");
    if (c.event_interval_ns == 0) throw InputError("--event-interval must be above 0");
  }
  return c;
}

std::string describe(const TimingArgs& a) {
  return fmt::format("timing={} qd={} speed={} read={} program={} erase={} xfer={} event-interval={}", a.timing, a.qd,
                     a.speed, a.read_time, a.program_time, a.erase_time, a.xfer_time, a.event_interval);
}

}  // namespace ftlsim::cli
