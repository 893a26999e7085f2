#include "replay/device_safety.h"

#include "core/sysfs_text.h"

#include <blkid/blkid.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ftlsim::replay {
namespace {

namespace fs = std::filesystem;

struct Node {
  std::string name;  // sysfs name: loop0, loop0p1, sda2
  unsigned major = 0, minor = 0;
  fs::path dir;
};

}  // namespace

std::vector<std::string> probe_signatures(const std::string& path) { return probe_signatures(path, path); }

std::vector<std::string> probe_signatures(const std::string& path, const std::string& shown) {
  blkid_probe pr = blkid_new_probe_from_filename(path.c_str());
  if (pr == nullptr) {
    return {fmt::format("{} could not be probed for signatures ({})", shown, std::strerror(errno))};
  }
  blkid_probe_enable_superblocks(pr, 1);
  blkid_probe_set_superblocks_flags(pr,
                                    BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_BADCSUM);
  blkid_probe_enable_partitions(pr, 1);
  blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
  const auto value = [pr](const char* name) -> std::string {
    const char* v = nullptr;
    size_t len = 0;
    if (blkid_probe_lookup_value(pr, name, &v, &len) != 0 || v == nullptr) return {};
    return std::string(v, strnlen(v, len));
  };
  std::vector<std::string> found;
  // Each call reports one prober's hit; looping visits them all (wipefs does the same).
  for (int n = 0; n < 64 && blkid_do_probe(pr) == 0; ++n) {
    std::string line;
    if (const std::string type = value("TYPE"); !type.empty()) {
      const std::string usage = value("USAGE");
      const char* what = usage == "filesystem" ? "file system"
                         : usage == "raid"     ? "RAID member"
                         : usage == "crypto"   ? "encrypted volume"
                                               : "";
      line = fmt::format("{}{}{} signature", type, *what != 0 ? " " : "", what);
      if (const std::string off = value("SBMAGIC_OFFSET"); !off.empty()) line += fmt::format(" (at byte {})", off);
    } else if (const std::string pttype = value("PTTYPE"); !pttype.empty()) {
      line = fmt::format("{} partition table signature", pttype);
      if (const std::string off = value("PTMAGIC_OFFSET"); !off.empty()) line += fmt::format(" (at byte {})", off);
    } else {
      continue;
    }
    if (std::find(found.begin(), found.end(), line) == found.end()) found.push_back(std::move(line));
  }
  blkid_free_probe(pr);
  return found;
}

std::vector<std::string> mounts_of(std::string_view mountinfo, unsigned major, unsigned minor) {
  std::vector<std::string> points;
  const std::string want = fmt::format("{}:{}", major, minor);
  size_t pos = 0;
  while (pos < mountinfo.size()) {
    size_t eol = mountinfo.find('\n', pos);
    if (eol == std::string_view::npos) eol = mountinfo.size();
    const std::string_view line = mountinfo.substr(pos, eol - pos);
    pos = eol + 1;
    // id parent major:minor root mount-point ...
    std::string_view fields[5];
    size_t f = 0, p = 0;
    while (f < 5 && p < line.size()) {
      const size_t sp = line.find(' ', p);
      fields[f++] = line.substr(p, sp == std::string_view::npos ? line.npos : sp - p);
      if (sp == std::string_view::npos) break;
      p = sp + 1;
    }
    if (f == 5 && fields[2] == want) points.emplace_back(fields[4]);
  }
  return points;
}

void add_use_findings(unsigned major, unsigned minor, const std::string& who, std::string_view mountinfo,
                      const std::vector<std::string>& swaps, std::vector<std::string>& findings) {
  for (const std::string& m : mounts_of(mountinfo, major, minor)) {
    findings.push_back(fmt::format("{} is mounted at {}", who, m));
  }
  for (const std::string& s : swaps) {
    struct stat st {};
    if (::stat(s.c_str(), &st) == 0 && S_ISBLK(st.st_mode) && ::major(st.st_rdev) == major &&
        ::minor(st.st_rdev) == minor) {
      findings.push_back(fmt::format("{} is an active swap device ({})", who, s));
    }
  }
}

