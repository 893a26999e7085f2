#include "core/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>  // renameat2, RENAME_NOREPLACE (glibc 2.28+)
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "core/dir_fd.h"
#include "core/error.h"
#include "core/io_identity.h"

namespace ftlsim {
namespace {

std::string folder_of(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// Throws InputError when `name` exists in the open folder `dir` and is not a
// regular file, or exists at all when `existing` is kRefuse. `path` names it
// in messages.
void check_name(int dir, const std::string& name, const std::string& path, Existing existing) {
  struct stat st {};
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return;
  if (!S_ISREG(st.st_mode)) {
    throw InputError(fmt::format("{} is {}; outputs are regular files, and ftlsim never replaces anything else",
                                 path, file_type_name(st.st_mode)));
  }
  if (existing == Existing::kRefuse) throw InputError(fmt::format("{}: already exists (use --force to overwrite)", path));
}

}  // namespace

AtomicFile::AtomicFile(std::string path, Existing existing) : path_(std::move(path)), existing_(existing) {
  const std::string folder = folder_of(path_);
  name_ = std::filesystem::path(path_).filename().string();
  if (name_.empty() || name_ == "." || name_ == "..") {
    check_name(AT_FDCWD, path_, path_, existing_);  // "... is a folder"
    throw InputError(fmt::format("{}: name a file, not a folder", path_));
  }
  // O_PATH: enough to act relative to it, and needs no read permission.
  dir_ = ::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dir_ < 0) {
    struct stat st {};
    if (::lstat(path_.c_str(), &st) == 0) check_name(AT_FDCWD, path_, path_, existing_);
    throw system_error_from_errno(fmt::format("cannot create a temporary file in {} for {}", folder, path_));
  }
  check_name(dir_, name_, path_, existing_);
  int fd = -1;
  if (existing_ == Existing::kRefuse) {
    fd = ::openat(dir_, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
    // Without O_TMPFILE support (or /proc to link it by), use a named temporary.
    if (fd >= 0 && ::access("/proc/self/fd", X_OK) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  if (fd >= 0) {
    unnamed_ = true;
    temp_path_ = path_ + " (temporary)";
    file_ = ::fdopen(fd, "w+b");
    if (file_ == nullptr) {
      ::close(fd);
      throw system_error_from_errno("cannot open a temporary file for " + path_);
    }
    return;
  }
  open_named_temp(folder);
}

void AtomicFile::open_named_temp(const std::string& folder) {
  // Through the open folder (/proc/self/fd/N), not the folder's text
  // (which only a system without /proc falls back to).
  const std::string where = ::access("/proc/self/fd", X_OK) == 0 ? fd_path(dir_) : folder;
  std::string name = fmt::format("{}/.{}.ftlsim-XXXXXX", where, name_);
  // mkostemp: O_CREAT|O_EXCL with a random suffix, so an existing name (a
  // planted symbolic link included) is never opened.
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) throw system_error_from_errno(fmt::format("cannot create a temporary file in {} for {}", folder, path_));
  temp_name_ = name.substr(name.rfind('/') + 1);
  temp_path_ = folder + "/" + temp_name_;
  ::fchmod(fd, 0666 & ~process_umask());
  file_ = ::fdopen(fd, "w+b");
  if (file_ == nullptr) {
    const SystemError e = system_error_from_errno("cannot open " + temp_path_);
    ::close(fd);
    ::unlinkat(dir_, temp_name_.c_str(), 0);
    throw e;
  }
}

AtomicFile::~AtomicFile() {
  if (file_ != nullptr) std::fclose(file_);
  if (!committed_ && !unnamed_ && !temp_name_.empty()) ::unlinkat(dir_, temp_name_.c_str(), 0);
  if (dir_ >= 0) ::close(dir_);
}

void AtomicFile::write(std::string_view bytes) {
  if (bytes.empty()) return;
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    throw system_error_from_errno("cannot write " + temp_path_);
  }
}

void AtomicFile::link_unnamed() {
  const std::string proc = fd_path(::fileno(file_));
  if (::linkat(AT_FDCWD, proc.c_str(), dir_, name_.c_str(), AT_SYMLINK_FOLLOW) == 0) return;
  if (errno == EEXIST) check_name(dir_, name_, path_, Existing::kRefuse);  // throws the "already exists" refusal
  throw system_error_from_errno(fmt::format("cannot link the finished file to {}", path_));
}

void AtomicFile::commit() {
  if (std::fflush(file_) != 0) throw system_error_from_errno("cannot write " + temp_path_);
  if (::fsync(::fileno(file_)) != 0) throw system_error_from_errno("cannot write " + temp_path_);
  const char* temp = temp_name_.c_str();
  if (unnamed_) {
    link_unnamed();
  } else if (existing_ == Existing::kRefuse) {
    if (::renameat2(dir_, temp, dir_, name_.c_str(), RENAME_NOREPLACE) != 0) {
      if (errno == EEXIST) check_name(dir_, name_, path_, Existing::kRefuse);
      if (errno != EINVAL) throw system_error_from_errno(fmt::format("cannot rename {} to {}", temp_path_, path_));
      // No RENAME_NOREPLACE here: link() fails on an existing name just as well.
      if (::linkat(dir_, temp, dir_, name_.c_str(), 0) != 0) {
        if (errno == EEXIST) check_name(dir_, name_, path_, Existing::kRefuse);
        throw system_error_from_errno(fmt::format("cannot link {} to {}", temp_path_, path_));
      }
      ::unlinkat(dir_, temp, 0);
    }
  } else {
    check_name(dir_, name_, path_, Existing::kReplace);  // it may have changed since the constructor
    if (::renameat(dir_, temp, dir_, name_.c_str()) != 0) {
      throw system_error_from_errno(fmt::format("cannot rename {} to {}", temp_path_, path_));
    }
  }
  committed_ = true;
  const int rc = std::fclose(file_);
  file_ = nullptr;
  if (rc != 0) throw system_error_from_errno("cannot close " + path_);
}

void write_file_atomically(const std::string& path, std::string_view contents, Existing existing) {
  AtomicFile f(path, existing);
  f.write(contents);
  f.commit();
}

}  // namespace ftlsim
