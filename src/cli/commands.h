#pragma once
// Each subcommand registers its options on the root CLI11 app and returns
// the function that runs it once parsing has chosen it. Runners throw
// InputError / SystemError; main() turns them into one line and an exit code.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace ftlsim::cli {

struct Command {
  CLI::App* app = nullptr;    // the subcommand; parsed when *app is true
  std::function<void()> run;  // runs it
};

Command add_info_command(CLI::App& root);      // cmd_info.cpp
Command add_convert_command(CLI::App& root);   // cmd_convert.cpp
Command add_dump_command(CLI::App& root);      // cmd_dump.cpp
Command add_gen_command(CLI::App& root);       // cmd_gen.cpp
Command add_compare_command(CLI::App& root);   // cmd_compare.cpp
Command add_qd_sweep_command(CLI::App& root);  // cmd_qd_sweep.cpp
Command add_replay_command(CLI::App& root);    // cmd_replay.cpp
// The default command (no subcommand): simulate --trace through the FTL.
Command add_simulate_options(CLI::App& root);  // cmd_simulate.cpp

// argv[1..] for CLI11, except that after `compare`, `--a X` and `--b X`
// become `--a=X` and `--b=X`: their values are option lists starting with
// "--", which CLI11 would otherwise take for options (cmd_compare.cpp).
[[nodiscard]] std::vector<std::string> cli_args(int argc, const char* const* argv);

}  // namespace ftlsim::cli
