#include "trace/trace_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdlib>
#include <memory>
#include <utility>

#include "core/error.h"
#include "core/io_units.h"

namespace ftlsim::trace {
namespace {

static_assert(static_cast<uint8_t>(Op::kWrite) == 0 && static_cast<uint8_t>(Op::kRead) == 1 &&
                  static_cast<uint8_t>(Op::kTrim) == 2,
              "per-pid byte sums are indexed by these op values");

[[nodiscard]] constexpr bool is_data_op(uint8_t op) {
  return op == static_cast<uint8_t>(Op::kWrite) || op == static_cast<uint8_t>(Op::kRead) ||
         op == static_cast<uint8_t>(Op::kTrim);
}

// A zeroed bitmap from calloc: large ones come straight from mmap, so pages
// of a sparse address space that are never set cost no memory.
class PageBitmap {
 public:
  // Returns false when the bitmap cannot be allocated.
  bool allocate(uint64_t pages) {
    const uint64_t words = pages / 64 + 1;
    words_.reset(static_cast<uint64_t*>(std::calloc(static_cast<size_t>(words), sizeof(uint64_t))));
    return words_ != nullptr;
  }

  // Sets pages [first, last]; returns how many were clear before.
  uint64_t set_range(uint64_t first, uint64_t last) {
    uint64_t* w = words_.get();
    const uint64_t fw = first >> 6;
    const uint64_t lw = last >> 6;
    const uint64_t first_mask = ~uint64_t{0} << (first & 63);
    const uint64_t last_mask = ~uint64_t{0} >> (63 - (last & 63));
    if (fw == lw) return set_bits(w[fw], first_mask & last_mask);
    uint64_t added = set_bits(w[fw], first_mask);
    for (uint64_t i = fw + 1; i < lw; ++i) {
      added += static_cast<uint64_t>(64 - std::popcount(w[i]));
      w[i] = ~uint64_t{0};
    }
    return added + set_bits(w[lw], last_mask);
  }

 private:
  static uint64_t set_bits(uint64_t& word, uint64_t mask) {
    const auto added = static_cast<uint64_t>(std::popcount(mask & ~word));
    word |= mask;
    return added;
  }
  struct Free {
    void operator()(uint64_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint64_t, Free> words_;
};

// Union of inclusive page ranges, kept small by merging whenever the list
// has doubled since the last merge.
class PageRanges {
 public:
  void add(uint64_t first, uint64_t last) {
    ranges_.emplace_back(first, last);
    if (ranges_.size() >= merge_at_) {
      merge();
      merge_at_ = std::max(kMinMergeAt, 2 * ranges_.size());
    }
  }
  // Merges and returns the number of distinct pages.
  uint64_t count() {
    merge();
    uint64_t pages = 0;
    for (const auto& [first, last] : ranges_) pages += last - first + 1;
    return pages;
  }

