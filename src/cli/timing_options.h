#pragma once
// The timed-mode options (--timing and its latencies and host model),
// shared by the default command and `ftlsim qd-sweep`.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "timing/timing_config.h"

namespace ftlsim::cli {

struct TimingArgs {
  bool timing = false;
  std::string qd;         // "" = open loop
  std::string speed;      // "" = 1
  std::string read_time = "40us";
  std::string program_time = "200us";
  std::string erase_time = "2ms";
  std::string xfer_time = "0";
  std::string event_interval;  // "" = automatic
  bool any_given = false;      // a timing option other than --timing was given
};

// Registers the NAND latency options; with `host_model`, also --timing,
// --qd, --speed and --event-interval (the default command).
void add_timing_options(CLI::App& app, TimingArgs& a, bool host_model);

// The timed-mode configuration, or nullopt without --timing (then giving
// any other timing option is an error). Throws InputError naming the option.
[[nodiscard]] std::optional<timing::TimingConfig> build_timing(const TimingArgs& a);

// Every timing option as text, for a sweep's resume key (sim/sweep_resume.h,
// config_key): an option added to TimingArgs that changes results must
// appear here, or a resumed sweep could mix rows of different settings.
[[nodiscard]] std::string describe(const TimingArgs& a);

// The latencies alone, for commands that are always timed (qd-sweep).
[[nodiscard]] timing::TimingConfig build_latencies(const TimingArgs& a);

}  // namespace ftlsim::cli
