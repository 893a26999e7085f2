#include "replay/device_stack.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "core/error.h"
#include "replay/sysfs_text.h"

namespace ftlsim::replay {
namespace {

namespace fs = std::filesystem;

struct DevNo {
  unsigned major = 0, minor = 0;
  friend bool operator==(const DevNo&, const DevNo&) = default;
};

// An attached loop device and what it reads and writes.
struct Loop {
  std::string name;
  DevNo dev;
  std::string backing;       // sysfs text, " (deleted)" dropped
  bool file = false;         // backed by a regular file `id`
  FileIdentity id;
  bool device = false;       // backed by the block device `backing_dev` (loop on loop)
  DevNo backing_dev;
};

std::vector<Loop> list_loops(const SafetyPaths& paths) {
  std::vector<Loop> loops;
  const fs::path block = fs::path(paths.sysfs) / "block";
  for (const std::string& name : list_dir(block)) {
    if (name.rfind("loop", 0) != 0) continue;
    Loop l;
    l.name = name;
    l.backing = trim(slurp((block / name / "loop" / "backing_file").string()));
    if (l.backing.empty() || !parse_dev(trim(slurp((block / name / "dev").string())), l.dev.major, l.dev.minor)) continue;
    constexpr std::string_view kDeleted = " (deleted)";
    if (l.backing.size() > kDeleted.size() && l.backing.ends_with(kDeleted)) l.backing.resize(l.backing.size() - kDeleted.size());
    struct stat st {};
    const bool named = ::stat(l.backing.c_str(), &st) == 0;
    // LOOP_GET_STATUS64 gives the backing inode itself, also when the name
    // no longer leads to it (lo_device is the kernel's huge_encode_dev()).
    bool by_ioctl = false;
    if (paths.sysfs == "/sys") {
      const int fd = ::open(("/dev/" + name).c_str(), O_RDONLY | O_CLOEXEC);
      struct loop_info64 li {};
      if (fd >= 0 && ::ioctl(fd, LOOP_GET_STATUS64, &li) == 0) {
        const auto d = li.lo_device;
        l.id = FileIdentity{::makedev(static_cast<unsigned>((d & 0xfff00) >> 8),
                                      static_cast<unsigned>((d & 0xff) | ((d >> 12) & 0xfff00))),
                            static_cast<ino_t>(li.lo_inode)};
        by_ioctl = true;
      }
      if (fd >= 0) ::close(fd);
    }
    if (!by_ioctl && named) l.id = FileIdentity{st.st_dev, st.st_ino};
    if (named && S_ISBLK(st.st_mode) && (!by_ioctl || (FileIdentity{st.st_dev, st.st_ino} == l.id))) {
      l.device = true;
      l.backing_dev = DevNo{::major(st.st_rdev), ::minor(st.st_rdev)};
    } else {
      l.file = by_ioctl || named;
    }
    loops.push_back(std::move(l));
  }
  return loops;
}

fs::path dev_dir(const SafetyPaths& paths, DevNo d) {
  return fs::path(paths.sysfs) / "dev" / "block" / fmt::format("{}:{}", d.major, d.minor);
}

// The sysfs name of a device ("loop0p1"), or "MAJ:MIN" when unknown.
std::string name_of(const SafetyPaths& paths, DevNo d) {
  std::error_code ec;
  const fs::path real = fs::canonical(dev_dir(paths, d), ec);
  return ec ? fmt::format("{}:{}", d.major, d.minor) : real.filename().string();
}

bool dev_of_name(const SafetyPaths& paths, const std::string& name, DevNo& d) {
  return parse_dev(trim(slurp((fs::path(paths.sysfs) / "class" / "block" / name / "dev").string())), d.major, d.minor);
}

bool is_partition(const SafetyPaths& paths, DevNo d) {
  std::error_code ec;
  return fs::exists(dev_dir(paths, d) / "partition", ec);
}

// The whole disk a partition belongs to.
bool parent_disk(const SafetyPaths& paths, DevNo d, DevNo& parent) {
  std::error_code ec;
  const fs::path real = fs::canonical(dev_dir(paths, d), ec);
  return !ec && parse_dev(trim(slurp((real.parent_path() / "dev").string())), parent.major, parent.minor);
}

template <typename F>
void for_each_named(const SafetyPaths& paths, DevNo d, const char* sub, F f) {
  for (const std::string& n : list_dir(dev_dir(paths, d) / sub)) {
    DevNo x;
    if (dev_of_name(paths, n, x)) f(x, n);
  }
}

bool has(const std::vector<StackDevice>& v, DevNo d) {
  return std::any_of(v.begin(), v.end(), [d](const StackDevice& s) { return s.major == d.major && s.minor == d.minor; });
}

bool has(const std::vector<BackingFile>& v, const FileIdentity& id) {
  return std::any_of(v.begin(), v.end(), [&id](const BackingFile& f) { return f.id == id; });
}

DeviceStack walk(std::vector<std::pair<DevNo, std::string>> down, DeviceStack stack, const SafetyPaths& paths) {
  const std::vector<Loop> loops = list_loops(paths);
  std::vector<StackDevice> disks;  // whole disks of partitions below: not written, their other partitions untouched
  // Down: what the target is built on.
  while (!down.empty()) {
    const auto [d, how] = down.front();
    down.erase(down.begin());
    if (has(stack.below, d)) continue;
    const std::string name = name_of(paths, d);
    stack.below.push_back({name, d.major, d.minor, how});
    DevNo whole = d;
    if (is_partition(paths, d) && parent_disk(paths, d, whole)) disks.push_back({name_of(paths, whole), whole.major, whole.minor, ""});
    for (const Loop& l : loops) {
      if (!(l.dev == whole)) continue;
      if (l.device) down.emplace_back(l.backing_dev, fmt::format("the device /dev/{} reads and writes", l.name));
      if (l.file && !has(stack.files, l.id)) stack.files.push_back({l.backing, l.id});
    }
    for_each_named(paths, d, "slaves", [&](DevNo s, const std::string&) {
      down.emplace_back(s, fmt::format("a device /dev/{} is built on", name));
    });
  }
  // Up: everything built on any of it.
  std::vector<std::pair<DevNo, std::string>> up;
  for (const Loop& l : loops) {
    if ((l.file && has(stack.files, l.id)) || (l.device && has(stack.below, l.backing_dev))) {
      up.emplace_back(l.dev, fmt::format("a loop device over {}", l.backing));
    }
  }
  const auto built_on = [&](DevNo d, const std::string& name) {
    for_each_named(paths, d, "holders", [&](DevNo h, const std::string&) {
      up.emplace_back(h, fmt::format("built on /dev/{}", name));
    });
    if (!is_partition(paths, d)) {
      for (const std::string& p : list_dir(dev_dir(paths, d))) {
        DevNo x;
        if (fs::exists(dev_dir(paths, d) / p / "partition") && dev_of_name(paths, p, x)) {
          up.emplace_back(x, fmt::format("a partition of /dev/{}", name));
        }
      }
    }
    for (const Loop& l : loops) {
      if (l.device && l.backing_dev == d) up.emplace_back(l.dev, fmt::format("a loop device over /dev/{}", name));
    }
  };
  for (const StackDevice& b : stack.below) built_on(DevNo{b.major, b.minor}, b.name);
  while (!up.empty()) {
    const auto [d, how] = up.front();
    up.erase(up.begin());
    if (has(stack.below, d) || has(stack.above, d) || has(disks, d)) continue;
    const std::string name = name_of(paths, d);
    stack.above.push_back({name, d.major, d.minor, how});
    built_on(d, name);
  }
  return stack;
}

}  // namespace

DeviceStack stack_of_device(unsigned major, unsigned minor, const SafetyPaths& paths) {
  return walk({{DevNo{major, minor}, "the target"}}, {}, paths);
}

DeviceStack stack_of_file(const std::string& path, const SafetyPaths& paths) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return stack_of_file(path, FileIdentity{st.st_dev, st.st_ino}, paths);
}

