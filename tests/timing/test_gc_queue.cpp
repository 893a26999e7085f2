// GcQueue (one ring in sequence order, each die's operations linked) against
// a plain reference: a FIFO of sequence numbers per die and a table of every
// operation pushed. Random pushes, placements of a die's first operation and
// of the oldest one, with a fixed seed; every answer compared after every
// step.
#include <catch2/catch.hpp>

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "core/rng.h"
#include "timing/gc_queue.h"

using ftlsim::Rng;
using ftlsim::timing::GcOp;
using ftlsim::timing::GcQueue;
using ftlsim::timing::kNoSeq;

namespace {

struct RefOp {
  GcOp op;
  uint64_t need = kNoSeq;  // as the queue must report it: kNoSeq when placed before the push
  uint32_t die = 0;
  bool done = false;
};

class RefQueue {
 public:
  explicit RefQueue(uint32_t dies) : dies_(dies) {}
  uint64_t push(const GcOp& op, uint64_t need, uint32_t die) {
    const uint64_t seq = ops_.size();
    ops_.push_back(RefOp{op, need != kNoSeq && !ops_[need].done ? need : kNoSeq, die, false});
    dies_[die].push_back(seq);
    return seq;
  }
  void mark_done(uint64_t seq) {
    std::deque<uint64_t>& q = dies_[ops_[seq].die];
    REQUIRE(q.front() == seq);
    q.pop_front();
    ops_[seq].done = true;
    ++placed_;
    while (head_ < ops_.size() && ops_[head_].done) ++head_;
  }
  [[nodiscard]] uint64_t fifo_head() const { return head_; }
  [[nodiscard]] uint64_t pending() const { return ops_.size() - placed_; }
  std::vector<RefOp> ops_;
  std::vector<std::deque<uint64_t>> dies_;
  uint64_t head_ = 0;  // the oldest not placed
  uint64_t placed_ = 0;
};

}  // namespace

TEST_CASE("GC queue: per-die FIFOs, needs and the oldest queued, as a plain reference has them", "[timing]") {
  // Few and many dies; bursts of pushes (a pass's copies) and of placements
  // (fill's per-die runs, drains in sequence order), so the ring fills,
  // empties and doubles; needs anywhere back, some already placed. Every
  // fifth seed queues a backlog (bursts up to 20,000 operations) so that
  // the ring doubles at least twice from its first 65,536 entries
  // (GcQueue::kFirstRingBytes / 32) with operations wrapped round it.
  constexpr uint64_t kFirstRingEntries = GcQueue::kFirstRingBytes / 32;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Rng rng(seed);
    const bool backlog = seed % 5 == 0;
    const uint32_t dies = seed % 3 == 0 ? 1 : static_cast<uint32_t>(1 + rng.below(70));
    GcQueue q(dies);
    RefQueue ref(dies);
    uint64_t max_pending = 0;
    uint64_t max_span = 0;
    for (int step = 0; step < 2000; ++step) {
      const uint64_t action = rng.below(10);
      if (action < 6) {  // a burst of pushes, mostly to one die
        const uint32_t die = static_cast<uint32_t>(rng.below(dies));
        const uint64_t n = 1 + rng.below(backlog && rng.below(8) == 0 ? 20'000 : rng.below(4) == 0 ? 600 : 20);
        // Half the bursts through a Batch (as TimedDevice queues a pass's
        // copies): the same sequence numbers, links and answers as push().
        std::optional<GcQueue::Batch> batch;
        if (rng.below(2) == 0) batch.emplace(q, static_cast<uint32_t>(n));
        for (uint64_t k = 0; k < n; ++k) {
          GcOp op;
          op.t_enq = rng.below(1'000'000);
          op.a = static_cast<uint32_t>(rng.below(1u << 30));
          op.b = static_cast<uint32_t>(rng.below(1u << 30));
          op.c = static_cast<uint32_t>(rng.below(1u << 30));
          op.d = static_cast<uint32_t>(rng.below(1u << 30));
          const uint32_t d = rng.below(4) == 0 ? static_cast<uint32_t>(rng.below(dies)) : die;
          const uint64_t end = ref.ops_.size();
          const uint64_t need =
              end == 0 || rng.below(3) == 0 ? kNoSeq : end - 1 - rng.below(std::min<uint64_t>(end, 2000));
          if (batch) {
            const uint64_t queued_need = need != kNoSeq && !ref.ops_[need].done ? need : kNoSeq;
            REQUIRE(batch->die_pending(d) == ref.dies_[d].size());
            REQUIRE(batch->push(op, queued_need, d) == ref.push(op, need, d));
          } else {
            REQUIRE(q.push(op, need, d) == ref.push(op, need, d));
          }
        }
      } else if (action < 9) {  // a run of one die's first operations
        const uint32_t die = static_cast<uint32_t>(rng.below(dies));
        const uint64_t n = rng.below(rng.below(4) == 0 ? 800 : 30);
        for (uint64_t k = 0; k < n && !ref.dies_[die].empty(); ++k) {
          const uint64_t seq = ref.dies_[die].front();
          REQUIRE(q.die_head(die) == seq);
          q.mark_done(seq, die);
          ref.mark_done(seq);
        }
      } else {  // a drain: the oldest queued, in sequence order
        const uint64_t n = rng.below(rng.below(4) == 0 ? 2000 : 50);
        for (uint64_t k = 0; k < n; ++k) {
          const uint64_t seq = ref.fifo_head();
          if (seq == ref.ops_.size()) break;
          REQUIRE(q.fifo_head() == seq);
          q.mark_done(seq, ref.ops_[seq].die);
          ref.mark_done(seq);
        }
      }
      max_pending = std::max(max_pending, ref.pending());
      // Every answer the queue gives.
      REQUIRE(q.pending() == ref.pending());
      REQUIRE(q.end_seq() == ref.ops_.size());
      REQUIRE(q.fifo_head() == ref.fifo_head());
      bool same = true;
      for (uint32_t d = 0; d < dies; ++d) {
        same = same && q.die_pending(d) == ref.dies_[d].size();
        same = same && q.die_head(d) == (ref.dies_[d].empty() ? kNoSeq : ref.dies_[d].front());
      }
      REQUIRE(same);
      // The operations around the oldest queued (all before it are placed),
      // each die's first and a sample of the rest.
      const uint64_t head = ref.fifo_head();
      const uint64_t end = ref.ops_.size();
      auto check = [&](uint64_t s) {
        const RefOp& r = ref.ops_[s];
        same = same && q.done(s) == r.done;
        if (r.done) return;
        const GcOp& o = q.op(s);
        same = same && o.t_enq == r.op.t_enq && o.a == r.op.a && o.b == r.op.b && o.c == r.op.c && o.d == r.op.d;
        same = same && q.need(s) == r.need;
      };
      for (uint64_t s = head > 64 ? head - 64 : 0; s < std::min(end, head + 64); ++s) check(s);
      for (uint32_t d = 0; d < dies; ++d) {
        if (!ref.dies_[d].empty()) check(ref.dies_[d].front());
      }
      for (int k = 0; k < 64 && head < end; ++k) check(head + rng.below(end - head));
      max_span = std::max(max_span, end - head);
      REQUIRE(same);
    }
    INFO("seed " << seed << ", " << dies << " dies");
    if (backlog) {
      CHECK(max_span > 2 * kFirstRingEntries);  // the ring doubled twice, its entries wrapped round
    }
  }
}
