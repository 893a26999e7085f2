// The replay data pattern (src/replay/data_pattern.h): header fields at the
// documented byte offsets, and check_unit() naming what differs.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "replay/data_pattern.h"

using namespace ftlsim::replay;
using Catch::Contains;

TEST_CASE("every 512-byte unit carries magic, its offset, record and pid", "[replay][unit]") {
  std::vector<uint8_t> buf(4096);
  fill_pattern(buf);
  stamp_pattern(buf, 1 << 20, 77, 5);
  for (size_t u = 0; u < 8; ++u) {
    const uint8_t* h = buf.data() + u * 512;
    CHECK(std::memcmp(h, "FTLSIMRP", 8) == 0);
    uint64_t off = 0;
    uint32_t rec = 0;
    uint16_t pid = 0;
    std::memcpy(&off, h + 8, 8);
    std::memcpy(&rec, h + 16, 4);
    std::memcpy(&pid, h + 20, 2);
    CHECK(off == (1u << 20) + u * 512);
    CHECK(rec == 77);
    CHECK(pid == 5);
    CHECK(check_unit({h, 512}, off, 77, 5).empty());
  }
  const std::span<const uint8_t> unit(buf.data() + 512, 512);
  CHECK_THAT(check_unit(unit, (1 << 20) + 512, 78, 5), Contains("written by record 77, expected record 78"));
  CHECK_THAT(check_unit(unit, 0, 77, 5), Contains("holds the data of offset 1049088"));
  // The placement ID is checked too (it was not: bytes 20-21 could hold any value).
  CHECK_THAT(check_unit(unit, (1 << 20) + 512, 77, 6), Contains("placement ID 5 in its header, expected 6"));
  std::vector<uint8_t> zero(512, 0);
  CHECK_THAT(check_unit(zero, 0, 0, 0), Contains("no replay header"));
  buf[512 + 300] ^= 1;
  CHECK_THAT(check_unit(unit, (1 << 20) + 512, 77, 5), Contains("filler byte 300"));
}

TEST_CASE("the pattern is the same on every run", "[replay][unit]") {
  std::vector<uint8_t> a(1024), b(1024);
  fill_pattern(a);
  fill_pattern(b);
  stamp_pattern(a, 4096, 1, 2);
  stamp_pattern(b, 4096, 1, 2);
  CHECK(a == b);
}
