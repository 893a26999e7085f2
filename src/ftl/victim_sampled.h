#pragma once
// Victim policies that choose among the closed units with invalid slots,
// kept in a dense array with O(1) insert and removal:
//  - RandomVictims: one uniformly random candidate.
//  - DChoiceVictims: the fewest-valid of d random candidates (with
//    replacement); d = 1 is random, large d approaches greedy
//    (Van Houdt, "A mean field model for a class of garbage collection
//    algorithms in flash-based solid state drives", SIGMETRICS 2013).
//  - CostBenefitVictims: the candidate maximising (1-u)*age/(1+u), u the
//    valid fraction and age the host slots written since the unit closed
//    (Rosenblum & Ousterhout, LFS, SOSP 1991). A scan per GC pass, O(units),
//    which is small next to the slots a pass copies.
#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "ftl/unit_table.h"
#include "ftl/victim_policy.h"

namespace ftlsim::ftl {

class CandidateSet {
 public:
  void init(uint32_t units) {
    pos_.assign(units, kNoUnit);
    items_.clear();
    items_.reserve(units);
  }
  void insert(UnitId unit) {
    if (pos_[unit] != kNoUnit) return;
    pos_[unit] = static_cast<uint32_t>(items_.size());
    items_.push_back(unit);
  }
  void erase(UnitId unit) {
    const uint32_t p = pos_[unit];
    const UnitId last = items_.back();
    items_[p] = last;
    pos_[last] = p;
    items_.pop_back();
    pos_[unit] = kNoUnit;
  }
  [[nodiscard]] bool empty() const { return items_.empty(); }
  [[nodiscard]] uint32_t size() const { return static_cast<uint32_t>(items_.size()); }
  [[nodiscard]] UnitId at(uint32_t i) const { return items_[i]; }

 private:
  std::vector<uint32_t> pos_;
  std::vector<UnitId> items_;
};

// Shared bookkeeping: a closed unit is a candidate once it has an invalid slot.
class SampledVictimsBase {
 public:
  void init(const UnitTable& t, uint64_t seed) {
    candidates_.init(t.size());
    rng_ = Rng(seed);
  }
  void on_close(const UnitTable& t, UnitId unit) {
    if (!t.full(unit)) candidates_.insert(unit);
  }
  void on_invalidate(const UnitTable& /*t*/, UnitId unit) { candidates_.insert(unit); }
  [[nodiscard]] uint64_t queued(const UnitTable& /*t*/) const { return candidates_.size(); }

 protected:
  UnitId take_if(const UnitTable& t, UnitId unit, const GcAsk& ask) {
    if (declines(t, unit, ask)) return kNoUnit;
    candidates_.erase(unit);
    return unit;
  }
  CandidateSet candidates_;
  Rng rng_{1};
};

class RandomVictims : public SampledVictimsBase {
 public:
  UnitId select(const UnitTable& t, const GcAsk& ask) {
    if (candidates_.empty()) return kNoUnit;
    return take_if(t, candidates_.at(static_cast<uint32_t>(rng_.below(candidates_.size()))), ask);
  }
};

class DChoiceVictims : public SampledVictimsBase {
 public:
  explicit DChoiceVictims(uint32_t d = 8) : d_(d) {}
  UnitId select(const UnitTable& t, const GcAsk& ask) {
    if (candidates_.empty()) return kNoUnit;
    UnitId best = kNoUnit;
    for (uint32_t i = 0; i < d_; ++i) {
      const UnitId unit = candidates_.at(static_cast<uint32_t>(rng_.below(candidates_.size())));
      if (best == kNoUnit || t.valid[unit] < t.valid[best]) best = unit;
    }
    return take_if(t, best, ask);
  }

 private:
  uint32_t d_;
};

class CostBenefitVictims : public SampledVictimsBase {
 public:
  // ask.now is the host-slot clock.
  UnitId select(const UnitTable& t, const GcAsk& ask) {
    UnitId best = kNoUnit;
    double best_score = -1.0;
    const double slots = t.slots_per_unit;
    for (uint32_t i = 0; i < candidates_.size(); ++i) {
      const UnitId unit = candidates_.at(i);
      const double u = t.valid[unit] / slots;
      const double age = static_cast<double>(ask.now - t.close_stamp[unit]) + 1.0;
      const double score = (1.0 - u) * age / (1.0 + u);
      // Ties: the lower unit id, so the choice does not depend on array order.
      if (score > best_score || (score == best_score && unit < best)) {
        best = unit;
        best_score = score;
      }
    }
    if (best == kNoUnit) return kNoUnit;
    return take_if(t, best, ask);
  }
};

static_assert(VictimSelector<RandomVictims> && VictimSelector<DChoiceVictims> && VictimSelector<CostBenefitVictims>);

}  // namespace ftlsim::ftl
