#include "timing/event_series.h"

#include <fmt/format.h>

#include "timing/timing_config.h"

namespace ftlsim::timing {

std::string_view series_kind_name(SeriesKind k) {
  switch (k) {
    case SeriesKind::kHostRead: return "host_read";
    case SeriesKind::kHostWrite: return "host_write";
    case SeriesKind::kHostTrim: return "host_trim";
    case SeriesKind::kGcCopy: return "gc_copy";
    case SeriesKind::kErase: return "erase";
    case SeriesKind::kCount: break;
  }
  return "unknown";
}

EventSeries::EventSeries(uint64_t interval_ns)
    : interval_(interval_ns == 0 ? kAutoStartNs : interval_ns),
      max_bins_(interval_ns == 0 ? kAutoIntervals : kMaxIntervals) {}

void EventSeries::add_beyond(SeriesKind k, uint64_t end_ns, uint64_t latency_ns, uint64_t bytes) {
  uint64_t bin = end_ns / interval_;
  while (bin >= max_bins_) {
    widen();
    bin = end_ns / interval_;
  }
  if (bin >= bins_.size()) bins_.resize(bin + 1);
  Cell& c = bins_[bin][static_cast<size_t>(k)];
  c.bytes += bytes;
  c.latency.record(latency_ns);
}

void EventSeries::widen() {
  std::vector<Bin> merged((bins_.size() + 1) / 2);
  for (size_t i = 0; i < bins_.size(); ++i) {
    for (size_t k = 0; k < kSeriesKinds; ++k) {
      merged[i / 2][k].bytes += bins_[i][k].bytes;
      merged[i / 2][k].latency.merge(bins_[i][k].latency);
    }
  }
  bins_ = std::move(merged);
  interval_ *= 2;
}

std::string EventSeries::csv() const {
  std::string out = "interval_start_ns,event,count,bytes,lat_mean_ns,lat_p50_ns,lat_p99_ns,lat_max_ns\n";
  for (size_t i = 0; i < bins_.size(); ++i) {
    for (size_t k = 0; k < kSeriesKinds; ++k) {
      const Cell& c = bins_[i][k];
      if (c.latency.count() == 0) continue;
      out += fmt::format("{},{},{},{},{:.0f},{},{},{}\n", i * interval_, series_kind_name(static_cast<SeriesKind>(k)),
                         c.latency.count(), c.bytes, c.latency.mean(), c.latency.percentile(0.50),
                         c.latency.percentile(0.99), c.latency.max());
    }
  }
  return out;
}

}  // namespace ftlsim::timing
