#pragma once
// The FTL with its victim policy chosen at run time: a variant over the
// policy-specialised engines, so the per-slot path has no virtual call; the
// caller dispatches once per run with std::visit.
#include <variant>

#include "ftl/page_ftl.h"
#include "ftl/victim_fifo.h"
#include "ftl/victim_greedy.h"
#include "ftl/victim_sampled.h"

namespace ftlsim::ftl {

using AnyFtl = std::variant<PageFtl<GreedyVictims>, PageFtl<CostBenefitVictims>, PageFtl<FifoVictims>,
                            PageFtl<RandomVictims>, PageFtl<DChoiceVictims>>;

// Validates cfg (throws InputError) and builds the engine for cfg.gc.victim.
[[nodiscard]] inline AnyFtl make_ftl(const FtlConfig& cfg) {
  switch (cfg.gc.victim) {
    case VictimPolicy::kGreedy: return AnyFtl(std::in_place_index<0>, cfg);
    case VictimPolicy::kCostBenefit: return AnyFtl(std::in_place_index<1>, cfg);
    case VictimPolicy::kFifo: return AnyFtl(std::in_place_index<2>, cfg);
    case VictimPolicy::kRandom: return AnyFtl(std::in_place_index<3>, cfg);
    case VictimPolicy::kDChoice:
      return AnyFtl(std::in_place_index<4>, cfg, DChoiceVictims(cfg.gc.d_choices));
  }
  return AnyFtl(std::in_place_index<0>, cfg);
}

}  // namespace ftlsim::ftl
