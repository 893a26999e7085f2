#pragma once
// --precondition: the slots written before the trace, in the order they are
// written (docs/model.md, "Preconditioning and steady state").
#include <cstdint>
#include <vector>

#include "sim/simulate.h"
#include "trace/slot_remap.h"

namespace ftlsim::sim {

// A generator: each call gives the next device slot to write, kUnmapped
// (ftl/page_ftl.h) once done. Every slot comes once.
class PreconditionOrder {
 public:
  // `logical_slots`: the device's; `wrap` and `fit_map` (nullptr: none) map
  // the trace's slots as the driver does; `seed` orders kRandom.
  PreconditionOrder(Precondition kind, const TraceView& t, uint64_t logical_slots, bool wrap,
                    const trace::SlotRemap* fit_map, uint64_t seed);
  uint32_t operator()();

 private:
  Precondition kind_;
  uint64_t slots_;
  uint64_t next_ = 0;
  std::vector<uint32_t> perm_;  // kRandom: the order
  std::vector<uint64_t> bits_;  // kTrace: a bit per slot the trace touches
};

// kTrace: a bit per device slot the trace reads, writes or trims (folded with
// `wrap`, or through `fit_map`); records the driver refuses are skipped (it
// reports them).
[[nodiscard]] std::vector<uint64_t> touched_slots(const TraceView& t, uint64_t logical_slots, bool wrap,
                                                  const trace::SlotRemap* fit_map);

}  // namespace ftlsim::sim
