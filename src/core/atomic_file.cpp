#include "core/atomic_file.h"

#include <unistd.h>

#include <cstdio>

#include "core/error.h"

namespace ftlsim {

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)), temp_path_(path_ + ".tmp." + std::to_string(::getpid())) {
  file_ = std::fopen(temp_path_.c_str(), "wb");
  if (file_ == nullptr) throw system_error_from_errno("cannot create " + temp_path_);
}

AtomicFile::~AtomicFile() {
  if (file_ != nullptr) std::fclose(file_);
  if (!committed_) std::remove(temp_path_.c_str());
}

void AtomicFile::write(std::string_view bytes) {
  if (bytes.empty()) return;
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    throw system_error_from_errno("cannot write " + temp_path_);
  }
}

void AtomicFile::commit() {
  if (std::fflush(file_) != 0) throw system_error_from_errno("cannot write " + temp_path_);
  const int rc = std::fclose(file_);
  file_ = nullptr;
  if (rc != 0) throw system_error_from_errno("cannot close " + temp_path_);
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    throw system_error_from_errno("cannot rename " + temp_path_ + " to " + path_);
  }
  committed_ = true;
}

void write_file_atomically(const std::string& path, std::string_view contents) {
  AtomicFile f(path);
  f.write(contents);
  f.commit();
}

}  // namespace ftlsim
