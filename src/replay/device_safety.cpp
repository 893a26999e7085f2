#include "replay/device_safety.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ftlsim::replay {
namespace {

namespace fs = std::filesystem;

struct Magic {
  const char* name;
  size_t offset;
  std::string_view bytes;
};

using namespace std::string_view_literals;

// Magic numbers and where the on-disk formats put them:
//  ext2/3/4  superblock at 1024, s_magic 0xEF53 (LE) at +0x38 (Linux
//            Documentation/filesystems/ext4/super.rst)
//  XFS       "XFSB" at 0 (XFS_SB_MAGIC, fs/xfs/libxfs/xfs_format.h)
//  btrfs     superblock at 64 KiB, magic "_BHRfS_M" at +0x40 (btrfs on-disk format)
//  F2FS      superblock at 1024, magic 0xF2F52010 (LE) first (F2FS_SUPER_MAGIC)
//  LUKS      "LUKS\xba\xbe" at 0 (LUKS1 and LUKS2 on-disk format specifications)
//  LVM2      label "LABELONE" at the start of one of sectors 0-3 (LVM2 label header)
//  md        superblock 1.1 at 0, 1.2 at 4096, magic 0xA92B4EFC (LE) (MD_SB_MAGIC,
//            include/uapi/linux/raid/md_p.h); 0.90 and 1.0 sit at the end, not probed
//  swap      "SWAPSPACE2" / "SWAP-SPACE" in the last 10 bytes of the first page
//            (union swap_header, include/linux/swap.h), pages of 4-64 KiB
//  squashfs  "hsqs" at 0
//  ISO 9660  "CD001" at 32769 (ECMA-119: descriptor at sector 16 of 2048 bytes)
//  FAT       BS_FilSysType "FAT12   " / "FAT16   " at 54, "FAT32   " at 82
//  NTFS, exFAT  OEM name "NTFS    " / "EXFAT   " at 3
//  GPT       header signature "EFI PART" in LBA 1: byte 512 or 4096 (UEFI spec)
//  MBR       boot signature 0x55 0xAA at 510 (DOS partition table or boot sector)
const Magic kMagics[] = {
    {"ext2/3/4 file system", 1080, "\x53\xEF"sv},
    {"XFS file system", 0, "XFSB"sv},
    {"btrfs file system", 65536 + 64, "_BHRfS_M"sv},
    {"F2FS file system", 1024, "\x10\x20\xF5\xF2"sv},
    {"LUKS encrypted volume", 0, "LUKS\xBA\xBE"sv},
    {"LVM2 physical volume", 0, "LABELONE"sv},
    {"LVM2 physical volume", 512, "LABELONE"sv},
    {"LVM2 physical volume", 1024, "LABELONE"sv},
    {"LVM2 physical volume", 1536, "LABELONE"sv},
    {"md RAID member (superblock 1.1)", 0, "\xFC\x4E\x2B\xA9"sv},
    {"md RAID member (superblock 1.2)", 4096, "\xFC\x4E\x2B\xA9"sv},
    {"Linux swap", 4096 - 10, "SWAPSPACE2"sv},
    {"Linux swap", 4096 - 10, "SWAP-SPACE"sv},
    {"Linux swap", 8192 - 10, "SWAPSPACE2"sv},
    {"Linux swap", 16384 - 10, "SWAPSPACE2"sv},
    {"Linux swap", 65536 - 10, "SWAPSPACE2"sv},
    {"squashfs file system", 0, "hsqs"sv},
    {"ISO 9660 file system", 32769, "CD001"sv},
    {"FAT file system", 54, "FAT12   "sv},
    {"FAT file system", 54, "FAT16   "sv},
    {"FAT32 file system", 82, "FAT32   "sv},
    {"NTFS file system", 3, "NTFS    "sv},
    {"exFAT file system", 3, "EXFAT   "sv},
    {"GPT partition table", 512, "EFI PART"sv},
    {"GPT partition table", 4096, "EFI PART"sv},
    {"DOS/MBR partition table or boot sector", 510, "\x55\xAA"sv},
};

// "\"XFSB\"" for printable magic, else the bytes in hex: "53 EF".
std::string show(std::string_view bytes) {
  const bool printable = std::all_of(bytes.begin(), bytes.end(), [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return b >= 0x20 && b < 0x7f;
  });
  if (printable) return fmt::format("\"{}\"", bytes);
  std::string s;
  for (const char c : bytes) s += fmt::format("{}{:02X}", s.empty() ? "" : " ", static_cast<unsigned char>(c));
  return s;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

bool parse_dev(std::string_view text, unsigned& major, unsigned& minor) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return false;
  const char* b = text.data();
  auto r1 = std::from_chars(b, b + colon, major);
  auto r2 = std::from_chars(b + colon + 1, b + text.size(), minor);
  return r1.ec == std::errc() && r2.ec == std::errc() && r1.ptr == b + colon && r2.ptr == b + text.size();
}

struct Node {
  std::string name;  // sysfs name: loop0, loop0p1, sda2
  unsigned major = 0, minor = 0;
  fs::path dir;
};

std::vector<std::string> list_dir(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::vector<std::string> find_signatures(std::span<const uint8_t> head) {
  std::vector<std::string> found;
  for (const Magic& m : kMagics) {
    if (m.offset + m.bytes.size() > head.size()) continue;
    if (std::memcmp(head.data() + m.offset, m.bytes.data(), m.bytes.size()) != 0) continue;
    std::string line = fmt::format("{} signature ({} at byte {})", m.name, show(m.bytes), m.offset);
    if (std::find(found.begin(), found.end(), line) == found.end()) found.push_back(std::move(line));
  }
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

std::vector<std::string> swap_paths(std::string_view swaps) {
  std::vector<std::string> paths;
  size_t pos = swaps.find('\n');  // skip the header line
  while (pos != std::string_view::npos && pos + 1 < swaps.size()) {
    ++pos;
    size_t eol = swaps.find('\n', pos);
    const std::string_view line = swaps.substr(pos, eol == std::string_view::npos ? swaps.npos : eol - pos);
    const size_t end = line.find_first_of(" \t");
    if (!line.empty()) paths.emplace_back(line.substr(0, end));
    pos = eol;
  }
  return paths;
}

std::vector<std::string> inspect_block_device(unsigned major, unsigned minor, std::string_view path,
                                              std::span<const uint8_t> head, const SafetyPaths& paths) {
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
    for (const std::string& m : mounts_of(mountinfo, n.major, n.minor)) {
      findings.push_back(fmt::format("{} is mounted at {}", who, m));
    }
    for (const std::string& s : swaps) {
      struct stat st {};
      if (::stat(s.c_str(), &st) == 0 && S_ISBLK(st.st_mode) && ::major(st.st_rdev) == n.major &&
          ::minor(st.st_rdev) == n.minor) {
        findings.push_back(fmt::format("{} is an active swap device ({})", who, s));
      }
    }
    const std::vector<std::string> holders = list_dir(n.dir / "holders");
    if (!holders.empty()) {
      findings.push_back(fmt::format("{} is held by {} (part of an active device-mapper/md stack)", who,
                                     fmt::join(holders, ", ")));
    }
  }
  for (std::string& s : find_signatures(head)) findings.push_back(std::move(s));
  return findings;
}

}  // namespace ftlsim::replay
