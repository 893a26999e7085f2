#include "core/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>  // renameat2, RENAME_NOREPLACE (glibc 2.28+)
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "core/dir_fd.h"
#include "core/error.h"
#include "core/io_identity.h"
#include "core/output_storage.h"

namespace ftlsim {
namespace {

std::string folder_of(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

bool names_a_folder(const std::string& name) { return name.empty() || name == "." || name == ".."; }

}  // namespace

OutputFile::OutputFile(std::string path)
    : path_(std::move(path)), folder_(folder_of(path_)), name_(std::filesystem::path(path_).filename().string()) {
  if (path_.empty() || names_a_folder(name_)) return;
  // O_PATH: enough to act relative to it, and needs no read permission.
  dir_ = UniqueFd(::open(folder_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!dir_.valid()) open_errno_ = errno;
}

void OutputFile::check_name(int dir, const std::string& name, Existing existing) const {
  struct stat st {};
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT || option_.empty()) return;
    throw InputError(fmt::format("{} {}: cannot stat ({})", option_, path_, std::strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) {
    if (option_.empty()) {
      throw InputError(fmt::format("{} is {}; outputs are regular files, and ftlsim never replaces anything else",
                                   path_, file_type_name(st.st_mode)));
    }
    throw InputError(
        say("{} {} is {}; outputs are regular files, and ftlsim never replaces anything "
            "else (`force` or not)",
            option_, path_, file_type_name(st.st_mode)));
  }
  inputs_.check_not_input(option_, path_, FileIdentity{st.st_dev, st.st_ino});
  // An output the user named (check() was called): not storage in use.
  if (!option_.empty()) check_output_storage(option_, path_, dir, name, FileIdentity{st.st_dev, st.st_ino}, inputs_);
  if (existing == Existing::kRefuse) {
    throw InputError(say("{}: already exists (use `force` to overwrite)", path_));
  }
}

void OutputFile::refuse_folder_name() const {
  // Only to word the refusal: nothing is written through this path.
  check_name(AT_FDCWD, path_, existing_);  // "... is a folder"
  if (!option_.empty()) {
    struct stat st {};
    if (::stat(folder_.c_str(), &st) != 0) {
      throw InputError(fmt::format("{} {}: its folder {} does not exist", option_, path_, folder_));
    }
    throw InputError(fmt::format("{} {}: name a file, not a folder", option_, path_));
  }
  throw InputError(fmt::format("{}: name a file, not a folder", path_));
}

void OutputFile::check(std::string_view option, bool force, const RunInputs& inputs) {
  option_ = std::string(option);
  existing_ = force ? Existing::kReplace : Existing::kRefuse;
  inputs_ = inputs;
  if (path_.empty()) throw InputError(fmt::format("{}: the output path is empty", option_));
  inputs_.check_resolved(option_, path_);
  if (names_a_folder(name_)) refuse_folder_name();
  if (!dir_.valid()) {
    if (open_errno_ == ENOENT) {
      throw InputError(fmt::format("{} {}: its folder {} does not exist", option_, path_, folder_));
    }
    throw InputError(fmt::format("{} {}: cannot stat ({})", option_, path_, std::strerror(open_errno_)));
  }
  // A kernel file system first: what its names are (or that they cannot
  // even be looked at, as in bpf) says nothing useful. devtmpfs after the
  // name, so that a device node there is refused as what it is.
  const auto refuse_folder = [&](const std::string& why) {
    throw InputError(fmt::format("{} {}: {} is {}; give a folder on a disk", option_, path_, folder_, why));
  };
  if (pseudo_fs_of(dir_.get())) refuse_folder(*no_outputs_in(dir_.get()));
  check_name(dir_.get(), name_, existing_);
  if (const auto why = no_outputs_in(dir_.get())) refuse_folder(*why);
  if (::faccessat(dir_.get(), ".", W_OK | X_OK, 0) != 0) {
    throw InputError(fmt::format("{} {}: cannot write into {} ({})", option_, path_, folder_, std::strerror(errno)));
  }
  checked_ = true;
}

std::optional<uint64_t> OutputFile::free_bytes() const {
  if (!dir_.valid()) return std::nullopt;
  const std::optional<FsSpace> space = fs_space_of(dir_.get());
  if (!space) return std::nullopt;
  return space->free_bytes;
}

OutputFile open_output_file(std::string_view option, std::string path, bool force, const RunInputs& inputs) {
  OutputFile out(std::move(path));
  out.check(option, force, inputs);
  return out;
}

AtomicFile::AtomicFile(std::string path, Existing existing) : out_(std::move(path)) {
  out_.existing_ = existing;
  open_temp();
}

AtomicFile::AtomicFile(OutputFile out) : out_(std::move(out)) {
  if (!out_.checked_) throw std::logic_error("AtomicFile: an OutputFile must be checked before it is written");
  open_temp();
}

void AtomicFile::open_temp() {
  const std::string& path = out_.path_;
  if (names_a_folder(out_.name_)) out_.refuse_folder_name();
  if (!out_.dir_.valid()) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) out_.check_name(AT_FDCWD, path, out_.existing_);
    errno = out_.open_errno_;
    throw system_error_from_errno(fmt::format("cannot create a temporary file in {} for {}", out_.folder_, path));
  }
  const int dir = out_.dir_.get();
  out_.check_name(dir, out_.name_, out_.existing_);
  int fd = -1;
  if (out_.existing_ == Existing::kRefuse) {
    fd = ::openat(dir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
    // Without O_TMPFILE support (or /proc to link it by), use a named temporary.
    if (fd >= 0 && ::access("/proc/self/fd", X_OK) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  if (fd >= 0) {
    unnamed_ = true;
    temp_path_ = path + " (temporary)";
    file_ = ::fdopen(fd, "w+b");
    if (file_ == nullptr) {
      ::close(fd);
      throw system_error_from_errno("cannot open a temporary file for " + path);
    }
    return;
  }
  open_named_temp();
}

void AtomicFile::open_named_temp() {
  const std::string& folder = out_.folder_;
  const int dir = out_.dir_.get();
  // Through the open folder (/proc/self/fd/N), not the folder's text
  // (which only a system without /proc falls back to).
  const std::string where = ::access("/proc/self/fd", X_OK) == 0 ? fd_path(dir) : folder;
  std::string name = fmt::format("{}/.{}.ftlsim-XXXXXX", where, staging_stem(out_.name_));  // within NAME_MAX
  // mkostemp: O_CREAT|O_EXCL with a random suffix, so an existing name (a
  // planted symbolic link included) is never opened.
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) {
    throw system_error_from_errno(fmt::format("cannot create a temporary file in {} for {}", folder, out_.path_));
  }
  temp_name_ = name.substr(name.rfind('/') + 1);
  temp_path_ = folder + "/" + temp_name_;
  ::fchmod(fd, 0666 & ~process_umask());
  file_ = ::fdopen(fd, "w+b");
  if (file_ == nullptr) {
    const SystemError e = system_error_from_errno("cannot open " + temp_path_);
    ::close(fd);
    ::unlinkat(dir, temp_name_.c_str(), 0);
    throw e;
  }
}

AtomicFile::~AtomicFile() {
  if (file_ != nullptr) std::fclose(file_);
  if (!committed_ && !unnamed_ && !temp_name_.empty()) ::unlinkat(out_.dir_.get(), temp_name_.c_str(), 0);
}

void AtomicFile::write(std::string_view bytes) {
  if (bytes.empty()) return;
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    throw system_error_from_errno("cannot write " + temp_path_);
  }
}

void AtomicFile::link_unnamed() {
  const std::string proc = fd_path(::fileno(file_));
  const int dir = out_.dir_.get();
  if (::linkat(AT_FDCWD, proc.c_str(), dir, out_.name_.c_str(), AT_SYMLINK_FOLLOW) == 0) return;
  if (errno == EEXIST) out_.check_name(dir, out_.name_, Existing::kRefuse);  // throws the "already exists" refusal
  throw system_error_from_errno(fmt::format("cannot link the finished file to {}", out_.path_));
}

void AtomicFile::commit() {
  const std::string& path = out_.path_;
  if (std::fflush(file_) != 0) throw system_error_from_errno("cannot write " + temp_path_);
  if (::fsync(::fileno(file_)) != 0) throw system_error_from_errno("cannot write " + temp_path_);
  const int dir = out_.dir_.get();
  const char* temp = temp_name_.c_str();
  const char* name = out_.name_.c_str();
  if (unnamed_) {
    link_unnamed();
  } else if (out_.existing_ == Existing::kRefuse) {
    if (::renameat2(dir, temp, dir, name, RENAME_NOREPLACE) != 0) {
      if (errno == EEXIST) out_.check_name(dir, out_.name_, Existing::kRefuse);
      if (errno != EINVAL) throw system_error_from_errno(fmt::format("cannot rename {} to {}", temp_path_, path));
      // No RENAME_NOREPLACE here: link() fails on an existing name just as well.
      if (::linkat(dir, temp, dir, name, 0) != 0) {
        if (errno == EEXIST) out_.check_name(dir, out_.name_, Existing::kRefuse);
        throw system_error_from_errno(fmt::format("cannot link {} to {}", temp_path_, path));
      }
      ::unlinkat(dir, temp, 0);
    }
  } else {
    // The name may have changed since the check: still a regular file, and
    // not an input, in the same open folder.
    out_.check_name(dir, out_.name_, Existing::kReplace);
    if (::renameat(dir, temp, dir, name) != 0) {
      throw system_error_from_errno(fmt::format("cannot rename {} to {}", temp_path_, path));
    }
  }
  committed_ = true;
  const int rc = std::fclose(file_);
  file_ = nullptr;
  if (rc != 0) throw system_error_from_errno("cannot close " + path);
}

void write_file_atomically(const std::string& path, std::string_view contents, Existing existing) {
  AtomicFile f(path, existing);
  f.write(contents);
  f.commit();
}

}  // namespace ftlsim
