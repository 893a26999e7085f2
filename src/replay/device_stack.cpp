#include "replay/device_stack.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "core/dir_fd.h"
#include "core/error.h"
#include "core/sysfs_text.h"
#include "replay/target.h"

namespace ftlsim::replay {
namespace {

namespace fs = std::filesystem;

bool has_node(const StackDevice& d) { return device_shown(d) != d.name; }

// True when an exclusive open of the device `d` fails with EBUSY, tried
// again for kBusyWait (target.h: a replay killed a moment ago holds its
// target until the kernel has closed its files). A node that is missing or
// another device counts as not busy: nothing can be said about it here.
bool busy(const StackDevice& d) {
  const auto deadline = std::chrono::steady_clock::now() + kBusyWait;
  auto pause = std::chrono::milliseconds(10);
  for (;;) {
    const int fd = ::open(("/dev/" + d.name).c_str(), O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
      ::close(fd);
      return false;
    }
    if (errno != EBUSY) return false;
    struct stat st {};
    if (::stat(("/dev/" + d.name).c_str(), &st) != 0 || !S_ISBLK(st.st_mode) || ::major(st.st_rdev) != d.major ||
        ::minor(st.st_rdev) != d.minor) {
      return false;
    }
    if (std::chrono::steady_clock::now() >= deadline) return true;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(100));
  }
}

}  // namespace

