#pragma once
// Maps a .ftr file read-only and exposes its records in place. Opening
// validates the header (magic, version, record size, CRC) and that the file
// holds exactly `record_count` records; a truncated or corrupt file throws
// InputError naming the file and, where it applies, the record index.
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/io_identity.h"
#include "trace/record.h"
#include "trace/trace_meta.h"

namespace ftlsim {
class InputFile;
class MappingGuard;
}  // namespace ftlsim

namespace ftlsim::trace {

class FtrReader {
 public:
  explicit FtrReader(const std::string& path);
  FtrReader(const FtrReader&) = delete;
  FtrReader& operator=(const FtrReader&) = delete;
  ~FtrReader();

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const TraceMeta& meta() const { return meta_; }
  [[nodiscard]] uint16_t version() const { return version_; }
  [[nodiscard]] uint16_t version_minor() const { return version_minor_; }
  // Offset of the first record (the encoded header's length).
  [[nodiscard]] uint32_t header_bytes() const { return header_bytes_; }
  [[nodiscard]] std::span<const Record> records() const { return records_; }
  [[nodiscard]] uint64_t size() const { return records_.size(); }
  // The open trace's device and inode (RunInputs: what is read, whatever
  // the path names by now).
  [[nodiscard]] FileIdentity identity() const;

  // The file is as it was opened: no page of the mapping vanished (another
  // program truncated it; those records now read as zeros, which no
  // consumer accepts) and its size and modification time are unchanged.
  // Runs that produce results check it before writing them.
  [[nodiscard]] bool intact() const;
  // Throws InputError "<path>: the file changed while ftlsim was reading
  // it (...)" unless intact().
  void check_intact() const;

 private:
  std::string path_;
  TraceMeta meta_;
  uint16_t version_ = 0;
  uint16_t version_minor_ = 0;
  uint32_t header_bytes_ = 0;
  void* map_ = nullptr;
  size_t map_bytes_ = 0;
  std::span<const Record> records_;
  std::unique_ptr<InputFile> file_;      // kept open to see later changes
  std::unique_ptr<MappingGuard> guard_;  // SIGBUS on a vanished page -> zeros
};

// What FtrReader checks on opening, applied to `size` bytes of a .ftr file
// already in memory (`path` only names it in messages): fills `meta` and
// returns the layout, or throws the same InputError the reader would. The
// fuzz target (tests/fuzz/fuzz_ftr.cpp) calls it without a file per input.
struct FtrLayout {
  uint16_t version = 0;
  uint16_t version_minor = 0;
  uint32_t header_bytes = 0;
  uint64_t record_count = 0;
};
[[nodiscard]] FtrLayout parse_ftr_image(const std::string& path, const unsigned char* bytes, uint64_t size,
                                        TraceMeta& meta);

// One-line description of why record `index` is malformed, or "" when valid:
// unknown op, zero-length write/read/trim, non-zero length on flush/marker,
// LBA + length overflowing 64 bits. Consumers report it as
// "<file>: record <index>: <reason>".
[[nodiscard]] std::string check_record(const Record& r);

// True exactly when check_record(r) is "": the allocation-free test for
// loops over every record; call check_record only to explain a failure.
[[nodiscard]] constexpr bool record_ok(const Record& r) {
  if (!is_valid_op(r.op)) return false;
  const auto op = static_cast<Op>(r.op);
  if (op == Op::kFlush || op == Op::kMarker) return r.sectors == 0;
  return r.sectors != 0 && r.lba <= UINT64_MAX - r.sectors;
}

}  // namespace ftlsim::trace
