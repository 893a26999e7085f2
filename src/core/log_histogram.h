#pragma once
// Log-bucketed histogram of non-negative integers (latencies in ns) with a
// fixed relative error and no per-sample storage. Values below 2^(SubBits+1)
// have a bucket each; every power-of-two range [2^k, 2^(k+1)) above is split
// into 2^SubBits equal buckets, so a bucket's width is at most 2^-SubBits of
// its values (the layout HdrHistogram uses; written here independently).
// Values at or above 2^MaxBits share the last bucket; count, sum, min and
// max stay exact for every value.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace ftlsim {

template <unsigned SubBits, unsigned MaxBits, class Count = uint64_t>
class LogHistogram {
  static_assert(SubBits >= 1 && MaxBits > SubBits + 1 && MaxBits < 64);

 public:
  static constexpr uint64_t kSub = uint64_t{1} << SubBits;
  static constexpr size_t kBuckets = (MaxBits - SubBits + 1) * kSub;
  static constexpr uint64_t kMaxTracked = (uint64_t{1} << MaxBits) - 1;

  [[nodiscard]] static constexpr size_t bucket_of(uint64_t v) {
    v = std::min(v, kMaxTracked);
    if (v < 2 * kSub) return static_cast<size_t>(v);
    const unsigned shift = static_cast<unsigned>(std::bit_width(v)) - SubBits - 1;
    return static_cast<size_t>((shift + 1) * kSub + ((v >> shift) - kSub));
  }
  [[nodiscard]] static constexpr uint64_t bucket_low(size_t b) {
    if (b < 2 * kSub) return b;
    const uint64_t shift = b / kSub - 1;
    return (kSub + b % kSub) << shift;
  }
  [[nodiscard]] static constexpr uint64_t bucket_high(size_t b) {
    if (b < 2 * kSub) return b;
    return bucket_low(b) + (uint64_t{1} << (b / kSub - 1)) - 1;
  }

  void record(uint64_t v) {
    if (counts_.empty()) counts_.assign(kBuckets, 0);
    ++counts_[bucket_of(v)];
    ++count_;
    sum_ += v;
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
  }
  // Empties it, keeping the bucket storage (no allocation on reuse).
  void clear() {
    std::fill(counts_.begin(), counts_.end(), Count{0});
    count_ = 0;
    sum_ = 0;
    min_ = std::numeric_limits<uint64_t>::max();
    max_ = 0;
  }
  void merge(const LogHistogram& o) {
    if (o.count_ == 0) return;
    if (counts_.empty()) counts_.assign(kBuckets, 0);
    for (size_t b = 0; b < kBuckets; ++b) counts_[b] += o.counts_[b];
    count_ += o.count_;
    sum_ += o.sum_;
    min_ = std::min(min_, o.min_);
    max_ = std::max(max_, o.max_);
  }

  [[nodiscard]] uint64_t count() const { return count_; }
  [[nodiscard]] uint64_t sum() const { return sum_; }
  [[nodiscard]] uint64_t min() const { return count_ == 0 ? 0 : min_; }
  [[nodiscard]] uint64_t max() const { return max_; }
  [[nodiscard]] double mean() const {
    return count_ == 0 ? 0.0 : static_cast<double>(sum_) / static_cast<double>(count_);
  }
  // Nearest-rank q-quantile (0 < q <= 1): the highest value of the bucket
  // holding the ceil(q x count)-th smallest value, kept within [min, max].
  // So it is >= the exact quantile and above it by less than the bucket
  // width. 0 when empty.
  [[nodiscard]] uint64_t percentile(double q) const {
    if (count_ == 0) return 0;
    const double want = std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(count_));
    const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(want));
    uint64_t seen = 0;
    for (size_t b = 0; b < kBuckets; ++b) {
      seen += counts_[b];
      if (seen >= rank) return std::clamp(bucket_high(b), min(), max_);
    }
    return max_;
  }
  // Calls f(upper_value, cumulative_count) for every non-empty bucket in
  // order; upper_value is the bucket's highest value within [min, max].
  template <class F>
  void for_each_bucket(F&& f) const {
    uint64_t seen = 0;
    for (size_t b = 0; b < counts_.size(); ++b) {
      if (counts_[b] == 0) continue;
      seen += counts_[b];
      f(std::clamp(bucket_high(b), min(), max_), seen);
    }
  }

 private:
  std::vector<Count> counts_;  // empty until the first value
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t min_ = std::numeric_limits<uint64_t>::max();
  uint64_t max_ = 0;
};

// Latencies per operation type (timed mode, live replay): 0.8% relative
// error over every value below 2^63 ns (292 years; 2^44 ns, 4.9 hours, put
// every longer latency of an overloaded open-loop run in one bucket: its
// percentiles read 17592 s).
using LatencyHistogram = LogHistogram<7, 63>;
// Per events.csv interval and event kind: 3% relative error, below 2^63 ns
// (7.4 KiB a histogram, allocated at its first value).
using IntervalHistogram = LogHistogram<5, 63, uint32_t>;

}  // namespace ftlsim
