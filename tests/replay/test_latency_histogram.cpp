// LatencyHistogram (src/core/latency_histogram.h) against exact order
// statistics of the same samples.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/latency_histogram.h"
#include "core/rng.h"

using ftlsim::LatencyHistogram;

namespace {

// Nearest-rank percentile of sorted samples: the smallest value with at
// least ceil(q * n) samples at or below it.
uint64_t exact_percentile(const std::vector<uint64_t>& sorted, double q) {
  const auto rank = std::max<size_t>(1, static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size()))));
  return sorted[rank - 1];
}

}  // namespace

TEST_CASE("histogram buckets tile the value range without gaps", "[replay][unit]") {
  for (size_t b = 0; b + 1 < LatencyHistogram::kBuckets; ++b) {
    INFO("bucket " << b);
    REQUIRE(LatencyHistogram::bucket_low(b) <= LatencyHistogram::bucket_high(b));
    REQUIRE(LatencyHistogram::bucket_of(LatencyHistogram::bucket_low(b)) == b);
    REQUIRE(LatencyHistogram::bucket_of(LatencyHistogram::bucket_high(b)) == b);
    REQUIRE(LatencyHistogram::bucket_high(b) + 1 == LatencyHistogram::bucket_low(b + 1));
  }
  CHECK(LatencyHistogram::bucket_high(LatencyHistogram::kBuckets - 1) == LatencyHistogram::kMaxValue - 1);
  // Width of a bucket relative to its lower bound: at most 1/64 above 127.
  for (size_t b = 128; b < LatencyHistogram::kBuckets; ++b) {
    const double low = static_cast<double>(LatencyHistogram::bucket_low(b));
    const double width = static_cast<double>(LatencyHistogram::bucket_high(b) - LatencyHistogram::bucket_low(b) + 1);
    REQUIRE(width / low <= 1.0 / 64 + 1e-12);
  }
}

TEST_CASE("small values are counted exactly", "[replay][unit]") {
  LatencyHistogram h;
  for (uint64_t v = 1; v <= 100; ++v) h.record(v);
  CHECK(h.count() == 100);
  CHECK(h.min() == 1);
  CHECK(h.max() == 100);
  CHECK(h.mean() == Approx(50.5));
  CHECK(h.percentile(0.5) == 50);
  CHECK(h.percentile(0.99) == 99);
  CHECK(h.percentile(1.0) == 100);
  CHECK(h.percentile(0.001) == 1);
}

TEST_CASE("percentiles are within 1/64 of the exact nearest-rank value", "[replay][unit]") {
  ftlsim::Rng rng(7);
  std::vector<uint64_t> samples;
  LatencyHistogram h;
  for (int i = 0; i < 200000; ++i) {
    // Log-uniform from 100 ns to ~100 ms, like I/O latencies.
    const double e = 2.0 + 6.0 * static_cast<double>(rng.next() >> 11) / 9007199254740992.0;
    const auto v = static_cast<uint64_t>(std::pow(10.0, e));
    samples.push_back(v);
    h.record(v);
  }
  std::sort(samples.begin(), samples.end());
  for (const double q : {0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0}) {
    const auto exact = static_cast<double>(exact_percentile(samples, q));
    const auto got = static_cast<double>(h.percentile(q));
    INFO("q " << q << " exact " << exact << " histogram " << got);
    CHECK(got >= exact);  // the bucket's highest value, never below the true one
    CHECK(got <= exact * (1.0 + 1.0 / 64));
  }
  CHECK(h.max() == samples.back());
  CHECK(h.min() == samples.front());
}

TEST_CASE("merge adds counts; clear empties; huge values clamp into the last bucket", "[replay][unit]") {
  LatencyHistogram a, b;
  for (uint64_t v = 0; v < 1000; ++v) a.record(v * 1000);
  for (uint64_t v = 0; v < 1000; ++v) b.record(v * 1000 + 500);
  a.merge(b);
  CHECK(a.count() == 2000);
  CHECK(a.max() == 999500);
  CHECK(a.percentile(0.5) >= 499500);
  CHECK(a.percentile(0.5) <= 499500 + 499500 / 64);
  a.clear();
  CHECK(a.count() == 0);
  CHECK(a.percentile(0.5) == 0);
  LatencyHistogram big;
  big.record(uint64_t{1} << 50);
  CHECK(big.max() == uint64_t{1} << 50);
  // Counted in the last bucket, reported as the exact maximum seen.
  CHECK(big.percentile(1.0) == uint64_t{1} << 50);
  big.record(5);
  CHECK(big.percentile(0.5) == 5);
}
