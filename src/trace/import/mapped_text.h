#pragma once
// A whole input file mapped read-only, for the text importers: they parse it
// in place as one std::string_view.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/input_file.h"
#include "core/mapping_guard.h"

namespace ftlsim::trace {

class MappedText {
 public:
  // Throws InputError when `path` does not exist, cannot be opened or is
  // not a regular file (core/input_file.h: a FIFO never blocks), SystemError
  // when it cannot be mapped. An empty file maps nothing and has empty text().
  explicit MappedText(const std::string& path);
  MappedText(const MappedText&) = delete;
  MappedText& operator=(const MappedText&) = delete;
  ~MappedText();

  [[nodiscard]] std::string_view text() const {
    return map_ == nullptr ? std::string_view() : std::string_view(static_cast<const char*>(map_), size_);
  }

  // The mapped file's device and inode (whatever its path names by now).
  [[nodiscard]] FileIdentity identity() const { return file_.identity(); }

  // Throws InputError when the file shrank or changed since it was mapped
  // (what was parsed may be zeros or a mix of two versions). Importers call
  // it after parsing, before their output is committed.
  void check_intact() const;

 private:
  InputFile file_;
  void* map_ = nullptr;
  size_t size_ = 0;
  std::unique_ptr<MappingGuard> guard_;
};

}  // namespace ftlsim::trace