 private:
  static constexpr size_t kMinMergeAt = size_t{1} << 20;
  void merge() {
    std::sort(ranges_.begin(), ranges_.end());
    size_t out = 0;
    for (size_t i = 0; i < ranges_.size(); ++i) {
      // No overflow: page numbers are at most (2^64 - 1) / 8 or the last
      // sector's page, below 2^64 - 1.
      if (out > 0 && ranges_[i].first <= ranges_[out - 1].second + 1) {
        ranges_[out - 1].second = std::max(ranges_[out - 1].second, ranges_[i].second);
      } else {
        ranges_[out++] = ranges_[i];
      }
    }
    ranges_.resize(out);
  }
  std::vector<std::pair<uint64_t, uint64_t>> ranges_;
  size_t merge_at_ = kMinMergeAt;
};

// Distinct pages written, then distinct pages touched: writes are marked
// first so one bit per page serves both counts (written is a subset).
void count_footprint(std::span<const Record> records, unsigned shift, PageBitmap& pages, TraceStats& s) {
  auto mark = [&](bool writes) {
    uint64_t added = 0;
    for (const Record& r : records) {
      if (!is_data_op(r.op) || (r.op == static_cast<uint8_t>(Op::kWrite)) != writes) continue;
      added += pages.set_range(r.lba >> shift, (r.lba + r.sectors - 1) >> shift);
    }
    return added;
  };
  s.written_pages = mark(true);
  s.touched_pages = s.written_pages + mark(false);
}

void count_footprint_sparse(std::span<const Record> records, unsigned shift, TraceStats& s) {
  PageRanges ranges;
  for (const Record& r : records) {
    if (r.op == static_cast<uint8_t>(Op::kWrite)) ranges.add(r.lba >> shift, (r.lba + r.sectors - 1) >> shift);
  }
  s.written_pages = ranges.count();
  for (const Record& r : records) {
    if (is_data_op(r.op) && r.op != static_cast<uint8_t>(Op::kWrite)) {
      ranges.add(r.lba >> shift, (r.lba + r.sectors - 1) >> shift);
    }
  }
  s.touched_pages = ranges.count();
}

}  // namespace

TraceStats compute_trace_stats(std::span<const Record> records, uint32_t sector_bytes, const std::string& source_name,
                               const StatsOptions& options) {
  assert(sector_bytes >= kMinSectorBytes && sector_bytes <= kFootprintPageBytes && std::has_single_bit(sector_bytes));
  TraceStats s;
  s.records = records.size();
  s.sector_bytes = sector_bytes;

  struct PidSums {
    uint64_t records = 0;
    std::array<uint64_t, 3> bytes{};  // by Op value: write, read, trim
  };
  std::vector<PidSums> pid_sums(size_t{1} << (8 * sizeof(PlacementId)));
  uint64_t min_lba = UINT64_MAX;
  uint64_t end_lba = 0;
  uint64_t prev_time = records.empty() ? 0 : records.front().time_ns;
  s.min_time_ns = UINT64_MAX;
  for (size_t i = 0; i < records.size(); ++i) {
    const Record& r = records[i];
    if (!record_ok(r)) throw InputError(fmt::format("{}: record {}: {}", source_name, i, check_record(r)));
    const uint64_t bytes = uint64_t{r.sectors} * sector_bytes;
    s.ops[r.op].records++;
    s.ops[r.op].bytes += bytes;
    PidSums& p = pid_sums[r.pid];
    p.records++;
    if (is_data_op(r.op)) {
      p.bytes[r.op] += bytes;
      min_lba = std::min(min_lba, r.lba);
      end_lba = std::max(end_lba, r.lba + r.sectors);
    } else if (r.op == static_cast<uint8_t>(Op::kMarker)) {
      if (s.markers == 0) s.first_marker = r.lba;
      s.last_marker = r.lba;
      s.markers++;
    }
    if (r.time_ns < prev_time) s.backwards_timestamps++;
    prev_time = r.time_ns;
    s.min_time_ns = std::min(s.min_time_ns, r.time_ns);
    s.max_time_ns = std::max(s.max_time_ns, r.time_ns);
  }
  if (records.empty()) {
    s.min_time_ns = 0;
  } else {
    s.first_time_ns = records.front().time_ns;
    s.last_time_ns = records.back().time_ns;
  }
  for (size_t pid = 0; pid < pid_sums.size(); ++pid) {
    const PidSums& p = pid_sums[pid];
    if (p.records == 0) continue;
    s.pids.push_back(PidStats{static_cast<PlacementId>(pid), p.records, p.bytes[0], p.bytes[1], p.bytes[2]});
  }
  if (end_lba == 0) return s;  // no write, read or trim
  s.min_lba = min_lba;
  s.end_lba = end_lba;

  const auto shift = static_cast<unsigned>(std::countr_zero(kFootprintPageBytes / sector_bytes));
  const uint64_t max_page = (end_lba - 1) >> shift;
  PageBitmap bitmap;
  if (max_page / 8 < options.max_bitmap_bytes && bitmap.allocate(max_page + 1)) {
    count_footprint(records, shift, bitmap, s);
  } else {
    s.footprint_by_bitmap = false;
    count_footprint_sparse(records, shift, s);
  }
  return s;
}

TraceStats compute_trace_stats(const FtrReader& reader, const StatsOptions& options) {
  return compute_trace_stats(reader.records(), reader.meta().sector_bytes, reader.path(), options);
}

}  // namespace ftlsim::trace
