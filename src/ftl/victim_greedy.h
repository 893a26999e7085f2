#pragma once
// Greedy victim selection (fewest valid slots) in O(1) amortised time:
// closed lines sit in doubly linked buckets indexed by valid count, and a
// cursor tracks the lowest bucket that may be non-empty. An invalidation
// moves a line down one bucket and lowers the cursor at most by one, so the
// cursor's upward scans are paid for by invalidations. Ties go to the line
// that entered its bucket first.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "ftl/line_table.h"

namespace ftlsim::ftl {

class GreedyVictims {
 public:
  void init(const LineTable& t, uint64_t /*seed*/) {
    const uint32_t n = t.size();
    next_.assign(n, kNoLine);
    prev_.assign(n, kNoLine);
    head_.assign(t.slots_per_line + 1, kNoLine);
    tail_.assign(t.slots_per_line + 1, kNoLine);
    cursor_ = t.slots_per_line;
  }

  void on_close(const LineTable& t, LineId l) { push(l, t.valid[l]); }

  // The closed line `l` lost one valid slot; it had `t.valid[l] + 1`.
  void on_invalidate(const LineTable& t, LineId l) {
    const uint32_t v = t.valid[l];
    unlink(l, v + 1);
    push(l, v);
  }

  // Removes and returns the line with the fewest valid slots, provided it has
  // at least `min_invalid` invalid slots (and at least one); else kNoLine.
  LineId select(const LineTable& t, uint32_t min_invalid) {
    const uint32_t full = t.slots_per_line;
    while (cursor_ < full && head_[cursor_] == kNoLine) ++cursor_;
    if (cursor_ >= full) return kNoLine;
    if (full - cursor_ < std::max<uint32_t>(min_invalid, 1)) return kNoLine;
    const LineId l = head_[cursor_];
    unlink(l, cursor_);
    return l;
  }

 private:
  void push(LineId l, uint32_t v) {
    next_[l] = kNoLine;
    prev_[l] = tail_[v];
    if (tail_[v] != kNoLine) {
      next_[tail_[v]] = l;
    } else {
      head_[v] = l;
    }
    tail_[v] = l;
    if (v < cursor_) cursor_ = v;
  }
  void unlink(LineId l, uint32_t v) {
    if (prev_[l] != kNoLine) {
      next_[prev_[l]] = next_[l];
    } else {
      head_[v] = next_[l];
    }
    if (next_[l] != kNoLine) {
      prev_[next_[l]] = prev_[l];
    } else {
      tail_[v] = prev_[l];
    }
  }

  std::vector<LineId> next_, prev_;  // per line
  std::vector<LineId> head_, tail_;  // per valid count 0..slots_per_line
  uint32_t cursor_ = 0;
};

}  // namespace ftlsim::ftl
