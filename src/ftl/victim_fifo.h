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

  void on_close(const UnitTable& /*t*/, UnitId l) {
    next_[l] = kNoUnit;
    prev_[l] = tail_;
    if (tail_ != kNoUnit) {
      next_[tail_] = l;
    } else {
      head_ = l;
    }
    tail_ = l;
  }

  void on_invalidate(const UnitTable& /*t*/, UnitId /*l*/) {}
  // 1 when a closed unit with an invalid slot waits, else 0 (fully valid
  // units in the list are no candidates). Walks the list: called only after
  // a pass found no victim.
  [[nodiscard]] uint64_t queued(const UnitTable& t) const {
    for (UnitId l = head_; l != kNoUnit; l = next_[l]) {
      if (!t.full(l)) return 1;
    }
    return 0;
  }

  UnitId select(const UnitTable& t, const GcAsk& ask) {
    UnitId l = head_;
    while (l != kNoUnit && t.full(l)) l = next_[l];
    if (l == kNoUnit || declines(t, l, ask)) return kNoUnit;
    unlink(l);
    return l;
  }

 private:
  void unlink(UnitId l) {
    if (prev_[l] != kNoUnit) {
      next_[prev_[l]] = next_[l];
    } else {
      head_ = next_[l];
    }
    if (next_[l] != kNoUnit) {
      prev_[next_[l]] = prev_[l];
    } else {
      tail_ = prev_[l];
    }
  }

  std::vector<UnitId> next_, prev_;
  UnitId head_ = kNoUnit, tail_ = kNoUnit;
};

static_assert(VictimSelector<FifoVictims>);

}  // namespace ftlsim::ftl
