// `ftlsim replay` in a build without live replay (cmake/replay_deps.cmake
// found no liburing, libnvme or libblkid, or FTLSIM_REPLAY=OFF): the command
// stays, takes any arguments and refuses with one line before touching
// anything, so scripts and the docs' commands fail clearly, not with
// "unknown subcommand".
#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "core/error.h"

namespace ftlsim::cli {

Command add_replay_command(CLI::App& root) {
  CLI::App* app = root.add_subcommand(
      "replay", "Not in this build: live replay needs liburing, libnvme and libblkid (see docs/cli.md)");
  app->allow_extras();
  app->prefix_command();  // every argument after `replay` is taken as is, none is parsed
  return Command{app, [] {
                   throw SystemError(
                       "replay: this ftlsim was built without live replay (liburing, libnvme and libblkid were not "
                       "all found, or FTLSIM_REPLAY=OFF); install them with tools/install_deps.sh build and rebuild");
                 }};
}

}  // namespace ftlsim::cli
