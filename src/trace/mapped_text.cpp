#include "trace/mapped_text.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>

#include "core/error.h"

namespace ftlsim::trace {

MappedText::MappedText(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) throw InputError(fmt::format("{}: no such file", path));
    throw system_error_from_errno(path + ": cannot open");
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const SystemError e = system_error_from_errno(path + ": cannot stat");
    ::close(fd);
    throw e;
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(fmt::format("{}: not a regular file", path));
  }
  size_ = static_cast<size_t>(st.st_size);
  if (size_ > 0) {
    map_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map_ == MAP_FAILED) {
      map_ = nullptr;
      const SystemError e = system_error_from_errno(path + ": cannot mmap");
      ::close(fd);
      throw e;
    }
    (void)::madvise(map_, size_, MADV_SEQUENTIAL);
  }
  ::close(fd);
}

MappedText::~MappedText() {
  if (map_ != nullptr) ::munmap(map_, size_);
}

}  // namespace ftlsim::trace
