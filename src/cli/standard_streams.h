#pragma once
// Standard output and standard error, checked. Every command prints through
// stdout and stderr; a write that fails (a full disk, a closed descriptor,
// a reader that went away) is remembered, not thrown at the code printing,
// so the command finishes as it would have, and main() reports the loss at
// the end with its exit code (docs/cli.md, "Exit codes"):
//  - stdout written in full: the command's own code;
//  - the reader of stdout closed it early (EPIPE, `ftlsim dump t.ftr | head`):
//    the command's own code, silently, as if the reader had read it all;
//  - any other failure (`> /dev/full`, `>&-`): "ftlsim: error: standard
//    output: cannot write: <why>" and exit code 1 (when the command had
//    succeeded; an error of its own is already said and keeps its code).
#include <string>

#include "core/io_identity.h"

namespace ftlsim::cli {

// First thing in main(): SIGPIPE is ignored (a closed pipe is the EPIPE
// above, never a death by signal); a descriptor 0, 1 or 2 the caller closed
// is held by /dev/null opened read-only, so that no file the run opens takes
// its number and writes to it fail (EBADF); stdout and stderr are replaced
// by streams over descriptors 1 and 2 that remember their first error.
void guard_standard_streams();

// The first error (an errno) writing stdout, 0 if none yet. A command that
// writes much (dump) stops once it is set.
[[nodiscard]] int stdout_error();

// Prints `text` (CLI11's --help or --version) on stdout.
void print_stdout(const std::string& text);

// Throws InputError (exit 2, before anything is printed) when standard
// output or standard error is the input `path` given with `option` (the
// regular file with identity `id`): `ftlsim info t.ftr 1<>t.ftr` or
// `ftlsim --trace t.ftr >> t.ftr` would write into the trace it reads.
void check_not_standard_stream(const std::string& option, const std::string& path, FileIdentity id);
// The same for every input of `inputs`.
void check_not_standard_stream(const RunInputs& inputs);

// Right after guard_standard_streams(): when standard output or error is a
// regular file that an argument names (`--trace t.ftr >> t.ftr`, also in
// --name=value form), says so on standard error (unless standard error is
// that file: then nothing) and returns 2; otherwise 0. Nothing is parsed or
// printed before it, so even a usage error cannot land in an input.
[[nodiscard]] int refuse_streams_onto_arguments(int argc, char** argv);

// Last thing in main(): flushes both streams and returns the exit code for a
// command that ended with `code` (the rules above).
[[nodiscard]] int finish_standard_streams(int code);

}  // namespace ftlsim::cli
