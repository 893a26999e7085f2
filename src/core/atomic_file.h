#pragma once
// Output files are written under a temporary name beside the target and
// renamed into place only when complete, so an interrupted run never leaves a
// file that looks finished.
#include <cstdio>
#include <string>
#include <string_view>

namespace ftlsim {

class AtomicFile {
 public:
  // Opens "<path>.tmp.<pid>" for writing. Throws SystemError on failure.
  explicit AtomicFile(std::string path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // Removes the temporary file unless commit() succeeded.
  ~AtomicFile();

  void write(std::string_view bytes);
  [[nodiscard]] std::FILE* stream() { return file_; }
  // Flushes, closes and renames onto the final path. Throws SystemError.
  void commit();
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& temp_path() const { return temp_path_; }

 private:
  std::string path_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

// Writes `contents` to `path` atomically.
void write_file_atomically(const std::string& path, std::string_view contents);

}  // namespace ftlsim