void check_stack_inputs(const DeviceStack& stack, const RunInputs& inputs, const Message& target) {
  // As RunInputs::check_resolved: an input whose overlay layers are unknown
  // cannot be told apart from the target's storage.
  for (const RunInputs::Input& in : inputs.inputs()) {
    if (!in.unresolved.empty()) {
      throw InputError(Message("refusing to write to ") + target +
                       Message(fmt::format(": {}, so it cannot be told apart from what is written (copy the input "
                                           "out of the overlay)",
                                           in.unresolved)));
    }
  }
  // A file of the stack on a FUSE or network file system: what stores it,
  // and who else writes to it under another name, cannot be seen.
  for (const BackingFile& f : stack.files) {
    if (f.aliasing.empty()) continue;
    const bool itself = stack.below.empty() && &f == &stack.files.front();
    throw InputError(Message("refusing to write to ") + target +
                     say(": {}{} is on a {} file system, whose storage ftlsim can neither see nor lock (the same file "
                         "under another name, an input among them, or another replay writing to it would go "
                         "unnoticed); give a file on a local file system or a block device, `force` or not",
                         itself ? "" : "its data is stored in ", f.path + (itself ? "" : ", which"), f.aliasing));
  }
  for (const RunInputs::Input& in : inputs.inputs()) {
    if (in.planned || !in.unresolved.empty()) continue;
    // An input on an overlay: also each layer file (`stored`) and each layer
    // folder's file system (device_only).
    const std::string via = in.stored.empty() ? std::string()
                            : in.device_only  ? fmt::format(" (its overlay layer {} is there)", in.stored)
                                              : fmt::format(" (stored as {} in its overlay)", in.stored);
    for (const BackingFile& f : stack.files) {
      if (!in.device_only && f.id == in.id) {
        throw InputError(Message("refusing to write to ") + target +
                         say(": its data is stored in the input {} {}{} (backing file {}); a replay never writes to "
                             "an input, `force` or not",
                             in.option, in.path, via, f.path));
      }
    }
    for (const auto* devices : {&stack.below, &stack.above}) {
      for (const StackDevice& d : *devices) {
        if (::makedev(d.major, d.minor) == in.id.dev) {
          throw InputError(Message("refusing to write to ") + target +
                           say(": the input {} {}{} is on a file system of {} ({}), which shares its storage; "
                               "a replay never writes to an input, `force` or not",
                               in.option, in.path, via, device_shown(d), d.how));
        }
      }
    }
  }
  // An input on a FUSE or network file system: its storage cannot be seen,
  // so a file of the stack that looks the same is taken to be it ...
  for (const BackingFile& f : stack.files) {
    const UniqueFd fd(::open(f.path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    struct stat st {};
    if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || FileIdentity{st.st_dev, st.st_ino} != f.id) continue;
    if (const RunInputs::Input* in = inputs.seen_as(fd.get())) {
      throw InputError(Message("refusing to write to ") + target +
                       say(": {} looks the same as the input {} {}{} (the same size, modification time and first and "
                           "last 4 KiB), so it is taken to be that file under another name; a replay never writes to "
                           "an input, `force` or not",
                           f.path, in->option, in->path,
                           in->aliased.empty() ? std::string() : " on a " + in->aliased + " file system"));
    }
  }
  // ... and it may be stored in any file system mounted from the stack.
  const std::string mountinfo = slurp(SafetyPaths{}.mountinfo);
  for (const RunInputs::Input& in : inputs.inputs()) {
    if (in.planned || in.aliased.empty()) continue;
    for (const auto* devices : {&stack.below, &stack.above}) {
      for (const StackDevice& d : *devices) {
        const std::vector<std::string> at = mounts_of(mountinfo, d.major, d.minor);
        if (at.empty()) continue;
        throw InputError(Message("refusing to write to ") + target +
                         say(": the input {} {} is on a {} file system, whose storage ftlsim cannot see; it may be "
                             "stored in the file system mounted at {} from {} ({}); a replay never writes to an "
                             "input, `force` or not",
                             in.option, in.path, in.aliased, at.front(), device_shown(d), d.how));
      }
    }
  }
}

std::vector<std::string> stack_findings(const DeviceStack& stack, const SafetyPaths& paths,
                                        bool skip_loops_over_files) {
  std::vector<std::string> findings;
  const std::string mountinfo = slurp(paths.mountinfo);
  const std::vector<std::string> swaps = swap_paths(slurp(paths.swaps));
  const auto in_use = [&](const StackDevice& d) {
    const std::string who = fmt::format("{} ({})", device_shown(d), d.how);
    add_use_findings(d.major, d.minor, who, mountinfo, swaps, findings);
    return who;
  };
  for (size_t i = 1; i < stack.below.size(); ++i) in_use(stack.below[i]);
  for (const StackDevice& d : stack.above) {
    if (skip_loops_over_files && d.over_file) continue;
    const std::string who = in_use(d);
    if (!paths.live() || !has_node(d)) continue;  // fixtures, and file systems without a device, have no node to probe
    for (const std::string& s : probe_signatures("/dev/" + d.name)) findings.push_back(fmt::format("{}: {}", who, s));
  }
  return findings;
}

void check_stack_busy(const DeviceStack& stack, const Message& target, bool probe_target, const SafetyPaths& paths) {
  if (!paths.live()) return;
  if (!stack.hidden.empty()) {
    throw InputError(Message("refusing to write to ") + target +
                     say(": {}; it may hold an input or a live file system, so it is not written, `force` or not",
                         stack.hidden.front()));
  }
  const std::string mountinfo = slurp(paths.mountinfo);
  const std::vector<std::string> swaps = swap_paths(slurp(paths.swaps));
  // What the kernel's claim on `d` can be: a mount here, a swap, a holder,
  // or a device of the stack built on it (a partition, a file system that
  // uses it as its log or journal, ...), each checked itself.
  const auto explained = [&](const StackDevice& d) {
    std::vector<std::string> uses;
    add_use_findings(d.major, d.minor, d.name, mountinfo, swaps, uses);
    if (!uses.empty()) return true;
    if (!list_dir(fs::path(paths.sysfs) / "dev" / "block" / fmt::format("{}:{}", d.major, d.minor) / "holders")
             .empty()) {
      return true;
    }
    for (const StackDevice& a : stack.above) {
      if (a.base == d.name) return true;
    }
    return false;
  };
  const auto check = [&](const StackDevice& d) {
    if (!has_node(d) || explained(d) || !busy(d)) return;
    throw InputError(Message("refusing to write to ") + target +
                     say(": {} ({}) is busy: the kernel refuses an exclusive open, and nothing ftlsim can see uses "
                         "it (mounted in another mount namespace, the log or journal of a file system not mounted "
                         "here, or held by another program); it may hold an input or a live file system, so it is "
                         "not written, `force` or not",
                         device_shown(d), d.how));
  };
  for (size_t i = probe_target ? 0 : 1; i < stack.below.size(); ++i) check(stack.below[i]);
  for (const StackDevice& d : stack.above) check(d);
}

}  // namespace ftlsim::replay
