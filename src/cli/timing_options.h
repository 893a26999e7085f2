#pragma once
// The timed-mode options (--timing and its latencies and host model),
// shared by the default command and `ftlsim qd-sweep`. Each is a setting
// of TimingConfig declared once in timing/timing_settings.h; this file
// registers them and keeps their text (lists for sweeps).
#include <CLI/CLI.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "timing/timing_config.h"

namespace ftlsim::cli {

struct TimingArgs {
  bool timing = false;
  // One text per timing setting, in timing_settings() order: as given, else
  // its default ("40us"; "" for qd, speed and event-interval: open loop,
  // speed 1, automatic).
  std::vector<std::string> text;
  std::vector<bool> given;  // per setting: given on the command line
  bool any_given = false;   // a timing option other than --timing was given

  TimingArgs();
};

// Registers the NAND latency options; with `host_model`, also --timing,
// --qd, --speed and --event-interval (the default command).
void add_timing_options(CLI::App& app, TimingArgs& a, bool host_model);

// The timing settings take lists in a sweep, in product order (they vary
// after, so faster than, every model option).
[[nodiscard]] size_t timing_setting_count();
[[nodiscard]] std::string_view timing_setting_name(size_t i);  // "read-time": no dashes

// The items of each timing setting, in that order: the list given (--qd
// 1,4,16 or a range 1:16:5; a list of durations 40us,60us), or the one
// value or default. Every item is checked as build_timing would (a number,
// a duration); a list without --timing is the usual error. Throws InputError
// naming the option and the bad item.
[[nodiscard]] std::vector<std::vector<std::string>> expand_timing(const TimingArgs& a);

// `a` with one value per timing setting (`values` in the order above).
[[nodiscard]] TimingArgs timing_point(const TimingArgs& a, std::span<const std::string> values);

// The timed-mode configuration, or nullopt without --timing (then giving
// any other timing option is an error). Throws InputError naming the option,
// also for a list (one configuration only: lists make a sweep of the
// default command).
[[nodiscard]] std::optional<timing::TimingConfig> build_timing(const TimingArgs& a);

// Every timing option as text, for a sweep's resume key (sweep/sweep_resume.h,
// config_key), derived from the settings: "timing=false qd= speed= read=40us ...";
// a setting added after 0.1.0 only when it is not at its default.
[[nodiscard]] std::string describe(const TimingArgs& a);

// The latencies alone, for commands that are always timed (qd-sweep).
[[nodiscard]] timing::TimingConfig build_latencies(const TimingArgs& a);

}  // namespace ftlsim::cli
