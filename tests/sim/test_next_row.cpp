// Where the time series' next row falls (sim_result.h next_row_after):
// hand-computed values, and the edges of 64 bits.
#include <catch2/catch.hpp>

#include <cstdint>

#include "sim/sim_result.h"

using ftlsim::sim::next_row_after;

TEST_CASE("the next timeseries row is the first multiple of the interval above the bytes written", "[sim][rows]") {
  CHECK(next_row_after(0, 4096) == 4096);
  CHECK(next_row_after(4095, 4096) == 4096);
  CHECK(next_row_after(4096, 4096) == 8192);            // a row at 4096 was just added
  CHECK(next_row_after(1'000'000, 4096) == 1'003'520);  // 245 x 4096 = 1,003,520 (hand)
  CHECK(next_row_after(7, 1) == 8);
  // A request far past several rows: the next row after it, in one step.
  CHECK(next_row_after(uint64_t{1} << 40, 1) == (uint64_t{1} << 40) + 1);
  CHECK(next_row_after(uint64_t{3} << 40, uint64_t{1} << 30) == (uint64_t{3} << 40) + (uint64_t{1} << 30));
}

TEST_CASE("a next row past 64 bits is never reached", "[sim][rows]") {
  const uint64_t half = uint64_t{1} << 63;
  CHECK(next_row_after(0, half) == half);
  CHECK(next_row_after(half, half) == UINT64_MAX);  // 2^64 does not fit
  CHECK(next_row_after(UINT64_MAX - 1, 1) == UINT64_MAX);
  CHECK(next_row_after(UINT64_MAX, 1) == UINT64_MAX);
  CHECK(next_row_after(5, UINT64_MAX) == UINT64_MAX);
}
