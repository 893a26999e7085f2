#include "trace/import/mapped_text.h"

#include <sys/mman.h>

#include <fmt/format.h>

#include <limits>

#include "core/error.h"

namespace ftlsim::trace {

MappedText::MappedText(const std::string& path) : file_(path) {
  if (file_.size() > std::numeric_limits<size_t>::max()) {
    throw InputError(fmt::format("{}: too large to map ({} bytes)", path, file_.size()));
  }
  size_ = static_cast<size_t>(file_.size());
  if (size_ > 0) {
    map_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file_.fd(), 0);
    if (map_ == MAP_FAILED) {
      map_ = nullptr;
      throw system_error_from_errno(path + ": cannot mmap");
    }
    (void)::madvise(map_, size_, MADV_SEQUENTIAL);
    guard_ = std::make_unique<MappingGuard>(map_, size_, path);
  }
}

MappedText::~MappedText() {
  guard_.reset();
  if (map_ != nullptr) ::munmap(map_, size_);
}

void MappedText::check_intact() const {
  if (guard_ && guard_->faulted()) throw InputError(input_changed_message(file_.path(), "it shrank while mapped"));
  if (!file_.unchanged()) throw InputError(input_changed_message(file_.path(), file_.change()));
}

}  // namespace ftlsim::trace
