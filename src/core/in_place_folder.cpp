#include "core/in_place_folder.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include "core/error.h"

namespace ftlsim {
namespace {

// Refuses a folder no output may go in (no_outputs_in) or one this process
// cannot write into.
void check_writable(int dir, const std::string& option, const std::string& path, const std::string& shown) {
  if (const auto why = no_outputs_in(dir)) {
    throw InputError(fmt::format("{} {}: {} is {}; give a folder on a disk", option, path, shown, *why));
  }
  if (::faccessat(dir, ".", W_OK | X_OK, 0) != 0) {
    throw InputError(fmt::format("{} {}: cannot write into {} ({})", option, path, shown, std::strerror(errno)));
  }
}

}  // namespace

InPlaceFolder::InPlaceFolder(std::string option, std::string path, const RunInputs& inputs)
    : option_(std::move(option)), path_(std::move(path)) {
  if (path_.empty()) throw InputError(fmt::format("{}: the output folder is empty", option_));
  const std::string text = folder_name_of(path_);
  const size_t slash = text.rfind('/');
  name_ = slash == std::string::npos ? text : text.substr(slash + 1);
  const std::string parent_text = slash == std::string::npos ? std::string()
                                  : slash == 0               ? std::string("/")
                                                             : text.substr(0, slash);
  if (name_.empty() || text == "/")
    throw InputError(fmt::format("{} {}: give a folder below the root", option_, path_));
  parent_ = open_parent_folder(option_, path_, parent_text);
  const std::string parent_shown = parent_text.empty() ? "." : parent_text;
  if (!parent_.missing.empty()) {
    if (name_ == "." || name_ == "..") {
      throw InputError(fmt::format("{} {}: its folder {} does not exist", option_, path_, parent_text));
    }
    check_writable(parent_.base.get(), option_, path_, parent_shown);
    return;
  }
  struct stat st {};
  if (::fstatat(parent_.base.get(), name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno != ENOENT) throw InputError(fmt::format("{} {}: cannot stat ({})", option_, path_, std::strerror(errno)));
    check_writable(parent_.base.get(), option_, path_, parent_shown);
    return;
  }
  if (S_ISLNK(st.st_mode)) {
    throw InputError(fmt::format("{} {} is a symbolic link; give the folder it points to", option_, path_));
  }
  if (!S_ISDIR(st.st_mode)) {
    throw InputError(fmt::format("{} {} exists and is {}, not a folder", option_, path_, file_type_name(st.st_mode)));
  }
  dir_ = open_subfolder(parent_.base.get(), name_);
  if (!dir_.valid()) throw InputError(fmt::format("{} {}: cannot open ({})", option_, path_, std::strerror(errno)));
  struct stat opened {};
  if (::fstat(dir_.get(), &opened) != 0 || opened.st_dev != st.st_dev || opened.st_ino != st.st_ino) {
    throw InputError(fmt::format("{} {} changed while it was checked; run again", option_, path_));
  }
  inputs.check_not_inside(option_, path_, FileIdentity{st.st_dev, st.st_ino});
  check_writable(dir_.get(), option_, path_, path_);
}

int InPlaceFolder::create() {
  if (dir_.valid()) return dir_.get();
  make_missing_folders(parent_, path_);
  if (::mkdirat(parent_.base.get(), name_.c_str(), 0777) != 0) {
    if (errno == EEXIST) {
      throw SystemError(
          fmt::format("{} {} appeared while the run started (not made by it); run again", option_, path_));
    }
    throw system_error_from_errno(fmt::format("cannot create the folder {}", path_));
  }
  dir_ = open_subfolder(parent_.base.get(), name_);
  if (!dir_.valid()) throw system_error_from_errno(fmt::format("cannot open the folder {}", path_));
  return dir_.get();
}

std::optional<InPlaceFolder::Moved> InPlaceFolder::moved() const {
  if (!dir_.valid()) return std::nullopt;
  struct stat held {};
  if (::fstat(dir_.get(), &held) != 0) return std::nullopt;
  struct stat st {};
  Moved m;
  if (::fstatat(AT_FDCWD, folder_name_of(path_).c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    m.now = errno == ENOENT ? "absent" : fmt::format("not reachable: {}", std::strerror(errno));
  } else if (st.st_dev == held.st_dev && st.st_ino == held.st_ino) {
    return std::nullopt;
  } else {
    m.now = S_ISDIR(st.st_mode) ? "another folder" : std::string(file_type_name(st.st_mode));
  }
  std::string where(PATH_MAX, '\0');
  const ssize_t got = ::readlink(fd_path(dir_.get()).c_str(), where.data(), where.size());
  where.resize(got > 0 ? static_cast<size_t>(got) : 0);
  m.where = where.empty() ? fd_path(dir_.get()) : where;
  return m;
}

std::string InPlaceFolder::entry(const std::string& name) const { return fd_path(dir_.get()) + "/" + name; }

std::string InPlaceFolder::shown_error(std::string message) const {
  if (!dir_.valid()) return message;
  const std::string text = fd_path(dir_.get());
  size_t at = message.find(text);
  while (at != std::string::npos) {
    // Only the whole number: /proc/self/fd/1 is not /proc/self/fd/12.
    const size_t end = at + text.size();
    if (end < message.size() && message[end] >= '0' && message[end] <= '9') {
      at = message.find(text, end);
      continue;
    }
    message.replace(at, text.size(), path_);
    at = message.find(text, at + path_.size());
  }
  return message;
}

}  // namespace ftlsim
