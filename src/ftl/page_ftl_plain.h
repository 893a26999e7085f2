#pragma once
// PageFtl::write_plain(), the plain host path's loop (one stream, one pool,
// the forced threshold checked per request, no RU time limit). Included by
// page_ftl.h only.
//
// It does what before_write(0), write() and after_request() do per request,
// with what write() reads from the engine's members per slot held in locals:
// the stream's write pointer (unit, first slot, offset) and the maps' and
// unit arrays' addresses; the host slots written since the last flush() are
// the offset's advance (the counters are updated from it). Anything else
// that reads or writes those (a GC pass, a unit filling up) runs only after
// flush() has stored the locals back, and load() reads them again after it:
// between two such points nothing but this loop touches them, so the
// engine's state after each request is what the three calls leave.
#include "ftl/page_ftl.h"

namespace ftlsim::ftl {

template <VictimSelector Victims, class Sink>
template <class Div>
size_t PageFtl<Victims, Sink>::write_plain_by(PlainRequest* req, size_t count, size_t avail, PlainStop stop,
                                              const Div div) {
  Pool& pool = pools_[0];
  Stream& writer = streams_[0];
  uint32_t* const l2p = l2p_.data();
  uint32_t* const p2l = p2l_.data();
  uint64_t* const bits = valid_bits_.data();
  uint32_t* const valid = table_.valid.data();
  const UnitState* const state = table_.state.data();
  Victims& victims = pool.victims;
  const auto victims_for = [&](UnitId) -> const Victims& { return victims; };
  const uint32_t unit_slots = slots_per_unit_;

  // The locals: the write pointer (the stream's unit, its first slot and
  // the offset written up to; writer.off keeps the offset of the last
  // load(), so the host slots written since are off - writer.off, all into
  // one unit), and stop_off, the offset at which `stop` ends the loop after
  // the request that reaches it: where the host slots reach
  // stop.host_slots, or the offset of the last load() once a pass has run
  // with stop.first_gc.
  UnitId open = 0;
  uint32_t base = 0, off = 0;
  uint64_t stop_off = 0;
  const auto load = [&] {
    open = writer.open;
    base = writer.base;
    off = writer.off;
    uint64_t limit = stop.host_slots > stats_.host_slots ? stop.host_slots - stats_.host_slots : 0;
    if (stop.first_gc && stats_.gc_passes != 0) limit = 0;
    stop_off = limit > UINT64_MAX - off ? UINT64_MAX : off + limit;
  };
  const auto flush = [&] {
    const uint32_t written = off - writer.off;
    writer.off = off;
    stats_.host_slots += written;
    stats_.programmed_slots += written;
    stream_stats_[0].host_slots += written;
  };
  // The first host write into the stream's unit sets its first_host_ns
  // (program()): checked once per request, after before_write()'s passes,
  // and when a unit fills up within a request.
  const auto stamp = [&] {
    if (writer.first_host_ns == kNever) [[unlikely]]
      first_host_write(writer);
  };
  // write(lpn, 0)'s work on the maps and the unit table (invalidate(), then
  // program() at the write pointer); the counters, the first-write stamp
  // and the unit's end are apply()'s.
  const auto write_slot = [&](uint32_t lpn) __attribute__((always_inline)) {
    const uint32_t old = ~l2p[lpn];  // complements (page_ftl.h)
    if (old != kUnmapped) {
      bits[old >> 6] &= ~(uint64_t{1} << (old & 63));
      const UnitId u = div.divide(old);
      --valid[u];
      if (state[u] == UnitState::kClosed) victims.on_invalidate(table_, u);
    } else {
      ++mapped_;
    }
    const uint32_t s = base + off;
    sink_.on_host_program(s);
    l2p[lpn] = ~s;
    p2l[s] = lpn;
    bits[s >> 6] |= uint64_t{1} << (s & 63);
    ++valid[open];
  };
  // Applies request r as before_write(0), write() per slot and
  // after_request() do; true when `stop` ends the loop after it.
  const auto apply = [&](const PlainRequest& r) __attribute__((always_inline)) {
    // before_write(0): with one pool, pools_over_high_ != 0 is its test.
    if (pools_over_high_ != 0) [[unlikely]] {
      flush();
      forced_gc(0);
      load();
    }
    if (open == kNoUnit) [[unlikely]] {
      flush();
      open_unit(0);
      load();
    }
    stamp();
    uint32_t lpn = r.first;
    const uint32_t end = r.first + r.slots;
    for (;;) {
      write_slot(lpn);
      if (++off == unit_slots) [[unlikely]] {
        flush();  // the unit's close stamp counts this slot, as write() does
        advance(0);
        load();
        if (lpn + 1 != end) stamp();
      }
      if (++lpn == end) break;
    }
    // after_request() with one pool: a background pass the policy declines
    // for sure only counts the decline, without the store-back.
    if (pool.free_count <= pool.thres) [[unlikely]] {
      if (background_due(pool)) {
        flush();
        background_passes(0);
        load();
      }
    }
    return off >= stop_off;
  };
  load();

  // The pipeline (prefetch(), prefetch_mapped(), prefetch_queued()) without
  // bounds checks while the look-ahead lies within req[0, avail), then with.
  const size_t checked_from = std::min(count, avail > kPrefetchFar ? avail - kPrefetchFar : 0);
  size_t j = 0;
  while (j < checked_from) {
    prefetch(req[j + kPrefetchFar].first);
    req[j + kPrefetchNear].old = prefetch_mapped_with(req[j + kPrefetchNear].first, div, victims_for);
    prefetch_queued_with(req[j + kPrefetchNearest].old, div, victims_for);
    if (apply(req[j++])) [[unlikely]] {
      flush();
      return j;
    }
  }
  while (j < count) {
    if (j + kPrefetchFar < avail) prefetch(req[j + kPrefetchFar].first);
    if (j + kPrefetchNear < avail)
      req[j + kPrefetchNear].old = prefetch_mapped_with(req[j + kPrefetchNear].first, div, victims_for);
    if (j + kPrefetchNearest < avail) prefetch_queued_with(req[j + kPrefetchNearest].old, div, victims_for);
    if (apply(req[j++])) break;
  }
  flush();
  return j;
}

}  // namespace ftlsim::ftl
