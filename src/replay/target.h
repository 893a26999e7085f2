#pragma once
// The file or device a replay writes to, opened for O_DIRECT I/O after the
// safety checks:
//  - a regular file: locked (an OFD write lock, F_OFD_SETLK) for the
//    Target's life, so that a second replay onto it is refused; used as it is;
//    every regular file at the bottom of any target's stack (the file
//    itself, a loop device's backing file) is also held with
//    flock(LOCK_EX), so that two replays onto one storage through
//    different names (file, loop devices at any offset) refuse each other; created (sparse) only with --create SIZE,
//    and never resized unless --create SIZE and --force say so; refused when
//    device_safety.h finds it backing a loop device, an active swap file or
//    holding a signature (unless --force);
//  - a block device: refused when device_safety.h finds it, or any device of
//    its stack (device_stack.h), in use or holding data (unless --force),
//    opened with O_EXCL unless --force;
// Either is refused, --force or not, when it is an input of the run (by
// device and inode) or an input is in its stack (a loop device's backing
// file, a file system on the same storage), when a device of its stack is
// busy for reasons ftlsim cannot see, and when its storage is on a FUSE or
// network file system (device_stack.h).
//  - an NVMe generic character device /dev/ngXnY (--placement nvme only).
// The target is resolved once: opened O_PATH, checked through that open
// node, and opened for I/O through it (/proc/self/fd/N), never by re-reading
// the path; a file to create is made in its folder, opened once.
// Two phases, so that every refusal comes before any change: the Deferred
// constructor only checks (info() then holds the size and alignment the
// target will have); materialize() then creates or resizes a file.
// Writes never reach beyond info().bytes: the request stream keeps every I/O
// inside it.
// Refused before anything is written, --force or not: a target on one of
// the kernel's pseudo file systems (proc, sysfs, ...: its files are
// settings, not storage), a file on a read-only file system or one the
// system will not open for writing (immutable, append-only), a read-only
// block device. A lock or exclusive open another holds is retried for
// kBusyWait before the target is refused as busy.
#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/io_identity.h"
#include "core/message.h"
#include "core/storage_stack.h"
#include "replay/nvme_device.h"
#include "replay/replay_config.h"

namespace ftlsim::replay {

// How long a lock or an exclusive open another holds is retried before the
// target is refused as busy. A replay killed a moment ago (kill -9) holds
// its target until the kernel has closed its files: its io_uring is torn
// down after the process is gone (0.2-0.4 s were seen), and a rerun must not
// be refused for that. A replay that really runs holds the target for as
// long as it runs: the refusal then comes this much later, and nothing waits longer.
inline constexpr std::chrono::milliseconds kBusyWait{2000};

enum class TargetKind : uint8_t { kFile, kBlockDevice, kNvmeGeneric };
[[nodiscard]] const char* target_kind_name(TargetKind k);

struct TargetInfo {
  std::string path;
  TargetKind kind = TargetKind::kFile;
  uint64_t bytes = 0;          // usable size, a multiple of block_bytes
  uint32_t block_bytes = 512;  // offset and length alignment of direct I/O
  uint32_t mem_align = 4096;   // buffer alignment of direct I/O
  bool created = false;        // --create made (or resized) the file in this run
  bool discard = false;        // trims can be sent: files punch holes; devices: discard_max_bytes > 0
  // Block devices: queue/max_write_streams (Linux 6.16+); absent = older kernel.
  bool write_streams_known = false;
  uint32_t max_write_streams = 0;
  uint32_t max_io_bytes = 0;          // largest I/O the target takes (0 = no limit known)
  std::vector<std::string> findings;  // safety findings overridden by --force
  NvmeNamespace nvme;                 // kNvmeGeneric only
};

struct TargetRequest {
  std::string path;
  uint64_t create_bytes = 0;  // --create SIZE (0 = not given)
  bool force = false;
  PlacementMode placement = PlacementMode::kNone;
  // The run's inputs: none may be anywhere in the target's stack
  // (device_stack.h), --force or not. Not owned; may be null.
  const RunInputs* inputs = nullptr;
};

class Target {
 public:
  // Checks and opens the target, ready for I/O (the Deferred constructor,
  // then materialize()). Throws InputError for refusals (with every safety
  // finding in the message) and SystemError for failed syscalls.
  explicit Target(const TargetRequest& request);
  // Checks only: nothing is created, resized or written. A file to be
  // created or resized is probed for its direct-I/O alignment through an
  // unnamed O_TMPFILE in its folder. Throws like the constructor above.
  struct Deferred {};
  Target(const TargetRequest& request, Deferred);
  // Creates or resizes a file as --create asks, and opens it for direct
  // I/O. Nothing to do for devices and files used as they are.
  void materialize();
  Target(const Target&) = delete;
  Target& operator=(const Target&) = delete;
  ~Target();

  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] const TargetInfo& info() const { return info_; }
  // The device and inode of the target as checked; for a file --create
  // will make, of the folder it is made in (creates_file()). For the --out
  // checks (RunInputs::add, add_planned).
  [[nodiscard]] FileIdentity identity() const { return identity_; }
  [[nodiscard]] bool creates_file() const { return creates_file_; }
  // Throws InputError, `force` or not, when a folder on the file system
  // `dev` (an --out folder's, `path` naming it) is on the target's storage:
  // a file system mounted from a device of the target's stack, which the
  // replay overwrites under the report it writes there.
  void check_output_folder(const Message& option, const std::string& path, dev_t dev) const;

