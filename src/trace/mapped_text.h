#pragma once
// A whole input file mapped read-only, for the text importers: they parse it
// in place as one std::string_view.
#include <cstddef>
#include <string>
#include <string_view>

namespace ftlsim::trace {

class MappedText {
 public:
  // Throws InputError when `path` does not exist or is not a regular file,
  // SystemError when it cannot be opened or mapped. An empty file maps
  // nothing and has empty text().
  explicit MappedText(const std::string& path);
  MappedText(const MappedText&) = delete;
  MappedText& operator=(const MappedText&) = delete;
  ~MappedText();

  [[nodiscard]] std::string_view text() const {
    return map_ == nullptr ? std::string_view() : std::string_view(static_cast<const char*>(map_), size_);
  }

 private:
  void* map_ = nullptr;
  size_t size_ = 0;
};

}  // namespace ftlsim::trace
