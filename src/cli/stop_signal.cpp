#include "cli/stop_signal.h"

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <stdexcept>

namespace ftlsim::cli {
namespace {

// Written by the signal handler: lock-free, so async-signal-safe.
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free);
std::atomic<bool> g_scope_alive{false};
// The message of the live scope; set before the handlers are installed.
const char* g_message = nullptr;
size_t g_message_size = 0;
struct sigaction g_old_int {};
struct sigaction g_old_term {};
struct sigaction g_old_hup {};

void write_stderr(const char* s, size_t n) {
  const ssize_t unused = ::write(STDERR_FILENO, s, n);
  (void)unused;
}

extern "C" void on_stop_signal(int sig) {
  const int saved_errno = errno;  // write() may change it under the interrupted code
  if (g_stop.exchange(true)) {    // the second signal: stop at once
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  static constexpr char kHead[] = "\nftlsim: ";
  static constexpr char kTail[] = " (Ctrl-C again to stop at once)\n";
  write_stderr(kHead, sizeof kHead - 1);
  write_stderr(g_message, g_message_size);
  write_stderr(kTail, sizeof kTail - 1);
  errno = saved_errno;
}

}  // namespace

StopSignalScope::StopSignalScope(std::string_view message) {
  if (g_scope_alive.exchange(true)) throw std::logic_error("StopSignalScope: another scope is alive");
  g_message = message.data();
  g_message_size = message.size();
  g_stop.store(false);
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: waits return EINTR
  ::sigaction(SIGINT, &sa, &g_old_int);
  ::sigaction(SIGTERM, &sa, &g_old_term);
  // A hang-up (the ssh session dropped) stops the same way, unless it is
  // ignored (nohup), which it stays.
  ::sigaction(SIGHUP, nullptr, &g_old_hup);
  if (g_old_hup.sa_handler != SIG_IGN) ::sigaction(SIGHUP, &sa, nullptr);
}

StopSignalScope::~StopSignalScope() {
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
  ::sigaction(SIGHUP, &g_old_hup, nullptr);
  g_scope_alive.store(false);
}

const std::atomic<bool>* StopSignalScope::flag() const { return &g_stop; }

}  // namespace ftlsim::cli
