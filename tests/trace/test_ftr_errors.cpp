// FtrReader on damaged files: every problem is an InputError that starts
// with the path and names what is wrong (and the record index where one
// applies). Also check_record().
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>

#include "core/error.h"
#include "test_util.h"
#include "trace/crc32.h"
#include "trace/ftr_reader.h"
#include "trace/ftr_writer.h"

using namespace ftlsim::trace;
using Catch::Contains;
using Catch::StartsWith;
using ftlsim::InputError;
using test::TempDir;

namespace {

constexpr uint64_t kRecords = 10;

// A valid trace of kRecords writes with a little metadata; returns its bytes.
std::string make_trace(const std::string& path) {
  TraceMeta meta;
  meta.kv = {{"source", "errors test"}};
  meta.pid_names = {{1, "one"}};
  FtrWriter w(path, meta);
  for (uint64_t i = 0; i < kRecords; ++i) w.append(Record{i, i * 8, 8, 1, 0, 0});
  w.finish();
  return test::read_bytes(path);
}

uint32_t header_bytes_of(const std::string& b) {
  uint32_t v;
  std::memcpy(&v, b.data() + 16, 4);
  return v;
}

// Stores `v` at `offset` and recomputes the header CRC, so that the check
// under test is the one that fires.
template <typename T>
void patch(std::string& b, size_t offset, T v) {
  std::memcpy(b.data() + offset, &v, sizeof v);
  const uint32_t hb = std::min<uint32_t>(header_bytes_of(b), static_cast<uint32_t>(b.size()));
  std::string h = b.substr(0, hb);
  std::memset(h.data() + 28, 0, 4);
  const uint32_t crc = crc32(h);
  std::memcpy(b.data() + 28, &crc, 4);
}

// The message FtrReader throws for `bytes`, or "" if it opens.
std::string open_error(const std::string& path, const std::string& bytes) {
  test::write_bytes(path, bytes);
  try {
    const FtrReader r(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("bad magic is refused", "[ftr][errors]") {
  TempDir dir;
  const std::string path = dir.file("t.ftr");
  std::string b = make_trace(path);
  b[0] = 'X';
  const std::string msg = open_error(path, b);
  CHECK_THAT(msg, StartsWith(path + ": "));
  CHECK_THAT(msg, Contains("not an ftlsim trace (bad magic)"));
  CHECK_THAT(open_error(path, "hello, world\n"), Contains("bad magic"));
  CHECK_THAT(open_error(path, "FTL"), Contains("bad magic"));
}

TEST_CASE("an empty file is refused clearly", "[ftr][errors]") {
  TempDir dir;
  const std::string path = dir.file("empty.ftr");
  const std::string msg = open_error(path, "");
  CHECK_THAT(msg, StartsWith(path + ": "));
  CHECK_THAT(msg, Contains("empty file"));
}

TEST_CASE("a missing file or a directory names the path", "[ftr][errors]") {
  TempDir dir;
  const std::string missing = dir.file("nope.ftr");
  CHECK_THROWS_WITH(FtrReader(missing), StartsWith(missing + ": ") && Contains("no such file"));
  CHECK_THROWS_WITH(FtrReader(dir.path().string()), StartsWith(dir.path().string()) && Contains("not a regular file"));
}

TEST_CASE("other versions and header fields are refused", "[ftr][errors]") {
  TempDir dir;
  const std::string path = dir.file("t.ftr");
  const std::string good = make_trace(path);

  std::string v2 = good;
  patch<uint16_t>(v2, 8, 2);
  CHECK_THAT(open_error(path, v2), StartsWith(path + ": ") && Contains("unsupported .ftr version 2.0"));

  std::string minor = good;  // a later minor version of 1 still reads
  patch<uint16_t>(minor, 10, 3);
  CHECK(open_error(path, minor).empty());

  std::string flags = good;
  patch<uint32_t>(flags, 12, 1);
  CHECK_THAT(open_error(path, flags), Contains("unsupported header flags 0x1"));

  std::string rb = good;
  patch<uint32_t>(rb, 20, 32);
  CHECK_THAT(open_error(path, rb), Contains("record size 32"));

  std::string hb = good;
  patch<uint32_t>(hb, 16, 52);
  CHECK_THAT(open_error(path, hb), Contains("header size 52"));

  std::string sector = good;
  patch<uint32_t>(sector, 24, 8192);
  CHECK_THAT(open_error(path, sector), Contains("sector size 8192"));
}

TEST_CASE("a corrupt header is caught by its CRC", "[ftr][errors]") {
  TempDir dir;
  const std::string path = dir.file("t.ftr");
  const std::string good = make_trace(path);
  const uint32_t hb = header_bytes_of(good);
  // Flip one bit anywhere in the header except the CRC field itself.
  for (const size_t offset : {size_t{9}, size_t{33}, size_t{50}, size_t{hb - 1}}) {
    std::string b = good;
    b[offset] = static_cast<char>(b[offset] ^ 0x10);
    INFO("offset " << offset);
    const std::string msg = open_error(path, b);
    CHECK_THAT(msg, StartsWith(path + ": "));
    CHECK_THAT(msg, Contains("CRC mismatch") || Contains("unsupported .ftr version"));
  }
  std::string b = good;
  b[28] = static_cast<char>(b[28] ^ 1);
  CHECK_THAT(open_error(path, b), Contains("CRC mismatch"));
}

TEST_CASE("metadata that runs past the header is corrupt, never read", "[ftr][errors]") {
  TempDir dir;
  const std::string path = dir.file("t.ftr");
  const std::string good = make_trace(path);

  std::string many = good;
  patch<uint32_t>(many, 40, 1000);
  CHECK_THAT(open_error(path, many), Contains("corrupt header") && Contains("1000 metadata entries"));

  std::string names = good;
  patch<uint32_t>(names, 44, 5);
  CHECK_THAT(open_error(path, names), Contains("corrupt header: placement name entry"));

  std::string value = good;  // value_len of entry 0 far beyond the header
  patch<uint32_t>(value, 52, 1000);
  CHECK_THAT(open_error(path, value), Contains("corrupt header: metadata entry 0 runs past the header"));

  std::string huge = good;
  patch<uint32_t>(huge, 52, 1U << 24);
  CHECK_THAT(open_error(path, huge), Contains("corrupt header: metadata entry 0 has a 16777216-byte value"));
}

TEST_CASE("truncation reports where the file ends", "[ftr][errors]") {
  TempDir dir;
  const std::string path = dir.file("t.ftr");
  const std::string good = make_trace(path);
  const uint32_t hb = header_bytes_of(good);
  REQUIRE(good.size() == hb + 24 * kRecords);

  SECTION("inside the fixed header") {
    const std::string msg = open_error(path, good.substr(0, 20));
    CHECK_THAT(msg, StartsWith(path + ": truncated"));
  }
  SECTION("inside the metadata") {
    const std::string msg = open_error(path, good.substr(0, hb - 4));
    CHECK_THAT(msg, StartsWith(path + ": truncated: the header is"));
  }
  SECTION("right after the header") {
    CHECK(open_error(path, good.substr(0, hb)) ==
          path + ": truncated: header says 10 records but the file ends in record 0");
  }
  SECTION("in the middle of a record") {
    CHECK(open_error(path, good.substr(0, hb + 24 * 3 + 10)) ==
          path + ": truncated: header says 10 records but the file ends in record 3");
    CHECK(open_error(path, good.substr(0, good.size() - 1)) ==
          path + ": truncated: header says 10 records but the file ends in record 9");
  }
  SECTION("at a record boundary, with a count that is too big") {
    CHECK(open_error(path, good.substr(0, hb + 24 * 5)) ==
          path + ": truncated: header says 10 records but the file ends in record 5");
    std::string big = good;
    patch<uint64_t>(big, 32, UINT64_MAX);
    CHECK(open_error(path, big) ==
          path + ": truncated: header says 18446744073709551615 records but the file ends in record 10");
  }
}

TEST_CASE("bytes after the last record are refused", "[ftr][errors]") {
  TempDir dir;
  const std::string path = dir.file("t.ftr");
  const std::string good = make_trace(path);
  CHECK(open_error(path, good + "1234567") == path + ": 7 trailing bytes after the last of 10 records");
  std::string fewer = good;
  patch<uint64_t>(fewer, 32, 8);
  CHECK(open_error(path, fewer) == path + ": 48 trailing bytes after the last of 8 records");
}

TEST_CASE("check_record explains malformed records", "[ftr][check_record]") {
  auto r = [](uint8_t op, uint64_t lba, uint32_t sectors) { return Record{0, lba, sectors, 0, op, 0}; };
  const Record good[] = {r(0, 0, 1), r(1, 100, 8),    r(2, 0, UINT32_MAX),
                         r(3, 0, 0), r(4, 987654, 0), r(0, UINT64_MAX - 8, 8)};
  for (const Record& g : good) {
    CHECK(check_record(g).empty());
    CHECK(record_ok(g));
  }
  const std::pair<Record, std::string> bad[] = {
      {r(5, 0, 1), "unknown op 5"},
      {r(255, 0, 1), "unknown op 255"},
      {r(0, 0, 0), "zero-length write"},
      {r(1, 8, 0), "zero-length read"},
      {r(2, 8, 0), "zero-length trim"},
      {r(3, 0, 8), "flush with non-zero length (8 sectors)"},
      {r(4, 5, 1), "marker with non-zero length (1 sectors)"},
      {r(0, UINT64_MAX - 7, 8), "write at LBA 18446744073709551608 + 8 sectors overflows 64 bits"},
  };
  for (const auto& [rec, why] : bad) {
    CHECK(check_record(rec) == why);
    CHECK_FALSE(record_ok(rec));
  }
}
