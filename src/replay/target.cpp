#include "replay/target.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "core/dir_fd.h"
#include "core/error.h"
#include "core/mount_table.h"
#include "core/units.h"
#include "replay/device_safety.h"
#include "replay/device_stack.h"

namespace ftlsim::replay {
namespace {

namespace fs = std::filesystem;

// A sysfs number, or nullopt when the file is missing or not a number.
std::optional<uint64_t> read_sysfs_number(const fs::path& p) {
  std::ifstream in(p);
  uint64_t v = 0;
  if (in >> v) return v;
  return std::nullopt;
}

// True when `path` names a place under /dev (as given, through symbolic
// links or relative): a missing name there is a device that is not there.
bool in_dev_folder(const std::string& path) {
  if (path.rfind("/dev/", 0) == 0) return true;
  std::error_code ec;
  const std::string folder = fs::weakly_canonical(fs::absolute(path).parent_path(), ec).string();
  return !ec && (folder == "/dev" || folder.rfind("/dev/", 0) == 0);
}

Message refusal(const std::string& path, const std::vector<std::string>& findings) {
  return say("refusing to write to {}: {} (`force` writes anyway; every finding is printed)", path,
             fmt::join(findings, "; "));
}

// Throws unless `findings` are empty or forced. Active swap is refused,
// `force` or not: the kernel fails every write to it (ETXTBSY) and the pages
// swapped out live there.
void refuse_findings(const std::string& path, const std::vector<std::string>& findings, bool force) {
  for (const std::string& f : findings) {
    if (f.find(" is an active swap ") != std::string::npos) {
      throw InputError(
          say("refusing to write to {}: {} (swap is never written, `force` or not: swapoff it first)", path, f));
    }
  }
  if (!findings.empty() && !force) throw InputError(refusal(path, findings));
}

// A target on one of the kernel's pseudo file systems (proc, sysfs, ...:
// core/io_identity.h) is refused, --force or not: its files are the kernel's
// settings, not storage (a writable sysfs attribute would take the trace's
// bytes as a setting). So is a --create file in a folder no output may go
// in (no_outputs_in: those, and devtmpfs).
void refuse_create_in(int folder_fd, const std::string& path, const std::string& folder) {
  if (const auto why = no_outputs_in(folder_fd)) {
    throw InputError(say("`target` {}: its folder {} is {}; give a folder on a disk", path, folder, *why));
  }
}
void refuse_pseudo_fs(int fd, const std::string& path) {
  const auto kind = pseudo_fs_of(fd);
  if (!kind) return;
  throw InputError(
      say("`target` {} is a file of the kernel's {} file system, not storage; give a file on a disk "
          "or a block device",
          path, *kind));
}

// A regular-file target on a file system mounted read-only is refused
// before anything is opened for writing, --force or not.
void refuse_read_only_fs(int fd, const std::string& path) {
  struct statvfs vfs {};
  if (::fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_RDONLY) != 0) {
    throw InputError(
        say("`target` {} is on a read-only file system; give a file on a file system mounted "
            "read-write",
            path));
  }
}

// The open of the target for writing (before any write) failed: a refusal
// (exit 2) when the system says the file may not be written (read-only,
// immutable or append-only, permission, a running program), else the
// system's error.
[[noreturn]] void throw_open_error(const std::string& path) {
  const int err = errno;
  if (err == EROFS || err == EPERM || err == EACCES || err == ETXTBSY) {
    throw InputError(
        say("`target` {}: cannot open it for writing ({}); nothing was written", path, std::strerror(err)));
  }
  errno = err;
  throw system_error_from_errno(fmt::format("{}: cannot open for direct I/O", path));
}

}  // namespace

const char* target_kind_name(TargetKind k) {
  switch (k) {
    case TargetKind::kFile: return "file";
    case TargetKind::kBlockDevice: return "block device";
    case TargetKind::kNvmeGeneric: return "NVMe generic device";
  }
  return "unknown";
}

Target::Target(const TargetRequest& r) : Target(r, Deferred{}) { materialize(); }

