#pragma once
// stat() that cannot hang the run. The storage checks (core/mount_table.h,
// core/storage_stack.h) look at paths of every mount and loop device, also
// ones that have nothing to do with the run; a path under a FUSE file system
// whose daemon is stopped blocks stat() for as long as it stays stopped.
// Here the stat runs on a helper thread, and a caller gives up after a
// bound: the thread is left waiting (it ends with the process, since a
// FUSE wait ends on a fatal signal).
#include <sys/stat.h>

#include <chrono>
#include <optional>
#include <string>

namespace ftlsim {

// How long a stat of a path the run does not read may take before its file
// system counts as not answering.
inline constexpr std::chrono::milliseconds kStatBound{3000};

struct BoundedStat {
  bool answered = true;  // false: no answer within the bound
  int error = 0;         // stat's errno when it failed
  struct stat st {};
  [[nodiscard]] bool ok() const { return answered && error == 0; }
};

// stat(path), waiting at most `bound`.
[[nodiscard]] BoundedStat stat_bounded(const std::string& path, std::chrono::milliseconds bound = kStatBound);

}  // namespace ftlsim
