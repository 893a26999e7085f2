#include <catch2/catch.hpp>

#include <vector>

#include "core/rng.h"

TEST_CASE("rng is deterministic per seed and bounded draws are in range and unbiased", "[core][unit]") {
  ftlsim::Rng a(5), b(5), c(6);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.next();
    CHECK(x == b.next());
    differs |= x != c.next();
  }
  CHECK(differs);
  std::vector<uint64_t> counts(10, 0);
  constexpr int kDraws = 1000000;
  for (int i = 0; i < kDraws; ++i) {
    const uint64_t v = a.below(10);
    REQUIRE(v < 10);
    ++counts[v];
  }
  // Each bucket expects 100000 with standard deviation ~300.
  for (uint64_t n : counts) CHECK(n == Approx(kDraws / 10).margin(2000));
}