Target::Target(const TargetRequest& r, Deferred) {
  info_.path = r.path;
  if (r.placement == PlacementMode::kNvme) {
    if (r.create_bytes != 0) throw InputError(say("`create` does not apply to `placement` nvme"));
    open_nvme(r);
    return;
  }
  // The target is resolved once: opened O_PATH (which runs no driver's
  // open and needs no permission on the file itself), every check below
  // looks at that open file or device, and it is opened for I/O through it
  // (/proc/self/fd/N), never by its path again: a link swapped meanwhile
  // cannot make the checks and the writes see different objects.
  const UniqueFd node(::open(r.path.c_str(), O_PATH | O_CLOEXEC));
  struct stat st {};
  if (!node.valid() || ::fstat(node.get(), &st) != 0) {
    if (errno != ENOENT) throw system_error_from_errno(fmt::format("{}: cannot stat", r.path));
    open_file(r, -1, st);
    return;
  }
  identity_ = FileIdentity{st.st_dev, st.st_ino};
  if (r.inputs != nullptr) r.inputs->check_not_input(Message::setting("target"), r.path, identity_);
  refuse_pseudo_fs(node.get(), r.path);
  if (S_ISBLK(st.st_mode)) {
    if (r.create_bytes != 0) throw InputError(say("`create` applies to regular files; {} is a block device", r.path));
    open_block_device(r, node.get(), st);
  } else if (S_ISREG(st.st_mode)) {
    // A regular file among the device nodes stands where a device is not
    // (left by a run before this check): refused, --force or not.
    if (on_devtmpfs(node.get())) {
      throw InputError(
          say("`target` {} is a regular file on devtmpfs, not a device: the device of that name is not "
              "there; give a block device or a file on a disk",
              r.path));
    }
    open_file(r, node.get(), st);
  } else if (S_ISDIR(st.st_mode)) {
    throw InputError(say("`target` {} is a directory; give a file or a block device", r.path));
  } else if (S_ISCHR(st.st_mode)) {
    throw InputError(
        say("`target` {} is a character device; only `placement` nvme writes to one "
            "(/dev/ngXnY)",
            r.path));
  } else {
    throw InputError(say("`target` {} is neither a regular file nor a block device", r.path));
  }
}

