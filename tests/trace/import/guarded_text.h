#pragma once
// A huge text of which only a prefix can be read: a parser that looks past
// the prefix faults, and the fault is caught and reported instead of
// crashing the test. It shows how far a parser reads, whatever the size it
// is given (the line limit: a text input is read no further than 4 KiB into
// a line, however long the file).
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string_view>

namespace ftlsim::trace::test {

class GuardedText {
 public:
  // `prefix`, then `fill` bytes up to `readable` bytes readable in all (a
  // multiple of the page size), then unreadable bytes up to `size`.
  GuardedText(std::string_view prefix, char fill, size_t readable, size_t size) : size_(size) {
    void* p = ::mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("GuardedText: cannot reserve the address space");
    base_ = static_cast<char*>(p);
    if (::mprotect(base_, readable, PROT_READ | PROT_WRITE) != 0) throw std::runtime_error("GuardedText: mprotect");
    std::memset(base_, fill, readable);
    std::memcpy(base_, prefix.data(), prefix.size());
    (void)::mprotect(base_, readable, PROT_READ);
    readable_ = readable;
  }
  ~GuardedText() { ::munmap(base_, size_); }
  GuardedText(const GuardedText&) = delete;
  GuardedText& operator=(const GuardedText&) = delete;

  [[nodiscard]] std::string_view text() const { return {base_, size_}; }

  // Runs f(text()); false when f read past the readable prefix (it is left
  // there: what it allocated leaks, which a failing test may afford).
  template <class F>
  bool reads_within_prefix(F&& f) {
    struct sigaction sa {};
    struct sigaction old_segv {};
    struct sigaction old_bus {};
    sa.sa_sigaction = &on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGSEGV, &sa, &old_segv);
    ::sigaction(SIGBUS, &sa, &old_bus);
    sigjmp_buf here;
    jump() = &here;
    guarded() = this;
    bool within = true;
    if (sigsetjmp(here, 1) == 0) {
      f(text());
    } else {
      within = false;
    }
    jump() = nullptr;
    guarded() = nullptr;
    ::sigaction(SIGSEGV, &old_segv, nullptr);
    ::sigaction(SIGBUS, &old_bus, nullptr);
    return within;
  }

 private:
  static sigjmp_buf*& jump() {
    static sigjmp_buf* j = nullptr;
    return j;
  }
  static GuardedText*& guarded() {
    static GuardedText* g = nullptr;
    return g;
  }
  static void on_fault(int sig, siginfo_t* info, void*) {
    const GuardedText* g = guarded();
    const auto* at = static_cast<const char*>(info->si_addr);
    if (g != nullptr && jump() != nullptr && at >= g->base_ + g->readable_ && at < g->base_ + g->size_) {
      siglongjmp(*jump(), 1);
    }
    ::signal(sig, SIG_DFL);  // another fault: a real crash
    ::raise(sig);
  }

  char* base_ = nullptr;
  size_t readable_ = 0;
  size_t size_ = 0;
};

}  // namespace ftlsim::trace::test
