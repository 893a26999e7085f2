#pragma once
// The FTL with its victim policy chosen at run time: a variant over the
// policy-specialised engines, so the per-slot path has no virtual call; the
// caller dispatches once per run with std::visit.
#include <stdexcept>
#include <variant>

#include "ftl/page_ftl.h"
#include "ftl/victim_fifo.h"
#include "ftl/victim_greedy.h"
#include "ftl/victim_sampled.h"

namespace ftlsim::ftl {

using AnyFtl = std::variant<PageFtl<GreedyVictims>, PageFtl<CostBenefitVictims>, PageFtl<FifoVictims>,
                            PageFtl<RandomVictims>, PageFtl<DChoiceVictims>>;

// Validates cfg against layout (throws InputError) and builds the engine for
// cfg.gc.victim.
[[nodiscard]] inline AnyFtl make_ftl(const FtlConfig& cfg, const FtlLayout& layout) {
  switch (cfg.gc.victim) {
    case VictimPolicy::kGreedy: return AnyFtl(std::in_place_index<0>, cfg, layout, GreedyVictims{});
    case VictimPolicy::kCostBenefit: return AnyFtl(std::in_place_index<1>, cfg, layout, CostBenefitVictims{});
    case VictimPolicy::kFifo: return AnyFtl(std::in_place_index<2>, cfg, layout, FifoVictims{});
    case VictimPolicy::kRandom: return AnyFtl(std::in_place_index<3>, cfg, layout, RandomVictims{});
    case VictimPolicy::kDChoice:
      return AnyFtl(std::in_place_index<4>, cfg, layout, DChoiceVictims(cfg.gc.d_choices));
  }
  throw std::logic_error("unknown victim policy");
}

// The core model: lines, one shared stream.
[[nodiscard]] inline AnyFtl make_ftl(const FtlConfig& cfg) { return make_ftl(cfg, line_layout(cfg.geometry)); }

}  // namespace ftlsim::ftl
