// cli/stop_signal.h: the one Ctrl-C mechanism of ftlsim (sweeps, replay).
// Signals are raised in this process (synchronously delivered to the
// calling thread) and, for the second signal that ends the process, in a
// forked child.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <stdexcept>
#include <string>

#include "cli/stop_signal.h"

using ftlsim::cli::StopSignalScope;

namespace {

volatile sig_atomic_t g_test_handler_calls = 0;
extern "C" void test_handler(int /*sig*/) { g_test_handler_calls = g_test_handler_calls + 1; }

// The handler installed for `sig` right now.
void (*current_handler(int sig))(int) {
  struct sigaction now {};
  ::sigaction(sig, nullptr, &now);
  return now.sa_handler;
}

}  // namespace

TEST_CASE("a signal inside the scope sets the flag, and the old handler is back after it", "[cli][unit]") {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    INFO("signal " << sig);
    struct sigaction mine {};
    mine.sa_handler = test_handler;
    sigemptyset(&mine.sa_mask);
    struct sigaction before {};
    REQUIRE(::sigaction(sig, &mine, &before) == 0);
    g_test_handler_calls = 0;
    {
      const StopSignalScope scope("test: stopping");
      CHECK_FALSE(scope.stopped());
      CHECK(current_handler(sig) != test_handler);
      REQUIRE(std::raise(sig) == 0);  // the first one only sets the flag
      CHECK(scope.stopped());
      CHECK(scope.flag()->load());
      CHECK(g_test_handler_calls == 0);
    }
    CHECK(current_handler(sig) == test_handler);
    REQUIRE(std::raise(sig) == 0);
    CHECK(g_test_handler_calls == 1);
    {
      const StopSignalScope again("test: stopping");
      CHECK_FALSE(again.stopped());  // a new scope starts with the flag clear
    }
    ::sigaction(sig, &before, nullptr);
  }
}

TEST_CASE("one stop scope at a time", "[cli][unit]") {
  const StopSignalScope scope("test: stopping");
  CHECK_THROWS_AS(StopSignalScope("test: nested"), std::logic_error);
  CHECK_FALSE(scope.stopped());
}

TEST_CASE("the first signal prints the scope's message, the second ends the process by that signal", "[cli][unit]") {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    INFO("signal " << sig);
    int pipe_fds[2];
    REQUIRE(::pipe(pipe_fds) == 0);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::dup2(pipe_fds[1], STDERR_FILENO);
      ::close(pipe_fds[0]);
      ::signal(sig, SIG_DFL);
      const StopSignalScope scope("test: stopping");
      std::raise(sig);
      if (!scope.stopped()) ::_exit(3);
      std::raise(sig);  // ends the process here
      ::_exit(4);
    }
    ::close(pipe_fds[1]);
    std::string err;
    char buf[256];
    ssize_t got = 0;
    while ((got = ::read(pipe_fds[0], buf, sizeof buf)) > 0) err.append(buf, static_cast<size_t>(got));
    ::close(pipe_fds[0]);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status));
    if (WIFSIGNALED(status)) CHECK(WTERMSIG(status) == sig);
    if (WIFEXITED(status)) FAIL("exited " << WEXITSTATUS(status));
    CHECK(err == "\nftlsim: test: stopping (Ctrl-C again to stop at once)\n");
  }
}

TEST_CASE("an ignored hang-up stays ignored (nohup)", "[cli][unit]") {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  struct sigaction before {};
  REQUIRE(::sigaction(SIGHUP, &ignore, &before) == 0);
  {
    const StopSignalScope scope("test: stopping");
    CHECK(current_handler(SIGHUP) == SIG_IGN);
    REQUIRE(std::raise(SIGHUP) == 0);
    CHECK_FALSE(scope.stopped());
  }
  CHECK(current_handler(SIGHUP) == SIG_IGN);
  ::sigaction(SIGHUP, &before, nullptr);
}
