#pragma once
// Opening a file the user named as an input (a trace, --pid-map, --markers,
// a hint log): never blocks (a FIFO given by mistake would hang open()),
// accepts only regular files, and turns every reason it cannot be read
// into one message naming the file.
#include <sys/stat.h>

#include <cstdint>
#include <string>

#include "core/io_identity.h"

namespace ftlsim {

class InputFile {
 public:
  // Opens `path` once (O_PATH), checks that node, and opens it read-only
  // with O_NONBLOCK through it (a device is never opened, and the file read
  // is the file checked). Throws InputError
  // (exit 2, the user can fix it) when it is missing, not permitted (with
  // the system's message), not a regular file (naming what it is: FIFO,
  // directory, block or character device, socket), or a special file whose
  // size is not its contents (/proc says 0 bytes, /sys 4096: it cannot be
  // mapped); SystemError for other failures.
  explicit InputFile(const std::string& path);
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] uint64_t size() const { return static_cast<uint64_t>(st_.st_size); }
  [[nodiscard]] const std::string& path() const { return path_; }
  // The open file's device and inode: what is read, whatever the path names
  // by now (RunInputs compares outputs with it).
  [[nodiscard]] FileIdentity identity() const { return {st_.st_dev, st_.st_ino}; }
  // False once the file's size, modification time or change time differs
  // from when it was opened (another program truncated or rewrote it, also
  // in place with the same size and `touch -r` restoring the mtime).
  [[nodiscard]] bool unchanged() const;
  // "size 1048576 -> 4096 bytes" or "modified": what changed, for messages.
  [[nodiscard]] std::string change() const;

 private:
  std::string path_;
  int fd_ = -1;
  struct stat st_ {};
};

// True when `fd` is on one of the kernel's pseudo file systems (proc, sysfs,
// debugfs, tracefs, securityfs, cgroup, configfs, bpf, efivarfs, pstore,
// devpts: core/io_identity.h pseudo_fs_name).
[[nodiscard]] bool on_pseudo_file_system(int fd);

// "a FIFO", "a directory", ...: what a non-regular file is, for messages.
[[nodiscard]] std::string file_kind(mode_t mode);

}  // namespace ftlsim
