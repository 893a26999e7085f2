#pragma once
// Ctrl-C for long-running commands (a sweep, a replay): the one place that
// installs signal handlers. The library code they call (src/sim, src/replay)
// only reads a `const std::atomic<bool>*` stop flag.
#include <atomic>
#include <string_view>

namespace ftlsim::cli {

// While alive, the first SIGINT, SIGTERM or SIGHUP (unless SIGHUP was
// ignored, as under nohup) sets flag() and writes `message`
// (with "\nftlsim: " before it) to stderr; the command then stops starting
// new work and finishes what is in flight. A second one restores the default
// action and re-raises the signal, ending the process at once. The handlers
// have no SA_RESTART, so a blocking wait returns EINTR and can look at the
// flag. The previous handlers are restored on destruction.
//
// The flag is process-wide (a signal handler has nowhere else to write):
// one StopSignalScope at a time, a second one alive at once throws
// std::logic_error. The flag is cleared when a scope begins.
class StopSignalScope {
 public:
  // `message`: a string literal (it must outlive the scope), e.g.
  // "interrupted: finishing the configurations in progress".
  explicit StopSignalScope(std::string_view message);
  StopSignalScope(const StopSignalScope&) = delete;
  StopSignalScope& operator=(const StopSignalScope&) = delete;
  ~StopSignalScope();

  [[nodiscard]] const std::atomic<bool>* flag() const;
  [[nodiscard]] bool stopped() const { return flag()->load(); }
};

}  // namespace ftlsim::cli
