#pragma once
// Builders for in-memory traces and small devices used by the simulation
// tests (their records: common/records.h), and a run of such a trace.
#include <cstdint>
#include <span>
#include <vector>

#include "common/records.h"
#include "core/rng.h"
#include "fdp/placement.h"
#include "ftl/ftl_config.h"
#include "sim/simulate.h"
#include "trace/record.h"

namespace ftlsim::test {

// A device small enough to count by hand: 2 channels x 1 LUN x 1 plane,
// `pages` pages per block and `lines` lines (a unit is 2 x pages slots),
// `logical_slots` 4 KiB slots of logical space, GC thresholds in percent.
inline ftl::FtlConfig two_channel_device(uint32_t pages, uint32_t lines, uint64_t logical_slots, double thres,
                                         double high) {
  ftl::FtlConfig c;
  ftl::Geometry& g = c.geometry;
  g.channels = 2;
  g.luns_per_channel = 1;
  g.planes_per_lun = 1;
  g.blocks_per_plane = lines;
  g.pages_per_block = pages;
  g.page_bytes = ftl::kSlotBytes;
  g.logical_bytes = logical_slots * ftl::kSlotBytes;
  c.gc.thres_pcent = thres;
  c.gc.thres_pcent_high = high;
  return c;
}

// One 4 KiB write per slot, in order.
inline void append_sequential(std::vector<trace::Record>& out, uint64_t first_slot, uint64_t slots) {
  for (uint64_t s = first_slot; s < first_slot + slots; ++s) {
    out.push_back(rec(trace::Op::kWrite, s * 8, 8, 0, out.size()));
  }
}

// `count` 4 KiB writes to uniformly random slots in [0, slots).
inline void append_uniform(std::vector<trace::Record>& out, uint64_t slots, uint64_t count, uint64_t seed) {
  Rng rng(seed);
  for (uint64_t i = 0; i < count; ++i) {
    out.push_back(rec(trace::Op::kWrite, rng.below(slots) * 8, 8, 0, out.size()));
  }
}

// Simulates `records`, an in-memory trace of 512-byte sectors that error
// messages name "t.ftr", on device c.
inline sim::SimResult simulate_records(const ftl::FtlConfig& c, std::span<const trace::Record> records,
                                       const sim::SimOptions& o = {}, const fdp::PlacementSetup& p = {}) {
  return sim::simulate(c, sim::TraceView{"t.ftr", records, kSectorBytes}, o, p);
}

}  // namespace ftlsim::test
