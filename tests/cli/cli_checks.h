#pragma once
// Checks shared by the end-to-end tests of the ftlsim binary.
#include <catch2/catch.hpp>

#include <string>

#include "cli/cli_run.h"

namespace ftlsim::test {

// `args` is refused: exit code 2 and `message` in what it prints.
inline void expect_refusal(const std::string& args, const std::string& message) {
  const RunResult r = run_ftlsim(args);
  INFO(args << "\n" << r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains(message));
}

}  // namespace ftlsim::test
