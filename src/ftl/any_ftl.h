#pragma once
// The FTL with its victim policy chosen at run time: a variant over the
// policy-specialised engines, so the per-slot path has no virtual call; the
// caller dispatches once per run with std::visit.
#include <stdexcept>
#include <variant>

#include "ftl/page_ftl.h"
#include "ftl/victim_fifo.h"
#include "ftl/victim_heap.h"
#include "ftl/victim_sampled.h"

namespace ftlsim::ftl {

// Sink: NullSink for fast mode, the timing layer's sink for timed mode.
template <class Sink>
using AnyFtlOf = std::variant<PageFtl<HeapVictims, Sink>, PageFtl<CostBenefitVictims, Sink>, PageFtl<FifoVictims, Sink>,
                              PageFtl<RandomVictims, Sink>, PageFtl<DChoiceVictims, Sink>>;
using AnyFtl = AnyFtlOf<NullSink>;

// Validates cfg against layout (throws InputError) and builds the engine for
// cfg.gc.victim, with `sink` hearing of its NAND operations.
template <class Sink = NullSink>
[[nodiscard]] AnyFtlOf<Sink> make_ftl(const FtlConfig& cfg, const FtlLayout& layout, Sink sink = Sink{}) {
  using Any = AnyFtlOf<Sink>;
  switch (cfg.gc.victim) {
    case VictimPolicy::kGreedy: return Any(std::in_place_index<0>, cfg, layout, HeapVictims{}, sink);
    case VictimPolicy::kCostBenefit: return Any(std::in_place_index<1>, cfg, layout, CostBenefitVictims{}, sink);
    case VictimPolicy::kFifo: return Any(std::in_place_index<2>, cfg, layout, FifoVictims{}, sink);
    case VictimPolicy::kRandom: return Any(std::in_place_index<3>, cfg, layout, RandomVictims{}, sink);
    case VictimPolicy::kDChoice:
      return Any(std::in_place_index<4>, cfg, layout, DChoiceVictims(cfg.gc.d_choices), sink);
  }
  throw std::logic_error("unknown victim policy");
}

// The line path: lines, one shared stream.
[[nodiscard]] inline AnyFtl make_ftl(const FtlConfig& cfg) { return make_ftl(cfg, line_layout(cfg.geometry)); }

}  // namespace ftlsim::ftl
