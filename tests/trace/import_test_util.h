#pragma once
// Helpers for the text-importer tests: expected records, comparison with a
// readable failure, and the error message an import throws.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "trace/import.h"
#include "trace/record.h"

namespace ftlsim::trace::test {

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
#define CHECK_RECORDS(got, ...)                                                                         \
  do {                                                                                                  \
    const std::vector<::ftlsim::trace::Record> want_ = __VA_ARGS__;                                     \
    const std::vector<::ftlsim::trace::Record>& got_ = (got);                                           \
    INFO("got:\n" << ::ftlsim::trace::test::show(got_) << "want:\n" << ::ftlsim::trace::test::show(want_)); \
    CHECK((got_.size() == want_.size() &&                                                               \
           std::memcmp(got_.data(), want_.data(), got_.size() * sizeof(::ftlsim::trace::Record)) == 0)); \
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
