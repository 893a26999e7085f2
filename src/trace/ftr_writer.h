#pragma once
// Streams records into a .ftr file. The file is written under a temporary
// name and renamed into place by finish(); a writer destroyed without
// finish() leaves nothing behind (no partial file that looks complete).
#include <cstdint>
#include <string>
#include <vector>

#include "core/atomic_file.h"
#include "trace/record.h"
#include "trace/trace_meta.h"

namespace ftlsim::trace {

class FtrWriter {
 public:
  // Throws SystemError when the file cannot be created, InputError when the
  // metadata cannot be encoded (key or name too long) or `path` exists and
  // is not a regular file (or exists at all, with Existing::kRefuse).
  FtrWriter(const std::string& path, TraceMeta meta, Existing existing = Existing::kReplace);
  // The same into the output file `out`, opened and checked (OutputFile).
  FtrWriter(OutputFile out, TraceMeta meta);
  FtrWriter(const FtrWriter&) = delete;
  FtrWriter& operator=(const FtrWriter&) = delete;
  ~FtrWriter();

  // REQUIRES: finish() not yet called. Buffered; cheap per record.
  void append(const Record& r);
  // Writes the final header (record count, CRC) and renames into place.
  void finish();
  [[nodiscard]] uint64_t count() const { return count_; }

 private:
  void start();  // the provisional header
  void flush_buffer();
  std::string path_;
  TraceMeta meta_;
  AtomicFile file_;
  std::vector<Record> buffer_;
  uint64_t count_ = 0;
  uint64_t header_bytes_ = 0;
  bool finished_ = false;
};

}  // namespace ftlsim::trace
