#pragma once
// --id-series: the counts behind id_timeseries.csv (sim/report.h). Each
// written logical slot carries a tag (its placement ID, or kPreconditionTag
// for the data --precondition wrote) in a flat array; the engine counts each
// GC copy under its slot's tag (PageFtl::count_gc_by_tag); handles add up
// their streams as fdp::handle_stats() does. Nothing here runs unless asked
// for: the driver tags a request's slots only with --id-series.
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <span>
#include <vector>

#include "fdp/fdp_config.h"
#include "fdp/stream_map.h"
#include "ftl/ftl_layout.h"
#include "ftl/page_ftl.h"
#include "sim/sim_result.h"

namespace ftlsim::sim {

class IdSeries {
 public:
  static constexpr uint32_t kTags = 65537;             // every placement ID, and the fill
  static constexpr uint32_t kPreconditionTag = 65536;  // the data --precondition wrote

  // `streams`: the engine's stream count; `fdp` the effective configuration.
  IdSeries(uint32_t logical_slots, const fdp::FdpConfig& fdp, size_t streams)
      : tags_(logical_slots, 0), host_(kTags, 0), gc_(kTags, 0), seen_(kTags, 0), handles_(handle_rows(fdp)) {
    for (ftl::StreamId s = 0; s < streams; ++s)
      handle_of_stream_.push_back(fdp.isolated_gc ? fdp::stream_handle(fdp, s) : 0);
  }

  // The handle rows at each timeseries row: every handle, and the shared
  // GC handle when there is one (one row without isolation).
  [[nodiscard]] static uint32_t handle_rows(const fdp::FdpConfig& fdp) {
    return fdp.isolated_gc ? fdp.handles + (fdp.has_shared_gc_ru() ? 1 : 0) : 1;
  }

  // For PageFtl::count_gc_by_tag.
  [[nodiscard]] const uint32_t* tags() const { return tags_.data(); }
  [[nodiscard]] uint64_t* gc_per_tag() { return gc_.data(); }

  void tag(uint32_t lpn, uint32_t tag) { tags_[lpn] = tag; }
  // A write request of `slots` slots with this tag (after tagging its slots).
  void host(uint32_t tag, uint64_t slots) {
    host_[tag] += slots;
    see(tag);
  }
  // The tag appears in the series from now on (IDs in ascending order).
  void see(uint32_t tag) {
    if (seen_[tag] != 0) return;
    seen_[tag] = 1;
    order_.insert(std::upper_bound(order_.begin(), order_.end(), tag), tag);
  }
  // --reset-at: the counts start again (the tags of mapped slots stay).
  void zero() {
    std::fill(host_.begin(), host_.end(), 0);
    std::fill(gc_.begin(), gc_.end(), 0);
  }

  // The rows of one timeseries row at `host_bytes`: each tag seen, then each handle.
  void add_rows(std::vector<IdSeriesRow>& out, uint64_t host_bytes, std::span<const ftl::StreamStats> streams) const {
    constexpr uint64_t kSlot = ftl::kSlotBytes;
    for (const uint32_t tag : order_) {
      IdSeriesRow row;
      row.host_bytes = host_bytes;
      row.kind = tag == kPreconditionTag ? IdSeriesRow::Kind::kPrecondition : IdSeriesRow::Kind::kPid;
      row.id = tag == kPreconditionTag ? 0 : tag;
      row.id_host_bytes = host_[tag] * kSlot;
      row.id_gc_bytes = gc_[tag] * kSlot;
      out.push_back(row);
    }
    const size_t first = out.size();
    for (uint32_t h = 0; h < handles_; ++h) {
      IdSeriesRow row;
      row.host_bytes = host_bytes;
      row.kind = IdSeriesRow::Kind::kHandle;
      row.id = h;
      out.push_back(row);
    }
    for (ftl::StreamId s = 0; s < streams.size(); ++s) {
      const uint32_t h = handle_of_stream_[s];
      if (h >= handles_) {
        // A shared GC RU's stream, which every isolated layout has and only
        // one with a shared GC RU writes (has_shared_gc_ru: a row of its
        // own); its counts are 0. It was added to a row past the end.
        assert(streams[s].host_slots == 0 && streams[s].gc_out_slots == 0);
        continue;
      }
      IdSeriesRow& row = out[first + h];
      row.id_host_bytes += streams[s].host_slots * kSlot;
      row.id_gc_bytes += streams[s].gc_out_slots * kSlot;
    }
  }

 private:
  std::vector<uint32_t> tags_;       // per logical slot
  std::vector<uint64_t> host_, gc_;  // per tag: host slots, GC copies
  std::vector<uint8_t> seen_;        // per tag
  std::vector<uint32_t> order_;      // the tags seen, ascending
  std::vector<uint32_t> handle_of_stream_;
  uint32_t handles_;
};

}  // namespace ftlsim::sim
