#include "timing/timed_device.h"

#include <algorithm>
#include <cassert>

namespace ftlsim::timing {

TimedDevice::TimedDevice(const TimingConfig& cfg, const NandMap& map, TimingResult& result)
    : map_(map),
      nand_(cfg, map),
      queue_(map.dies()),
      out_(result),
      last_erase_(map.units(), kNoSeq),
      last_copy_in_(map.units(), kNoSeq),
      erase_end_(map.units(), 0),
      program_end_(map.units(), 0),
      read_end_(map.units(), 0),
      head_start_(map.dies(), kIdle),
      heads_(map.dies()) {
  out_.planes = nand_.planes();
}

void TimedDevice::begin_request(uint64_t now, HostOp op) {
  assert(now >= now_);
  queue_copies();
  now_ = now;
  // Nothing will start before now, except queued GC work (from its decision).
  nand_.set_horizon(queue_.pending() == 0 ? now : std::min(now, queue_.op(queue_.fifo_head()).t_enq));
  fill(now);
  // What is still queued cannot start before now on its die (fill would have
  // placed it), and neither can anything else from here on: gaps before now
  // are of no use any more.
  nand_.set_horizon(now);
  op_ = op;
  floor_ = now;
  rmw_ready_ = 0;
  req_end_ = now;
  req_reads_ = 0;
}

uint64_t TimedDevice::end_request() {
  out_.busy_ns = nand_.busy_ns();
  return req_end_;
}

void TimedDevice::finish() {
  queue_copies();
  if (queue_.pending() != 0) drain_through(queue_.end_seq() - 1);
  out_.busy_ns = nand_.busy_ns();
}

void TimedDevice::host_read(uint32_t slot) {
  if (!recording_) return;
  const uint32_t unit = map_.unit_of(slot);
  const uint64_t end = nand_.read(map_.locate(slot), floor_);
  read_end_[unit] = std::max(read_end_[unit], end);
  ++out_.host_page_reads;
  ++req_reads_;
  req_end_ = std::max(req_end_, end);
  out_.nand_end_ns = std::max(out_.nand_end_ns, end);
  if (op_ == HostOp::kWrite) rmw_ready_ = std::max(rmw_ready_, end);  // read-modify-write
}

void TimedDevice::host_program(uint32_t slot) {
  if (!recording_) return;
  queue_copies();
  const uint32_t unit = map_.unit_of(slot);
  wait_for(last_erase_[unit]);
  const uint64_t end = nand_.program(map_.locate(slot), std::max({floor_, rmw_ready_, erase_end_[unit]}));
  program_end_[unit] = std::max(program_end_[unit], end);
  rmw_ready_ = 0;
  ++out_.host_page_programs;
  req_end_ = std::max(req_end_, end);
  out_.nand_end_ns = std::max(out_.nand_end_ns, end);
}

void TimedDevice::gc_begin(bool forced) {
  if (!recording_) return;
  forced_pass_ = forced;
}

void TimedDevice::queue_noted() {
  // A pass copies from one unit into one or a few: the units, their first
  // dies and the need are looked up when the source or destination unit
  // changes, not per copy.
  const uint32_t spu = map_.slots_per_unit();
  uint32_t from = ~uint32_t{0}, from_base = 0, from_first = 0;
  uint32_t to = ~uint32_t{0}, to_base = 0, to_first = 0;
  uint64_t need = kNoSeq;  // kNoSeq or queued
  const uint64_t t_enq = now_;
  GcQueue::Batch batch(queue_, noted_);
  const NandMap::PlaneAt plane_at = map_.plane_at_fn();
  for (uint32_t k = 0; k < noted_; ++k) {
    const uint32_t src = notes_[k].src;
    const uint32_t dst = notes_[k].dst;
    if (src - from_base >= spu || dst - to_base >= spu || from == ~uint32_t{0} || to == ~uint32_t{0}) {
      from = map_.unit_of(src);
      from_base = map_.unit_base(from);
      from_first = map_.first_die_index(from);
      to = map_.unit_of(dst);
      to_base = map_.unit_base(to);
      to_first = map_.first_die_index(to);
      // The read waits for copies still queued into its unit, the program
      // for the queued erase of its unit: both earlier in the queue.
      need = last_copy_in_[from];
      if (last_erase_[to] != kNoSeq) need = need == kNoSeq ? last_erase_[to] : std::max(need, last_erase_[to]);
      if (need != kNoSeq && queue_.done(need)) need = kNoSeq;
    }
    GcOp op;
    op.t_enq = t_enq;
    op.a = plane_at(from_first, src - from_base);
    op.b = plane_at(to_first, dst - to_base);
    op.c = from;
    op.d = to;
    const uint32_t die = plane_at.die_of_plane(op.a);
    if (batch.die_pending(die) == 0) {
      fill_dirty_ = true;
      head_changed(die);
    }
    const uint64_t seq = batch.push(op, need, die);
    last_copy_in_[to] = seq;
    // The copies into `to` are queued: a later copy from `to` needs this one
    // (from != to in a pass; if not, need looks again).
    if (to == from) from = ~uint32_t{0};
  }
  noted_ = 0;
}

void TimedDevice::unit_erase(uint32_t unit) {
  if (!recording_) return;
  queue_copies();
  GcOp op;
  op.t_enq = now_;
  op.c = unit;
  op.d = kErase;
  const uint64_t need = last_copy_in_[unit];
  for (uint32_t k = 0; k < map_.unit_dies(); ++k) {
    op.a = map_.unit_die(unit, k);
    if (queue_.die_pending(op.a) == 0) {
      fill_dirty_ = true;
      head_changed(op.a);
    }
    last_erase_[unit] = queue_.push(op, need, op.a);
  }
  if (forced_pass_) {
    // Forced GC runs in the write path: all GC work is placed now, so the
    // write's programs queue behind it on every die it touches (as FEMU's
    // forced do_gc reserves the LUNs before the write's own pages).
    ++out_.gc_waits;
    drain_through(queue_.end_seq() - 1);
  }
  forced_pass_ = false;
}

void TimedDevice::wait_for(uint64_t seq) {
  if (seq == kNoSeq || queue_.done(seq)) return;
  ++out_.gc_waits;
  drain_through(seq);
}

uint64_t TimedDevice::drain_through(uint64_t last) {
  fill_dirty_ = true;
  uint64_t end = 0;
  while (queue_.fifo_head() <= last && queue_.fifo_head() < queue_.end_seq()) {
    const uint64_t seq = queue_.fifo_head();
    end = std::max(end, place(seq, die_of(queue_.op(seq))));
  }
  return end;
}

[[gnu::always_inline]] inline uint64_t TimedDevice::place_copy(uint64_t seq, uint32_t die, const GcOp& op,
                                                               uint64_t data_out) {
  queue_.mark_done(seq, die);  // seq is its die's first: fill takes firsts, drains take the oldest
  head_changed(die);
  if (queue_.die_pending(die) != 0) {
    const uint64_t next = queue_.die_head(die);
    queue_.prefetch(next);
    queue_.prefetch(next + 4);  // a die's operations mostly follow each other in the ring: the line after
  }
  // Program once the destination unit is erased.
  read_end_[op.c] = std::max(read_end_[op.c], data_out);
  const uint64_t end = nand_.program(map_.plane_loc(op.b), std::max(data_out, erase_end_[op.d]));
  program_end_[op.d] = std::max(program_end_[op.d], end);
  ++out_.gc_copies;
  out_.events.add(SeriesKind::kGcCopy, end, end - op.t_enq, ftl::kSlotBytes);
  out_.nand_end_ns = std::max(out_.nand_end_ns, end);
  return end;
}

void TimedDevice::fill(uint64_t now) {
  if (queue_.pending() == 0) return;
  if (!fill_dirty_ && now <= fill_next_) return;
  fill_dirty_ = false;
  uint64_t next = ~uint64_t{0};
  auto ready = [&](const GcOp& op) {
    return op.d != kErase ? std::max(op.t_enq, program_end_[op.c]) : erase_ready(op);
  };
  auto start_at = [&](bool copy, uint32_t plane, uint32_t die, uint64_t r) {
    return copy ? nand_.read_start(map_.plane_loc(plane), r) : nand_.erase_start(die, map_.rows(), r);
  };
  for (uint32_t die = 0; die < map_.dies(); ++die) {
    if (head_start_[die] >= now) {  // cannot start before now (or idle)
      next = std::min(next, head_start_[die]);
      continue;
    }
    if (queue_.die_pending(die) == 0) {
      head_start_[die] = kIdle;
      continue;
    }
    HeadCache& h = heads_[die];
    if (h.valid) {  // same first operation as last time: a closer bound first
      const uint64_t s = start_at(h.copy, h.plane, die, h.ready);
      head_start_[die] = s;
      if (now <= s) {
        next = std::min(next, s);
        continue;
      }
    }
    for (uint64_t seq = queue_.die_head(die); seq != kNoSeq; seq = queue_.die_head(die)) {
      const GcOp op = queue_.op(seq);  // a copy: draining may grow the queue
      const bool copy = op.d != kErase;
      uint64_t r = ready(op);
      const uint64_t need = queue_.need(seq);
      if (need != kNoSeq && !queue_.done(need)) {
        // It cannot be placed before what it needs: place that first if it
        // would start before now.
        const uint64_t s = start_at(copy, op.a, die, r);
        if (s >= now) {
          next = std::min(next, s);
          head_start_[die] = s;
          h = HeadCache{r, op.a, copy, true};
          break;
        }
        drain_through(need);
        r = ready(op);
      }
      if (copy) {  // the read is reserved if it starts before now
        uint64_t data_out = 0;
        const uint64_t s = nand_.read_if_before(map_.plane_loc(op.a), r, now, data_out);
        if (s >= now) {
          next = std::min(next, s);
          head_start_[die] = s;
          h = HeadCache{r, op.a, true, true};
          break;
        }
        (void)place_copy(seq, die, op, data_out);
        continue;
      }
      const uint64_t s = start_at(false, op.a, die, r);
      if (s >= now) {
        next = std::min(next, s);
        head_start_[die] = s;
        h = HeadCache{r, op.a, false, true};
        break;
      }
      place(seq, die);
    }
  }
  // A drain inside the scan may have changed heads already scanned.
  fill_next_ = next;
}

uint64_t TimedDevice::erase_ready(const GcOp& op) const {
  // After every program into the unit and every read of it placed so far
  // (its GC reads on this die come first in the queue).
  return std::max({op.t_enq, program_end_[op.c], read_end_[op.c]});
}

uint64_t TimedDevice::place(uint64_t seq, uint32_t die) {
  const GcOp op = queue_.op(seq);
  assert(queue_.need(seq) == kNoSeq || queue_.done(queue_.need(seq)));
  if (op.d != kErase) {
    // Read once everything programmed into the victim is there.
    const uint64_t data_out = nand_.read(map_.plane_loc(op.a), std::max(op.t_enq, program_end_[op.c]));
    return place_copy(seq, die, op, data_out);
  }
  queue_.mark_done(seq, die);  // seq is its die's first: fill takes firsts, drains take the oldest
  head_changed(die);
  if (queue_.die_pending(die) != 0) queue_.prefetch(queue_.die_head(die));
  const uint64_t end = nand_.erase(op.a, map_.rows(), erase_ready(op));
  erase_end_[op.c] = std::max(erase_end_[op.c], end);
  ++out_.erases;
  const uint64_t bytes = uint64_t{map_.slots_per_unit()} / map_.unit_dies() * ftl::kSlotBytes;
  out_.events.add(SeriesKind::kErase, end, end - op.t_enq, bytes);
  out_.nand_end_ns = std::max(out_.nand_end_ns, end);
  return end;
}

}  // namespace ftlsim::timing