Target::~Target() {
  for (const int fd : lock_fds_) ::close(fd);
  if (fd_ >= 0) ::close(fd_);
  if (claim_fd_ >= 0) ::close(claim_fd_);
  if (made_file_ && !kept_) {
    // Only the file this Target made, by its folder and name: never what the
    // path names now.
    struct stat st {};
    if (::fstatat(parent_fd_, name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
        static_cast<uint64_t>(st.st_dev) == made_dev_ && static_cast<uint64_t>(st.st_ino) == made_ino_) {
      ::unlinkat(parent_fd_, name_.c_str(), 0);
    }
  }
  if (parent_fd_ >= 0) ::close(parent_fd_);
}

namespace {

// Direct-I/O alignment of the open file `fd` as its file system reports it
// (Linux 6.1+), else a conservative 4 KiB.
void read_dio_alignment(int fd, const std::string& path, TargetInfo& info) {
  struct statx sx {};
  info.block_bytes = 4096;
  if (::statx(fd, "", AT_EMPTY_PATH, STATX_SIZE | STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN)) {
    if (sx.stx_dio_offset_align == 0) {
      throw InputError(say("`target` {}: its file system does not support O_DIRECT", path));
    }
    info.block_bytes = std::max<uint32_t>(sx.stx_dio_offset_align, 512);
    info.mem_align = std::max<uint32_t>(sx.stx_dio_mem_align, 512);
  }
}

// Runs `attempt` (it returns 0, or the errno of its failure) again while it
// fails with `busy`, for at most kBusyWait (target.h), pausing 10 ms, then
// 20, 40, ... 100 ms between tries; returns its last result.
template <class F>
int retry_while_busy(int busy, F attempt) {
  const auto deadline = std::chrono::steady_clock::now() + kBusyWait;
  auto pause = std::chrono::milliseconds(10);
  for (;;) {
    const int err = attempt();
    if (err != busy || std::chrono::steady_clock::now() >= deadline) return err;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(100));
  }
}

// "2 s": kBusyWait for messages.
std::string busy_wait_text() { return fmt::format("{:g} s", std::chrono::duration<double>(kBusyWait).count()); }

// An OFD write lock on the whole file for as long as `fd` is open: a second
// replay (another Target) onto the same file fails here, whatever its name.
void lock_file(int fd, const std::string& path) {
  struct flock lk {};
  lk.l_type = F_WRLCK;
  lk.l_whence = SEEK_SET;
  const int err = retry_while_busy(EAGAIN, [&] {
    if (::fcntl(fd, F_OFD_SETLK, &lk) == 0) return 0;
    return errno == EACCES ? EAGAIN : errno;  // either means: held by another
  });
  if (err == 0) return;
  if (err == EAGAIN) {
    throw InputError(
        fmt::format("refusing to write to {}: another program holds a lock on it (a replay already "
                    "writing to it?; still after {}); two replays onto one file would overwrite each "
                    "other",
                    path, busy_wait_text()));
  }
  errno = err;
  throw system_error_from_errno(fmt::format("{}: cannot lock", path));
}

// flock(LOCK_EX | LOCK_NB) on `fd`, the file `file` at the bottom of the
// target's stack: every replay takes it on every regular file its target's
// bytes are stored in (the file itself, each loop device's backing file),
// so that two replays onto one storage refuse each other whatever names
// (a file, loop devices over it at any offset) they write through. flock
// needs no write access: a backing file is opened read-only, never changed.
void flock_file(int fd, const std::string& target, const std::string& file) {
  const int err = retry_while_busy(EWOULDBLOCK, [&] { return ::flock(fd, LOCK_EX | LOCK_NB) == 0 ? 0 : errno; });
  if (err == 0) return;
  if (err == EWOULDBLOCK) {
    if (file == target) {
      throw InputError(
          fmt::format("refusing to write to {}: another program holds a lock on it (a replay already "
                      "writing to it?; still after {}); two replays onto one file would overwrite each "
                      "other",
                      target, busy_wait_text()));
    }
    throw InputError(
        fmt::format("refusing to write to {}: another program holds a lock on {}, the file its data is "
                    "stored in (a replay already writing to it through another name?; still after {}); "
                    "two replays onto one file would overwrite each other",
                    target, file, busy_wait_text()));
  }
  errno = err;
  throw system_error_from_errno(fmt::format("{}: cannot lock", file));
}

// open(path, flags) for an exclusive open (O_EXCL on a block device),
// retried while the device is busy (retry_while_busy); -1 with errno set
// when it still fails.
int open_exclusive(const std::string& path, int flags) {
  int fd = -1;
  const int err = retry_while_busy(EBUSY, [&] {
    fd = ::open(path.c_str(), flags);
    return fd >= 0 ? 0 : errno;
  });
  errno = err;
  return fd;
}

std::vector<std::pair<std::string, FileIdentity>> files_of(const DeviceStack& stack) {
  std::vector<std::pair<std::string, FileIdentity>> files;
  for (const BackingFile& f : stack.files) files.emplace_back(f.path, f.id);
  return files;
}

// The refusal of a target name that is a symbolic link leading to no file
// (`dir` the folder it is in, `name` its name there): it "does not exist",
// but neither it nor `create` may be written through (a new target is made
// with O_NOFOLLOW). nullopt when `name` is no symbolic link.
std::optional<InputError> dangling_link(int dir, const std::string& name, const std::string& path) {
  struct stat st {};
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode)) return std::nullopt;
  std::string to(4096, '\0');
  const ssize_t n = ::readlinkat(dir, name.c_str(), to.data(), to.size());
  to.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return InputError(
      say("`target` {}: is a symbolic link (to {}) that leads to no file; a target is never created "
          "or written through a link: give the file itself",
          path, to));
}

InputError no_direct_io(const std::string& path) {
  return InputError(
      say("`target` {}: its file system does not support O_DIRECT (tmpfs?); replay to a "
          "file on ext4 or XFS, or to a block device",
          path));
}

}  // namespace

void Target::remember_stack(const DeviceStack& stack) {
  stack_devices_ = stack.below;
  stack_devices_.insert(stack_devices_.end(), stack.above.begin(), stack.above.end());
}

void Target::check_output_folder(const Message& option, const std::string& path, dev_t dev) const {
  for (const StackDevice& d : stack_devices_) {
    if (::makedev(d.major, d.minor) != dev) continue;
    throw InputError(Message("refusing to write to ") + Message::setting("target") + Message(" " + info_.path) +
                     Message(": ") + option +
                     say(" {} is on a file system of {} ({}), which the replay would overwrite under its report; "
                         "give a folder elsewhere, `force` or not",
                         path, device_shown(d), d.how));
  }
}

