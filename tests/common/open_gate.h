#pragma once
// A seam for end-to-end tests of races: OpenGate holds the first open of one
// file by another process (fanotify permission events, FAN_OPEN_PERM) until
// an action has run, then lets it and every later open proceed. A test
// gates a file a command opens between two of its steps (the trace, read
// after an output is checked) and changes a path in the action: the command
// then meets the change at exactly that point, every time.
//
// `extra` adds to the marked events: FAN_ONDIR gates the open of a folder.
//
// Needs root (CAP_SYS_ADMIN) and a kernel with
// CONFIG_FANOTIFY_ACCESS_PERMISSIONS; ok() is false otherwise and the test
// skips. The action must not open the gated file (it would wait on itself).
#include <fcntl.h>
#include <poll.h>
#include <sys/fanotify.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <utility>

namespace ftlsim::test {

class OpenGate {
 public:
  OpenGate(const std::string& path, std::function<void()> action, uint64_t extra = 0) : action_(std::move(action)) {
    fan_ = ::fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC, O_RDONLY | O_CLOEXEC | O_LARGEFILE);
    if (fan_ < 0) return;
    if (::fanotify_mark(fan_, FAN_MARK_ADD, FAN_OPEN_PERM | extra, AT_FDCWD, path.c_str()) != 0 ||
        ::pipe2(stop_, O_CLOEXEC) != 0) {
      ::close(fan_);
      fan_ = -1;
      return;
    }
    thread_ = std::thread([this] { serve(); });
  }
  OpenGate(const OpenGate&) = delete;
  OpenGate& operator=(const OpenGate&) = delete;
  ~OpenGate() {
    if (fan_ < 0) return;
    (void)!::write(stop_[1], "x", 1);
    thread_.join();
    ::close(stop_[0]);
    ::close(stop_[1]);
    ::close(fan_);  // answers any event still pending with "allow"
  }

  // False when fanotify permission events are not available here.
  [[nodiscard]] bool ok() const { return fan_ >= 0; }
  // True once the action has run (the gated file was opened).
  [[nodiscard]] bool fired() const { return fired_.load(); }

 private:
  void serve() {
    alignas(fanotify_event_metadata) char buf[4096];
    for (;;) {
      pollfd fds[2] = {{fan_, POLLIN, 0}, {stop_[0], POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0) continue;
      if ((fds[1].revents & POLLIN) != 0) return;
      const ssize_t n = ::read(fan_, buf, sizeof buf);
      if (n <= 0) continue;
      auto* ev = reinterpret_cast<fanotify_event_metadata*>(buf);
      for (ssize_t left = n; FAN_EVENT_OK(ev, left); ev = FAN_EVENT_NEXT(ev, left)) {
        if ((ev->mask & FAN_OPEN_PERM) != 0) {
          if (ev->pid != ::getpid() && !fired_.load()) {
            action_();
            fired_.store(true);
          }
          fanotify_response allow{ev->fd, FAN_ALLOW};
          (void)!::write(fan_, &allow, sizeof allow);
        }
        if (ev->fd >= 0) ::close(ev->fd);
      }
    }
  }

  std::function<void()> action_;
  int fan_ = -1;
  int stop_[2] = {-1, -1};
  std::atomic<bool> fired_{false};
  std::thread thread_;
};

}  // namespace ftlsim::test
