#include "sim/interrupt_scope.h"

#include <unistd.h>

#include <csignal>

namespace ftlsim::sim {
namespace {

// Written by the signal handler: lock-free, so async-signal-safe.
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);
struct sigaction g_old_int {};
struct sigaction g_old_term {};

extern "C" void on_interrupt(int sig) {
  if (g_interrupted.exchange(true)) {  // the second signal: stop at once
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  static constexpr char kMsg[] =
      "\nftlsim: interrupted: finishing the configurations in progress (Ctrl-C again to stop at once)\n";
  const ssize_t unused = ::write(STDERR_FILENO, kMsg, sizeof kMsg - 1);
  (void)unused;
}

}  // namespace

InterruptScope::InterruptScope() {
  g_interrupted.store(false);
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  ::sigaction(SIGINT, &sa, &g_old_int);
  ::sigaction(SIGTERM, &sa, &g_old_term);
}

InterruptScope::~InterruptScope() {
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
}

const std::atomic<bool>* InterruptScope::flag() const { return &g_interrupted; }

}  // namespace ftlsim::sim