void Target::probe_new_file_alignment(const TargetRequest& r) {
  const fs::path parent = fs::path(r.path).parent_path();
  const std::string folder = parent.empty() ? "." : parent.string();
  name_ = fs::path(r.path).filename().string();
  if (name_.empty() || name_ == "." || name_ == "..") {
    throw InputError(say("`target` {}: name a file to create, not a folder", r.path));
  }
  // The folder is resolved once: the checks, the probe, the creation and a
  // removal all go through it.
  parent_fd_ = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (parent_fd_ < 0) throw InputError(say("`target` {}: its folder {} does not exist", r.path, folder));
  refuse_create_in(parent_fd_, r.path, folder);
  if (::faccessat(parent_fd_, ".", W_OK | X_OK, 0) != 0) {
    throw InputError(say("`target` {}: cannot create it in {} ({})", r.path, folder, std::strerror(errno)));
  }
  if (auto link = dangling_link(parent_fd_, name_, r.path)) throw *link;
  struct stat made_in {};
  if (::fstat(parent_fd_, &made_in) != 0) throw system_error_from_errno(fmt::format("{}: cannot stat", folder));
  identity_ = FileIdentity{made_in.st_dev, made_in.st_ino};
  if (const std::string fs = aliasing_fs_of_open(parent_fd_); !fs.empty()) {
    throw InputError(
        say("`target` {}: its folder {} is on a {} file system, whose storage ftlsim can neither see nor "
            "lock; create it on a local file system",
            r.path, folder, fs));
  }
  creates_file_ = true;
  // An unnamed file in the same folder: the alignment the new file will
  // have, and whether O_DIRECT works there, without creating anything.
  int fd = ::openat(parent_fd_, ".", O_TMPFILE | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);
  if (fd < 0 && errno == EINVAL) {
    const int plain = ::openat(parent_fd_, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (plain >= 0) {
      ::close(plain);
      throw no_direct_io(r.path);
    }
  }
  if (fd < 0) {
    info_.block_bytes = 4096;  // no O_TMPFILE here: materialize() finds out
    return;
  }
  read_dio_alignment(fd, r.path, info_);
  ::close(fd);
}

void Target::open_file(const TargetRequest& r, int node, const struct stat& st) {
  info_.kind = TargetKind::kFile;
  info_.discard = true;  // FALLOC_FL_PUNCH_HOLE
  const bool exists = node >= 0;
  if (r.create_bytes != 0 && r.create_bytes % 4096 != 0) {
    throw InputError(say("`create` {}: the size must be a multiple of 4 KiB", r.create_bytes));
  }
  uint64_t bytes = 0;
  if (!exists) {
    if (r.create_bytes == 0) {
      if (auto link = dangling_link(AT_FDCWD, r.path, r.path)) throw *link;
      if (in_dev_folder(r.path)) {
        throw InputError(
            say("`target` {} does not exist: no such device (the kernel makes the node "
                "of a device that exists; check the name, e.g. with lsblk)",
                r.path));
      }
      throw InputError(say("`target` {} does not exist; add `create` SIZE to create it (sparse)", r.path));
    }
    probe_new_file_alignment(r);
    pending_create_ = true;
    pending_bytes_ = r.create_bytes;
    bytes = r.create_bytes;
  } else {
    const FileIdentity id{st.st_dev, st.st_ino};
    const DeviceStack stack = stack_of_file(r.path, id);
    remember_stack(stack);
    if (r.inputs != nullptr) {
      check_stack_inputs(stack, *r.inputs, Message::setting("target") + Message(" " + r.path));
    }
    // A file in use (backing a loop device, an active swap file) or holding a
    // file system, RAID member or partition table is refused like a device.
    std::vector<std::string> findings = inspect_regular_file(r.path, id, fd_path(node));
    for (std::string& f : stack_findings(stack, {}, true)) findings.push_back(std::move(f));
    refuse_findings(r.path, findings, r.force);
    info_.findings = std::move(findings);
    if (r.create_bytes != 0 && static_cast<uint64_t>(st.st_size) != r.create_bytes) {
      if (!r.force) {
        throw InputError(
            say("`target` {} exists with {} bytes; `create` {} would resize it (remove the file, "
                "give its size, or add `force` to resize)",
                r.path, st.st_size, r.create_bytes));
      }
      pending_bytes_ = r.create_bytes;
      bytes = r.create_bytes;
    } else {
      bytes = static_cast<uint64_t>(st.st_size);
    }
    refuse_read_only_fs(node, r.path);
    fd_ = ::open(fd_path(node).c_str(), O_RDWR | O_DIRECT | O_CLOEXEC);  // the file checked above
    if (fd_ < 0) {
      if (errno == EINVAL) throw no_direct_io(r.path);
      throw_open_error(r.path);
    }
    lock_file(fd_, r.path);
    flock_file(fd_, r.path, r.path);
    lock_stack_files(files_of(stack));
    check_stack_busy(stack, Message::setting("target") + Message(" " + r.path), true);
    read_dio_alignment(fd_, r.path, info_);
  }
  info_.bytes = bytes / info_.block_bytes * info_.block_bytes;
  if (info_.bytes == 0) {
    throw InputError(
        say("`target` {} is empty (or smaller than one {}-byte block); give `create` SIZE "
            "and `force` to size it",
            r.path, info_.block_bytes));
  }
}

void Target::materialize() {
  if (pending_create_) {
    pending_create_ = false;
    const int fd = ::openat(parent_fd_, name_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && errno == EEXIST) {  // made by another program since the checks: left alone
      throw InputError(
          say("`target` {}: appeared after it was checked (made by another program?); nothing was "
              "written to it",
              info_.path));
    }
    if (fd < 0) throw system_error_from_errno(fmt::format("{}: cannot create", info_.path));
    struct stat made {};
    if (::fstat(fd, &made) != 0) {
      const SystemError e = system_error_from_errno(fmt::format("{}: cannot stat", info_.path));
      ::close(fd);
      throw e;
    }
    made_dev_ = static_cast<uint64_t>(made.st_dev);
    made_ino_ = static_cast<uint64_t>(made.st_ino);
    made_file_ = true;
    info_.created = true;
    if (::ftruncate(fd, static_cast<off_t>(pending_bytes_)) != 0) {
      const int err = errno;
      ::close(fd);                          // the destructor removes the file
      if (err == EFBIG || err == EINVAL) {  // past the file system's largest file: bad input, not a fault
        throw InputError(
            say("`target` {}: its file system cannot hold a file of {} bytes (`create`); nothing was "
                "written",
                info_.path, pending_bytes_));
      }
      errno = err;
      throw system_error_from_errno(fmt::format("{}: cannot size to {} bytes", info_.path, pending_bytes_));
    }
    // Reopened for direct I/O through the open file itself (/proc/self/fd/N),
    // not the path, which may name something else by now.
    fd_ = ::open(fd_path(fd).c_str(), O_RDWR | O_DIRECT | O_CLOEXEC);
    const int open_errno = errno;
    ::close(fd);
    errno = open_errno;
    if (fd_ < 0) {
      if (errno == EINVAL) throw no_direct_io(info_.path);
      throw system_error_from_errno(fmt::format("{}: cannot open for direct I/O", info_.path));
    }
    lock_file(fd_, info_.path);
    flock_file(fd_, info_.path, info_.path);
    const uint32_t planned = info_.block_bytes;
    read_dio_alignment(fd_, info_.path, info_);
    if (info_.block_bytes != planned) {
      throw SystemError(say("`target` {}: direct-I/O alignment {} differs from the probed {}", info_.path,
                            info_.block_bytes, planned));
    }
  } else if (pending_bytes_ != 0) {
    if (::ftruncate(fd_, static_cast<off_t>(pending_bytes_)) != 0) {
      throw system_error_from_errno(fmt::format("{}: cannot resize to {} bytes", info_.path, pending_bytes_));
    }
    info_.created = true;
  }
  pending_bytes_ = 0;
}

void Target::open_block_device(const TargetRequest& r, int node, const struct stat& st) {
  info_.kind = TargetKind::kBlockDevice;
  const unsigned maj = ::major(st.st_rdev), min = ::minor(st.st_rdev);
  const DeviceStack stack = stack_of_device(maj, min);
  remember_stack(stack);
  if (r.inputs != nullptr) check_stack_inputs(stack, *r.inputs, Message::setting("target") + Message(" " + r.path));
  const std::string device = fd_path(node);  // the node checked, whatever the path names by now
  std::vector<std::string> findings = inspect_block_device(maj, min, r.path, probe_signatures(device, r.path));
  for (std::string& f : stack_findings(stack)) findings.push_back(std::move(f));
  refuse_findings(r.path, findings, r.force);
  info_.findings = std::move(findings);

  fd_ = open_exclusive(device, O_RDWR | O_DIRECT | O_CLOEXEC | (r.force ? 0 : O_EXCL));
  if (fd_ < 0) {
    if (errno == EBUSY) {
      throw InputError(
          say("refusing to write to {}: it is busy (the exclusive open failed, still after {}: mounted, or "
              "claimed by another driver); `force` skips the exclusive open",
              r.path, busy_wait_text()));
    }
    throw_open_error(r.path);
  }
  // A read-only device (losetup -r, blockdev --setro, a write-protected
  // disk) opens for writing, and every write fails: refused here instead.
  int read_only = 0;
  if (::ioctl(fd_, BLKROGET, &read_only) == 0 && read_only != 0) {
    throw InputError(
        say("refusing to write to {}: the device is read-only (BLKROGET; e.g. attached with "
            "losetup -r, or set with blockdev --setro); nothing was written",
            r.path));
  }
  lock_stack_files(files_of(stack));
  check_stack_busy(stack, Message::setting("target") + Message(" " + r.path), r.force);
  // A loop device right over a regular file: its writes allocate in that
  // file, at the loop's offset (storage_file()).
  struct loop_info64 loop {};
  if (stack.below.size() == 1 && stack.files.size() == 1 && lock_fds_.size() == 1 &&
      ::ioctl(fd_, LOOP_GET_STATUS64, &loop) == 0) {
    loop_file_fd_ = lock_fds_[0];
    loop_file_ = stack.files[0].path;
    loop_offset_ = loop.lo_offset;
  }
  uint64_t bytes = 0;
  int block = 0;
  if (::ioctl(fd_, BLKGETSIZE64, &bytes) != 0) throw system_error_from_errno(fmt::format("{}: BLKGETSIZE64", r.path));
  if (::ioctl(fd_, BLKSSZGET, &block) != 0 || block < 512) {
    throw system_error_from_errno(fmt::format("{}: BLKSSZGET", r.path));
  }
  info_.block_bytes = static_cast<uint32_t>(block);
  info_.bytes = bytes / info_.block_bytes * info_.block_bytes;
  if (info_.bytes == 0) throw InputError(say("`target` {} has a size of 0", r.path));

  // Queue limits live with the whole disk; a partition's sysfs directory
  // has none, its parent has.
  const fs::path dev_dir = fs::path("/sys/dev/block") / fmt::format("{}:{}", maj, min);
  const fs::path queue = fs::exists(dev_dir / "partition") ? dev_dir / ".." / "queue" : dev_dir / "queue";
  info_.discard = read_sysfs_number(queue / "discard_max_bytes").value_or(0) > 0;
  if (const auto streams = read_sysfs_number(queue / "max_write_streams")) {
    info_.write_streams_known = true;
    info_.max_write_streams = static_cast<uint32_t>(*streams);
  }
}

void Target::open_nvme(const TargetRequest& r) {
  info_.kind = TargetKind::kNvmeGeneric;
  // Resolved once, as the other targets are: checked and opened through
  // the node opened O_PATH; the same for its block device.
  const UniqueFd node(::open(r.path.c_str(), O_PATH | O_CLOEXEC));
  struct stat nst {};
  if (!node.valid() || ::fstat(node.get(), &nst) != 0) check_nvme_char_path(r.path);  // throws what is wrong
  identity_ = FileIdentity{nst.st_dev, nst.st_ino};
  if (r.inputs != nullptr) r.inputs->check_not_input(Message::setting("target"), r.path, identity_);
  check_nvme_char_node(r.path, nst);
  // The namespace's block device, if it has one, is where mounts and
  // signatures show.
  const std::string name = fs::path(r.path).filename().string();
  const std::string block_path = name.rfind("ng", 0) == 0 ? "/dev/nvme" + name.substr(2) : std::string();
  UniqueFd block;
  struct stat st {};
  if (!block_path.empty()) {
    block = UniqueFd(::open(block_path.c_str(), O_PATH | O_CLOEXEC));
    if (block.valid() && (::fstat(block.get(), &st) != 0 || !S_ISBLK(st.st_mode))) block.reset();
  }
  if (block.valid()) {
    const DeviceStack stack = stack_of_device(::major(st.st_rdev), ::minor(st.st_rdev));
    remember_stack(stack);
    if (r.inputs != nullptr) check_stack_inputs(stack, *r.inputs, Message::setting("target") + Message(" " + r.path));
    std::vector<std::string> findings = inspect_block_device(::major(st.st_rdev), ::minor(st.st_rdev), block_path,
                                                             probe_signatures(fd_path(block.get()), block_path));
    for (std::string& f : stack_findings(stack)) findings.push_back(std::move(f));
    refuse_findings(r.path, findings, r.force);
    info_.findings = std::move(findings);
    lock_stack_files(files_of(stack));
    check_stack_busy(stack, Message::setting("target") + Message(" " + r.path), r.force);
  }
  fd_ = ::open(fd_path(node.get()).c_str(), O_RDWR | O_CLOEXEC);
  if (fd_ < 0) throw system_error_from_errno(fmt::format("{}: cannot open", r.path));
  info_.nvme = probe_nvme_namespace(fd_, r.path);
  info_.block_bytes = info_.nvme.lba_bytes;
  info_.bytes = info_.nvme.lbas * info_.nvme.lba_bytes;
  info_.max_io_bytes = info_.nvme.max_transfer_bytes;
  info_.discard = info_.nvme.dsm_supported;
  if (info_.bytes == 0) throw InputError(say("`target` {}: the namespace has a size of 0", r.path));
  // Passthrough bypasses the block layer, so claim the block device as a
  // block-device replay would (O_EXCL), for the whole replay: a mount or
  // another exclusive user of the namespace is refused, and none can start.
  if (!r.force && block.valid()) {
    claim_fd_ = open_exclusive(fd_path(block.get()), O_RDONLY | O_CLOEXEC | O_EXCL);
    if (claim_fd_ < 0 && errno == EBUSY) {
      throw InputError(
          say("refusing to write to {}: its block device {} is busy (the exclusive open failed, still after {}: "
              "mounted, or claimed by another program); `force` skips the exclusive open",
              r.path, block_path, busy_wait_text()));
    }
    if (claim_fd_ < 0) throw system_error_from_errno(fmt::format("{}: cannot open", block_path));
  }
}

void Target::lock_stack_files(const std::vector<std::pair<std::string, FileIdentity>>& files) {
  struct stat own {};
  const bool have_own = fd_ >= 0 && info_.kind == TargetKind::kFile && ::fstat(fd_, &own) == 0;
  for (const auto& [path, id] : files) {
    if (have_own && FileIdentity{own.st_dev, own.st_ino} == id) continue;  // the target itself: locked through fd_
    // The backing file by the name sysfs gives, checked to be that very
    // file (device and inode) before it is locked. One that no name leads
    // to any more (removed or renamed) cannot be opened, and is not locked.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || FileIdentity{st.st_dev, st.st_ino} != id) {
      ::close(fd);
      continue;
    }
    lock_fds_.push_back(fd);
    flock_file(fd, info_.path, path);
  }
}

std::optional<Target::StorageFile> Target::storage_file() const {
  StorageFile f;
  if (info_.kind == TargetKind::kFile) {
    f = StorageFile{info_.path, 0, {}, fd_};
  } else if (loop_file_fd_ >= 0) {
    f = StorageFile{loop_file_, loop_offset_, {}, loop_file_fd_};
  } else {
    return std::nullopt;
  }
  // A file still to be created: its folder's file system. The free-space
  // refusal depends on it: not readable is an error, not a pass.
  const std::optional<FsSpace> space = fs_space_of(f.fd >= 0 ? f.fd : parent_fd_);
  if (!space) throw system_error_from_errno(fmt::format("{}: cannot read its file system's free space", f.path));
  f.space = *space;
  return f;
}

int Target::discard(uint64_t offset, uint64_t bytes) const {
  if (info_.kind == TargetKind::kBlockDevice) {
    uint64_t range[2] = {offset, bytes};
    return ::ioctl(fd_, BLKDISCARD, &range) == 0 ? 0 : -errno;
  }
  return ::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
                     static_cast<off_t>(bytes)) == 0
             ? 0
             : -errno;
}

}  // namespace ftlsim::replay
