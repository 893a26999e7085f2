#pragma once
// The whole stack of storage a write to a block device or regular file
// reaches: down from it to the devices it is built on (device-mapper and md
// slaves, the whole disk of a partition, loop devices' backing files and
// devices, loop on loop), and up from all of those to everything built on
// any of them, at any depth:
//  - other loop devices over the same backing file (at any offset) or over
//    a device in the stack; holders (device-mapper, md, bcache); partitions;
//  - loop devices whose backing file, and FUSE file systems whose image,
//    lies on a file system mounted from a device in the stack (an image
//    stored in an image);
//  - mounted file systems built on a device or file of the stack besides
//    their own device number (core/mount_table.h: an XFS log or realtime
//    device, an ext3/4 external journal, btrfs's other devices, an image
//    fuse2fs mounts, a folder a FUSE mirror shows);
//  - a loop device whose backing file is on a FUSE or network file system
//    and looks the same as a file of the stack (core/io_identity.h:
//    ContentMark): the same file seen through another file system.
// Besides: the files and devices of the stack that a FUSE daemon holds open
// while its file system is not mounted here (another mount namespace):
// DeviceStack::hidden.
// A write to the target may change what any of them reads, so every
// writer checks them all before its first write: replay targets
// (replay/device_stack.h: inputs, mounts, swap, holders, signatures, busy
// devices) and output files (core/output_storage.h: a file in use is never
// replaced).
//
// The probes read sysfs (block/*/loop/backing_file, slaves/, holders/),
// /proc/self/mountinfo and, on the real /sys, LOOP_GET_STATUS64, device
// superblocks and /proc/PID/fd, under SafetyPaths so that tests can use
// fixtures.
#include <string>
#include <vector>

#include "core/io_identity.h"
#include "core/sysfs_text.h"

namespace ftlsim {

struct StackDevice {
  // sysfs name (loop0, loop0p1, dm-2, md0), or "MAJ:MIN" for a file system
  // without a device (FUSE, btrfs), which has no node.
  std::string name;
  unsigned major = 0, minor = 0;
  std::string how;         // how it joined the stack, for messages
  std::string base;        // the name of the stack device it is built on ("" when none: the target, or built on a file)
  bool over_file = false;  // a loop device over a file of the stack (by device and inode)
};
// "/dev/loop0", or "MAJ:MIN" for a device without a node.
[[nodiscard]] std::string device_shown(const StackDevice& d);

struct BackingFile {
  std::string path;  // as given, or as sysfs names it
  FileIdentity id;
  std::string aliasing;  // the type of the FUSE or network file system it is on ("fuse.bindfs"); "" when none
};

struct DeviceStack {
  std::vector<StackDevice> below;  // the target itself (a device) and what it is built on
  std::vector<BackingFile> files;  // regular files under the stack (a file target among them)
  std::vector<StackDevice> above;  // devices built on any of those, the target excluded
  // Files or devices of the stack in use by a FUSE file system not mounted
  // here (its daemon holds them open: another mount namespace), for messages.
  std::vector<std::string> hidden;
};

// The stack of the block device major:minor.
[[nodiscard]] DeviceStack stack_of_device(unsigned major, unsigned minor, const SafetyPaths& paths = {});
// The stack of the regular file `path` (a replay to a file, an output
// replaced): the loop devices over it, the file systems mounted from it,
// and everything built on those.
[[nodiscard]] DeviceStack stack_of_file(const std::string& path, const SafetyPaths& paths = {});
// The same for the file with identity `id` (an open file), `path` naming it.
[[nodiscard]] DeviceStack stack_of_file(const std::string& path, FileIdentity id, const SafetyPaths& paths = {});

}  // namespace ftlsim
