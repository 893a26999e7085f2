#pragma once
// What makes a block device unsafe to overwrite: it (or one of its
// partitions) is mounted or an active swap, another device is stacked on it
// (device-mapper, md, bcache: sysfs "holders"), it has partitions, or its
// first bytes carry a partition table or file-system signature. A replay
// refuses such a device unless --force, and prints every finding.
//
// The probes read sysfs, /proc/self/mountinfo and /proc/swaps from paths in
// SafetyPaths so that tests can point them at fixtures.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ftlsim::replay {

// Bytes from the start of the device that find_signatures() looks at: enough
// for the btrfs superblock magic at 64 KiB + 64.
inline constexpr size_t kSignatureProbeBytes = 68 * 1024;

// Partition-table and file-system signatures found in `head` (the device's
// first bytes; signatures beyond head.size() are not looked for), one line
// each, e.g. "ext2/3/4 file system (magic 0xEF53 at byte 1080)".
[[nodiscard]] std::vector<std::string> find_signatures(std::span<const uint8_t> head);

// Mount points of the device major:minor in a /proc/self/mountinfo text
// (field 3 is major:minor, field 5 the mount point; octal escapes kept).
[[nodiscard]] std::vector<std::string> mounts_of(std::string_view mountinfo, unsigned major, unsigned minor);

// Paths in a /proc/swaps text (the first column after the header line).
[[nodiscard]] std::vector<std::string> swap_paths(std::string_view swaps);

struct SafetyPaths {
  std::string sysfs = "/sys";
  std::string mountinfo = "/proc/self/mountinfo";
  std::string swaps = "/proc/swaps";
};

// Every finding for the block device major:minor (`path` names it in the
// messages; `head` is its first bytes): mounts and swap of the device and of
// its partitions, holders of the device and of its partitions, the
// partitions themselves, and find_signatures(head). Empty when it looks
// unused. Unreadable sysfs or proc files count as no finding.
[[nodiscard]] std::vector<std::string> inspect_block_device(unsigned major, unsigned minor, std::string_view path,
                                                            std::span<const uint8_t> head,
                                                            const SafetyPaths& paths = {});

}  // namespace ftlsim::replay
