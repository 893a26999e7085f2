#pragma once
// The mounted file systems (/proc/self/mountinfo) and what each is built on
// besides its own device number, for the storage stack
// (core/storage_stack.h): a write to any of those changes the file system.
//  - its source, when that names a block device (btrfs and FUSE block file
//    systems, whose device number is not the device), a regular file (an
//    image fuse2fs mounts) or a folder (a FUSE mirror such as bindfs shows
//    that folder's file system); an absolute path, or for FUSE a relative
//    one, tried from the current folder (which only adds to what is found);
//  - its log or realtime device (XFS `logdev=`, `rtdev=`; any `logdev=`,
//    `rtdev=`, `journal_path=` in its options);
//  - an ext3/ext4 file system's external journal (the superblock's
//    s_journal_dev, read from its device);
//  - a btrfs file system's other devices (/sys/fs/btrfs/FSID/devices);
//  - for FUSE, every regular file and block device its daemon holds open
//    (the processes whose /dev/fuse has the mount's connection number in
//    fdinfo: fuse2fs's image, from whatever folder it was mounted).
// Which file systems show other files under their own device and inode
// (FUSE, NFS, SMB, 9p, ...), so that device and inode cannot tell whether
// one of their files is a file elsewhere: aliasing_fs_type().
#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/io_identity.h"
#include "core/sysfs_text.h"

namespace ftlsim {

struct MountEntry {
  unsigned major = 0, minor = 0;  // field 3: the file system's device number (0:N without a device)
  std::string mount_point;        // field 5, escapes undone
  std::string fstype;             // after " - "
  std::string source;             // after the type, escapes undone
  std::string options;            // the super options, as the kernel shows them
};

// The entries of a /proc/self/mountinfo text; lines that cannot be parsed
// are left out.
[[nodiscard]] std::vector<MountEntry> parse_mounts(std::string_view mountinfo);

// What a mounted file system is built on besides its device number.
struct MountBase {
  bool file = false;  // a regular file `id`; else the device major:minor
  FileIdentity id;
  unsigned major = 0, minor = 0;
  std::string what;  // for messages: "its source disk.img", "its log device /dev/loop3 (logdev=)", ...
};
// The mounts of paths.mountinfo with their bases, read once; and the files
// and devices held open by FUSE daemons whose file system is not mounted
// here (another mount namespace): in use by something not seen.
struct MountTable {
  std::vector<MountEntry> mounts;
  std::vector<std::vector<MountBase>> bases;  // of each mount, in their order
  std::vector<MountBase> hidden;
};
[[nodiscard]] MountTable read_mount_table(const SafetyPaths& paths = {});

// True for file systems whose files may be other files seen under another
// device and inode: FUSE (fuse, fuseblk, fuse.*), NFS, SMB/CIFS, 9p,
// virtiofs, Ceph, AFS, Coda, GlusterFS, Lustre and the VM host shares
// (vboxsf, prl_fs, drvfs).
[[nodiscard]] bool aliasing_fs_type(std::string_view fstype);
// The type of the aliasing file system the device number `dev` is mounted
// from among `mounts` (parse_mounts(): "fuse.bindfs"), or "" when it is
// not one (or not mounted there).
[[nodiscard]] std::string aliasing_fs_of(dev_t dev, const std::vector<MountEntry>& mounts);
// The same for the file system the open file `fd` is on; one not mounted
// here (reached through /proc/PID/root) is told by its statfs magic number
// ("FUSE", "NFS", ...).
[[nodiscard]] std::string aliasing_fs_of_open(int fd, const SafetyPaths& paths = {});

}  // namespace ftlsim
