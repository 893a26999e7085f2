#include <catch2/catch.hpp>

#include <string>

#include "trace/crc32.h"

using ftlsim::trace::crc32;

TEST_CASE("crc32 matches the CRC-32/ISO-HDLC check values", "[crc32]") {
  CHECK(crc32(std::string_view("123456789")) == 0xCBF43926U);
  CHECK(crc32(std::string_view("")) == 0U);
  CHECK(crc32(std::string_view("The quick brown fox jumps over the lazy dog")) == 0x414FA339U);
}

TEST_CASE("crc32 can be computed in pieces", "[crc32]") {
  const std::string text = "123456789";
  const uint32_t part = crc32(std::string_view(text).substr(0, 4));
  CHECK(crc32(std::string_view(text).substr(4), part) == 0xCBF43926U);
}
