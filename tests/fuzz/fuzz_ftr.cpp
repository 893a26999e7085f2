// libFuzzer target: the .ftr reader. Each input is checked twice: as given,
// and with its header CRC recomputed (when it is long enough to have one),
// so that mutations reach the checks behind the CRC. The checks run on the
// bytes in memory (parse_ftr_image); one input in 64 also goes through a
// real FtrReader on a memfd, the path `ftlsim` takes. An accepted file's
// records are all visited; record_ok() and check_record() must agree on
// each, and the header fields must be the ones docs/trace_format.md allows.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "memfd_file.h"
#include "trace/crc32.h"
#include "trace/ftr_format.h"

using namespace ftlsim;

namespace {

void check_accepted(const trace::FtrLayout& l, const trace::TraceMeta& meta, std::span<const trace::Record> records,
                    size_t size) {
  FUZZ_CHECK(l.version == trace::ftr::kVersionMajor, "accepted another major version");
  FUZZ_CHECK(trace::ftr::valid_sector_bytes(meta.sector_bytes), "accepted a bad sector size");
  FUZZ_CHECK(l.header_bytes >= trace::ftr::kFixedHeaderBytes && l.header_bytes % trace::ftr::kHeaderAlign == 0,
             "accepted a bad header size");
  FUZZ_CHECK(l.header_bytes + records.size() * trace::ftr::kRecordBytes == size,
             "header + records do not cover the file exactly");
  for (const trace::Record& r : records) {
    FUZZ_CHECK(trace::record_ok(r) == trace::check_record(r).empty(), "record_ok and check_record disagree");
  }
}

void check_one(std::string_view bytes, fuzz::MemFile* file) {
  static const std::string kPath = "fuzz.ftr";
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  trace::TraceMeta meta;
  std::string image_error;
  try {
    const trace::FtrLayout l = trace::parse_ftr_image(kPath, p, bytes.size(), meta);
    // Records start at a multiple of 8 in a buffer from malloc: aligned.
    const std::span<const trace::Record> records(reinterpret_cast<const trace::Record*>(p + l.header_bytes),
                                                 static_cast<size_t>(l.record_count));
    check_accepted(l, meta, records, bytes.size());
  } catch (const InputError& e) {
    fuzz::check_message(e.what());
    FUZZ_CHECK(std::string_view(e.what()).substr(0, kPath.size() + 2) == kPath + ": ",
               "message does not name the file");
    image_error = std::string(e.what()).substr(kPath.size());
  }
  if (file == nullptr) return;
  const std::string& path = file->set(bytes);
  try {
    const trace::FtrReader reader(path);
    FUZZ_CHECK(image_error.empty(), "FtrReader accepted what parse_ftr_image refused" + image_error);
    FUZZ_CHECK(reader.meta().kv == meta.kv && reader.meta().pid_names == meta.pid_names, "metadata differs");
  } catch (const InputError& e) {
    FUZZ_CHECK(std::string(e.what()).substr(path.size()) == image_error,
               std::string("FtrReader and parse_ftr_image disagree: ") + e.what() + " vs" + image_error);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fuzz::MemFile file("fuzz_ftr");
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  fuzz::MemFile* through_file = size % 64 == 0 ? &file : nullptr;
  check_one(bytes, through_file);

  // Same bytes with a correct CRC over the header the file declares.
  if (size < trace::ftr::kFixedHeaderBytes) return 0;
  uint32_t header_bytes = 0;
  std::memcpy(&header_bytes, data + trace::ftr::kOffHeaderBytes, 4);
  if (header_bytes < trace::ftr::kFixedHeaderBytes || header_bytes > size) return 0;
  std::string fixed(bytes);
  std::memset(fixed.data() + trace::ftr::kOffHeaderCrc, 0, 4);
  const uint32_t crc = trace::crc32(std::string_view(fixed.data(), header_bytes));
  std::memcpy(fixed.data() + trace::ftr::kOffHeaderCrc, &crc, 4);
  if (fixed != bytes) check_one(fixed, through_file);
  return 0;
}
