#pragma once
// The events.csv time series: per fixed interval of simulated time and per
// event kind, the count, bytes and latency (mean, p50, p99, max) of the
// events that completed in it, like a load test's sampled report. Events may
// arrive out of time order (GC work is placed when decided); each goes to
// the interval of its completion time. With an automatic interval the series
// starts at 1 ms and doubles the interval (merging neighbours) whenever the
// run would span more than kAutoIntervals of them.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/log_histogram.h"

namespace ftlsim::timing {

enum class SeriesKind : uint8_t { kHostRead, kHostWrite, kHostTrim, kGcCopy, kErase, kCount };
inline constexpr size_t kSeriesKinds = static_cast<size_t>(SeriesKind::kCount);
[[nodiscard]] std::string_view series_kind_name(SeriesKind k);  // host_read, ..., gc_copy, erase

class EventSeries {
 public:
  // interval_ns = 0: automatic (see above). Otherwise fixed, unless the run
  // spans more than kMaxIntervals of it, when it doubles the same way.
  explicit EventSeries(uint64_t interval_ns = 0);
  void add(SeriesKind k, uint64_t end_ns, uint64_t latency_ns, uint64_t bytes) {
    const uint64_t bin = end_ns / interval_;
    if (bin >= bins_.size()) [[unlikely]] {
      add_beyond(k, end_ns, latency_ns, bytes);
      return;
    }
    Cell& c = bins_[bin][static_cast<size_t>(k)];
    c.bytes += bytes;
    c.latency.record(latency_ns);
  }
  [[nodiscard]] uint64_t interval_ns() const { return interval_; }
  // CSV with header interval_start_ns,event,count,bytes,lat_mean_ns,
  // lat_p50_ns,lat_p99_ns,lat_max_ns; one row per (interval, kind) with
  // events, intervals ascending, kinds in SeriesKind order.
  [[nodiscard]] std::string csv() const;

  static constexpr uint64_t kAutoStartNs = 1'000'000;
  static constexpr size_t kMaxIntervals = 100'000;
  // The most memory one interval takes: its cells, and a latency histogram
  // for each kind once the interval has an event of it (for estimates).
  [[nodiscard]] static constexpr size_t max_bytes_per_interval() {
    return sizeof(Bin) + kSeriesKinds * IntervalHistogram::kBuckets * sizeof(uint32_t);
  }

 private:
  struct Cell {
    uint64_t bytes = 0;
    IntervalHistogram latency;
  };
  using Bin = std::array<Cell, kSeriesKinds>;
  void widen();  // doubles the interval, merging bins pairwise
  // add() of an event past the last bin: widens or adds bins first.
  void add_beyond(SeriesKind k, uint64_t end_ns, uint64_t latency_ns, uint64_t bytes);

  uint64_t interval_;
  size_t max_bins_;
  std::vector<Bin> bins_;
};

}  // namespace ftlsim::timing
