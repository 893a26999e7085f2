#pragma once
// A replay target's whole stack (core/storage_stack.h: down to the devices
// and backing files it is built on, up to everything built on any of
// them, file systems that use any of them included) checked before the
// first write:
//  - no input of the run may be in the stack (a backing file, or a file on
//    a file system built on a device or file of it), and no file of the
//    stack may be on a FUSE or network file system, whose storage cannot
//    be seen or locked; an input on such a file system counts as each file
//    of the stack that looks the same (ContentMark), and as stored in any
//    mounted file system of the stack: check_stack_inputs(), `force` or not;
//  - the devices found are checked for mounts, swap, holders and
//    signatures: stack_findings(), refused unless `force`;
//  - a device of the stack that the kernel reports in use (an exclusive
//    open fails) although nothing found explains it (mounted in another
//    mount namespace, the journal of a file system not seen, held by a
//    program), or a file or device of it a FUSE daemon of a file system not
//    mounted here holds open, is refused, `force` or not:
//    check_stack_busy().
#include <sys/types.h>

#include <string>
#include <vector>

#include "core/io_identity.h"
#include "core/storage_stack.h"
#include "replay/device_safety.h"

namespace ftlsim::replay {

using ftlsim::BackingFile;
using ftlsim::DeviceStack;
using ftlsim::stack_of_device;
using ftlsim::stack_of_file;
using ftlsim::StackDevice;

// Throws InputError when an input of the run is a backing file of the
// stack, or lies on a file system built on a device or file of it, or may
// be one of them seen through a FUSE or network file system; and when a
// file of the stack is on such a file system. Names the input, the device
// and `target` (the `target` setting and its path). `force` does not apply.
void check_stack_inputs(const DeviceStack& stack, const RunInputs& inputs, const Message& target);

// Findings for the devices of the stack other than the target: mounts and
// swap of every one, and the holders, partitions and signatures of those
// above (built on the same storage). Empty when none is in use.
// `skip_loops_over_files`: leave out the loop devices over a file of the
// stack (a file target: inspect_regular_file() lists them), not what is
// built on them.
[[nodiscard]] std::vector<std::string> stack_findings(const DeviceStack& stack, const SafetyPaths& paths = {},
                                                      bool skip_loops_over_files = false);

// Throws InputError when a block device of the stack is in use by the
// kernel (an exclusive open fails with EBUSY, also after a moment) while
// nothing found in the stack explains it: not mounted here, no swap, no
// holders, nothing built on it; and when stack.hidden is not empty. `probe_target` includes the target itself
// (below[0]), which a replay without `force` holds with O_EXCL anyway.
// `force` does not apply. Only on the real /sys (paths.live()).
void check_stack_busy(const DeviceStack& stack, const Message& target, bool probe_target,
                      const SafetyPaths& paths = {});

}  // namespace ftlsim::replay
