#pragma once
// What a run reads and where it may write, compared by device and inode
// (so hard links, symlinks and relative paths name the same file): no
// output or replay target may be one of the run's inputs, no output folder
// may hold an input, and an output file is a regular file or absent, never
// a device node, FIFO, socket, directory or symbolic link. Every command
// that writes checks its outputs before it starts its work: output files
// through OutputFile (core/atomic_file.h), folders through OutputDir and
// InPlaceFolder, replay targets through replay::Target.
#include <sys/types.h>

#include <cstdint>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/message.h"

namespace ftlsim {

struct FileIdentity {
  dev_t dev = 0;
  ino_t ino = 0;
  friend bool operator==(const FileIdentity&, const FileIdentity&) = default;
};

// What can be seen of a regular file through any file system that shows
// it: its size, its modification time in whole seconds (sshfs shows no
// more) and its first and last 4 KiB. A FUSE mirror (bindfs), an NFS or
// sshfs mount of a local folder shows a file under another device and
// inode; two files with the same mark, one of them on such a file system
// (core/mount_table.h: aliasing_fs_type), are taken to be one file.
struct ContentMark {
  uint64_t size = 0;
  int64_t mtime_sec = 0;
  std::string head, tail;
  friend bool operator==(const ContentMark&, const ContentMark&) = default;
};
// The mark of the open file `fd` (read with pread: its offset is kept);
// nullopt when it is not a regular file or cannot be read.
[[nodiscard]] std::optional<ContentMark> content_mark(int fd);

// The identity of the file `path` names, following symbolic links; nullopt
// when it does not exist (or cannot be stat'ed).
[[nodiscard]] std::optional<FileIdentity> identity_of(const std::string& path);

// "proc", "sysfs", ... for a statfs f_type of one of the kernel's pseudo
// file systems (proc, sysfs, debugfs, tracefs, securityfs, cgroup (v1 and
// v2), configfs, bpf, efivarfs, pstore, devpts), whose files are made up
// when read and written to the kernel, never storage; nullopt for others.
// The one list: inputs (core/input_file.h), output files and folders, and
// replay targets are all checked against it.
[[nodiscard]] std::optional<std::string_view> pseudo_fs_name(long f_type);
// The same for the file system the open file or folder `fd` is on (nullopt
// also when fstatfs fails).
[[nodiscard]] std::optional<std::string_view> pseudo_fs_of(int fd);

// The space of the file system the open file or folder `fd` is on: what an
// unprivileged writer may still take (statvfs f_bavail x f_frsize, at most
// UINT64_MAX) and its allocation unit (f_frsize); nullopt when fstatvfs fails.
struct FsSpace {
  uint64_t free_bytes = 0;
  uint64_t unit = 4096;
};
[[nodiscard]] std::optional<FsSpace> fs_space_of(int fd);

// True when the open file or folder `fd` is on devtmpfs, the file system
// the kernel fills with device nodes (/dev); found by its device number
// among the mounts of `mountinfo_path` (statfs gives devtmpfs and tmpfs one
// type).
[[nodiscard]] bool on_devtmpfs(int fd, const std::string& mountinfo_path = "/proc/self/mountinfo");
// Why no output may be made in the folder `dir`, worded to follow "FOLDER
// is ": on a pseudo file system (pseudo_fs_of), or on devtmpfs, whose names
// are the kernel's device nodes: a file or folder made there takes the name
// of a device that is not there (a mistyped or unplugged disk), keeps the
// kernel from making that device's node later, and lives in memory. nullopt
// when outputs may go there. Every output (files, folders, replay targets
// made with --create) is checked against it.
[[nodiscard]] std::optional<std::string> no_outputs_in(int dir,
                                                       const std::string& mountinfo_path = "/proc/self/mountinfo");

// "a character device", "a FIFO", ... for the type bits of st_mode.
[[nodiscard]] std::string_view file_type_name(mode_t mode);

// The process's umask (from /proc/self/status, without changing it; 022
// when that cannot be read), for files and folders created 0600/0700 and
// then opened up the way open() would have.
[[nodiscard]] mode_t process_umask();

// The inputs of one run, each with the option that named it.
class RunInputs {
 public:
  // Records `path` (given with `option`, e.g. "--trace") when it exists.
  // An input on overlayfs is recorded also as every layer file that may
  // hold it (overlay_layers()), with the file systems of the layers.
  void add(std::string option, const std::string& path);
  // Records the input `path` as the file with identity `id` (a file the run
  // has open: what it reads, whatever the path names later); its overlay
  // layers as above, when `path` still names that file.
  void add(std::string option, const std::string& path, FileIdentity id);
  // Records a file the run will create at `path` (replay --target with
  // --create): no output folder may hold the folder it is made in.
  void add_planned(std::string option, const std::string& path);
  // The same, with `folder` the identity of the folder it is made in (open).
  void add_planned(std::string option, const std::string& path, FileIdentity folder);

