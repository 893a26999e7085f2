#pragma once
// GC work decided by the FTL but not yet placed in time: NAND operations
// numbered in the order the FTL produced them (sequence numbers), each kept
// in the queue of the die it starts on (a copy starts with its read on the
// source die). Operations leave each die's queue in order, either because
// that die had idle time (background GC) or because everything up to some
// sequence number must be placed (when something waits for it). So a die's
// queue is a plain FIFO, and an operation is placed once every operation of
// its die before it is. Memory: 36 bytes per queued operation (a busy
// device holds hundreds of thousands); consumed prefixes are released.
#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ftlsim::timing {

inline constexpr uint64_t kNoSeq = ~uint64_t{0};

enum class GcOpKind : uint8_t { kCopy, kErase };

struct GcOp {
  uint64_t t_enq = 0;      // when the FTL decided it (the pass's time)
  uint64_t need = kNoSeq;  // an earlier operation that must be placed first
  uint32_t a = 0;          // copy: source slot; erase: unit
  uint32_t b = 0;          // copy: destination slot; erase: die
  GcOpKind kind = GcOpKind::kCopy;
};

class GcQueue {
 public:
  explicit GcQueue(uint32_t dies = 0) : dies_(dies) {}

  // Appends op, starting on `die`; returns its sequence number.
  uint64_t push(const GcOp& op, uint32_t die) {
    const uint64_t seq = base_ + die_of_.size();
    die_of_.push_back(die);
    // A need already placed is no need (done() never turns false again); a
    // queued one is at most the queue's length back.
    uint32_t need_back = 0;
    if (op.need != kNoSeq && !done(op.need)) {
      assert(seq - op.need <= UINT32_MAX);
      need_back = static_cast<uint32_t>(seq - op.need);
    }
    dies_[die].entries.push_back(Entry{seq, op.t_enq, op.a, op.b, need_back, op.kind});
    ++pending_;
    return seq;
  }
  [[nodiscard]] bool done(uint64_t seq) const {
    if (seq < head_) return true;
    const DieQueue& q = dies_[die_of_[seq - base_]];
    return q.head == q.entries.size() || q.entries[q.head].seq > seq;
  }
  [[nodiscard]] uint64_t pending() const { return pending_; }
  [[nodiscard]] uint64_t end_seq() const { return base_ + die_of_.size(); }
  // The oldest operation not placed yet (end_seq() when none).
  [[nodiscard]] uint64_t fifo_head() const { return head_; }
  // Operations of `die` not placed yet, and placed so far.
  [[nodiscard]] uint64_t die_pending(uint32_t die) const { return dies_[die].entries.size() - dies_[die].head; }
  [[nodiscard]] uint64_t die_placed(uint32_t die) const { return dies_[die].placed; }
  // The first queued operation of `die`; false when none.
  [[nodiscard]] bool die_head(uint32_t die, uint64_t& seq) const {
    const DieQueue& q = dies_[die];
    if (q.head == q.entries.size()) return false;
    seq = q.entries[q.head].seq;
    return true;
  }
  // The first queued operation of `die`. REQUIRES: die_pending(die) != 0.
  [[nodiscard]] GcOp die_front(uint32_t die) const {
    const DieQueue& q = dies_[die];
    assert(q.head < q.entries.size());
    return q.entries[q.head].op();
  }
  // Starts loading the first queued operation of `die` (if any) into the
  // cache: fill() reads it when it next looks at the die.
  void prefetch_front(uint32_t die) const {
    const DieQueue& q = dies_[die];
    if (q.head < q.entries.size()) __builtin_prefetch(&q.entries[q.head]);
  }
  // Operation seq. REQUIRES: it is the first queued operation of its die.
  [[nodiscard]] GcOp at(uint64_t seq) const {
    const DieQueue& q = dies_[die_of_[seq - base_]];
    assert(q.head < q.entries.size() && q.entries[q.head].seq == seq);
    return q.entries[q.head].op();
  }
  // The die operation seq starts on. REQUIRES: seq not placed.
  [[nodiscard]] uint32_t die_of(uint64_t seq) const { return die_of_[seq - base_]; }
  // Marks seq placed. REQUIRES: it is the first queued operation of `die`.
  void mark_done(uint64_t seq, uint32_t die) {
    DieQueue& q = dies_[die];
    assert(die_of(seq) == die && q.head < q.entries.size() && q.entries[q.head].seq == seq);
    ++q.head;
    ++q.placed;
    --pending_;
    if (q.head == q.entries.size()) {
      q.entries.clear();
      q.head = 0;
    } else if (q.head >= 4096 && 2 * q.head >= q.entries.size()) {
      q.entries.erase(q.entries.begin(), q.entries.begin() + static_cast<std::ptrdiff_t>(q.head));
      q.head = 0;
    }
    if (seq != head_) return;  // the oldest is still queued: head_ stays
    while (head_ < end_seq() && done(head_)) ++head_;
    if (head_ == end_seq()) {
      base_ = head_;
      die_of_.clear();
    } else if (head_ - base_ >= 4096 && 2 * (head_ - base_) >= die_of_.size()) {
      die_of_.erase(die_of_.begin(), die_of_.begin() + static_cast<std::ptrdiff_t>(head_ - base_));
      base_ = head_;
    }
  }

 private:
  // 32 bytes (a GcOp and its sequence number would take 40): the need as a
  // distance back, 0 for none.
  struct Entry {
    uint64_t seq;
    uint64_t t_enq;
    uint32_t a, b;
    uint32_t need_back;
    GcOpKind kind;
    [[nodiscard]] GcOp op() const { return GcOp{t_enq, need_back == 0 ? kNoSeq : seq - need_back, a, b, kind}; }
  };
  static_assert(sizeof(Entry) == 32);
  struct DieQueue {
    std::vector<Entry> entries;
    size_t head = 0;
    uint64_t placed = 0;
  };
  std::vector<uint32_t> die_of_;  // die of sequence numbers [base_, base_ + size)
  uint64_t base_ = 0;
  uint64_t head_ = 0;
  uint64_t pending_ = 0;
  std::vector<DieQueue> dies_;
};

}  // namespace ftlsim::timing
