// FtrWriter -> FtrReader round trips, and the exact byte layout of
// docs/trace_format.md.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>

#include "core/error.h"
#include "test_util.h"
#include "trace/crc32.h"
#include "trace/ftr_reader.h"
#include "trace/ftr_writer.h"

using namespace ftlsim::trace;
using ftlsim::InputError;
using test::rec;
using test::TempDir;

namespace {

bool same(const Record& a, const Record& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

template <typename T>
T load(const std::string& bytes, size_t offset) {
  T v;
  std::memcpy(&v, bytes.data() + offset, sizeof v);
  return v;
}

}  // namespace

TEST_CASE("records, metadata and pid names survive a round trip", "[ftr]") {
  TempDir dir;
  const std::string path = dir.file("rt.ftr");
  TraceMeta meta;
  meta.sector_bytes = 4096;
  meta.kv = {{"source", "unit test"}, {"empty", ""}, {"utf8", "caf\xc3\xa9"}, {"source", "again"}};
  meta.pid_names = {{0, "default"}, {7, "wal"}, {65535, ""}};
  const std::vector<Record> in = {
      rec(0, Op::kWrite, 0, 8, 7),     rec(5, Op::kRead, 100, 1),
      rec(3, Op::kTrim, 8, 16, 1),     rec(9, Op::kFlush, 0, 0),
      rec(10, Op::kMarker, 123456, 0), rec(UINT64_MAX, Op::kWrite, UINT64_MAX - 1, 1, 65535)};
  {
    FtrWriter w(path, meta);
    for (const Record& r : in) w.append(r);
    CHECK(w.count() == in.size());
    w.finish();
  }
  const FtrReader reader(path);
  CHECK(reader.path() == path);
  CHECK(reader.version() == 1);
  CHECK(reader.version_minor() == 0);
  CHECK(reader.meta().sector_bytes == 4096);
  CHECK(reader.meta().kv == meta.kv);
  CHECK(reader.meta().pid_names == meta.pid_names);
  CHECK(reader.meta().get("source") == "unit test");
  REQUIRE(reader.size() == in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    INFO("record " << i);
    CHECK(same(reader.records()[i], in[i]));
  }
  CHECK(reader.header_bytes() % 8 == 0);
  CHECK(std::filesystem::file_size(path) == reader.header_bytes() + 24 * in.size());
}

TEST_CASE("many records cross the writer's buffer boundaries", "[ftr]") {
  TempDir dir;
  const std::string path = dir.file("many.ftr");
  constexpr uint64_t kCount = 250'000;  // several 1 MiB buffers and a partial one
  {
    FtrWriter w(path, TraceMeta{});
    for (uint64_t i = 0; i < kCount; ++i) {
      w.append(rec(i * 10, i % 3 == 0 ? Op::kRead : Op::kWrite, i * 8, 8, static_cast<PlacementId>(i % 5)));
    }
    w.finish();
  }
  const FtrReader reader(path);
  REQUIRE(reader.size() == kCount);
  bool all_match = true;
  for (uint64_t i = 0; i < kCount; ++i) {
    const Record& r = reader.records()[i];
    all_match = all_match && r.time_ns == i * 10 && r.lba == i * 8 && r.pid == i % 5;
  }
  CHECK(all_match);
}

TEST_CASE("a trace with no records has only a header", "[ftr]") {
  TempDir dir;
  const std::string path = dir.file("zero.ftr");
  {
    FtrWriter w(path, TraceMeta{});
    w.finish();
  }
  const FtrReader reader(path);
  CHECK(reader.size() == 0);
  CHECK(reader.records().empty());
  CHECK(reader.header_bytes() == 48);
  CHECK(std::filesystem::file_size(path) == 48);
}

TEST_CASE("the header has the documented byte layout", "[ftr][format]") {
  TempDir dir;
  const std::string path = dir.file("layout.ftr");
  TraceMeta meta;
  meta.kv = {{"ab", "xyz"}};
  meta.pid_names = {{3, "wal"}};
  {
    FtrWriter w(path, meta);
    w.append(rec(0x0102030405060708, Op::kTrim, 0x1112131415161718, 0x21222324, 0x3132));
    w.finish();
  }
  const std::string b = test::read_bytes(path);
  // 48 fixed + meta (8 + 2 + 3) + pid name (4 + 3) = 68, padded to 72.
  REQUIRE(b.size() == 72 + 24);
  CHECK(b.substr(0, 8) == "FTLTRACE");
  CHECK(load<uint16_t>(b, 8) == 1);
  CHECK(load<uint16_t>(b, 10) == 0);
  CHECK(load<uint32_t>(b, 12) == 0);
  CHECK(load<uint32_t>(b, 16) == 72);
  CHECK(load<uint32_t>(b, 20) == 24);
  CHECK(load<uint32_t>(b, 24) == 512);
  CHECK(load<uint64_t>(b, 32) == 1);
  CHECK(load<uint32_t>(b, 40) == 1);
  CHECK(load<uint32_t>(b, 44) == 1);
  CHECK(load<uint16_t>(b, 48) == 2);  // key_len
  CHECK(load<uint16_t>(b, 50) == 0);  // reserved
  CHECK(load<uint32_t>(b, 52) == 3);  // value_len
  CHECK(b.substr(56, 5) == "abxyz");
  CHECK(load<uint16_t>(b, 61) == 3);  // pid
  CHECK(load<uint16_t>(b, 63) == 3);  // name_len
  CHECK(b.substr(65, 3) == "wal");
  CHECK(b.substr(68, 4) == std::string(4, '\0'));
  std::string zeroed = b.substr(0, 72);
  std::memset(zeroed.data() + 28, 0, 4);
  CHECK(load<uint32_t>(b, 28) == crc32(zeroed));
  // The record, field by field, little-endian.
  CHECK(load<uint64_t>(b, 72) == 0x0102030405060708);
  CHECK(load<uint64_t>(b, 80) == 0x1112131415161718);
  CHECK(load<uint32_t>(b, 88) == 0x21222324);
  CHECK(load<uint16_t>(b, 92) == 0x3132);
  CHECK(static_cast<uint8_t>(b[94]) == 2);
  CHECK(static_cast<uint8_t>(b[95]) == 0);
}

TEST_CASE("the checked-in version 1.0 file still reads", "[ftr][format]") {
  // Written once by `FtrWriter`; guards against silent format changes.
  const FtrReader reader(test::fixture("golden_v1.ftr"));
  CHECK(reader.meta().get("source") == "golden");
  CHECK(reader.meta().pid_names.at(1) == "wal");
  REQUIRE(reader.size() == 3);
  CHECK(same(reader.records()[0], rec(1000, Op::kWrite, 64, 8, 1)));
  CHECK(same(reader.records()[1], rec(2000, Op::kRead, 0, 16, 0)));
  CHECK(same(reader.records()[2], rec(3000, Op::kMarker, 42, 0, 0)));
}

TEST_CASE("a writer destroyed before finish leaves no file behind", "[ftr]") {
  TempDir dir;
  const std::string path = dir.file("abandoned.ftr");
  {
    FtrWriter w(path, TraceMeta{});
    w.append(rec(0, Op::kWrite, 0, 8));
  }
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("the writer refuses metadata it cannot encode", "[ftr]") {
  TempDir dir;
  const std::string path = dir.file("bad.ftr");
  TraceMeta long_key;
  long_key.kv = {{std::string(65536, 'k'), "v"}};
  CHECK_THROWS_AS(FtrWriter(path, long_key), InputError);
  TraceMeta long_value;
  long_value.kv = {{"k", std::string(size_t{16} << 20, 'v')}};
  CHECK_THROWS_AS(FtrWriter(path, long_value), InputError);
  TraceMeta long_name;
  long_name.pid_names = {{1, std::string(65536, 'n')}};
  CHECK_THROWS_AS(FtrWriter(path, long_name), InputError);
  TraceMeta odd_sector;
  odd_sector.sector_bytes = 520;
  CHECK_THROWS_WITH(FtrWriter(path, odd_sector), Catch::Contains("sector size 520"));
  CHECK(std::filesystem::is_empty(dir.path()));

  // The largest lengths allowed are fine.
  TraceMeta limits;
  limits.kv = {{std::string(65535, 'k'), std::string((size_t{16} << 20) - 1, 'v')}};
  limits.pid_names = {{2, std::string(65535, 'n')}};
  {
    FtrWriter w(path, limits);
    w.finish();
  }
  const FtrReader reader(path);
  CHECK(reader.meta().kv == limits.kv);
  CHECK(reader.meta().pid_names == limits.pid_names);
}
