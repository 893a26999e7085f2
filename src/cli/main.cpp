// ftlsim: simulate block I/O traces on a page-mapped FTL model, and replay them live.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "cli/flag_text.h"
#include "cli/parse_error_text.h"
#include "cli/standard_streams.h"
#include "core/build_identity.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/mapping_guard.h"

namespace {

// CLI11's help or version text, printed through the checked stdout.
int print_exit(const CLI::App& app, const CLI::Error& e) {
  std::ostringstream out;
  std::ostringstream err;
  const int code = app.exit(e, out, err);
  ftlsim::cli::print_stdout(out.str());
  fmt::print(stderr, "{}", err.str());
  return code;
}

// Arguments nobody took, in the order given: CLI11 takes the arguments last
// first (main reverses them) and ExtrasError joins its list from the back,
// so the list of the app that has them is handed over reversed.
std::vector<std::string> unexpected_arguments(const CLI::App& app) {
  if (app.remaining_size() != 0) {
    std::vector<std::string> extra = app.remaining();
    std::reverse(extra.begin(), extra.end());
    return extra;
  }
  for (const CLI::App* sub : app.get_subcommands()) {
    std::vector<std::string> extra = unexpected_arguments(*sub);
    if (!extra.empty()) return extra;
  }
  return {};
}

int run(int argc, char** argv) {
  CLI::App app{
      "ftlsim: simulate block I/O traces on a fast SSD/FTL model and report write\n"
      "amplification (WAF) and GC onset.\n\n"
      "Examples:\n"
      "  ftlsim --trace traces/demo.ftr --gc-thres 60\n"
      "  ftlsim --trace x.ftr --preset femu-eth --out results/\n"
      "  ftlsim --trace x.ftr --gc-thres 60,75,90 --placement single,fdp --out sweep/\n"
      "  ftlsim compare --trace x.ftr --a \"--placement single\" --b \"--placement fdp\"\n"
      "  ftlsim gen --pattern uniform --logical 1G --fill --writes 1e6 -o u.ftr\n"
      "  ftlsim convert --from disksim in.trace -o in.ftr\n"
      "  ftlsim info x.ftr --json\n"
      "  ftlsim dump x.ftr --range 0:10\n",
      "ftlsim"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", ftlsim::this_build());
  app.get_formatter()->column_width(34);

  const std::vector<ftlsim::cli::Command> subcommands = {
      ftlsim::cli::add_info_command(app),    ftlsim::cli::add_convert_command(app),
      ftlsim::cli::add_dump_command(app),    ftlsim::cli::add_gen_command(app),
      ftlsim::cli::add_compare_command(app), ftlsim::cli::add_qd_sweep_command(app),
      ftlsim::cli::add_replay_command(app),
  };
  const ftlsim::cli::Command simulate = ftlsim::cli::add_simulate_options(app);

  try {
    std::vector<std::string> args = ftlsim::cli::cli_args(argc, argv);
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    app.parse(std::move(args));
  } catch (const CLI::CallForHelp& e) {
    return print_exit(app, e);
  } catch (const CLI::CallForAllHelp& e) {
    return print_exit(app, e);
  } catch (const CLI::ExtrasError& e) {
    const std::vector<std::string> extra = unexpected_arguments(app);
    const std::string what = extra.empty() ? e.what() : CLI::ExtrasError(extra).what();
    fmt::print(stderr, "ftlsim: error: {} (see --help)\n", ftlsim::escape_for_terminal(what));
    return 2;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return print_exit(app, e);  // --version
    fmt::print(stderr, "ftlsim: error: {} (see --help)\n",
               ftlsim::escape_for_terminal(ftlsim::cli::parse_error_text(
                   e, std::any_of(argv + 1, argv + argc, [](const char* w) { return std::string_view(w) == "-o"; }))));
    return 2;
  }
  // Every error is one line: file names and header text in messages are
  // escaped (core/escape.h). When a mapped input shrank during the run, that
  // is the error, whatever the zero-filled records then caused
  // (core/mapping_guard.h).
  const auto fail = [](std::string_view prefix, const ftlsim::Message& what, int code) {
    const std::string fault = ftlsim::mapped_input_fault();
    // Libraries name settings (the parts of `what` that are settings); the
    // user sees their flags.
    const std::string text = ftlsim::cli::flag_text(what);
    if (!fault.empty() && text.rfind(fault, 0) != 0) {  // unless the message is the fault's, extended
      fmt::print(stderr, "ftlsim: error: {}\n", ftlsim::escape_for_terminal(fault));
      return 2;
    }
    fmt::print(stderr, "ftlsim: {}: {}\n", prefix, ftlsim::escape_for_terminal(text));
    return code;
  };
  try {
    for (const auto& cmd : subcommands) {
      if (cmd.app != nullptr && cmd.app->parsed()) {
        cmd.run();
        return ftlsim::mapped_input_fault().empty() ? 0 : fail("error", "", 2);
      }
    }
    simulate.run();
    return ftlsim::mapped_input_fault().empty() ? 0 : fail("error", "", 2);
  } catch (const ftlsim::InputError& e) {
    return fail("error", e.message(), 2);
  } catch (const ftlsim::SystemError& e) {
    return fail("error", e.message(), 1);
  } catch (const std::bad_alloc&) {
    return fail("error", "out of memory", 1);
  } catch (const std::exception& e) {
    return fail("internal error", ftlsim::Message(e.what()), 1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  ftlsim::cli::guard_standard_streams();
  if (const int refused = ftlsim::cli::refuse_streams_onto_arguments(argc, argv); refused != 0) {
    return ftlsim::cli::finish_standard_streams(refused);
  }
  return ftlsim::cli::finish_standard_streams(run(argc, argv));
}
