#pragma once
// GC work decided by the FTL but not yet placed in time: NAND operations
// numbered in the order the FTL produced them (sequence numbers), each
// starting on one die (a copy starts with its read on the source die).
// Operations of a die leave in order, either because that die had idle time
// (background GC) or because everything up to some sequence number must be
// placed (when something waits for it). So each die's operations form a FIFO,
// and an operation is placed once every operation of its die before it is.
//
// One ring buffer holds every operation from the oldest not yet placed to the
// newest, at its sequence number (so no sequence number is stored); each
// entry links to the next operation of its die, and is marked once placed.
// A die's queue is then a head sequence number and these links; whether an
// operation is placed is one load; the oldest queued operation advances over
// marked entries. Memory: 32 bytes per operation between the oldest queued
// and the newest (a busy device holds hundreds of thousands), in huge pages
// (2 MiB at least); nothing is moved but half the entries when the ring
// doubles.
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/huge_array.h"

namespace ftlsim::timing {

inline constexpr uint64_t kNoSeq = ~uint64_t{0};

// What TimedDevice keeps of one operation (the fields' meaning is its own).
struct GcOp {
  uint64_t t_enq = 0;  // when the FTL decided it (the pass's time)
  uint32_t a = 0;
  uint32_t b = 0;
  uint32_t c = 0;
  uint32_t d = 0;
};

class GcQueue {
 private:
  static constexpr uint32_t kPlaced = ~uint32_t{0};
  struct Entry {
    GcOp op;
    uint32_t need_back;  // the need as a distance back; 0: none; kPlaced once placed
    uint32_t next;       // distance to the die's next operation (0 while it is the die's last)
  };
  static_assert(sizeof(Entry) == 32);

 public:
  // The ring's first size (it doubles from there), for memory estimates.
  static constexpr size_t kFirstRingBytes = size_t{2} << 20;

  explicit GcQueue(uint32_t dies = 0) : heads_(dies, kNoSeq), tails_(dies, 0), counts_(dies, 0) {}

  // Appends op, starting on `die`, to be placed after operation `need` (an
  // earlier sequence number, or kNoSeq); returns its sequence number.
  uint64_t push(const GcOp& op, uint64_t need, uint32_t die) {
    // A need already placed is no need (done() never turns false again).
    return push_queued_need(op, need != kNoSeq && !done(need) ? need : kNoSeq, die);
  }
  // push() of an operation whose need is kNoSeq or not placed yet.
  uint64_t push_queued_need(const GcOp& op, uint64_t need, uint32_t die) { return Batch(*this, 1).push(op, need, die); }
  // Up to n push_queued_need() calls in a row, with the queue's fields in
  // locals (no reloads after each entry's stores): the constructor makes room
  // for n, the destructor counts what was pushed. Nothing else may change the
  // queue meanwhile. push_queued_need() is a batch of one.
  class Batch {
   public:
    Batch(GcQueue& q, uint32_t n) : q_(q) {
      while (q.end_ - q.head_ + n > q.ring_.size()) q.grow();
      ring_ = q.ring_.data();
      mask_ = q.mask_;
      end_ = q.end_;
      heads_ = q.heads_.data();
      tails_ = q.tails_.data();
      counts_ = q.counts_.data();
    }
    Batch(const Batch&) = delete;
    Batch& operator=(const Batch&) = delete;
    ~Batch() {
      q_.pending_ += end_ - q_.end_;
      q_.end_ = end_;
    }
    uint64_t push(const GcOp& op, uint64_t need, uint32_t die) {
      const uint64_t seq = end_++;
      uint32_t back = 0;
      if (need != kNoSeq) {
        assert(seq - need < kPlaced && !q_.done(need));
        back = static_cast<uint32_t>(seq - need);
      }
      Entry& e = ring_[seq & mask_];
      e.op = op;
      e.need_back = back;
      e.next = 0;
      if (counts_[die]++ == 0) {
        heads_[die] = seq;
      } else {
        assert(seq - tails_[die] <= UINT32_MAX);
        ring_[tails_[die] & mask_].next = static_cast<uint32_t>(seq - tails_[die]);
      }
      tails_[die] = seq;
      return seq;
    }
    // Operations of `die` not placed yet (as die_pending()).
    [[nodiscard]] uint64_t die_pending(uint32_t die) const { return counts_[die]; }

