#pragma once
// Helpers for the trace tests, in one place: a self-deleting temporary
// directory, whole-file byte access and fixtures; for the importers,
// expected records, their comparison with a readable failure, and the error
// message an import throws.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "trace/import/import.h"
#include "trace/record.h"

namespace ftlsim::trace::test {

class TempDir {
 public:
  TempDir() {
    static std::atomic<unsigned> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("ftlsim-test-trace-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
             std::to_string(std::random_device{}()));
    std::filesystem::create_directories(path_);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::string fixture(const std::string& name) {
  return std::string(FTLSIM_SOURCE_DIR) + "/tests/trace/data/" + name;
}

inline Record rec(uint64_t t, Op op, uint64_t lba, uint32_t sectors, PlacementId pid = 0) {
  return Record{t, lba, sectors, pid, static_cast<uint8_t>(op), 0};
}

inline std::string show(const std::vector<Record>& v) {
  std::ostringstream s;
  for (const Record& r : v) {
    s << "  {t=" << r.time_ns << " " << op_name(static_cast<Op>(r.op)) << " lba=" << r.lba << " n=" << r.sectors
      << " pid=" << r.pid << "}\n";
  }
  return s.str();
}

// Records equal field by field; on failure Catch prints both lists.
#define CHECK_RECORDS(got, ...)                                                                             \
  do {                                                                                                      \
    const std::vector<::ftlsim::trace::Record> want_ = __VA_ARGS__;                                         \
    const std::vector<::ftlsim::trace::Record>& got_ = (got);                                               \
    INFO("got:\n" << ::ftlsim::trace::test::show(got_) << "want:\n" << ::ftlsim::trace::test::show(want_)); \
    CHECK((got_.size() == want_.size() &&                                                                   \
           std::memcmp(got_.data(), want_.data(), got_.size() * sizeof(::ftlsim::trace::Record)) == 0));    \
  } while (false)

inline ImportOptions options_for(TextFormat f) {
  ImportOptions o;
  o.format = f;
  return o;
}

// The InputError message parse_text_trace throws, or "" when it does not.
inline std::string import_error(const std::string& text, const ImportOptions& o) {
  try {
    (void)parse_text_trace(text, "mem", o);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A file in ../shared/traces/external, or "" (with a WARN) when absent.
inline std::string external_trace(const std::string& name) {
  const std::string path = std::string(FTLSIM_SOURCE_DIR) + "/../shared/traces/external/" + name;
  if (!std::filesystem::exists(path)) {
    WARN("skipped: " << path << " is not present");
    return "";
  }
  return path;
}

}  // namespace ftlsim::trace::test
