#include "core/dir_fd.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

namespace ftlsim {

void UniqueFd::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

std::string fd_path(int fd) { return fmt::format("/proc/self/fd/{}", fd); }

UniqueFd open_subfolder(int dir, const std::string& name) {
  return UniqueFd(::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

}  // namespace ftlsim
