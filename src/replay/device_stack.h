#pragma once
// The whole stack of storage a replay target's bytes live in: down from the
// target to the devices it is built on (device-mapper and md slaves, the
// whole disk of a partition, loop devices' backing files and devices, loop
// on loop), and up from all of those to every device built on any of them
// (other loop devices over the same backing file at any offset, holders,
// partitions, loop devices over a device in the stack). A write to the
// target may change what any of them reads, so a replay checks them all
// before its first write: no input of the run may be in the stack (a
// backing file, or a file on a file system mounted from a device in it),
// and the devices found are checked for mounts, swap, holders and
// signatures (device_safety.h).
//
// The probes read sysfs (block/*/loop/backing_file, slaves/, holders/) and
// LOOP_GET_STATUS64 under SafetyPaths, so that tests can use fixtures.
#include <sys/types.h>

#include <string>
#include <vector>

#include "core/io_identity.h"
#include "replay/device_safety.h"

namespace ftlsim::replay {

struct StackDevice {
  std::string name;  // sysfs name: loop0, loop0p1, dm-2, md0
  unsigned major = 0, minor = 0;
  std::string how;   // how it joined the stack, for messages
};

struct BackingFile {
  std::string path;  // as sysfs names it
  FileIdentity id;
};

struct DeviceStack {
  std::vector<StackDevice> below;  // the target itself (a device) and what it is built on
  std::vector<BackingFile> files;  // regular files under the stack (a file target among them)
  std::vector<StackDevice> above;  // devices built on any of those, the target excluded
};

// The stack of the block device major:minor.
[[nodiscard]] DeviceStack stack_of_device(unsigned major, unsigned minor, const SafetyPaths& paths = {});
// The stack of the regular file `path` (a replay to a file): the loop
// devices over it and everything built on them.
[[nodiscard]] DeviceStack stack_of_file(const std::string& path, const SafetyPaths& paths = {});
// The same for the file with identity `id` (an open target), `path` naming it.
[[nodiscard]] DeviceStack stack_of_file(const std::string& path, FileIdentity id, const SafetyPaths& paths = {});

// Throws InputError when an input of the run is a backing file of the
// stack, or lies on a file system mounted from a device in it, naming the
// input, the device and `target` (the `target` setting and its path). --force does not apply.
void check_stack_inputs(const DeviceStack& stack, const RunInputs& inputs, const Message& target);

// Findings for the devices of the stack other than the target: mounts and
// swap of every one, and the holders, partitions and signatures of those
// above (built on the same storage). Empty when none is in use.
[[nodiscard]] std::vector<std::string> stack_findings(const DeviceStack& stack, const SafetyPaths& paths = {});

}  // namespace ftlsim::replay
