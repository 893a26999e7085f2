#pragma once
// An output file (-o of gen, convert, dump) replaces what its name holds by
// renaming a finished file over it; the file replaced must be no storage in
// use and no input (core/atomic_file.h calls this, `force` or not):
//  - its storage stack (core/storage_stack.h) holds nothing: no loop device
//    over it, no file system mounted from it (an image fuse2fs mounts, the
//    journal of a mounted ext4 as a file ...), nothing built on those;
//    the old file would live on, unnamed, in the device or file system
//    that uses it until that is detached, and then be gone;
//  - no FUSE daemon of a file system not mounted here holds it open;
//  - it is no active swap file;
//  - it does not look the same as an input (ContentMark) when either is on
//    a FUSE or network file system (core/io_identity.h: RunInputs::seen_as).
#include <string>

#include "core/io_identity.h"
#include "core/sysfs_text.h"

namespace ftlsim {

// Throws InputError naming `option` and `path` when the existing regular
// file `name` in the open folder `dir` (identity `id`) may not be replaced.
void check_output_storage(const std::string& option, const std::string& path, int dir, const std::string& name,
                          FileIdentity id, const RunInputs& inputs, const SafetyPaths& paths = {});

}  // namespace ftlsim
