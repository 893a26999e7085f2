#pragma once
// Error types thrown at the edges (files, headers, options). `main` turns
// each into one line on stderr and an exit code; library code never exits.
#include <stdexcept>
#include <string>

namespace ftlsim {

// Bad input the user can fix: malformed trace, impossible configuration,
// out-of-range LBA. The message names the file and record/line or option.
// Exit code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The environment failed us: an I/O error, a syscall that refused. Exit code 1.
class SystemError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Builds "what: strerror(errno)" for a failed syscall.
[[nodiscard]] SystemError system_error_from_errno(const std::string& what);

}  // namespace ftlsim
