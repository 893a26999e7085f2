#pragma once
// Out-of-line parts of PageFtl (GC, unit management, invariants). Included by
// page_ftl.h only.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/error.h"
#include "ftl/page_ftl.h"

namespace ftlsim::ftl {

template <VictimSelector Victims, class Sink>
PageFtl<Victims, Sink>::PageFtl(const FtlConfig& cfg, const FtlLayout& layout, Victims victims, Sink sink)
    : sink_(std::move(sink)) {
  cfg.validate();
  throw_if_problems(layout_problems(cfg, layout));
  slots_per_unit_ = layout.slots_per_unit;
  orders_ = layout.write_orders;
  unit_order_ = layout.unit_order;
  row_slots_ = layout.row_slots();
  columns_ = layout.blocks_per_unit / (slots_per_unit_ / row_slots_);  // blocks in one row: dies x planes
  block_slots_ = row_slots_ / columns_;
  // Column c of a row holds the written slots n = page x S + c (one block);
  // its place in FEMU's GC order is its first slot's offset / G.
  for (const auto& order : orders_) {
    std::vector<uint32_t> cols(columns_);
    for (uint32_t c = 0; c < columns_; ++c) cols[order[c] / block_slots_] = c;
    gc_columns_.push_back(std::move(cols));
  }
  transposed_.resize(slots_per_unit_ / 64 + 64);
  unit_div_ = FastDiv(slots_per_unit_);
  const uint32_t per_pool = layout.units_per_pool();
  pool_div_ = FastDiv(per_pool);
  one_pool_ = layout.pools == 1;
  // FEMU: ipc < pgs_per_line / 8 is refused; --gc-trigger watermark takes any victim.
  bg_min_invalid_ = cfg.gc.watermark ? 0 : slots_per_unit_ / 8;
  watermark_ = cfg.gc.watermark;
  requeue_declined_ = layout.requeue_declined;
  per_slot_check_ = cfg.gc.forced_check_per_slot;
  every_pool_ = cfg.gc.every_pool;
  // FEMU bounds the FDP path's forced loop (ssd_stream_write's max_fg_gc);
  // the line path's loop (ssd_write) has no bound; ConfFDP's fdpssd_write
  // runs at most 5 passes (--forced-passes).
  forced_cap_ = cfg.gc.forced_passes != 0 ? cfg.gc.forced_passes : layout.forced_cap;
  page_order_ = cfg.gc.page_order;
  unit_prefetch_ = layout.units >= kUnitPrefetchUnits;
  spill_writes_ = layout.spill_writes;
  spill_gc_ = layout.spill_gc;
  spill_below_ = slots_per_unit_ / 10;  // ConfFDP do_gc: ipc < pgs_per_line / 10
  cfg_ = cfg;
  layout_ = layout;
  victims0_ = victims;
  l2p_.assign(cfg.geometry.logical_slots(), ~kUnmapped);  // complements (page_ftl.h): zero pages
  // p2l is read only for slots whose valid bit is set (GC's copies; the
  // invariant check tells a stale entry by l2p), so a slot never written
  // needs no value: zero pages, touched as the lines are first written.
  p2l_.assign(layout.physical_slots(), 0);
  valid_bits_.assign((layout.physical_slots() + 63) / 64, 0);
  table_.resize(layout.units, slots_per_unit_);
  owner_.assign(layout.units, 0);
  pools_.resize(layout.pools);
  pools_over_high_ = layout.pools;  // no free unit yet: every pool is at or below its high threshold
  for (uint32_t g = 0; g < layout.pools; ++g) {
    Pool& p = pools_[g];
    p.thres = cfg.gc.thres_units(per_pool);
    p.high = cfg.gc.thres_units_high(per_pool);
    p.victims = victims;
    p.victims.init(table_, cfg.gc.seed + g);
    p.free_ring.assign(per_pool, kNoUnit);
    for (uint32_t i = 0; i < per_pool; ++i) push_free(g, g * per_pool + i);
  }
  gc_dest_ = layout.gc_dest;
  stream_stats_.assign(layout.streams(), StreamStats{});
  streams_.resize(layout.streams());
  for (StreamId s = 0; s < layout.streams(); ++s) streams_[s].pool = layout.stream_pool[s];
  for (StreamId s : layout.open_at_start) open_unit(s);
}

template <VictimSelector Victims, class Sink>
uint32_t PageFtl<Victims, Sink>::free_units() const {
  uint32_t n = 0;
  for (const Pool& p : pools_) n += p.free_count;
  return n;
}

template <VictimSelector Victims, class Sink>
void PageFtl<Victims, Sink>::push_free(uint32_t pool, UnitId u) {
  Pool& p = pools_[pool];
  const auto n = static_cast<uint32_t>(p.free_ring.size());
  count_over_high(p, -1);
  p.free_ring[(p.free_head + p.free_count) % n] = u;
  ++p.free_count;
  count_over_high(p, +1);
}

template <VictimSelector Victims, class Sink>
UnitId PageFtl<Victims, Sink>::pop_free(uint32_t pool) {
  Pool& p = pools_[pool];
  if (p.free_count == 0) {
    // layout_problems() rules this out when data spreads evenly over the
    // pools; a trace that puts more than a pool holds into one can still
    // get here, and so can one request larger than the free units FEMU's
    // forced threshold keeps (FEMU then fails the write).
    throw InputError(
        say("reclaim group {} ran out of free units: the data written into it exceeds what it can hold "
            "after GC, or one request is larger than the free units `gc-thres-high` keeps; use fewer handles, "
            "larger reclaim groups, a larger device or `gc-check` page",
            pool) +
        (pools_.size() > 1 ? say(" (with several RGs, `rg-of` current, FEMU's rule, writes everything into "
                                 "RG 0; `rg-of` pid writes into the RG each placement ID names)")
                           : Message()));
  }
  count_over_high(p, -1);
  const UnitId u = p.free_ring[p.free_head];
  p.free_head = (p.free_head + 1) % static_cast<uint32_t>(p.free_ring.size());
  --p.free_count;
  count_over_high(p, +1);
  return u;
}

template <VictimSelector Victims, class Sink>
void PageFtl<Victims, Sink>::open_unit(StreamId stream) {
  Stream& writer = streams_[stream];
  writer.open = pop_free(writer.pool);
  table_.state[writer.open] = UnitState::kOpen;
  writer.first_host_ns = kNever;
  owner_[writer.open] = stream;
  writer.base = writer.open * slots_per_unit_;
  writer.off = 0;
}

template <VictimSelector Victims, class Sink>
void PageFtl<Victims, Sink>::close_unit(Stream& writer) {
  table_.state[writer.open] = UnitState::kClosed;
  table_.close_stamp[writer.open] = stats_.host_slots;
  pools_[writer.pool].victims.on_close(table_, writer.open);
}

template <VictimSelector Victims, class Sink>
void PageFtl<Victims, Sink>::advance(StreamId stream) {
  close_unit(streams_[stream]);
  open_unit(stream);
}

template <VictimSelector Victims, class Sink>
void PageFtl<Victims, Sink>::close_early(StreamId stream) {
  Stream& writer = streams_[stream];
  if (writer.open == kNoUnit || writer.off == 0) return;
  ++stats_.units_not_fully_written;
  const uint32_t unwritten = slots_per_unit_ - writer.off;
  stats_.unwritten_slots += unwritten;
  table_.unwritten[writer.open] = unwritten;
  ++unwritten_units_;
  close_unit(writer);
  writer.open = kNoUnit;
  writer.off = 0;
  writer.first_host_ns = kNever;
}

template <VictimSelector Victims, class Sink>
void PageFtl<Victims, Sink>::expire_units(uint64_t now) {
  next_expiry_ = kNever;
  if (unit_time_limit_ == 0) return;
  for (StreamId s = 0; s < streams_.size(); ++s) {
    const Stream& writer = streams_[s];
    if (writer.open == kNoUnit || writer.first_host_ns == kNever) continue;
    const uint64_t due =
        writer.first_host_ns > kNever - unit_time_limit_ ? kNever : writer.first_host_ns + unit_time_limit_;
    if (due <= now) {
      ++stats_.unit_time_limit_exceeded;
      close_early(s);
    } else {
      next_expiry_ = std::min(next_expiry_, due);
    }
  }
}

template <VictimSelector Victims, class Sink>
void PageFtl<Victims, Sink>::erase_unit(UnitId u) {
  table_.valid[u] = 0;
  if (unwritten_units_ != 0 && table_.unwritten[u] != 0) --unwritten_units_;
  table_.unwritten[u] = 0;
  table_.state[u] = UnitState::kFree;
  ++table_.erase_count[u];
  ++stats_.unit_erases;
  ++stream_stats_[owner_[u]].erased_units;
  push_free(pool_div_.divide(u), u);
  sink_.on_unit_erase(u);
}

template <VictimSelector Victims, class Sink>
void PageFtl<Victims, Sink>::forced_gc(uint32_t pool) {
  const Pool& p = pools_[pool];
  for (uint32_t n = 0; n < forced_cap_; ++n) {
    const bool pressed = per_slot_check_ || every_pool_ ? p.free_count <= p.high : pools_over_high_ != 0;
    if (!pressed || !gc_pass(pool, true)) return;  // relieved, or nothing to collect here
  }
}

template <VictimSelector Victims, class Sink>
void PageFtl<Victims, Sink>::dest_filled(StreamId& stream, Stream*& writer, uint32_t count, GcSpill& spill,
                                         uint32_t copies) {
  table_.valid[writer->open] += count;
  writer->off = slots_per_unit_;
  advance(stream);
  if (!spill.on) return;
  const StreamId to = spill_stream(spill.home, spill.pool);
  if (to == stream) return;
  stream_stats_[stream].gc_in_slots += copies - spill.copies_before;
  spill.copies_before = copies;
  stream = to;
  writer = &streams_[to];
}

template <VictimSelector Victims, class Sink>
StreamId PageFtl<Victims, Sink>::spill_stream(StreamId home, uint32_t pool) {
  // Streams are numbered pool fastest (FtlLayout::problems checks it):
  // home's counterpart in pool q is home - pool + q.
  for (;;) {
    const StreamId s = home - pool + nearest_pool(pool);
    if (streams_[s].open != kNoUnit) return s;
    open_unit(s);  // taking a unit changes that pool's free count: look again
  }
}

template <VictimSelector Victims, class Sink>
void PageFtl<Victims, Sink>::clear_valid_bits(uint32_t begin, uint32_t end) {
  for (uint32_t s = begin; s < end;) {
    const uint32_t span = std::min<uint32_t>(64 - (s & 63), end - s);
    const uint64_t mask = span == 64 ? ~uint64_t{0} : ((uint64_t{1} << span) - 1) << (s & 63);
    valid_bits_[s >> 6] &= ~mask;
    s += span;
  }
}

// Always inlined: GCC otherwise calls it from gc_pass()'s copy loop.
template <VictimSelector Victims, class Sink>
[[gnu::always_inline]] inline void PageFtl<Victims, Sink>::settle_l2p(uint32_t begin, uint32_t end) {
  uint32_t* const l2p = l2p_.data();
  const uint32_t* const p2l = p2l_.data();
  // Unrolled: the loop's own count and branch were half its instructions.
#pragma GCC unroll 4
  for (uint32_t d = begin; d < end; ++d) l2p[p2l[d]] = ~d;
  if (gc_per_tag_ != nullptr) [[unlikely]] {
    for (uint32_t d = begin; d < end; ++d) ++gc_per_tag_[tag_of_[p2l[d]]];
  }
}

template <VictimSelector Victims, class Sink>
void PageFtl<Victims, Sink>::settle_copies(uint32_t first, uint32_t settled, uint32_t end) {
  settle_l2p(settled, end);
  set_valid_bits(first, end);
}

template <VictimSelector Victims, class Sink>
void PageFtl<Victims, Sink>::set_valid_bits(uint32_t begin, uint32_t end) {
  for (uint32_t s = begin; s < end;) {
    const uint32_t span = std::min<uint32_t>(64 - (s & 63), end - s);
    const uint64_t mask = span == 64 ? ~uint64_t{0} : ((uint64_t{1} << span) - 1) << (s & 63);
    valid_bits_[s >> 6] |= mask;
    s += span;
  }
}

namespace detail {
// Transposes a 64 x 64 bit matrix in place: afterwards bit j of word i is
// bit i of word j before (the recursive block swap of Hacker's Delight 7-3).
inline void transpose64(uint64_t* a) {
  uint64_t m = 0x00000000FFFFFFFFULL;
  for (uint32_t j = 32; j != 0; j >>= 1, m ^= m << j) {
    for (uint32_t k = 0; k < 64; k = (k + j + 1) & ~j) {
      const uint64_t t = ((a[k] >> j) ^ a[k + j]) & m;
      a[k] ^= t << j;
      a[k + j] ^= t;
    }
  }
}
}  // namespace detail

template <VictimSelector Victims, class Sink>
bool PageFtl<Victims, Sink>::gc_pass(uint32_t pool, bool force) {
  Pool& p = pools_[pool];
  const GcAsk ask{force, bg_min_invalid_, requeue_declined_, stats_.host_slots, unwritten_units_ != 0};
  const UnitId victim = p.victims.select(table_, ask);
  if (victim == kNoUnit) {
    // A failed select removes nothing: anything still queued was refused.
    if (!force && p.victims.queued(table_) != 0) ++stats_.gc_background_declined;
    return false;
  }
  __builtin_prefetch(&table_.erase_count[victim], 1, 3);  // erase_unit(), after the copies
  if (stats_.gc_passes == 0) stats_.gc_onset_host_slots = stats_.host_slots;
  ++stats_.gc_passes;
  ++(force ? stats_.gc_forced_passes : stats_.gc_background_passes);
  sink_.on_gc_begin(force);

  // Copy the live slots in FEMU's order (below) to the destination
  // stream's write pointer. A destination without a unit takes one first,
  // whether or not the victim has anything to copy (FEMU's GC frontier).
  // ConfFDP's do_gc sends each copy of a victim with fewer than U/10
  // invalid slots (forced or not: under FEMU's trigger a background victim
  // has at least U/8, under the watermark trigger it may have fewer) to the nearest pool not at its high threshold
  // (gc_write_page): that pool changes only when a pool's free count does,
  // which during a pass only a destination taking a unit does, so it is
  // looked up again then (spill_stream()).
  const StreamId owner = owner_[victim];
  const StreamId home = gc_dest_[owner];
  GcSpill spill{spill_gc_ && slots_per_unit_ - table_.valid[victim] - table_.unwritten[victim] < spill_below_, home,
                pool, 0};
  StreamId dest_stream = spill.on ? spill_stream(home, pool) : home;
  Stream* writer = &streams_[dest_stream];
  if (writer->open == kNoUnit) open_unit(dest_stream);
  uint32_t* const l2p = l2p_.data();
  uint32_t* const p2l = p2l_.data();
  uint64_t* const bits = valid_bits_.data();
  // A copy in two halves. In FEMU's order (copy(), from the walks below):
  // the slot's logical page goes to the destination's p2l entry (the sink
  // hears the copy) and its l2p entry is prefetched. Out of order and
  // kSettleLag copies behind (settle_l2p()): the l2p entries of the copies,
  // by then in cache; when a destination fills and at the end, also their
  // valid bits (settle_copies()). Nothing between the halves reads those
  // (GC copies invalidate nothing; a filled destination closes with its
  // valid count), so the result is that of copying slot by slot. The write
  // pointer lives in locals (stores into the maps cannot alias them).
  uint32_t dest = writer->base + writer->off;
  uint32_t dest_end = writer->base + slots_per_unit_;
  uint32_t dest_first = dest;  // the pass's first copy into this destination
  uint32_t settled = dest;     // the copies [settled, dest) have no l2p entry yet
  uint32_t settle_at = std::min(dest + 2 * kSettleLag, dest_end);
  uint32_t n = 0;  // copies into destinations already filled
  const uint32_t vend = victim * slots_per_unit_ + slots_per_unit_;
  // `ahead`: a slot the walk reaches soon, whose p2l entry is prefetched
  // when it is the victim's.
  const auto copy = [&](uint32_t src, uint32_t ahead) {
    if (ahead < vend) __builtin_prefetch(&p2l[ahead], 0, 3);
    if ((dest & 15) == 0) __builtin_prefetch(&p2l[dest + 64], 1, 3);
    const uint32_t lpn = p2l[src];
    __builtin_prefetch(&l2p[lpn], 1, 3);
    sink_.on_gc_copy(src, dest);
    p2l[dest] = lpn;
    if (++dest == settle_at) [[unlikely]] {
      if (dest != dest_end) {
        settle_l2p(settled, settled + kSettleLag);
        settled += kSettleLag;
        settle_at = std::min(dest + kSettleLag, dest_end);
        return;
      }
      settle_copies(dest_first, settled, dest);
      n += dest - dest_first;
      dest_filled(dest_stream, writer, dest - dest_first, spill, n);
      dest_first = settled = dest = writer->base + writer->off;
      dest_end = writer->base + slots_per_unit_;
      settle_at = std::min(dest + 2 * kSettleLag, dest_end);
    }
  };
  constexpr uint32_t kAheadPages = 16;  // the victim's p2l entries prefetched this many pages ahead in a column
  // The first kAheadPages pages of a column before its walk starts.
  const auto warm_column = [&](uint32_t first, uint32_t end, uint32_t stride) {
    const uint32_t stop = std::min(end, first + kAheadPages * stride);
    for (uint32_t s = first; s < stop; s += stride) __builtin_prefetch(&p2l[s], 0, 3);
  };
  // Live slots in FEMU's order: column by column in gc_columns_ order (a
  // column = one block: written slots page x S + c), pages ascending.
  const uint32_t vbase = victim * slots_per_unit_;
  const std::vector<uint32_t>& cols = gc_columns_[unit_order_.empty() ? 0 : unit_order_[victim]];
  const uint32_t pages = block_slots_;
  for (uint32_t row = vbase; row < vbase + slots_per_unit_; row += row_slots_) {
    const uint32_t row_end = row + row_slots_;
    if (page_order_) {
      // ConfFDP's do_gc: page by page, and in each page the dies in GC rank
      // (channel, then LUN): written slot page x S + c for c in cols.
      for (uint32_t page = row; page < row_end; page += columns_) {
        for (const uint32_t c : cols) {
          const uint32_t src = page + c;
          if ((bits[src >> 6] >> (src & 63)) & 1) {
            copy(src, src + kAheadPages * columns_);
          }
        }
      }
      continue;
    }
    if (columns_ == 64 && row % 64 == 0 && pages % 64 == 0) {
      // One word per page holds that page of all 64 columns: transpose 64
      // pages at a time so that each column's pages are one word.
      const uint32_t chunks = pages / 64;
      uint64_t* t = transposed_.data();  // t[c * chunks + k]: column c, pages 64k..64k+63
      uint64_t block[64];
      for (uint32_t k = 0; k < chunks; ++k) {
        std::copy_n(bits + row / 64 + k * 64, 64, block);
        detail::transpose64(block);
        for (uint32_t c = 0; c < 64; ++c) t[c * chunks + k] = block[c];
      }
      for (const uint32_t c : cols) {
        warm_column(row + c, row_end, 64);
        for (uint32_t k = 0; k < chunks; ++k) {
          for (uint64_t word = t[c * chunks + k]; word != 0; word &= word - 1) {
            const uint32_t src = row + (k * 64 + static_cast<uint32_t>(__builtin_ctzll(word))) * 64 + c;
            copy(src, src + kAheadPages * 64);
          }
        }
      }
      continue;
    }
    if (columns_ == 1) {
      // One column (a unit on one die and plane): the row's slots are
      // consecutive, so its live ones are the set bits of its valid words,
      // taken lowest first (the same order as testing slot by slot, with one
      // unpredictable branch per word instead of one per slot).
      // The p2l entries of a word's 64 slots (four lines) are prefetched
      // while the word before is copied.
      const auto warm_word = [&](uint32_t first) {
        for (uint32_t q = first; q < std::min(row_end, first + 64); q += 16) __builtin_prefetch(&p2l[q], 0, 3);
      };
      warm_word(row);
      for (uint32_t s = row; s < row_end;) {
        const uint32_t span = std::min<uint32_t>(64 - (s & 63), row_end - s);
        warm_word(s + span);
        uint64_t word = bits[s >> 6] >> (s & 63);
        if (span < 64) word &= (uint64_t{1} << span) - 1;
        for (; word != 0; word &= word - 1) copy(s + static_cast<uint32_t>(__builtin_ctzll(word)), kUnmapped);
        s += span;
      }
      continue;
    }
    for (const uint32_t c : cols) {
      warm_column(row + c, row_end, columns_);
      for (uint32_t src = row + c; src < row_end; src += columns_) {
        if ((bits[src >> 6] >> (src & 63)) & 1) {
          copy(src, src + kAheadPages * columns_);
        }
      }
    }
  }
  if (dest != dest_first) {
    table_.valid[writer->open] += dest - dest_first;
    settle_copies(dest_first, settled, dest);
    n += dest - dest_first;
  }
  writer->off = dest - writer->base;
  stats_.gc_slots += n;
  stats_.programmed_slots += n;
  stream_stats_[owner].gc_out_slots += n;
  stream_stats_[dest_stream].gc_in_slots += n - spill.copies_before;
  clear_valid_bits(vbase, vbase + slots_per_unit_);
  erase_unit(victim);
  prefetch_next_victim(p);
  maybe_check_invariants();
  return true;
}

template <VictimSelector Victims, class Sink>
uint32_t PageFtl<Victims, Sink>::exported_slot(uint32_t slot) const {
  const UnitId u = unit_div_.divide(slot);
  const uint32_t off = slot - u * slots_per_unit_;
  const uint32_t row = off / row_slots_ * row_slots_;
  return u * slots_per_unit_ + row + orders_[unit_order_.empty() ? 0 : unit_order_[u]][off - row];
}

template <VictimSelector Victims, class Sink>
void PageFtl<Victims, Sink>::maybe_check_invariants() const {
  if constexpr (kCheckInvariants) {
    // A full recount costs O(physical + logical slots) while a pass costs
    // O(slots per unit): recount after every pass on small devices (up to 64
    // units, where the hand-computed tests run) and every units/8-th pass
    // beyond, so checked runs stay within a small factor of unchecked ones.
    const uint64_t every = table_.size() <= 64 ? 1 : table_.size() / 8;
    if (stats_.gc_passes % every != 0) return;
    const auto problems = check_invariants();
    if (!problems.empty()) throw std::logic_error("FTL invariant violated: " + problems.front());
  }
}

template <VictimSelector Victims, class Sink>
std::vector<std::string> PageFtl<Victims, Sink>::check_invariants() const {
  std::vector<std::string> out;
  std::vector<uint32_t> live(table_.size(), 0);
  uint64_t mapped = 0;
  for (uint32_t lpn = 0; lpn < l2p_.size(); ++lpn) {
    const uint32_t s = ~l2p_[lpn];
    if (s == kUnmapped) continue;
    ++mapped;
    if (s >= p2l_.size()) {
      out.push_back(fmt::format("lpn {} maps to slot {} beyond the device", lpn, s));
      continue;
    }
    if (p2l_[s] != lpn) {
      out.push_back(
          fmt::format("lpn {} maps to slot {} whose reverse entry is {} (slot mapped twice?)", lpn, s, p2l_[s]));
    }
    const UnitId u = unit_div_.divide(s);
    if (table_.state[u] == UnitState::kFree) {
      out.push_back(fmt::format("lpn {} maps into free unit {}", lpn, u));
    }
    ++live[u];
  }
  for (uint64_t s = 0; s < p2l_.size(); ++s) {
    const bool bit = (valid_bits_[s >> 6] >> (s & 63)) & 1;
    const uint32_t lpn = p2l_[s];
    const bool holds = lpn < l2p_.size() && ~l2p_[lpn] == s;
    if (bit != holds) {
      out.push_back(fmt::format("slot {}: valid bit {} but the maps say {}", s, bit, holds ? "live" : "dead"));
      break;
    }
  }
  if (mapped != mapped_) out.push_back(fmt::format("mapped count {} != recount {}", mapped_, mapped));
  uint64_t valid_sum = 0;
  uint32_t free = 0, open = 0;
  for (UnitId u = 0; u < table_.size(); ++u) {
    valid_sum += table_.valid[u];
    if (table_.valid[u] != live[u]) {
      out.push_back(fmt::format("unit {} valid count {} != live slots {}", u, table_.valid[u], live[u]));
    }
    free += table_.state[u] == UnitState::kFree;
    open += table_.state[u] == UnitState::kOpen;
  }
  if (valid_sum != mapped) out.push_back(fmt::format("valid slots {} != mapped lpns {}", valid_sum, mapped));
  if (stats_.programmed_slots != stats_.host_slots + stats_.gc_slots) {
    out.push_back(
        fmt::format("programmed {} != host {} + gc {}", stats_.programmed_slots, stats_.host_slots, stats_.gc_slots));
  }
  uint32_t streams_open = 0;
  for (const Stream& writer : streams_) streams_open += writer.open != kNoUnit;
  if (free != free_units() || open != streams_open) {
    out.push_back(fmt::format("unit states: {} free (lists have {}), {} open for {} streams in use", free, free_units(),
                              open, streams_open));
  }
  uint32_t over = 0;
  for (const Pool& p : pools_) over += p.free_count <= p.high;
  if (over != pools_over_high_)
    out.push_back(fmt::format("{} pools over their high threshold, counted {}", over, pools_over_high_));
  // The greedy heap: parent keys never above their children's, positions
  // consistent, and exactly the closed units that are not full queued.
  for (const Pool& p : pools_) {
    if constexpr (requires { p.victims.order(); }) {
      const auto h = p.victims.order();
      for (uint32_t i = 1; i < h.size(); ++i) {
        if (p.victims.position(h[i]) != i)
          out.push_back(
              fmt::format("heap index {} holds unit {} whose position is {}", i, h[i], p.victims.position(h[i])));
        if (i > 1 && table_.valid[h[i / 2]] > table_.valid[h[i]]) {
          out.push_back(fmt::format("heap order broken at index {}", i));
        }
        if constexpr (requires { p.victims.key_at(i); }) {
          if (p.victims.key_at(i) != table_.valid[h[i]]) {
            out.push_back(fmt::format("heap index {} holds key {} but unit {} has {} valid", i, p.victims.key_at(i),
                                      h[i], table_.valid[h[i]]));
          }
        }
        if (table_.state[h[i]] != UnitState::kClosed || table_.full(h[i])) {
          out.push_back(fmt::format("unit {} queued but not a closed unit with room to gain", h[i]));
        }
      }
    }
  }
  return out;
}

}  // namespace ftlsim::ftl
