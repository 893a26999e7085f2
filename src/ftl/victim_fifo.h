#pragma once
// FIFO (least recently written) victim selection: the oldest closed unit
// that has any invalid slot. Units are kept in close order; a fully valid
// unit at the head is skipped, not taken, because cleaning it would free
// nothing (FEMU's victim queue likewise holds only lines with invalid pages).
#include <cstdint>
#include <vector>

#include "ftl/unit_table.h"
#include "ftl/victim_policy.h"

namespace ftlsim::ftl {

class FifoVictims {
 public:
  void init(const UnitTable& t, uint64_t /*seed*/) {
    next_.assign(t.size(), kNoUnit);
    prev_.assign(t.size(), kNoUnit);
    head_ = tail_ = kNoUnit;
  }

  void on_close(const UnitTable& /*t*/, UnitId unit) {
    next_[unit] = kNoUnit;
    prev_[unit] = tail_;
    if (tail_ != kNoUnit) {
      next_[tail_] = unit;
    } else {
      head_ = unit;
    }
    tail_ = unit;
  }

  void on_invalidate(const UnitTable& /*t*/, UnitId /*unit*/) {}
  // 1 when a closed unit with an invalid slot waits, else 0 (fully valid
  // units in the list are no candidates). Walks the list: called only after
  // a pass found no victim.
  [[nodiscard]] uint64_t queued(const UnitTable& t) const {
    for (UnitId unit = head_; unit != kNoUnit; unit = next_[unit]) {
      if (!t.full(unit)) return 1;
    }
    return 0;
  }

  UnitId select(const UnitTable& t, const GcAsk& ask) {
    UnitId unit = head_;
    while (unit != kNoUnit && t.full(unit)) unit = next_[unit];
    if (unit == kNoUnit || declines(t, unit, ask)) return kNoUnit;
    unlink(unit);
    return unit;
  }

 private:
  void unlink(UnitId unit) {
    if (prev_[unit] != kNoUnit) {
      next_[prev_[unit]] = next_[unit];
    } else {
      head_ = next_[unit];
    }
    if (next_[unit] != kNoUnit) {
      prev_[next_[unit]] = prev_[unit];
    } else {
      tail_ = prev_[unit];
    }
  }

  std::vector<UnitId> next_, prev_;
  UnitId head_ = kNoUnit, tail_ = kNoUnit;
};

static_assert(VictimSelector<FifoVictims>);

}  // namespace ftlsim::ftl
