#include "core/input_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "core/dir_fd.h"
#include "core/error.h"
#include "core/io_identity.h"

namespace ftlsim {

std::string file_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISREG(mode)) return "a regular file";
  return "not a regular file";
}

bool on_pseudo_file_system(int fd) { return pseudo_fs_of(fd).has_value(); }

InputFile::InputFile(const std::string& path) : path_(path) {
  // Resolved once: opened O_PATH (no driver's open runs: opening some
  // devices has effects, a tape rewinds, a terminal becomes the controlling
  // one), refused unless a regular file, then opened for reading through
  // that node (/proc/self/fd/N), so the file read is the file checked.
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
  // writer forever. It changes nothing for the regular files accepted.
  constexpr int kRead = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
  if (path.empty()) throw InputError("an input's path is empty (\"\"): give a file");
  const auto refuse_open = [&path](int err) {
    if (err == ENOENT || err == ENOTDIR) throw InputError(fmt::format("{}: no such file", path));
    if (err == EACCES || err == EPERM || err == ELOOP || err == ENAMETOOLONG || err == ENXIO || err == ENODEV ||
        err == EISDIR || err == EROFS || err == ETXTBSY) {
      throw InputError(fmt::format("{}: cannot open: {}", path, std::strerror(err)));
    }
    throw SystemError(fmt::format("{}: cannot open: {}", path, std::strerror(err)));
  };
  const int node = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (node < 0) refuse_open(errno);
  struct stat before {};
  const bool stated = ::fstat(node, &before) == 0;
  if (stated && !S_ISREG(before.st_mode)) {
    ::close(node);
    throw InputError(fmt::format("{}: not a regular file ({}); give a file", path, file_kind(before.st_mode)));
  }
  fd_ = ::open(fd_path(node).c_str(), kRead);
  if (fd_ < 0 && errno == ENOENT && ::access("/proc/self/fd", X_OK) != 0) {
    fd_ = ::open(path.c_str(), kRead);  // no /proc: by the path (the fstat below still checks what it is)
  }
  const int open_errno = errno;
  ::close(node);
  if (fd_ < 0) refuse_open(open_errno);
  if (::fstat(fd_, &st_) != 0) {
    const SystemError e = system_error_from_errno(path + ": cannot stat");
    ::close(fd_);
    throw e;
  }
  if (!S_ISREG(st_.st_mode)) {
    ::close(fd_);
    throw InputError(fmt::format("{}: not a regular file ({}); give a file", path, file_kind(st_.st_mode)));
  }
  // Files of the kernel's pseudo file systems report a size that is not
  // their contents (/proc: 0 bytes, /sys: 4096) and cannot be mapped:
  // reading one as empty would import nothing and report success, mapping
  // one fails with ENODEV.
  bool special = on_pseudo_file_system(fd_);
  if (!special && st_.st_size == 0) {
    // Any other file that says 0 bytes and yet has contents.
    char probe = 0;
    special = ::pread(fd_, &probe, 1, 0) > 0;
  }
  if (special) {
    ::close(fd_);
    throw InputError(
        fmt::format("{}: a special file whose size ({} bytes) is not its contents (as in /proc or "
                    "/sys); copy it to a regular file first",
                    path, st_.st_size));
  }
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool InputFile::unchanged() const {
  struct stat now {};
  if (::fstat(fd_, &now) != 0) return false;
  // The change time too: a rewrite in place keeps the size, and `touch -r`
  // can put the modification time back, but nothing sets st_ctim back.
  return now.st_size == st_.st_size && now.st_mtim.tv_sec == st_.st_mtim.tv_sec &&
         now.st_mtim.tv_nsec == st_.st_mtim.tv_nsec && now.st_ctim.tv_sec == st_.st_ctim.tv_sec &&
         now.st_ctim.tv_nsec == st_.st_ctim.tv_nsec;
}

std::string InputFile::change() const {
  struct stat now {};
  if (::fstat(fd_, &now) != 0) return fmt::format("cannot stat it: {}", std::strerror(errno));
  if (now.st_size != st_.st_size) return fmt::format("its size went from {} to {} bytes", st_.st_size, now.st_size);
  if (now.st_mtim.tv_sec != st_.st_mtim.tv_sec || now.st_mtim.tv_nsec != st_.st_mtim.tv_nsec) return "it was modified";
  return "its change time moved: rewritten in place, or renamed, linked or chmod-ed";
}

}  // namespace ftlsim
