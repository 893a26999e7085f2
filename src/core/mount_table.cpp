#include "core/mount_table.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

#include "core/bounded_stat.h"
#include "core/dir_fd.h"
#include "core/error.h"
#include "core/sysfs_text.h"

namespace ftlsim {
namespace {

namespace fs = std::filesystem;

bool is_fuse(std::string_view fstype) { return fstype == "fuse" || fstype.rfind("fuse.", 0) == 0; }

// The sysfs name of the block device major:minor ("loop3"), or "" when unknown.
std::string block_name(const SafetyPaths& paths, unsigned major, unsigned minor) {
  std::error_code ec;
  const fs::path real = fs::canonical(fs::path(paths.sysfs) / "dev" / "block" / fmt::format("{}:{}", major, minor), ec);
  return ec ? std::string() : real.filename().string();
}

bool dev_of_name(const SafetyPaths& paths, const std::string& name, unsigned& major, unsigned& minor) {
  return parse_dev(trim(slurp((fs::path(paths.sysfs) / "class" / "block" / name / "dev").string())), major, minor);
}

// `path` (unescaped mountinfo text) of the mount `m` as a base: a block
// device, a regular file or a folder (its file system). nullopt when it
// names none of them. A path that does not answer (under a FUSE file system
// whose daemon is stopped) is refused: what it stands for cannot be told.
std::optional<MountBase> base_of_path(const std::string& path, const std::string& what, const MountEntry& m) {
  if (path.empty()) return std::nullopt;
  const BoundedStat bs = stat_bounded(path);
  if (!bs.answered) {
    throw InputError(
        fmt::format("the {} file system mounted at {} is built on {}, which does not answer (stat "
                    "waited {} s: a FUSE daemon stopped?), so ftlsim cannot tell whether it shares storage "
                    "with what this run writes or reads; unmount it (umount -l) or resume its daemon",
                    m.fstype, m.mount_point, path, std::chrono::duration<double>(kStatBound).count()));
  }
  if (bs.error != 0) return std::nullopt;
  const struct stat& st = bs.st;
  MountBase b;
  if (S_ISBLK(st.st_mode)) {
    b.major = ::major(st.st_rdev);
    b.minor = ::minor(st.st_rdev);
  } else if (S_ISREG(st.st_mode)) {
    b.file = true;
    b.id = FileIdentity{st.st_dev, st.st_ino};
  } else if (S_ISDIR(st.st_mode)) {
    b.major = ::major(st.st_dev);
    b.minor = ::minor(st.st_dev);
  } else {
    return std::nullopt;
  }
  b.what = what;
  return b;
}

// An ext2/3/4 superblock's external journal device, read from the device
// major:minor itself (1 KiB at byte 1024): s_journal_dev when the journal
// feature is on and the journal is no inode of the file system.
std::optional<MountBase> ext_journal(const SafetyPaths& paths, unsigned major, unsigned minor) {
  const std::string name = block_name(paths, major, minor);
  if (name.empty()) return std::nullopt;
  const UniqueFd fd(::open(("/dev/" + name).c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISBLK(st.st_mode) || ::major(st.st_rdev) != major ||
      ::minor(st.st_rdev) != minor) {
    return std::nullopt;
  }
  std::array<unsigned char, 1024> sb{};
  if (::pread(fd.get(), sb.data(), sb.size(), 1024) != static_cast<ssize_t>(sb.size())) return std::nullopt;
  const auto le = [&sb](size_t at, size_t bytes) {
    uint32_t v = 0;
    for (size_t i = 0; i < bytes; ++i) v |= static_cast<uint32_t>(sb[at + i]) << (8 * i);
    return v;
  };
  constexpr uint32_t kHasJournal = 0x4;
  if (le(0x38, 2) != 0xEF53 || (le(0x5C, 4) & kHasJournal) == 0 || le(0xE0, 4) != 0) return std::nullopt;
  const uint32_t d = le(0xE4, 4);  // the kernel's new_encode_dev()
  if (d == 0) return std::nullopt;
  MountBase b;
  b.major = (d & 0xfff00) >> 8;
  b.minor = (d & 0xff) | ((d >> 12) & 0xfff00);
  const std::string jname = block_name(paths, b.major, b.minor);
  b.what =
      fmt::format("its external journal {}", jname.empty() ? fmt::format("{}:{}", b.major, b.minor) : "/dev/" + jname);
  return b;
}

// The FUSE daemons by connection number (the minor of a FUSE file system's
// device number): every process with /dev/fuse open, with "fuse_connection:"
// in that descriptor's fdinfo.
std::map<unsigned, std::vector<std::string>> fuse_daemons(const SafetyPaths& paths) {
  std::map<unsigned, std::vector<std::string>> daemons;
  for (const std::string& pid : list_dir(paths.proc)) {
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    const fs::path fd_dir = fs::path(paths.proc) / pid / "fd";
    for (const std::string& n : list_dir(fd_dir)) {
      std::error_code ec;
      if (fs::read_symlink(fd_dir / n, ec).string() != "/dev/fuse" || ec) continue;
      const std::string info = slurp((fs::path(paths.proc) / pid / "fdinfo" / n).string());
      const size_t at = info.find("fuse_connection:");
      if (at == std::string::npos) continue;
      const unsigned long conn = std::strtoul(info.c_str() + at + std::strlen("fuse_connection:"), nullptr, 10);
      auto& pids = daemons[static_cast<unsigned>(conn)];
      if (pids.empty() || pids.back() != pid) pids.push_back(pid);
    }
  }
  return daemons;
}

// The regular files and block devices the process `pid` holds open;
// `hidden`: a daemon whose file system is not mounted here.
void daemon_files(const SafetyPaths& paths, const std::string& pid, std::vector<MountBase>& out, bool hidden = false) {
  const fs::path fd_dir = fs::path(paths.proc) / pid / "fd";
  const std::string comm = trim(slurp((fs::path(paths.proc) / pid / "comm").string()));
  for (const std::string& n : list_dir(fd_dir)) {
    std::error_code ec;
    const std::string target = fs::read_symlink(fd_dir / n, ec).string();
    // Only names of files: not pipes, sockets, anonymous inodes, /dev/fuse.
    if (ec || target.empty() || target.front() != '/' || target == "/dev/fuse") continue;
    const BoundedStat bs = stat_bounded((fd_dir / n).string());
    if (!bs.answered) {
      throw InputError(
          fmt::format("{}, which the FUSE daemon pid {} ({}) holds open, does not answer (stat waited {} s: "
                      "a FUSE daemon stopped?), so ftlsim cannot tell whether it shares storage with what "
                      "this run writes or reads; unmount that file system (umount -l) or resume its daemon",
                      target, pid, comm, std::chrono::duration<double>(kStatBound).count()));
    }
    const struct stat& st = bs.st;
    if (bs.error != 0 || !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) continue;
    MountBase b;
    if (S_ISREG(st.st_mode)) {
      b.file = true;
      b.id = FileIdentity{st.st_dev, st.st_ino};
    } else {
      b.major = ::major(st.st_rdev);
      b.minor = ::minor(st.st_rdev);
    }
    b.what = hidden ? fmt::format(
                          "{} is held open by the FUSE daemon pid {} ({}), whose file system is not mounted "
                          "here",
                          target, pid, comm)
                    : fmt::format("{}, which its FUSE daemon (pid {}, {}) holds open", target, pid, comm);
    out.push_back(std::move(b));
  }
}

}  // namespace

std::vector<MountEntry> parse_mounts(std::string_view mountinfo) {
  std::vector<MountEntry> mounts;
  for (const std::string_view line : split(mountinfo, '\n')) {
    // id parent major:minor root mount-point options [optional...] - type source super-options
    const std::vector<std::string_view> f = split(line, ' ');
    if (f.size() < 10) continue;
    size_t dash = 6;
    while (dash < f.size() && f[dash] != "-") ++dash;
    if (dash + 3 >= f.size()) continue;
    MountEntry m;
    if (!parse_dev(f[2], m.major, m.minor)) continue;
    m.mount_point = unescape_octal(f[4]);
    m.fstype = std::string(f[dash + 1]);
    m.source = unescape_octal(f[dash + 2]);
    m.options = std::string(f[dash + 3]);
    mounts.push_back(std::move(m));
  }
  return mounts;
}

namespace {

std::vector<MountBase> bases_of(const MountEntry& m, const SafetyPaths& paths,
                                const std::map<unsigned, std::vector<std::string>>& daemons) {
  std::vector<MountBase> bases;
  const auto add = [&bases](std::optional<MountBase> b) {
    if (b) bases.push_back(std::move(*b));
  };
  // Its source: absolute, or (FUSE: fuse2fs keeps it as given) relative to
  // the current folder, which may be where it was mounted from.
  if (!m.source.empty() && (m.source.front() == '/' || is_fuse(m.fstype))) {
    add(base_of_path(m.source, fmt::format("its source {}", m.source), m));
  }
  for (const std::string_view opt : split(m.options, ',')) {
    const size_t eq = opt.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = opt.substr(0, eq);
    if (key == "logdev" || key == "rtdev" || key == "journal_path") {
      const std::string value = unescape_octal(opt.substr(eq + 1));
      std::optional<MountBase> b = base_of_path(
          value, fmt::format("its {} device {} ({}=)", key == "rtdev" ? "realtime" : "log", value, key), m);
      if (b && !b->file) add(std::move(b));
    }
  }
  if (paths.live() && m.major != 0 && (m.fstype == "ext3" || m.fstype == "ext4" || m.fstype == "ext2")) {
    add(ext_journal(paths, m.major, m.minor));
  }
  if (m.fstype == "btrfs" && m.source.rfind("/dev/", 0) == 0) {
    std::error_code ec;
    const fs::path real = fs::canonical(m.source, ec);
    const std::string name = (ec ? fs::path(m.source) : real).filename().string();
    for (const std::string& fsid : list_dir(fs::path(paths.sysfs) / "fs" / "btrfs")) {
      const std::vector<std::string> devices = list_dir(fs::path(paths.sysfs) / "fs" / "btrfs" / fsid / "devices");
      if (std::find(devices.begin(), devices.end(), name) == devices.end()) continue;
      for (const std::string& d : devices) {
        MountBase b;
        if (dev_of_name(paths, d, b.major, b.minor)) {
          b.what = fmt::format("its device /dev/{} (btrfs {})", d, fsid);
          bases.push_back(std::move(b));
        }
      }
    }
  }
  if (is_fuse(m.fstype) && m.major == 0) {
    if (const auto it = daemons.find(m.minor); it != daemons.end()) {
      for (const std::string& pid : it->second) daemon_files(paths, pid, bases);
    }
  }
  return bases;
}

}  // namespace

MountTable read_mount_table(const SafetyPaths& paths) {
  MountTable t;
  t.mounts = parse_mounts(slurp(paths.mountinfo));
  const std::map<unsigned, std::vector<std::string>> daemons =
      paths.live() ? fuse_daemons(paths) : std::map<unsigned, std::vector<std::string>>{};
  t.bases.reserve(t.mounts.size());
  for (const MountEntry& m : t.mounts) t.bases.push_back(bases_of(m, paths, daemons));
  // Daemons whose file system is not mounted here (another mount
  // namespace, or unmounted and still running).
  for (const auto& [conn, pids] : daemons) {
    const bool seen = std::any_of(t.mounts.begin(), t.mounts.end(), [conn = conn](const MountEntry& m) {
      return m.major == 0 && m.minor == conn && is_fuse(m.fstype);
    });
    if (seen) continue;
    for (const std::string& pid : pids) daemon_files(paths, pid, t.hidden, true);
  }
  return t;
}

bool aliasing_fs_type(std::string_view t) {
  if (t == "fuse" || t.rfind("fuse.", 0) == 0) return true;
  static constexpr std::string_view kTypes[] = {"nfs",      "nfs4",   "cifs",  "smb3",  "smbfs",     "9p",
                                                "virtiofs", "ceph",   "afs",   "coda",  "glusterfs", "lustre",
                                                "vboxsf",   "prl_fs", "drvfs", "davfs", "orangefs"};
  for (const std::string_view k : kTypes) {
    if (t == k) return true;
  }
  return false;
}

std::string aliasing_fs_of(dev_t dev, const std::vector<MountEntry>& mounts) {
  for (const MountEntry& m : mounts) {
    if (m.major == ::major(dev) && m.minor == ::minor(dev))
      return aliasing_fs_type(m.fstype) ? m.fstype : std::string();
  }
  return {};
}

std::string aliasing_fs_of_open(int fd, const SafetyPaths& paths) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return {};
  const std::vector<MountEntry> mounts = parse_mounts(slurp(paths.mountinfo));
  for (const MountEntry& m : mounts) {
    if (m.major == ::major(st.st_dev) && m.minor == ::minor(st.st_dev)) return aliasing_fs_of(st.st_dev, mounts);
  }
  // Not mounted here (reached through /proc/PID/root, or an fd from
  // elsewhere): the file system's magic number tells.
  struct statfs sfs {};
  if (::fstatfs(fd, &sfs) != 0) return {};
  switch (static_cast<unsigned long>(sfs.f_type)) {
    case 0x65735546: return "FUSE";  // FUSE_SUPER_MAGIC (fuseblk too: its device is not in the mount table either)
    case 0x6969: return "NFS";
    case 0x517B: return "SMB";
    case 0xFF534D42: return "CIFS";
    case 0xFE534D42: return "SMB2";
    case 0x01021997: return "9p";
    case 0x00c36400: return "Ceph";
    case 0x5346414F:
    case 0x6B414653: return "AFS";
    case 0x73757245: return "Coda";
    case 0x786F4256: return "vboxsf";
    default: return {};
  }
}

}  // namespace ftlsim
