#include "core/mapping_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace ftlsim {
namespace {

// One registered mapping. The handler reads begin/end and sets faulted;
// all three are lock-free atomics, so the handler is async-signal-safe.
struct Slot {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};  // page-aligned; 0 = free
  std::atomic<bool> faulted{false};
};
static_assert(std::atomic<uintptr_t>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);

Slot g_slots[MappingGuard::kMaxGuards];
std::atomic<uintptr_t> g_page_mask{0};
std::mutex g_mutex;                             // registration and g_first_fault
std::string g_first_fault;                      // kept after the guard is gone
std::string g_paths[MappingGuard::kMaxGuards];  // of the registered mappings

extern "C" void on_sigbus(int sig, siginfo_t* info, void* /*context*/) {
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  const uintptr_t mask = g_page_mask.load(std::memory_order_relaxed);
  for (Slot& s : g_slots) {
    const uintptr_t b = s.begin.load(std::memory_order_acquire);
    const uintptr_t e = s.end.load(std::memory_order_acquire);
    if (e == 0 || addr < b || addr >= e) continue;
    const uintptr_t page = addr & ~mask;
    // Zero pages from the faulting one to the mapping's end: the access is
    // retried and reads zeros. mmap is a plain system call here.
    void* p =
        ::mmap(reinterpret_cast<void*>(page), e - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (p != MAP_FAILED) {
      s.faulted.store(true, std::memory_order_release);
      return;
    }
    break;
  }
  // Not one of ours (or it could not be patched): die as before.
  ::signal(sig, SIG_DFL);
}

void install_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_page_mask.store(static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE)) - 1);
    struct sigaction sa {};
    sa.sa_sigaction = on_sigbus;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO;
    ::sigaction(SIGBUS, &sa, nullptr);
  });
}

}  // namespace

std::string input_changed_message(const std::string& path, const std::string& what) {
  return fmt::format("{}: {} ({}; truncated or rewritten by another program?): nothing computed from it is valid", path,
                     kInputChanged, what);
}

MappingGuard::MappingGuard(const void* addr, size_t bytes, const std::string& path) : path_(path) {
  if (addr == nullptr || bytes == 0) return;
  install_handler();
  const std::lock_guard lock(g_mutex);
  for (size_t i = 0; i < kMaxGuards; ++i) {
    Slot& s = g_slots[i];
    if (s.end.load() != 0) continue;
    const auto b = reinterpret_cast<uintptr_t>(addr);
    const uintptr_t mask = g_page_mask.load();
    s.faulted.store(false);
    s.begin.store(b, std::memory_order_release);
    s.end.store((b + bytes + mask) & ~mask, std::memory_order_release);
    g_paths[i] = path;
    slot_ = static_cast<int>(i);
    return;
  }
}

MappingGuard::~MappingGuard() {
  if (slot_ < 0) return;
  const std::lock_guard lock(g_mutex);
  Slot& s = g_slots[slot_];
  if (s.faulted.load() && g_first_fault.empty()) {
    g_first_fault = input_changed_message(path_, "it shrank while mapped");
  }
  s.end.store(0, std::memory_order_release);
  s.begin.store(0, std::memory_order_release);
}

bool MappingGuard::faulted() const { return slot_ >= 0 && g_slots[slot_].faulted.load(std::memory_order_acquire); }

std::string mapped_input_fault() {
  const std::lock_guard lock(g_mutex);
  if (!g_first_fault.empty()) return g_first_fault;
  for (size_t i = 0; i < MappingGuard::kMaxGuards; ++i) {
    if (g_slots[i].end.load() != 0 && g_slots[i].faulted.load()) {
      return input_changed_message(g_paths[i], "it shrank while mapped");
    }
  }
  return {};
}

}  // namespace ftlsim
