#pragma once
// How much memory a run may use: the system's MemAvailable, or the memory
// left under the process's cgroup limit when that is lower (a container, a
// systemd slice). ftlsim estimates a run's memory before allocating it
// (sim/memory_estimate.h) and refuses what will not fit, instead of being
// killed by the kernel halfway.
#include <cstdint>
#include <optional>
#include <string>

#include "core/message.h"

namespace ftlsim {

struct MemoryBudget {
  uint64_t bytes = 0;
  Message source;  // "MemAvailable in /proc/meminfo", "the cgroup limit (...)", `mem-limit`
};

// The memory available now: MemAvailable from <proc>/meminfo, lowered to
// limit - (usage - inactive file pages) of the process's memory cgroup and of
// each cgroup above it (v2: memory.max, memory.current, memory.stat's
// inactive_file; v1: memory.limit_in_bytes, memory.usage_in_bytes,
// total_inactive_file), read under `cgroup_root` for the paths in
// <proc>/self/cgroup. nullopt when MemAvailable cannot be read.
[[nodiscard]] std::optional<MemoryBudget> available_memory(const std::string& proc = "/proc",
                                                           const std::string& cgroup_root = "/sys/fs/cgroup");

// --mem-limit: "auto" (available_memory(), the default), "off" (no limit:
// nullopt) or a size ("12G"). Throws InputError naming the option.
[[nodiscard]] std::optional<MemoryBudget> memory_limit(const std::string& text);

}  // namespace ftlsim