DeviceStack stack_of_file(const std::string& path, FileIdentity id, const SafetyPaths& paths) {
  DeviceStack stack;
  stack.files.push_back({path, id});
  return walk({}, std::move(stack), paths);
}

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
                           say(": the input {} {}{} is on a file system of /dev/{} ({}), which shares its storage; "
                               "a replay never writes to an input, `force` or not",
                               in.option, in.path, via, d.name, d.how));
        }
      }
    }
  }
}

std::vector<std::string> stack_findings(const DeviceStack& stack, const SafetyPaths& paths) {
  std::vector<std::string> findings;
  const std::string mountinfo = slurp(paths.mountinfo);
  const std::vector<std::string> swaps = swap_paths(slurp(paths.swaps));
  const auto in_use = [&](const StackDevice& d) {
    const std::string who = fmt::format("/dev/{} ({})", d.name, d.how);
    add_use_findings(d.major, d.minor, who, mountinfo, swaps, findings);
    return who;
  };
  for (size_t i = 1; i < stack.below.size(); ++i) in_use(stack.below[i]);
  for (const StackDevice& d : stack.above) {
    const std::string who = in_use(d);
    if (paths.sysfs != "/sys") continue;  // fixtures have no device nodes to probe
    for (const std::string& s : probe_signatures("/dev/" + d.name)) findings.push_back(fmt::format("{}: {}", who, s));
  }
  return findings;
}

}  // namespace ftlsim::replay
