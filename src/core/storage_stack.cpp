#include "core/storage_stack.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <filesystem>
#include <optional>

#include "core/bounded_stat.h"
#include "core/dir_fd.h"
#include "core/error.h"
#include "core/mount_table.h"

namespace ftlsim {
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
  std::string backing;  // sysfs text, " (deleted)" dropped
  bool file = false;    // backed by a regular file `id`
  FileIdentity id;
  bool device = false;  // backed by the block device `backing_dev` (loop on loop)
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
    if (l.backing.empty() || !parse_dev(trim(slurp((block / name / "dev").string())), l.dev.major, l.dev.minor))
      continue;
    constexpr std::string_view kDeleted = " (deleted)";
    if (l.backing.size() > kDeleted.size() && l.backing.ends_with(kDeleted))
      l.backing.resize(l.backing.size() - kDeleted.size());
    const BoundedStat bs = stat_bounded(l.backing);
    if (!bs.answered) {
      throw InputError(
          fmt::format("{}'s backing file {} does not answer (stat waited {} s: on a FUSE file system whose "
                      "daemon stopped?), so ftlsim cannot tell whether it shares storage with what this "
                      "run writes or reads; detach it (losetup -d) or resume that daemon",
                      "/dev/" + name, l.backing, std::chrono::duration<double>(kStatBound).count()));
    }
    struct stat st = bs.st;
    const bool named = bs.error == 0;
    // LOOP_GET_STATUS64 gives the backing inode itself, also when the name
    // no longer leads to it (lo_device is the kernel's huge_encode_dev()).
    bool by_ioctl = false;
    if (paths.live()) {
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

// The sysfs name of a device ("loop0p1"), or "MAJ:MIN" when it has none
// (a file system without a device: FUSE, btrfs).
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
  return std::any_of(v.begin(), v.end(),
                     [d](const StackDevice& s) { return s.major == d.major && s.minor == d.minor; });
}

bool has(const std::vector<BackingFile>& v, const FileIdentity& id) {
  return std::any_of(v.begin(), v.end(), [&id](const BackingFile& f) { return f.id == id; });
}

// The ContentMark of the file `path` when it is the file `id`.
std::optional<ContentMark> mark_of(const std::string& path, const FileIdentity& id) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  struct stat st {};
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || FileIdentity{st.st_dev, st.st_ino} != id) return std::nullopt;
  return content_mark(fd.get());
}

// The aliasing file system (core/mount_table.h) the file `id` is on, by the
// mount table; for a file system not mounted here, by the file `path` leads
// to when it is that file.
std::string aliasing_of(const std::string& path, const FileIdentity& id, const std::vector<MountEntry>& mounts,
                        const SafetyPaths& paths) {
  const bool listed = std::any_of(mounts.begin(), mounts.end(), [&id](const MountEntry& m) {
    return m.major == ::major(id.dev) && m.minor == ::minor(id.dev);
  });
  if (listed || !paths.live()) return aliasing_fs_of(id.dev, mounts);
  const UniqueFd fd(::open(path.c_str(), O_PATH | O_CLOEXEC));
  struct stat st {};
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || FileIdentity{st.st_dev, st.st_ino} != id) return {};
  return aliasing_fs_of_open(fd.get(), paths);
}

std::string mount_how(const MountEntry& m, const MountBase& b) {
  return fmt::format("the {} file system mounted at {}, built on {}", m.fstype, m.mount_point, b.what);
}

struct Up {
  DevNo dev;
  std::string how;
  std::string base;
  bool over_file = false;
};