std::vector<std::string> inspect_block_device(unsigned major, unsigned minor, std::string_view path,
                                              const std::vector<std::string>& signatures, const SafetyPaths& paths) {
  std::vector<std::string> findings;
  const fs::path dir = fs::path(paths.sysfs) / "dev" / "block" / fmt::format("{}:{}", major, minor);

  // The device itself, then each partition: a subdirectory with a "partition" file.
  std::vector<Node> nodes;
  {
    std::error_code ec;
    const fs::path real = fs::canonical(dir, ec);
    nodes.push_back({ec ? std::string(path) : real.filename().string(), major, minor, dir});
  }
  std::vector<std::string> partitions;
  for (const std::string& name : list_dir(dir)) {
    const fs::path sub = dir / name;
    if (!fs::exists(sub / "partition")) continue;
    Node n{name, 0, 0, sub};
    if (!parse_dev(trim(slurp((sub / "dev").string())), n.major, n.minor)) continue;
    partitions.push_back(name);
    nodes.push_back(std::move(n));
  }
  if (!partitions.empty()) {
    findings.push_back(fmt::format("has {} partition(s): {}", partitions.size(), fmt::join(partitions, ", ")));
  }

  const std::string mountinfo = slurp(paths.mountinfo);
  const std::vector<std::string> swaps = swap_paths(slurp(paths.swaps));
  for (const Node& n : nodes) {
    const std::string who = n.major == major && n.minor == minor ? std::string(path) : "partition " + n.name;
    add_use_findings(n.major, n.minor, who, mountinfo, swaps, findings);
    const std::vector<std::string> holders = list_dir(n.dir / "holders");
    if (!holders.empty()) {
      findings.push_back(
          fmt::format("{} is held by {} (part of an active device-mapper/md stack)", who, fmt::join(holders, ", ")));
    }
  }
  findings.insert(findings.end(), signatures.begin(), signatures.end());
  return findings;
}

std::vector<std::string> inspect_regular_file(const std::string& path, const SafetyPaths& paths) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return inspect_regular_file(path, FileIdentity{st.st_dev, st.st_ino}, path, paths);
}

std::vector<std::string> inspect_regular_file(const std::string& path, FileIdentity id, const std::string& probe,
                                              const SafetyPaths& paths) {
  std::vector<std::string> findings;
  const auto same_file = [&id](const std::string& p) {
    struct stat o {};
    return ::stat(p.c_str(), &o) == 0 && o.st_dev == id.dev && o.st_ino == id.ino;
  };
  // Loop devices: sysfs names the backing file by path (renames followed,
  // " (deleted)" appended when unlinked); LOOP_GET_STATUS64 gives its device
  // and inode, which also holds when the name no longer leads to it.
  const fs::path block = fs::path(paths.sysfs) / "block";
  for (const std::string& name : list_dir(block)) {
    if (name.rfind("loop", 0) != 0) continue;
    std::string backing = trim(slurp((block / name / "loop" / "backing_file").string()));
    if (backing.empty()) continue;  // not attached
    bool backs = same_file(backing);
    if (!backs && paths.live()) {
      const int fd = ::open(("/dev/" + name).c_str(), O_RDONLY | O_CLOEXEC);
      struct loop_info64 li {};
      if (fd >= 0 && ::ioctl(fd, LOOP_GET_STATUS64, &li) == 0) {
        // lo_device is the kernel's huge_encode_dev() of the backing file's device.
        const auto d = li.lo_device;
        const unsigned maj = static_cast<unsigned>((d & 0xfff00) >> 8);
        const unsigned min = static_cast<unsigned>((d & 0xff) | ((d >> 12) & 0xfff00));
        backs = li.lo_inode == id.ino && maj == ::major(id.dev) && min == ::minor(id.dev);
      }
      if (fd >= 0) ::close(fd);
    }
    if (!backs) continue;
    findings.push_back(fmt::format("{} backs loop device /dev/{}", path, name));
    unsigned maj = 0, min = 0;
    if (parse_dev(trim(slurp((block / name / "dev").string())), maj, min)) {
      for (std::string& f : inspect_block_device(maj, min, "/dev/" + name, {}, paths)) findings.push_back(std::move(f));
    }
  }
  for (const std::string& s : swap_paths(slurp(paths.swaps))) {
    if (same_file(s)) findings.push_back(fmt::format("{} is an active swap file ({})", path, s));
  }
  for (std::string& s : probe_signatures(probe, path)) findings.push_back(std::move(s));
  return findings;
}

}  // namespace ftlsim::replay
