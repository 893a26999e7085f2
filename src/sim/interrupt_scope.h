#pragma once
// SIGINT/SIGTERM while a sweep runs.
#include <atomic>

namespace ftlsim::sim {

// While alive, the first SIGINT or SIGTERM only sets flag() (a sweep then
// starts no new configuration, and the ones running finish); a second one
// restores the default action and re-raises it, ending the process at once.
// The previous handlers are restored on destruction. The flag is
// process-wide (a signal handler has nowhere else to write): REQUIRES at
// most one InterruptScope alive at a time.
class InterruptScope {
 public:
  InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
  ~InterruptScope();
  [[nodiscard]] const std::atomic<bool>* flag() const;
  [[nodiscard]] bool interrupted() const { return flag()->load(); }
};

}  // namespace ftlsim::sim
