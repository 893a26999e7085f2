#include "trace/ftr_writer.h"

#include <fmt/format.h>

#include <cassert>
#include <cstdio>
#include <limits>

#include "core/error.h"
#include "trace/crc32.h"
#include "trace/ftr_format.h"

namespace ftlsim::trace {
namespace {

// About 1 MiB of records per write(2).
constexpr size_t kBufferRecords = (size_t{1} << 20) / sizeof(Record);

std::string clip(std::string_view s) { return s.size() <= 40 ? std::string(s) : fmt::format("{}...", s.substr(0, 40)); }

// Throws InputError naming `path` when `meta` cannot be encoded in a v1 header.
TraceMeta checked(const std::string& path, TraceMeta meta) {
  if (!ftr::valid_sector_bytes(meta.sector_bytes)) {
    throw InputError(fmt::format("{}: sector size {} is not supported ({})", path, meta.sector_bytes,
                                 ftr::valid_sector_bytes_text()));
  }
  uint64_t bytes = ftr::kFixedHeaderBytes;
  for (const auto& [k, v] : meta.kv) {
    if (k.size() >= ftr::kKeyLimit) {
      throw InputError(fmt::format("{}: metadata key '{}' is {} bytes; keys must be shorter than {}", path, clip(k),
                                   k.size(), ftr::kKeyLimit));
    }
    if (v.size() >= ftr::kValueLimit) {
      throw InputError(fmt::format("{}: metadata value of '{}' is {} bytes; values must be shorter than {}", path,
                                   clip(k), v.size(), ftr::kValueLimit));
    }
    bytes += ftr::kMetaEntryFixedBytes + k.size() + v.size();
  }
  for (const auto& [pid, name] : meta.pid_names) {
    if (name.size() >= ftr::kNameLimit) {
      throw InputError(fmt::format("{}: name of placement ID {} is {} bytes; names must be shorter than {}", path, pid,
                                   name.size(), ftr::kNameLimit));
    }
    bytes += ftr::kPidNameEntryFixedBytes + name.size();
  }
  if (bytes > std::numeric_limits<uint32_t>::max() - ftr::kHeaderAlign ||
      meta.kv.size() > std::numeric_limits<uint32_t>::max()) {
    throw InputError(fmt::format("{}: metadata too large for a trace header ({} bytes)", path, bytes));
  }
  return meta;
}

// The complete header for `record_count` records, CRC included.
// REQUIRES: checked(meta) passed.
std::string encode_header(const TraceMeta& meta, uint64_t record_count) {
  std::string out(ftr::kFixedHeaderBytes, '\0');
  auto put16 = [&out](uint16_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
  auto put32 = [&out](uint32_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
  for (const auto& [k, v] : meta.kv) {
    put16(static_cast<uint16_t>(k.size()));
    put16(0);
    put32(static_cast<uint32_t>(v.size()));
    out += k;
    out += v;
  }
  for (const auto& [pid, name] : meta.pid_names) {
    put16(pid);
    put16(static_cast<uint16_t>(name.size()));
    out += name;
  }
  out.resize((out.size() + ftr::kHeaderAlign - 1) / ftr::kHeaderAlign * ftr::kHeaderAlign, '\0');

  auto* h = reinterpret_cast<unsigned char*>(out.data());
  std::memcpy(h + ftr::kOffMagic, ftr::kMagic.data(), ftr::kMagic.size());
  ftr::store<uint16_t>(h + ftr::kOffVersionMajor, ftr::kVersionMajor);
  ftr::store<uint16_t>(h + ftr::kOffVersionMinor, ftr::kVersionMinor);
  ftr::store<uint32_t>(h + ftr::kOffFlags, 0);
  ftr::store<uint32_t>(h + ftr::kOffHeaderBytes, static_cast<uint32_t>(out.size()));
  ftr::store<uint32_t>(h + ftr::kOffRecordBytes, ftr::kRecordBytes);
  ftr::store<uint32_t>(h + ftr::kOffSectorBytes, meta.sector_bytes);
  ftr::store<uint32_t>(h + ftr::kOffHeaderCrc, 0);
  ftr::store<uint64_t>(h + ftr::kOffRecordCount, record_count);
  ftr::store<uint32_t>(h + ftr::kOffMetaCount, static_cast<uint32_t>(meta.kv.size()));
  ftr::store<uint32_t>(h + ftr::kOffPidNameCount, static_cast<uint32_t>(meta.pid_names.size()));
  ftr::store<uint32_t>(h + ftr::kOffHeaderCrc, crc32(out));
  return out;
}

}  // namespace

FtrWriter::FtrWriter(const std::string& path, TraceMeta meta, Existing existing)
    : path_(path), meta_(checked(path, std::move(meta))), file_(path, existing) {
  start();
}

FtrWriter::FtrWriter(OutputFile out, TraceMeta meta)
    : path_(out.path()), meta_(checked(path_, std::move(meta))), file_(std::move(out)) {
  start();
}

void FtrWriter::start() {
  const std::string header = encode_header(meta_, 0);
  header_bytes_ = header.size();
  file_.write(header);
  buffer_.reserve(kBufferRecords);
}

FtrWriter::~FtrWriter() = default;

void FtrWriter::append(const Record& r) {
  assert(!finished_);
  buffer_.push_back(r);
  ++count_;
  if (buffer_.size() == kBufferRecords) flush_buffer();
}

void FtrWriter::flush_buffer() {
  file_.write(std::string_view(reinterpret_cast<const char*>(buffer_.data()), buffer_.size() * sizeof(Record)));
  buffer_.clear();
}

void FtrWriter::finish() {
  assert(!finished_);
  flush_buffer();
  // Same metadata, so the same header length: only count and CRC change.
  const std::string header = encode_header(meta_, count_);
  assert(header.size() == header_bytes_);
  if (std::fseek(file_.stream(), 0, SEEK_SET) != 0) {
    throw system_error_from_errno("cannot seek in " + file_.temp_path());
  }
  file_.write(header);
  file_.commit();
  finished_ = true;
}

}  // namespace ftlsim::trace
