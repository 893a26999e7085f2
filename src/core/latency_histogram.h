#pragma once
// A log-linear histogram of non-negative integer values, meant for latencies
// in nanoseconds. Values below 2 x kSubBuckets are counted exactly; above,
// every power-of-two range [2^k, 2^(k+1)) is split into kSubBuckets equal
// buckets, so a percentile is within 1/kSubBuckets (1.6%) of the exact
// nearest-rank value (the layout HdrHistogram popularised; this is an
// independent, fixed-size implementation).
//
// record() is O(1) and allocation-free: a bit_width, a shift and an add into
// a fixed array. Values at or above kMaxValue are counted in the last bucket
// (and still set max()). Everything is deterministic.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ftlsim {

class LatencyHistogram {
 public:
  static constexpr unsigned kSubBits = 6;
  static constexpr uint64_t kSubBuckets = uint64_t{1} << kSubBits;  // 64
  // 2^40 ns is about 18 minutes: no I/O latency worth bucketing is longer.
  static constexpr unsigned kMaxBits = 40;
  static constexpr uint64_t kMaxValue = uint64_t{1} << kMaxBits;
  static constexpr size_t kBuckets = (kMaxBits - kSubBits + 1) * kSubBuckets;

  // Bucket of value v (< kMaxValue). v < 2*kSubBuckets maps to itself; a
  // larger v with bit width w maps to octave (w - kSubBits) and its top
  // kSubBits+1 bits select the sub-bucket.
  [[nodiscard]] static constexpr size_t bucket_of(uint64_t v) {
    if (v < 2 * kSubBuckets) return static_cast<size_t>(v);
    const unsigned shift = static_cast<unsigned>(std::bit_width(v)) - kSubBits - 1;
    return static_cast<size_t>((shift + 1) * kSubBuckets + ((v >> shift) - kSubBuckets));
  }
  // Smallest and largest value that map to bucket b.
  [[nodiscard]] static constexpr uint64_t bucket_low(size_t b) {
    if (b < 2 * kSubBuckets) return b;
    const uint64_t shift = b / kSubBuckets - 1;
    return (kSubBuckets + b % kSubBuckets) << shift;
  }
  [[nodiscard]] static constexpr uint64_t bucket_high(size_t b) {
    if (b < 2 * kSubBuckets) return b;
    const uint64_t shift = b / kSubBuckets - 1;
    return bucket_low(b) + (uint64_t{1} << shift) - 1;
  }

  void record(uint64_t v) {
    const uint64_t clamped = std::min(v, kMaxValue - 1);
    ++counts_[bucket_of(clamped)];
    ++count_;
    sum_ += v;
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
  }

  void merge(const LatencyHistogram& o) {
    for (size_t i = 0; i < kBuckets; ++i) counts_[i] += o.counts_[i];
    count_ += o.count_;
    sum_ += o.sum_;
    min_ = std::min(min_, o.min_);
    max_ = std::max(max_, o.max_);
  }

  void clear() { *this = LatencyHistogram(); }

  [[nodiscard]] uint64_t count() const { return count_; }
  [[nodiscard]] uint64_t min() const { return count_ == 0 ? 0 : min_; }
  [[nodiscard]] uint64_t max() const { return max_; }
  [[nodiscard]] double mean() const {
    return count_ == 0 ? 0.0 : static_cast<double>(sum_) / static_cast<double>(count_);
  }

  // The q-quantile (0 < q <= 1) by nearest rank: the value v such that
  // ceil(q x count) values are <= v, reported as the highest value of its
  // bucket, but never above max(). 0 when empty.
  [[nodiscard]] uint64_t percentile(double q) const {
    if (count_ == 0) return 0;
    q = std::clamp(q, 0.0, 1.0);
    const auto rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_))));
    uint64_t seen = 0;
    for (size_t b = 0; b < kBuckets; ++b) {
      seen += counts_[b];
      if (seen >= rank) return std::clamp(bucket_high(b), min(), max_);
    }
    return max_;
  }

 private:
  std::array<uint64_t, kBuckets> counts_{};
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t min_ = std::numeric_limits<uint64_t>::max();
  uint64_t max_ = 0;
};

}  // namespace ftlsim