  // Discards [offset, offset + bytes) of a block device (BLKDISCARD), or
  // punches a hole into a file. Returns 0 or -errno.
  [[nodiscard]] int discard(uint64_t offset, uint64_t bytes) const;

  // The regular file a replay's writes allocate in (space_need.h): a file
  // target, or the backing file of a loop device target built directly on
  // one (no partition or device mapper between), with its file system's free
  // space; nullopt for other devices. Throws SystemError when the free
  // space cannot be read (fstatvfs fails). `origin`: the file's byte that the target's byte 0 is (the loop's
  // offset). `fd`: the file, open while the Target is (-1: a file still to
  // be created, which holds no data).
  struct StorageFile {
    std::string path;
    uint64_t origin = 0;
    FsSpace space;
    int fd = -1;
  };
  [[nodiscard]] std::optional<StorageFile> storage_file() const;

  // A file this Target created is removed again on destruction unless
  // keep() was called (once the replay starts writing): a refused trace
  // leaves nothing behind.
  void keep() { kept_ = true; }

 private:
  // `node`: the target opened O_PATH (-1: it does not exist), `st` its fstat.
  void open_file(const TargetRequest& r, int node, const struct stat& st);
  void probe_new_file_alignment(const TargetRequest& r);
  void open_block_device(const TargetRequest& r, int node, const struct stat& st);
  void open_nvme(const TargetRequest& r);

  int fd_ = -1;
  FileIdentity identity_;
  std::vector<StackDevice> stack_devices_;  // below and above the target (check_output_folder)
  void remember_stack(const DeviceStack& stack);
  bool creates_file_ = false;
  int claim_fd_ = -1;          // --placement nvme: the namespace's block device, held with O_EXCL
  std::vector<int> lock_fds_;  // the stack's regular files, held with flock(LOCK_EX)
  // A loop device target directly over a regular file: that file (one of
  // lock_fds_), its name and the loop's offset in it.
  int loop_file_fd_ = -1;
  std::string loop_file_;
  uint64_t loop_offset_ = 0;
  // Takes flock(LOCK_EX | LOCK_NB) on each file at the bottom of the stack.
  void lock_stack_files(const std::vector<std::pair<std::string, FileIdentity>>& files);
  TargetInfo info_;
  bool made_file_ = false;
  bool kept_ = false;
  // A file to create (--create): its folder, opened once when it is checked,
  // and its name there; created, reopened and (when not kept) removed through
  // that folder, never by re-reading the path. The identity of the file made.
  int parent_fd_ = -1;
  std::string name_;
  uint64_t made_dev_ = 0;
  uint64_t made_ino_ = 0;
  uint64_t pending_bytes_ = 0;   // materialize(): create or resize the file to this size
  bool pending_create_ = false;  // ... by creating it
};

}  // namespace ftlsim::replay
