#include <catch2/catch.hpp>

#include "core/error.h"
#include "core/units.h"

using ftlsim::parse_size;

TEST_CASE("sizes parse with binary suffixes", "[core][unit]") {
  CHECK(parse_size("4096") == 4096u);
  CHECK(parse_size("4K") == 4096u);
  CHECK(parse_size("4k") == 4096u);
  CHECK(parse_size("16M") == 16u << 20);
  CHECK(parse_size("16MiB") == 16u << 20);
  CHECK(parse_size("16MB") == 16u << 20);
  CHECK(parse_size("64G") == uint64_t{64} << 30);
  CHECK(parse_size("1T") == uint64_t{1} << 40);
  CHECK(parse_size("0") == 0u);
  CHECK_FALSE(parse_size(""));
  CHECK_FALSE(parse_size("K"));
  CHECK_FALSE(parse_size("-4K"));
  CHECK_FALSE(parse_size("4X"));
  CHECK_FALSE(parse_size("4KK"));
  CHECK_FALSE(parse_size("1.5G"));
  CHECK_FALSE(parse_size("99999999999999999999"));
  CHECK_FALSE(parse_size("20000000P"));  // overflows 64 bits
  CHECK_THROWS_WITH(ftlsim::parse_size_or_throw("x", "--logical"), Catch::StartsWith("--logical: 'x'"));
}

TEST_CASE("format_bytes is short and exact for small values", "[core][unit]") {
  CHECK(ftlsim::format_bytes(512) == "512 B");
  CHECK(ftlsim::format_bytes(16u << 20) == "16.00 MiB");
  CHECK(ftlsim::format_bytes(uint64_t{3} << 29) == "1.50 GiB");
}

TEST_CASE("durations parse with ns, us, ms and s", "[core][unit]") {
  using ftlsim::parse_duration_ns;
  CHECK(parse_duration_ns("10us") == 10'000u);
  CHECK(parse_duration_ns("2.5us") == 2'500u);
  CHECK(parse_duration_ns("1ms") == 1'000'000u);
  CHECK(parse_duration_ns("3s") == 3'000'000'000u);
  CHECK(parse_duration_ns("750") == 750u);
  CHECK(parse_duration_ns("0ns") == 0u);
  CHECK_FALSE(parse_duration_ns("10 us"));
  CHECK_FALSE(parse_duration_ns("us"));
  CHECK_FALSE(parse_duration_ns("10h"));
  CHECK_FALSE(parse_duration_ns("-5us"));
  CHECK_FALSE(parse_duration_ns("infs"));
  CHECK_FALSE(parse_duration_ns("20000000000s"));  // 2 x 10^19 ns does not fit 64 bits
  CHECK_FALSE(parse_duration_ns(""));
}