DeviceStack walk(std::deque<std::pair<DevNo, std::string>> down, DeviceStack stack, const SafetyPaths& paths) {
  const std::vector<Loop> loops = list_loops(paths);
  const MountTable table = read_mount_table(paths);
  const std::vector<MountEntry>& mounts = table.mounts;
  const std::vector<std::vector<MountBase>>& bases = table.bases;
  std::vector<StackDevice> disks;  // whole disks of partitions below: not written, their other partitions untouched
  // Down: what the target is built on.
  while (!down.empty()) {
    const auto [d, how] = down.front();
    down.pop_front();
    if (has(stack.below, d)) continue;
    const std::string name = name_of(paths, d);
    stack.below.push_back({name, d.major, d.minor, how, ""});
    DevNo whole = d;
    if (is_partition(paths, d) && parent_disk(paths, d, whole))
      disks.push_back({name_of(paths, whole), whole.major, whole.minor, "", ""});
    for (const Loop& l : loops) {
      if (!(l.dev == whole)) continue;
      if (l.device) down.emplace_back(l.backing_dev, fmt::format("the device /dev/{} reads and writes", l.name));
      if (l.file && !has(stack.files, l.id)) stack.files.push_back({l.backing, l.id, ""});
    }
    for_each_named(paths, d, "slaves", [&](DevNo s, const std::string&) {
      down.emplace_back(s, fmt::format("a device /dev/{} is built on", name));
    });
  }
  for (BackingFile& f : stack.files) f.aliasing = aliasing_of(f.path, f.id, mounts, paths);

  // Up: everything built on any of it.
  std::deque<Up> up;
  // On the files: loop devices over them (by device and inode; a backing
  // file on a FUSE or network file system also by its ContentMark), file
  // systems mounted from them.
  std::vector<std::optional<ContentMark>> file_marks;  // read once, when a loop needs them
  for (const Loop& l : loops) {
    if (l.file && has(stack.files, l.id)) {
      up.push_back({l.dev, fmt::format("a loop device over {}", l.backing), "", true});
    } else if (l.file && !aliasing_of(l.backing, l.id, mounts, paths).empty()) {
      const std::optional<ContentMark> mark = mark_of(l.backing, l.id);
      if (file_marks.empty()) {
        for (const BackingFile& f : stack.files) file_marks.push_back(mark_of(f.path, f.id));
      }
      for (size_t i = 0; mark && i < stack.files.size(); ++i) {
        if (file_marks[i] && *file_marks[i] == *mark) {
          up.push_back({l.dev,
                        fmt::format("a loop device over {}, which looks the same as {} (size, modification time, "
                                    "first and last bytes) through a {} file system",
                                    l.backing, stack.files[i].path, aliasing_of(l.backing, l.id, mounts, paths)),
                        ""});
          break;
        }
      }
    }
  }
  for (size_t i = 0; i < mounts.size(); ++i) {
    for (const MountBase& b : bases[i]) {
      if (b.file && has(stack.files, b.id))
        up.push_back({DevNo{mounts[i].major, mounts[i].minor}, mount_how(mounts[i], b), ""});
    }
  }
  const auto built_on = [&](DevNo d, const std::string& name) {
    for_each_named(paths, d, "holders", [&](DevNo h, const std::string&) {
      up.push_back({h, fmt::format("built on /dev/{}", name), name});
    });
    if (!is_partition(paths, d)) {
      for (const std::string& p : list_dir(dev_dir(paths, d))) {
        DevNo x;
        if (fs::exists(dev_dir(paths, d) / p / "partition") && dev_of_name(paths, p, x)) {
          up.push_back({x, fmt::format("a partition of /dev/{}", name), name});
        }
      }
    }
    const dev_t as_dev = ::makedev(d.major, d.minor);
    for (const Loop& l : loops) {
      if (l.device && l.backing_dev == d) up.push_back({l.dev, fmt::format("a loop device over /dev/{}", name), name});
      // An image stored in a file system of d.
      if (l.file && l.id.dev == as_dev) {
        up.push_back({l.dev,
                      fmt::format("a loop device over {}, a file on a file system of {}", l.backing,
                                  name == fmt::format("{}:{}", d.major, d.minor) ? name : "/dev/" + name),
                      name});
      }
    }
    // File systems that use d besides their own device (a log, a journal,
    // their source, a folder they show), or an image stored on d (fuse2fs).
    for (size_t i = 0; i < mounts.size(); ++i) {
      const DevNo own{mounts[i].major, mounts[i].minor};
      if (own == d) continue;
      for (const MountBase& b : bases[i]) {
        if ((!b.file && DevNo{b.major, b.minor} == d) || (b.file && b.id.dev == as_dev)) {
          up.push_back({own, mount_how(mounts[i], b), name});
        }
      }
    }
  };
  for (const StackDevice& b : stack.below) built_on(DevNo{b.major, b.minor}, b.name);
  while (!up.empty()) {
    const Up u = up.front();
    up.pop_front();
    if (has(stack.below, u.dev) || has(stack.above, u.dev) || has(disks, u.dev)) continue;
    const std::string name = name_of(paths, u.dev);
    stack.above.push_back({name, u.dev.major, u.dev.minor, u.how, u.base, u.over_file});
    built_on(u.dev, name);
  }
  // Files and devices of the stack a FUSE daemon holds open whose file
  // system is not mounted here: in use by something not seen.
  for (const MountBase& b : table.hidden) {
    const bool in_stack = b.file
                              ? has(stack.files, b.id)
                              : has(stack.below, DevNo{b.major, b.minor}) || has(stack.above, DevNo{b.major, b.minor});
    if (in_stack) stack.hidden.push_back(b.what);
  }
  return stack;
}

}  // namespace

std::string device_shown(const StackDevice& d) {
  return d.name == fmt::format("{}:{}", d.major, d.minor) ? d.name : "/dev/" + d.name;
}

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
  stack.files.push_back({path, id, ""});
  return walk({}, std::move(stack), paths);
}

}  // namespace ftlsim
