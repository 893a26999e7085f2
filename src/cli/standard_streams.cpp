#include "cli/standard_streams.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "core/error.h"
#include "core/escape.h"

namespace ftlsim::cli {
namespace {

// One standard stream: its descriptor and the first error writing it. The
// process has one of each, as it has one descriptor 1 and one 2.
// (Names unique across src/cli: its files are compiled as unity sources.)
struct StdStream {
  int fd;
  int error = 0;
};
StdStream g_std_out{STDOUT_FILENO};
StdStream g_std_err{STDERR_FILENO};

// The stream's write function: writes everything, or remembers why not and
// drops the rest. It always reports success to stdio, so that fmt::print
// never throws in the middle of a command (the error is main()'s to report).
ssize_t write_std_stream(void* cookie, const char* buf, size_t size) {
  auto* s = static_cast<StdStream*>(cookie);
  size_t done = 0;
  while (s->error == 0 && done < size) {
    const ssize_t n = ::write(s->fd, buf + done, size - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {  // a non-blocking pipe: wait for room
      pollfd p{s->fd, POLLOUT, 0};
      (void)::poll(&p, 1, -1);
    } else {
      s->error = n < 0 ? errno : EIO;
    }
  }
  return static_cast<ssize_t>(size);
}

// A descriptor the caller closed is held by /dev/null, read-only.
void hold_if_closed(int fd) {
  if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) return;
  const int null = ::open("/dev/null", O_RDONLY);
  if (null < 0 || null == fd) return;
  (void)::dup2(null, fd);
  ::close(null);
}

std::FILE* open_std_stream(StdStream& s, int mode) {
  const cookie_io_functions_t io{nullptr, &write_std_stream, nullptr, nullptr};
  std::FILE* f = ::fopencookie(&s, "w", io);
  if (f != nullptr) (void)std::setvbuf(f, nullptr, mode, mode == _IONBF ? 0 : BUFSIZ);
  return f;
}

}  // namespace

void guard_standard_streams() {
  (void)std::signal(SIGPIPE, SIG_IGN);
  for (const int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) hold_if_closed(fd);
  if (std::FILE* out = open_std_stream(g_std_out, ::isatty(STDOUT_FILENO) != 0 ? _IOLBF : _IOFBF); out != nullptr) {
    std::fflush(stdout);
    stdout = out;
  }
  if (std::FILE* err = open_std_stream(g_std_err, _IONBF); err != nullptr) stderr = err;
}

int stdout_error() {
  std::fflush(stdout);
  return g_std_out.error;
}

void print_stdout(const std::string& text) { fmt::print("{}", text); }

int finish_standard_streams(int code) {
  std::fflush(stdout);
  if (g_std_out.error != 0 && g_std_out.error != EPIPE && code == 0) {
    fmt::print(stderr, "ftlsim: error: standard output: cannot write: {}\n", std::strerror(g_std_out.error));
    code = 1;
  }
  std::fflush(stderr);
  // Diagnostics that could not be written (not to a reader that left): the
  // run cannot say so, but does not claim success.
  if (g_std_err.error != 0 && g_std_err.error != EPIPE && code == 0) code = 1;
  return code;
}

void check_not_standard_stream(const std::string& option, const std::string& path, FileIdentity id) {
  for (const int fd : {STDOUT_FILENO, STDERR_FILENO}) {
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || FileIdentity{st.st_dev, st.st_ino} != id) continue;
    if (fd == STDERR_FILENO) {
      // The refusal itself must not land in the input: standard error goes
      // to /dev/null first (the exit code, 2, tells).
      const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
      if (null >= 0) {
        ::dup2(null, STDERR_FILENO);
        ::close(null);
      }
    }
    throw InputError(
        fmt::format("standard {} is the input {} {}: writing to it would destroy what is read; "
                    "redirect it elsewhere",
                    fd == STDOUT_FILENO ? "output" : "error", option, escape_for_terminal(path)));
  }
}

void check_not_standard_stream(const RunInputs& inputs) {
  for (const RunInputs::Input& in : inputs.inputs()) {
    if (!in.planned) check_not_standard_stream(in.option, in.path, in.id);
  }
}

int refuse_streams_onto_arguments(int argc, char** argv) {
  try {
    for (int i = 1; i < argc; ++i) {
      std::string word = argv[i];
      if (word.rfind("--", 0) == 0 && word.find('=') != std::string::npos) word.erase(0, word.find('=') + 1);
      struct stat st {};
      if (word.empty() || ::stat(word.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
      check_not_standard_stream("argument", word, FileIdentity{st.st_dev, st.st_ino});
    }
  } catch (const InputError& e) {
    std::fprintf(stderr, "ftlsim: error: %s\n", e.what());
    return 2;
  }
  return 0;
}

}  // namespace ftlsim::cli