  // Throws InputError when `path` is one of the inputs (same device and
  // inode), naming both options.
  void check_not_input(const Message& option, const std::string& path) const;
  // The same for the file with identity `id` (an open file, or a name in an
  // open folder), `path` naming it.
  void check_not_input(const Message& option, const std::string& path, FileIdentity id) const;

  // Throws InputError when the folder `dir` is, or holds at any depth, one
  // of the inputs (its contents may be replaced as a whole).
  void check_not_inside(const Message& option, const std::string& dir) const;
  // The same for the folder with identity `folder` (an open folder), `dir` naming it.
  void check_not_inside(const Message& option, const std::string& dir, FileIdentity folder) const;

  // Every input's identity, for checks that look further (a replay
  // target's loop and device-mapper stack, replay/device_stack.h).
  struct Input {
    std::string option;
    std::string path;
    FileIdentity id;
    bool planned = false;  // add_planned: `id` is the folder it will be made in
    // An overlay layer of the input `path`: `stored` names the layer file
    // (`id`), or with `device_only` the layer folder, whose file system
    // (`id.dev`) holds it. Non-empty `unresolved`: the input is on an
    // overlay whose layers could not be found (why); every output and
    // replay target is refused.
    std::string stored{};
    bool device_only = false;
    std::string unresolved{};
    // The type of the FUSE or network file system the input is on
    // ("fuse.bindfs"), whose files may be other files under another device
    // and inode: its storage cannot be seen. "" when it is on none.
    std::string aliased{};
    // Its ContentMark when `aliased` (regular files), to tell it through
    // another file system.
    std::optional<ContentMark> mark{};
  };
  [[nodiscard]] const std::vector<Input>& inputs() const { return inputs_; }
  // "the input --trace t.ftr (stored as lower/t.ftr in its overlay)".
  [[nodiscard]] static std::string describe(const Input& in);
  // Throws InputError when an input is on an overlay whose layers could not
  // be found: what `option` `path` writes might be it.
  void check_resolved(const Message& option, const std::string& path) const;
  // The input that the regular file open as `fd` may be, seen through
  // another file system: the file or the input on a FUSE or network file
  // system, and both with the same ContentMark. nullptr when none.
  [[nodiscard]] const Input* seen_as(int fd) const;

 private:
  std::vector<Input> inputs_;
};

// What an open file or folder on overlayfs is stored as: every layer file
// that may hold it (upper and lower layers, recursively when a layer is
// itself on an overlay) and every layer folder (for the file systems the
// layers are on). Empty for a file not on overlayfs. `unresolved` says why
// the layers could not be found (then the lists are incomplete).
struct OverlayLayers {
  struct File {
    std::string path;
    FileIdentity id;
  };
  std::vector<File> files;
  std::vector<File> folders;
  std::string unresolved;
};
[[nodiscard]] OverlayLayers overlay_layers(int fd, const std::string& mountinfo_path = "/proc/self/mountinfo");

// `path` without trailing "/" and "/." components ("out/./" -> "out"),
// so that its last component names the folder itself, and with each run of
// slashes as one ("e2//" -> "e2", "a//b" -> "a/b": the same path to the
// kernel), as output folders are named in messages and `wrote` lines.
[[nodiscard]] std::string folder_name_of(const std::string& path);

}  // namespace ftlsim