   private:
    GcQueue& q_;
    Entry* ring_ = nullptr;
    uint64_t mask_ = 0;
    uint64_t end_ = 0;
    uint64_t* heads_ = nullptr;
    uint64_t* tails_ = nullptr;
    uint64_t* counts_ = nullptr;
  };

  [[nodiscard]] bool done(uint64_t seq) const { return seq < head_ || ring_[seq & mask_].need_back == kPlaced; }
  [[nodiscard]] uint64_t pending() const { return pending_; }
  [[nodiscard]] uint64_t end_seq() const { return end_; }
  // The oldest operation not placed yet (end_seq() when none).
  [[nodiscard]] uint64_t fifo_head() const { return head_; }
  // Operations of `die` not placed yet.
  [[nodiscard]] uint64_t die_pending(uint32_t die) const { return counts_[die]; }
  // The first queued operation of `die` (kNoSeq when none).
  [[nodiscard]] uint64_t die_head(uint32_t die) const { return counts_[die] == 0 ? kNoSeq : heads_[die]; }
  // Operation seq. REQUIRES: queued (not placed).
  [[nodiscard]] const GcOp& op(uint64_t seq) const { return ring_[seq & mask_].op; }
  // The operation seq must be placed after: kNoSeq, or one that was queued
  // when seq was pushed. REQUIRES: seq queued.
  [[nodiscard]] uint64_t need(uint64_t seq) const {
    const uint32_t back = ring_[seq & mask_].need_back;
    return back == 0 ? kNoSeq : seq - back;
  }
  // Starts loading operation seq into the cache (any seq: a slot of the
  // ring is loaded, whatever it holds).
  void prefetch(uint64_t seq) const { __builtin_prefetch(&ring_[seq & mask_]); }
  // Marks seq placed. REQUIRES: it is the first queued operation of `die`.
  void mark_done(uint64_t seq, uint32_t die) {
    Entry& e = ring_[seq & mask_];
    assert(counts_[die] != 0 && heads_[die] == seq);
    heads_[die] = seq + e.next;  // the next of the die (meaningless when none)
    --counts_[die];
    --pending_;
    e.need_back = kPlaced;
    if (seq != head_) return;  // the oldest is still queued: head_ stays
    do {
      ++head_;
    } while (head_ != end_ && ring_[head_ & mask_].need_back == kPlaced);
  }

 private:
  void grow() {
    // Huge pages: the dies' first operations are far apart in a ring of
    // many MiB, and 4 KiB pages would add a TLB miss to most loads (and a
    // page fault per 4 KiB as the ring grows). The first ring fills 2 MiB.
    // Doubling from N to 2N keeps the pages in place (HugeArray::grow):
    // s stays at s mod N when s mod 2N is that, and moves up by N when not.
    const uint64_t old = ring_.size();
    ring_.grow(old == 0 ? kFirstRing : 2 * old);
    for (uint64_t s = head_; s != end_; ++s) {
      if ((s & old) != 0) ring_[(s & mask_) + old] = ring_[s & mask_];
    }
    mask_ = ring_.size() - 1;
  }

  static constexpr size_t kFirstRing = kFirstRingBytes / sizeof(Entry);
  HugeArray<Entry> ring_;  // sequence number s at s & mask_, for s in [head_, end_)
  uint64_t mask_ = 0;
  uint64_t head_ = 0;  // the oldest operation not placed
  uint64_t end_ = 0;   // the next sequence number
  uint64_t pending_ = 0;
  std::vector<uint64_t> heads_;   // per die: its first queued operation
  std::vector<uint64_t> tails_;   // per die: its last queued operation
  std::vector<uint64_t> counts_;  // per die: operations queued
};

}  // namespace ftlsim::timing
