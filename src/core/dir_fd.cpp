#include "core/dir_fd.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace ftlsim {

void UniqueFd::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

std::string fd_path(int fd) { return fmt::format("/proc/self/fd/{}", fd); }

UniqueFd open_subfolder(int dir, const std::string& name) {
  return UniqueFd(::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

RegularFileAt open_regular_at(int dir, const std::string& name) {
  RegularFileAt r;
  const UniqueFd node(::openat(dir, name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
  struct stat st {};
  if (!node.valid() || ::fstat(node.get(), &st) != 0) {
    r.error = errno;
    return r;
  }
  r.mode = st.st_mode;
  if (!S_ISREG(st.st_mode)) return r;
  constexpr int kRead = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
  UniqueFd fd(::open(fd_path(node.get()).c_str(), kRead));
  if (!fd.valid() && errno == ENOENT && ::access("/proc/self/fd", X_OK) != 0) {
    fd = UniqueFd(::openat(dir, name.c_str(), kRead | O_NOFOLLOW));  // no /proc: by the name, checked below
  }
  struct stat opened {};
  if (!fd.valid() || ::fstat(fd.get(), &opened) != 0) {
    r.error = errno;
    return r;
  }
  r.mode = opened.st_mode;
  if (!S_ISREG(opened.st_mode) || opened.st_dev != st.st_dev || opened.st_ino != st.st_ino) {
    r.error = ESTALE;  // another file than the one checked
    return r;
  }
  r.fd = std::move(fd);
  return r;
}

namespace {

std::vector<std::string> split_components(const std::string& text) {
  std::vector<std::string> parts;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t slash = std::min(text.find('/', pos), text.size());
    if (slash > pos) parts.push_back(text.substr(pos, slash - pos));
    pos = slash + 1;
  }
  return parts;
}

}  // namespace

ParentFolder open_parent_folder(const Message& option, const std::string& path, const std::string& parent_text) {
  ParentFolder r;
  const std::string dir = parent_text.empty() ? "." : parent_text;
  r.base = UniqueFd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (r.base.valid()) return r;
  if (errno == ENOTDIR) throw InputError(option + Message(fmt::format(" {}: {} is not a folder", path, dir)));
  if (errno != ENOENT) {
    throw InputError(option +
                     Message(fmt::format(" {}: cannot open its folder {} ({})", path, dir, std::strerror(errno))));
  }
  // Missing parents: the nearest existing ancestor, and the names below it
  // that make_missing_folders creates.
  std::vector<std::string> parts = split_components(parent_text);
  const bool absolute = parent_text.front() == '/';
  while (!parts.empty()) {
    r.missing.insert(r.missing.begin(), parts.back());
    parts.pop_back();
    const std::string up =
        parts.empty() ? (absolute ? "/" : ".") : fmt::format("{}{}", absolute ? "/" : "", fmt::join(parts, "/"));
    r.base = UniqueFd(::open(up.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (r.base.valid()) break;
    if (errno == ENOTDIR) throw InputError(option + Message(fmt::format(" {}: {} is not a folder", path, up)));
    if (errno != ENOENT) {
      throw InputError(option + Message(fmt::format(" {}: cannot open {} ({})", path, up, std::strerror(errno))));
    }
  }
  const bool dots =
      std::any_of(r.missing.begin(), r.missing.end(), [](const std::string& s) { return s == "." || s == ".."; });
  if (!r.base.valid() || dots) {
    throw InputError(option + Message(fmt::format(" {}: its folder {} does not exist", path, parent_text)));
  }
  return r;
}

void make_missing_folders(ParentFolder& parent, const std::string& path) {
  for (const std::string& part : parent.missing) {
    if (::mkdirat(parent.base.get(), part.c_str(), 0777) != 0 && errno != EEXIST) {
      throw system_error_from_errno(fmt::format("cannot create the folder {} for {}", part, path));
    }
    UniqueFd next = open_subfolder(parent.base.get(), part);
    if (!next.valid()) throw system_error_from_errno(fmt::format("cannot open the folder {} for {}", part, path));
    parent.base = std::move(next);
  }
  parent.missing.clear();
}

std::string staging_stem(const std::string& name) {
  constexpr size_t kRoom = 255 - std::char_traits<char>::length("..ftlsim-XXXXXX-old");
  return name.size() <= kRoom ? name : name.substr(0, kRoom);
}

}  // namespace ftlsim
