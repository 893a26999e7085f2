// LatencyHistogram (src/core/log_histogram.h) against exact order
// statistics of the same samples.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/log_histogram.h"
#include "core/rng.h"

using ftlsim::LatencyHistogram;
using ftlsim::Rng;

namespace {

// Nearest-rank percentile of sorted samples: the smallest value with at
// least ceil(q * n) samples at or below it.
uint64_t exact_percentile(const std::vector<uint64_t>& sorted, double q) {
  const auto rank = std::max<size_t>(1, static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size()))));
  return sorted[rank - 1];
}

}  // namespace

TEST_CASE("histogram buckets tile the value range without gaps", "[unit]") {
  for (size_t b = 0; b + 1 < LatencyHistogram::kBuckets; ++b) {
    INFO("bucket " << b);
    REQUIRE(LatencyHistogram::bucket_low(b) <= LatencyHistogram::bucket_high(b));
    REQUIRE(LatencyHistogram::bucket_of(LatencyHistogram::bucket_low(b)) == b);
    REQUIRE(LatencyHistogram::bucket_of(LatencyHistogram::bucket_high(b)) == b);
    REQUIRE(LatencyHistogram::bucket_high(b) + 1 == LatencyHistogram::bucket_low(b + 1));
  }
  CHECK(LatencyHistogram::bucket_high(LatencyHistogram::kBuckets - 1) == LatencyHistogram::kMaxTracked);
  // Width of a bucket relative to its lower bound: at most 1/128 above 255.
  for (size_t b = 256; b < LatencyHistogram::kBuckets; ++b) {
    const double low = static_cast<double>(LatencyHistogram::bucket_low(b));
    const double width = static_cast<double>(LatencyHistogram::bucket_high(b) - LatencyHistogram::bucket_low(b) + 1);
    REQUIRE(width / low <= 1.0 / 128 + 1e-12);
  }
}

TEST_CASE("small values are counted exactly", "[unit]") {
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

TEST_CASE("percentiles are within 1/128 of the exact nearest-rank value", "[unit]") {
  Rng rng(7);
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
    CHECK(got <= exact * (1.0 + 1.0 / 128));
  }
  CHECK(h.max() == samples.back());
  CHECK(h.min() == samples.front());
}

TEST_CASE("merge adds counts, clear empties, huge values clamp into the last bucket", "[unit]") {
  LatencyHistogram a, b;
  for (uint64_t v = 0; v < 1000; ++v) a.record(v * 1000);
  for (uint64_t v = 0; v < 1000; ++v) b.record(v * 1000 + 500);
  a.merge(b);
  CHECK(a.count() == 2000);
  CHECK(a.max() == 999500);
  CHECK(a.percentile(0.5) >= 499500);
  CHECK(a.percentile(0.5) <= 499500 + 499500 / 128);
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

TEST_CASE("latency histogram: percentiles within one bucket of the exact nearest rank", "[unit]") {
  Rng rng(11);
  LatencyHistogram h;
  std::vector<uint64_t> v;
  for (int i = 0; i < 100000; ++i) {
    // log-uniform over 1 ns .. 2^40 ns, plus exact small values
    const double e = static_cast<double>(rng.below(40000)) / 1000.0;
    const uint64_t x = static_cast<uint64_t>(std::exp2(e));
    v.push_back(x);
    h.record(x);
  }
  std::sort(v.begin(), v.end());
  for (const double q : {0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 0.9999, 1.0}) {
    const uint64_t exact = v[static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1];
    const uint64_t got = h.percentile(q);
    INFO("q " << q << " exact " << exact << " got " << got);
    CHECK(got >= exact);
    CHECK(static_cast<double>(got) <= static_cast<double>(exact) * (1.0 + 1.0 / 128) + 1);
  }
  CHECK(h.max() == v.back());
  CHECK(h.min() == v.front());
  uint64_t sum = 0;
  for (uint64_t x : v) sum += x;
  CHECK(h.sum() == sum);
  uint64_t last = 0;
  h.for_each_bucket([&](uint64_t upper, uint64_t cumulative) {
    CHECK(upper >= last);
    last = upper;
    CHECK(cumulative <= h.count());
  });
  CHECK(last == h.max());
}

TEST_CASE("latency histogram: equal samples give that value exactly, merge adds", "[unit]") {
  LatencyHistogram a, b;
  for (int i = 0; i < 1000; ++i) a.record(47'000);
  CHECK(a.percentile(0.5) == 47'000);
  CHECK(a.percentile(0.9999) == 47'000);
  CHECK(a.mean() == 47'000.0);
  for (int i = 0; i < 1000; ++i) b.record(1'000'000);
  a.merge(b);
  CHECK(a.count() == 2000);
  CHECK(a.percentile(0.5) >= 47'000);  // now within one bucket: 47000 is no longer the max
  CHECK(a.percentile(0.5) <= 47'000 + 47'000 / 128);
  CHECK(a.percentile(0.51) == 1'000'000);
  // Every bucket boundary maps back to its own bucket.
  for (size_t bkt = 0; bkt < LatencyHistogram::kBuckets; ++bkt) {
    REQUIRE(LatencyHistogram::bucket_of(LatencyHistogram::bucket_low(bkt)) == bkt);
    REQUIRE(LatencyHistogram::bucket_of(LatencyHistogram::bucket_high(bkt)) == bkt);
    if (bkt > 0) REQUIRE(LatencyHistogram::bucket_low(bkt) == LatencyHistogram::bucket_high(bkt - 1) + 1);
  }
}

// Latencies of hours (an overloaded open-loop run): 2^44 ns (4.9 hours) was
// the last bucket, so 8000 s .. 32000 s gave p75 = 17592 s.
TEST_CASE("percentiles stay within 1/128 for latencies of hours and beyond", "[unit]") {
  LatencyHistogram h;
  const uint64_t s = 1'000'000'000;
  for (const uint64_t v : {8000 * s, 16000 * s, 24000 * s, 32000 * s}) h.record(v);
  CHECK(h.percentile(0.75) >= 24000 * s);
  CHECK(static_cast<double>(h.percentile(0.75)) <= 24000.0 * 1e9 * (1.0 + 1.0 / 128));
  CHECK(h.percentile(1.0) == 32000 * s);
  LatencyHistogram far;
  far.record(uint64_t{1} << 62);
  far.record((uint64_t{1} << 62) + (uint64_t{1} << 61));
  CHECK(far.percentile(0.5) >= uint64_t{1} << 62);
  CHECK(far.percentile(0.5) < (uint64_t{1} << 62) + (uint64_t{1} << 56));
}
