#include <catch2/catch.hpp>

#include "core/rng.h"
#include "ftl/fast_div.h"

using ftlsim::ftl::FastDiv;

TEST_CASE("FastDiv equals hardware division", "[ftl][unit]") {
  ftlsim::Rng rng(7);
  for (uint32_t d : {1u, 2u, 3u, 6u, 7u, 64u, 100u, 16384u, 24576u, 262144u, 393216u, 4294967295u}) {
    const FastDiv f(d);
    for (uint32_t n : {0u, 1u, d - 1, d, d + 1, 4294967295u, 4294967294u}) {
      CHECK(f.divide(n) == n / d);
    }
    for (int i = 0; i < 100000; ++i) {
      const auto n = static_cast<uint32_t>(rng.next());
      REQUIRE(f.divide(n) == n / d);
    }
  }
}
