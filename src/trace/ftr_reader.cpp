#include "trace/ftr_reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include "core/error.h"
#include "core/input_file.h"
#include "core/mapping_guard.h"
#include "trace/crc32.h"
#include "trace/ftr_format.h"

namespace ftlsim::trace {
namespace {

// Parses the variable part of the header, [kFixedHeaderBytes, header_bytes),
// into `meta`. Never reads at or past `header_bytes`.
void parse_entries(const std::string& path, const unsigned char* h, uint32_t header_bytes, TraceMeta& meta) {
  auto corrupt = [&path](const std::string& what) {
    return InputError(fmt::format("{}: corrupt header: {}", path, what));
  };
  const uint32_t meta_count = ftr::load<uint32_t>(h + ftr::kOffMetaCount);
  const uint32_t name_count = ftr::load<uint32_t>(h + ftr::kOffPidNameCount);
  size_t pos = ftr::kFixedHeaderBytes;
  const size_t end = header_bytes;
  // Each entry takes at least its fixed part, which bounds the counts before
  // anything is reserved.
  if (meta_count > (end - pos) / ftr::kMetaEntryFixedBytes) {
    throw corrupt(fmt::format("{} metadata entries cannot fit in a {}-byte header", meta_count, header_bytes));
  }
  meta.kv.reserve(meta_count);
  for (uint32_t i = 0; i < meta_count; ++i) {
    if (end - pos < ftr::kMetaEntryFixedBytes) {
      throw corrupt(fmt::format("metadata entry {} runs past the header ({} bytes)", i, header_bytes));
    }
    const uint16_t key_len = ftr::load<uint16_t>(h + pos);
    const uint32_t value_len = ftr::load<uint32_t>(h + pos + 4);
    pos += ftr::kMetaEntryFixedBytes;
    if (value_len >= ftr::kValueLimit) {
      throw corrupt(
          fmt::format("metadata entry {} has a {}-byte value (limit {})", i, value_len, ftr::kValueLimit - 1));
    }
    if (end - pos < size_t{key_len} + value_len) {
      throw corrupt(fmt::format("metadata entry {} runs past the header ({} bytes)", i, header_bytes));
    }
    const char* text = reinterpret_cast<const char*>(h + pos);
    meta.kv.emplace_back(std::string(text, key_len), std::string(text + key_len, value_len));
    pos += size_t{key_len} + value_len;
  }
  for (uint32_t i = 0; i < name_count; ++i) {
    if (end - pos < ftr::kPidNameEntryFixedBytes) {
      throw corrupt(fmt::format("placement name entry {} runs past the header ({} bytes)", i, header_bytes));
    }
    const uint16_t pid = ftr::load<uint16_t>(h + pos);
    const uint16_t name_len = ftr::load<uint16_t>(h + pos + 2);
    pos += ftr::kPidNameEntryFixedBytes;
    if (end - pos < name_len) {
      throw corrupt(fmt::format("placement name entry {} runs past the header ({} bytes)", i, header_bytes));
    }
    const bool inserted =
        meta.pid_names.emplace(pid, std::string(reinterpret_cast<const char*>(h + pos), name_len)).second;
    if (!inserted) throw corrupt(fmt::format("placement ID {} is named twice", pid));
    pos += name_len;
  }
  // Bytes after the last entry are padding (or fields of a later minor
  // version); they are covered by the CRC and otherwise ignored.
}

}  // namespace

FtrLayout parse_ftr_image(const std::string& path, const unsigned char* h, uint64_t size, TraceMeta& meta) {
  FtrLayout layout;
  uint16_t& major = layout.version;
  uint16_t& minor = layout.version_minor;
  uint32_t& header_bytes = layout.header_bytes;
  uint64_t& count = layout.record_count;
  if (size == 0) throw InputError(fmt::format("{}: empty file (0 bytes), not an ftlsim trace", path));
  const size_t magic_bytes = std::min<uint64_t>(size, ftr::kMagic.size());
  if (std::memcmp(h, ftr::kMagic.data(), magic_bytes) != 0 || size < ftr::kMagic.size()) {
    throw InputError(fmt::format("{}: not an ftlsim trace (bad magic)", path));
  }
  if (size < ftr::kFixedHeaderBytes) {
    throw InputError(fmt::format("{}: truncated: the file is {} bytes, shorter than the {}-byte fixed header", path,
                                 size, ftr::kFixedHeaderBytes));
  }
  major = ftr::load<uint16_t>(h + ftr::kOffVersionMajor);
  minor = ftr::load<uint16_t>(h + ftr::kOffVersionMinor);
  if (major != ftr::kVersionMajor) {
    throw InputError(fmt::format("{}: unsupported .ftr version {}.{} (this ftlsim reads version {}.x)", path, major,
                                 minor, ftr::kVersionMajor));
  }
  const uint32_t flags = ftr::load<uint32_t>(h + ftr::kOffFlags);
  if (flags != 0) {
    throw InputError(fmt::format("{}: unsupported header flags {:#x} (none are defined in version {}.{})", path, flags,
                                 ftr::kVersionMajor, ftr::kVersionMinor));
  }
  const uint32_t record_bytes = ftr::load<uint32_t>(h + ftr::kOffRecordBytes);
  if (record_bytes != ftr::kRecordBytes) {
    throw InputError(fmt::format("{}: corrupt header: record size {} (version 1 records are {} bytes)", path,
                                 record_bytes, ftr::kRecordBytes));
  }
  header_bytes = ftr::load<uint32_t>(h + ftr::kOffHeaderBytes);
  if (header_bytes < ftr::kFixedHeaderBytes || header_bytes % ftr::kHeaderAlign != 0) {
    throw InputError(fmt::format("{}: corrupt header: header size {} is not a multiple of {} of at least {}", path,
                                 header_bytes, ftr::kHeaderAlign, ftr::kFixedHeaderBytes));
  }
  if (header_bytes > size) {
    throw InputError(
        fmt::format("{}: truncated: the header is {} bytes but the file ends at byte {}", path, header_bytes, size));
  }
  const uint32_t stored_crc = ftr::load<uint32_t>(h + ftr::kOffHeaderCrc);
  const unsigned char zeros[4] = {};
  uint32_t crc = crc32(h, ftr::kOffHeaderCrc);
  crc = crc32(zeros, sizeof zeros, crc);
  crc = crc32(h + ftr::kOffHeaderCrc + 4, header_bytes - ftr::kOffHeaderCrc - 4, crc);
  if (crc != stored_crc) {
    throw InputError(
        fmt::format("{}: corrupt header: CRC mismatch (stored {:#010x}, computed {:#010x})", path, stored_crc, crc));
  }
  meta.sector_bytes = ftr::load<uint32_t>(h + ftr::kOffSectorBytes);
  if (!ftr::valid_sector_bytes(meta.sector_bytes)) {
    throw InputError(
        fmt::format("{}: unsupported sector size {} ({})", path, meta.sector_bytes, ftr::valid_sector_bytes_text()));
  }
  parse_entries(path, h, header_bytes, meta);

  count = ftr::load<uint64_t>(h + ftr::kOffRecordCount);
  const uint64_t body = size - header_bytes;
  const uint64_t whole = body / ftr::kRecordBytes;
  if (count > whole) {
    throw InputError(
        fmt::format("{}: truncated: header says {} records but the file ends in record {}", path, count, whole));
  }
  if (body > count * ftr::kRecordBytes) {
    throw InputError(fmt::format("{}: {} trailing bytes after the last of {} records", path,
                                 body - count * ftr::kRecordBytes, count));
  }
  return layout;
}

FileIdentity FtrReader::identity() const { return file_->identity(); }

FtrReader::FtrReader(const std::string& path) : path_(path) {
  file_ = std::make_unique<InputFile>(path);  // regular files only; never blocks
  const uint64_t size = file_->size();
  if (size == 0) throw InputError(fmt::format("{}: empty file (0 bytes), not an ftlsim trace", path));
  if (size > std::numeric_limits<size_t>::max()) {
    throw InputError(fmt::format("{}: too large to map ({} bytes)", path, size));
  }

  void* map = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, file_->fd(), 0);
  if (map == MAP_FAILED) throw system_error_from_errno(path + ": cannot mmap");
  map_ = map;
  map_bytes_ = static_cast<size_t>(size);
  guard_ = std::make_unique<MappingGuard>(map_, map_bytes_, path_);
  try {
    const FtrLayout layout = parse_ftr_image(path_, static_cast<const unsigned char*>(map_), size, meta_);
    version_ = layout.version;
    version_minor_ = layout.version_minor;
    header_bytes_ = layout.header_bytes;
    const uint64_t count = layout.record_count;
    // Advisory only; a failure changes nothing but read-ahead.
    (void)::madvise(map_, map_bytes_, MADV_SEQUENTIAL);
    records_ = std::span<const Record>(
        reinterpret_cast<const Record*>(static_cast<const unsigned char*>(map_) + header_bytes_),
        static_cast<size_t>(count));
    check_intact();  // it may have shrunk while the header was read
  } catch (...) {
    guard_.reset();
    ::munmap(map_, map_bytes_);
    map_ = nullptr;
    throw;
  }
}

FtrReader::~FtrReader() {
  guard_.reset();  // before the pages go: a fault is remembered for main()
  if (map_ != nullptr) ::munmap(map_, map_bytes_);
}

bool FtrReader::intact() const { return !(guard_ && guard_->faulted()) && file_->unchanged(); }

void FtrReader::check_intact() const {
  if (guard_ && guard_->faulted()) throw InputError(input_changed_message(path_, "it shrank while mapped"));
  if (!file_->unchanged()) throw InputError(input_changed_message(path_, file_->change()));
}

std::string check_record(const Record& r) {
  if (!is_valid_op(r.op)) return fmt::format("unknown op {}", r.op);
  const auto op = static_cast<Op>(r.op);
  if (op == Op::kFlush || op == Op::kMarker) {
    if (r.sectors != 0) return fmt::format("{} with non-zero length ({} sectors)", op_name(op), r.sectors);
    return {};
  }
  if (r.sectors == 0) return fmt::format("zero-length {}", op_name(op));
  if (r.lba > std::numeric_limits<uint64_t>::max() - r.sectors) {
    return fmt::format("{} at LBA {} + {} sectors overflows 64 bits", op_name(op), r.lba, r.sectors);
  }
  return {};
}

}  // namespace ftlsim::trace
