#pragma once
// FIFO (least recently written) victim selection: the oldest closed line
// that has any invalid slot. Lines are kept in close order; a fully valid
// line at the head is skipped, not taken, because cleaning it would free
// nothing (FEMU's victim queue likewise holds only lines with invalid pages).
#include <cstdint>
#include <vector>

#include "ftl/line_table.h"
#include "ftl/victim_policy.h"

namespace ftlsim::ftl {

class FifoVictims {
 public:
  void init(const LineTable& t, uint64_t /*seed*/) {
    next_.assign(t.size(), kNoLine);
    prev_.assign(t.size(), kNoLine);
    head_ = tail_ = kNoLine;
  }

  void on_close(const LineTable& /*t*/, LineId l) {
    next_[l] = kNoLine;
    prev_[l] = tail_;
    if (tail_ != kNoLine) {
      next_[tail_] = l;
    } else {
      head_ = l;
    }
    tail_ = l;
  }

  void on_invalidate(const LineTable& /*t*/, LineId /*l*/) {}
  // 1 when a closed unit with an invalid slot waits, else 0 (fully valid
  // units in the list are no candidates). Walks the list: called only after
  // a pass found no victim.
  [[nodiscard]] uint64_t queued(const LineTable& t) const {
    for (LineId l = head_; l != kNoLine; l = next_[l]) {
      if (!t.full(l)) return 1;
    }
    return 0;
  }

  LineId select(const LineTable& t, const GcAsk& ask) {
    LineId l = head_;
    while (l != kNoLine && t.full(l)) l = next_[l];
    if (l == kNoLine || declines(t, l, ask)) return kNoLine;
    unlink(l);
    return l;
  }

 private:
  void unlink(LineId l) {
    if (prev_[l] != kNoLine) {
      next_[prev_[l]] = next_[l];
    } else {
      head_ = next_[l];
    }
    if (next_[l] != kNoLine) {
      prev_[next_[l]] = prev_[l];
    } else {
      tail_ = prev_[l];
    }
  }

  std::vector<LineId> next_, prev_;
  LineId head_ = kNoLine, tail_ = kNoLine;
};

static_assert(VictimSelector<FifoVictims>);

}  // namespace ftlsim::ftl
