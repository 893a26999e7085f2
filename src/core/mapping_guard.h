#pragma once
// Read-only file mappings that survive their file shrinking. When another
// program truncates a file ftlsim has mapped (a trace being rewritten, say),
// touching a page past the new end raises SIGBUS, which would kill the
// process mid-run: a replay would leave the device partly written and no
// report. A MappingGuard registers a mapping with a SIGBUS handler that maps
// zero-filled pages over the lost part and records the fault, so the access
// continues; the owner then finds faulted() set (zero records are invalid,
// so every consumer stops at the first one anyway) and main() prints
// mapped_input_fault() instead of whatever error the zeros caused.
//
// The fast path is unchanged: no check per page or record, only a signal
// handler that runs when the file has already shrunk.
#include <cstddef>
#include <string>
#include <string_view>

namespace ftlsim {

class MappingGuard {
 public:
  MappingGuard() = default;
  // Registers [addr, addr + bytes) as the mapping of `path`; installs the
  // process's SIGBUS handler on first use. At most kMaxGuards at once
  // (beyond that the mapping is unguarded, as before).
  MappingGuard(const void* addr, size_t bytes, const std::string& path);
  MappingGuard(const MappingGuard&) = delete;
  MappingGuard& operator=(const MappingGuard&) = delete;
  // Unregisters; a fault is remembered for mapped_input_fault().
  ~MappingGuard();

  // A page of the mapping vanished (the file shrank) and reads as zeros.
  [[nodiscard]] bool faulted() const;

  static constexpr size_t kMaxGuards = 64;

 private:
  int slot_ = -1;
  std::string path_;
};

// "<path>: the file shrank while ftlsim was reading it (...)" for the first
// guarded mapping that faulted in this process, or "" when none did.
[[nodiscard]] std::string mapped_input_fault();

// The words every such message holds (docs/bad_input.md).
inline constexpr std::string_view kInputChanged = "the file changed while ftlsim was reading it";

// The message for a file that shrank or changed while being read.
[[nodiscard]] std::string input_changed_message(const std::string& path, const std::string& what);

}  // namespace ftlsim
