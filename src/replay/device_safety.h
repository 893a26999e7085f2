#pragma once
// What makes a block device or file unsafe to overwrite: it (or one of its
// partitions) is mounted or an active swap, another device is stacked on it
// (device-mapper, md, bcache: sysfs "holders"), it has partitions, a file
// backs a loop device, or it carries a partition-table, file-system, RAID
// or other signature libblkid knows. A replay refuses such a target unless
// --force, and prints every finding.
//
// The probes read sysfs, /proc/self/mountinfo and /proc/swaps from paths in
// SafetyPaths so that tests can point them at fixtures.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/io_identity.h"
#include "core/sysfs_text.h"

namespace ftlsim::replay {

// Partition-table, file-system, RAID, crypto and swap signatures in the
// file or device `path`, one line each, as libblkid (the library behind
// blkid and wipefs) finds them, e.g. "ext4 file system signature (at byte
// 1080)". Every superblock and partition-table prober of the system's
// libblkid runs, checksum failures included (as wipefs does). A path that
// cannot be probed gives one finding saying so, so that it is refused too.
[[nodiscard]] std::vector<std::string> probe_signatures(const std::string& path);
// The same for the file or device `path` opens (/proc/self/fd/N of a node
// already checked), `shown` naming it in the one finding of a failed probe.
[[nodiscard]] std::vector<std::string> probe_signatures(const std::string& path, const std::string& shown);

// Mount points of the device major:minor in a /proc/self/mountinfo text
// (field 3 is major:minor, field 5 the mount point; octal escapes kept).
[[nodiscard]] std::vector<std::string> mounts_of(std::string_view mountinfo, unsigned major, unsigned minor);

// Paths in a /proc/swaps text (core/sysfs_text.h).
using ftlsim::swap_paths;

// Appends to `findings` the mounts (in a /proc/self/mountinfo text) and the
// active swap (among /proc/swaps `swaps`) of the device major:minor, which
// `who` names.
void add_use_findings(unsigned major, unsigned minor, const std::string& who, std::string_view mountinfo,
                      const std::vector<std::string>& swaps, std::vector<std::string>& findings);

// Where the probes read (core/sysfs_text.h).
using ftlsim::SafetyPaths;

// Every finding for the block device major:minor (`path` names it in the
// messages; `signatures` are probe_signatures(path)): mounts and swap of the
// device and of its partitions, holders of the device and of its
// partitions, the partitions themselves, and the signatures. Empty when it
// looks unused. Unreadable sysfs or proc files count as no finding.
[[nodiscard]] std::vector<std::string> inspect_block_device(unsigned major, unsigned minor, std::string_view path,
                                                            const std::vector<std::string>& signatures,
                                                            const SafetyPaths& paths = {});

// Every finding for the regular file `path`: the loop devices it backs
// (sysfs block/loop*/loop/backing_file, and LOOP_GET_STATUS64 on /dev/loopN,
// compared by device and inode) with their own findings (mounts, holders),
// an active swap file, and probe_signatures(path). Empty when it looks
// unused.
[[nodiscard]] std::vector<std::string> inspect_regular_file(const std::string& path, const SafetyPaths& paths = {});
// The same for the file with identity `id`, open at `probe` (/proc/self/fd/N:
// its signatures are read there), `path` naming it: what is inspected is
// the open file, whatever `path` names by now.
[[nodiscard]] std::vector<std::string> inspect_regular_file(const std::string& path, FileIdentity id,
                                                            const std::string& probe, const SafetyPaths& paths = {});

}  // namespace ftlsim::replay
