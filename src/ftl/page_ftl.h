#pragma once
// Page-mapped FTL with FEMU's GC (docs/model.md), fast mode: exact
// bookkeeping, no timing.
//
// The physical space is cut into erase units (FtlLayout): lines on FEMU's
// line path, reclaim units under FDP. Internally, physical slot s lives in
// unit s / slots_per_unit at the position its stream wrote it (FEMU's
// write-pointer order, channel fastest), so host writes and GC copies fill
// memory sequentially. GC takes a victim's live slots in FEMU's copy order
// instead, block by block with channel outermost (docs/model.md, "Where slots
// live"): gc_pass() walks them column by column (page by page across the
// columns with ConfFDP's --gc-order page), and exported slot numbers
// (exported_slot()) use that numbering. Units are grouped into pools
// (reclaim groups) with their own free list, victim policy and thresholds.
// GC moves the survivors of a unit to the stream layout.gc_dest names for the
// stream that filled it. ConfFDP's rules for several reclaim groups
// (layout.spill_writes, spill_gc) move a write request, or each GC copy of a
// nearly full forced victim, to the nearest pool not at its high threshold.
//
// A valid bit per physical slot lets GC find live slots from the bitmap
// instead of probing l2p for every slot of the victim; what a relocation then
// does to l2p is a store, which does not stall the loop. Memory: 8.125 bytes
// per physical slot plus 4 per logical slot.
//
// Thresholds (FEMU ftl.c), per pool in units: forced GC runs while
// free <= high, checked by before_write() once per write request (FEMU) or
// before every slot (--gc-check page); background GC runs one pass after a
// request (after_request()) in the first pool at or below its threshold.
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <string>
#include <vector>

#include "core/huge_array.h"
#include "core/invariants.h"
#include "ftl/fast_div.h"
#include "ftl/ftl_config.h"
#include "ftl/ftl_layout.h"
#include "ftl/ftl_stats.h"
#include "ftl/unit_table.h"
#include "ftl/victim_policy.h"

namespace ftlsim::ftl {

inline constexpr uint32_t kUnmapped = 0xFFFFFFFFu;

// check_invariants() runs after GC passes when core/invariants.h's
// kCheckInvariants is on (after every pass on devices of up to 64 units,
// every units/8-th pass on larger ones).

// What PageFtl tells its Sink, in the order the NAND operations happen: the
// timed mode (src/timing/) turns them into die and channel reservations.
// Fast mode uses NullSink, whose empty inline methods compile away, so the
// fast path is the same code as without hooks. Slots are physical slots.
struct NullSink {
  void on_host_read(uint32_t /*slot*/) {}                 // a host read of a mapped slot
  void on_host_program(uint32_t /*slot*/) {}              // a host write placed at slot
  void on_gc_begin(bool /*forced*/) {}                    // a GC pass took a victim
  void on_gc_copy(uint32_t /*src*/, uint32_t /*dst*/) {}  // GC moved a live slot
  void on_unit_erase(uint32_t /*unit*/) {}                // GC erased a unit (the pass ends)
};

// A write request of whole slots on the plain host path (PageFtl::
// write_plain()): logical slots [first, first + slots), at least one. `old`
// is the pipeline's scratch: write_plain() stores there, some requests ahead,
// the physical slot `first` was mapped to (prefetch_mapped()).
struct PlainRequest {
  uint32_t first = 0;
  uint32_t slots = 0;
  uint32_t old = kUnmapped;
};

// Where write_plain() stops early: after the request that brings the host
// slots written to `host_slots` or more, or, with `first_gc`, after the
// first request during which a GC pass ran (the caller's time series and GC
// onset are taken after such a request).
struct PlainStop {
  uint64_t host_slots = UINT64_MAX;
  bool first_gc = false;
};

// The host path's software pipeline, in both of the driver's loops
// (write_plain() and the step-by-step one): requests ahead of the one being
// written whose first slot's l2p entry (kPrefetchFar), then what
// invalidating its old slot reads (kPrefetchNear), then the victim policy's
// entries for that slot's unit (kPrefetchNearest) are prefetched
// (prefetch(), prefetch_mapped(), prefetch_queued()).
inline constexpr size_t kPrefetchFar = 64;
inline constexpr size_t kPrefetchNear = 16;
inline constexpr size_t kPrefetchNearest = 4;

// Per stream, for per-handle accounting (FEMU's per-RUH counters).
struct StreamStats {
  uint64_t host_slots = 0;    // host writes through this stream
  uint64_t gc_in_slots = 0;   // survivors GC wrote into this stream
  uint64_t gc_out_slots = 0;  // survivors GC copied out of units this stream filled
  uint64_t erased_units = 0;  // units this stream filled that GC erased
};

template <VictimSelector Victims, class Sink = NullSink>
class PageFtl {
 public:
  // The line path: lines, one pool, one shared stream.
  explicit PageFtl(const FtlConfig& cfg, Victims victims = Victims{})
      : PageFtl(cfg, line_layout(cfg.geometry), std::move(victims)) {}
  // REQUIRES: cfg.validate() and layout_problems(cfg, layout) pass (throws
  // InputError otherwise). `victims` is copied per pool; `sink` hears about
  // every NAND operation (see NullSink).
  PageFtl(const FtlConfig& cfg, const FtlLayout& layout, Victims victims, Sink sink = Sink{});

  // Forced GC at the start of a write request into `pool` (FEMU ssd_write /
  // ssd_stream_write): while the pool, or with FEMU's RG rule any pool, has
  // free <= high units, forced passes in `pool`. Nothing with --gc-check page.
  // Returns the pool the request is to be written into: `pool`, or with
  // layout.spill_writes (ConfFDP fdpssd_write) the nearest pool not at its
  // high threshold when the passes left `pool` at it (nearest_pool()).
  // Always inlined, as write(): the driver's loop calls it per request.
  [[gnu::always_inline]] uint32_t before_write(uint32_t pool) {
    if (per_slot_check_) return pool;
    if (every_pool_ ? pools_[pool].free_count <= pools_[pool].high : pools_over_high_ != 0) [[unlikely]] {
      forced_gc(pool);
      if (spill_writes_ && pools_[pool].free_count <= pools_[pool].high) return nearest_pool(pool);
    }
    return pool;
  }

  // ConfFDP's find_near_rg_id: the nearer of the first pool above `pool` and
  // the first below it whose free units are above its high threshold, the
  // lower on a tie; `pool` itself when no other pool is.
  [[nodiscard]] uint32_t nearest_pool(uint32_t pool) const {
    const auto open = [&](uint32_t q) { return pools_[q].free_count > pools_[q].high; };
    const auto n = static_cast<uint32_t>(pools_.size());
    uint32_t up = pool + 1;
    while (up < n && !open(up)) ++up;
    uint32_t down = pool;  // one above the candidate below
    while (down > 0 && !open(down - 1)) --down;
    const bool has_up = up<n, has_down = down> 0;
    if (has_up && has_down) return pool - (down - 1) > up - pool ? up : down - 1;
    if (has_up) return up;
    return has_down ? down - 1 : pool;
  }

  // Host writes one 4 KiB logical slot through `stream`.
  // REQUIRES lpn < logical_slots(), stream < layout.streams().
  // Always inlined: it is the per-slot body of the driver's loop, which GCC
  // otherwise calls once the loop's prefetching makes it large.
  [[gnu::always_inline]] void write(uint32_t lpn, StreamId stream = 0) {
    if (per_slot_check_) [[unlikely]] {
      const uint32_t pool = streams_[stream].pool;
      if (pools_[pool].free_count <= pools_[pool].high) forced_gc(pool);
    }
    const uint32_t old = ~l2p_[lpn];
    if (old != kUnmapped) {
      invalidate(old);
    } else {
      ++mapped_;
    }
    ++stats_.host_slots;
    ++stream_stats_[stream].host_slots;
    if (streams_[stream].open == kNoUnit) [[unlikely]] {
      open_unit(stream);
    }
    program(lpn, stream);
  }

  // Unmaps a logical slot (trim / discard). REQUIRES lpn < logical_slots().
  void trim(uint32_t lpn) {
    const uint32_t old = ~l2p_[lpn];
    if (old == kUnmapped) return;
    l2p_[lpn] = ~kUnmapped;
    --mapped_;
    ++stats_.trimmed_slots;
    invalidate(old);
  }

  // The FDP reclaim unit time limit (`--ru-time-limit`): a unit that host
  // writes reach is closed by expire_units() once `limit_ns` have passed
  // since the first host write into it, full or not (0: no limit). Times are
  // the caller's (the trace's), given by set_now() before each request.
  void set_unit_time_limit(uint64_t limit_ns) { unit_time_limit_ = limit_ns; }
  void set_now(uint64_t now_ns) { now_ = now_ns; }
  // The earliest time at which an open unit exceeds the limit (kNever: none).
  [[nodiscard]] uint64_t next_expiry() const { return next_expiry_; }
  // Closes every open unit whose limit has passed at `now` (close_early).
  void expire_units(uint64_t now);
  // Closes the stream's open unit before it is full: its unwritten slots stay
  // unwritten until GC erases the unit, and the stream's next write opens a
  // new one. Nothing happens when the stream has no unit or it is empty.
  void close_early(StreamId stream);

  // The plain host path's loop (REQUIRES plain_host_path()): applies
  // requests req[0, count) in order, each as before_write(0), write(l, 0)
  // for each of its slots l and after_request() would (the same state and
  // counters after each request), and returns how many it applied: `count`,
  // or fewer when `stop` ends it early. req[count, avail) are the requests
  // that follow, which it prefetches for (and whose `old` it sets). The
  // stream's write pointer and the host counters live in locals between GC
  // passes (page_ftl_plain.h).
  size_t write_plain(PlainRequest* req, size_t count, size_t avail, PlainStop stop) {
    if (unit_div_.pow2()) return write_plain_by(req, count, avail, stop, ShiftDiv(unit_div_.shift()));
    return write_plain_by(req, count, avail, stop, unit_div_);
  }

  // True when host writes go through one stream into one pool, the forced
  // threshold is checked once per request (before_write()) and no RU time
  // limit is set: write(lpn, 0) is then all a request's slots need.
  [[nodiscard]] bool plain_host_path() const {
    return streams_.size() == 1 && pools_.size() == 1 && !per_slot_check_ && unit_time_limit_ == 0;
  }

  [[nodiscard]] bool is_mapped(uint32_t lpn) const { return ~l2p_[lpn] != kUnmapped; }
  // Host read of a logical slot: true when mapped (the sink then hears of the
  // physical slot read). Changes no state. REQUIRES lpn < logical_slots().
  bool read(uint32_t lpn) {
    const uint32_t s = ~l2p_[lpn];
    if (s == kUnmapped) return false;
    sink_.on_host_read(s);
    return true;
  }
  // Physical slot holding lpn, or kUnmapped, in the engine's internal
  // (write-order) numbering, which the Sink also hears. REQUIRES lpn < logical_slots().
  [[nodiscard]] uint32_t physical_of(uint32_t lpn) const { return ~l2p_[lpn]; }
  // An internal slot number in docs/model.md's numbering (block order).
  [[nodiscard]] uint32_t exported_slot(uint32_t slot) const;
  // Software pipelining for the host path, in three steps before the write
  // of lpn (the driver calls them records ahead, nearer and nearer):
  // prefetch(lpn) brings the l2p entry in; prefetch_mapped(lpn), once that
  // entry is cached, what invalidate() reads of the old slot: its valid-bit
  // word, its unit's valid count and state, and, for a policy that keeps
  // per-unit positions (the greedy heap), the unit's position; it returns
  // the old slot (kUnmapped: none) for prefetch_queued(old), the policy's
  // entries for that unit and, when the invalidation will likely make that
  // unit the next victim (the heap's top with at most its valid count: a
  // background pass waiting for a unit to reach 1/8 invalid takes the first
  // one invalidated to below the top), what the pass reads of it first
  // (prefetch_victim). The per-unit steps run only on devices with many
  // units (unit_prefetch_); with few, those arrays stay cached and the steps
  // would only cost instructions.
  // Always inlined: GCC deletes calls to a function that only prefetches.
  [[gnu::always_inline]] void prefetch(uint32_t lpn) const { __builtin_prefetch(&l2p_[lpn], 1, 3); }
  [[gnu::always_inline]] uint32_t prefetch_mapped(uint32_t lpn) const {
    return prefetch_mapped_with(lpn, unit_div_, [this](UnitId u) -> const Victims& { return victims_of(u); });
  }
  [[gnu::always_inline]] void prefetch_queued(uint32_t old) const {
    prefetch_queued_with(old, unit_div_, [this](UnitId u) -> const Victims& { return victims_of(u); });
  }

  // FEMU's background GC after a request: one non-forced pass in the first
  // pool whose free units are at or below its threshold (--rg-gc every: in
  // every such pool). --gc-trigger watermark: passes in that pool until its
  // free units are above the threshold (or a pass finds no victim).
  // Always inlined: the driver's loop calls it per request.
  [[gnu::always_inline]] void after_request() {
    for (uint32_t p = 0; p < pools_.size(); ++p) {
      if (pools_[p].free_count <= pools_[p].thres) {
        if (background_due(pools_[p])) background_passes(p);
        if (!every_pool_) return;
      }
    }
  }

  // Counting from a reset (--reset-at): reset() re-initialises the whole
  // device as when it was built (mapping, units, erase counts, write
  // pointers, counters; ConfFDP's management reset); reset_counters() zeroes
  // the counters only (FtlStats and per-stream counts; erase counts, which
  // are wear, stay).
  void reset() {
    Sink sink = std::move(sink_);
    const uint32_t* tags = tag_of_;
    uint64_t* gc_per_tag = gc_per_tag_;
    *this = PageFtl(cfg_, layout_, victims0_, std::move(sink));
    count_gc_by_tag(tags, gc_per_tag);
  }

  // GC copies per tag (the driver's per-ID time series): each GC copy of
  // logical slot l adds one to gc_per_tag[tag_of[l]]. The caller owns both
  // flat arrays and keeps tag_of[l] current for every mapped l (nullptr: off).
  void count_gc_by_tag(const uint32_t* tag_of, uint64_t* gc_per_tag) {
    tag_of_ = tag_of;
    gc_per_tag_ = gc_per_tag;
  }
  void reset_counters() {
    stats_ = FtlStats{};
    std::fill(stream_stats_.begin(), stream_stats_.end(), StreamStats{});
  }

  [[nodiscard]] const FtlStats& stats() const { return stats_; }
  [[nodiscard]] const std::vector<StreamStats>& stream_stats() const { return stream_stats_; }
  [[nodiscard]] const UnitTable& unit_table() const { return table_; }
  // The stream that filled each unit (meaningful for units not free).
  [[nodiscard]] const std::vector<StreamId>& unit_owner() const { return owner_; }
  // Slots still unwritten in the stream's open unit (0 when it has none).
  [[nodiscard]] uint32_t open_room(StreamId s) const {
    return streams_[s].open == kNoUnit ? 0 : slots_per_unit_ - streams_[s].off;
  }
  [[nodiscard]] uint32_t free_units() const;  // free units over all pools
  [[nodiscard]] uint64_t mapped_slots() const { return mapped_; }
  [[nodiscard]] uint32_t logical_slots() const { return static_cast<uint32_t>(l2p_.size()); }
  [[nodiscard]] uint64_t physical_slots() const { return p2l_.size(); }
  [[nodiscard]] uint32_t thres_units(uint32_t pool = 0) const { return pools_[pool].thres; }
  [[nodiscard]] uint32_t thres_units_high(uint32_t pool = 0) const { return pools_[pool].high; }
  [[nodiscard]] Sink& sink() { return sink_; }

  // Recounts everything from the maps; returns one message per violation
  // (empty when consistent): valid counts equal live slots per unit, their
  // sum equals mapped logical slots, valid bits agree with the maps,
  // programmed = host + GC, no physical slot mapped twice, no mapping into a
  // free unit, unit states add up (one open unit per stream in use).
  [[nodiscard]] std::vector<std::string> check_invariants() const;

 private:
  struct Stream {
    UnitId open = kNoUnit;
    uint32_t base = 0;  // first slot of the open unit
    uint32_t off = 0;   // slots written into it
    uint32_t pool = 0;
    uint64_t first_host_ns = kNever;  // time of the first host write into the open unit
  };
  struct Pool {
    std::vector<UnitId> free_ring;  // FIFO of free units (FEMU's free lists)
    uint32_t free_head = 0;
    uint32_t free_count = 0;
    uint32_t thres = 0;  // background threshold, units
    uint32_t high = 0;   // forced threshold, units
    Victims victims;
  };

  // prefetch_mapped() and prefetch_queued() given the slot -> unit division
  // (FastDiv or ShiftDiv) and the victim policy of a unit (write_plain()
  // passes local copies).
  template <class Div, class VictimsOf>
  [[gnu::always_inline]] uint32_t prefetch_mapped_with(uint32_t lpn, const Div& div,
                                                       const VictimsOf& victims_for) const {
    const uint32_t old = ~l2p_[lpn];
    if (old == kUnmapped) return old;
    __builtin_prefetch(&valid_bits_[old >> 6], 1, 3);
    if (!unit_prefetch_) return kUnmapped;  // nothing for prefetch_queued()
    const UnitId u = div.divide(old);
    __builtin_prefetch(&table_.valid[u], 1, 3);
    __builtin_prefetch(&table_.state[u], 0, 3);
    if constexpr (requires(const Victims& v) { v.prefetch_unit(u); }) victims_for(u).prefetch_unit(u);
    return old;
  }
  template <class Div, class VictimsOf>
  [[gnu::always_inline]] void prefetch_queued_with(uint32_t old, const Div& div, const VictimsOf& victims_for) const {
    if constexpr (requires(const Victims& v) { v.prefetch_entry(UnitId{}); }) {
      if (old == kUnmapped) return;
      const UnitId u = div.divide(old);
      const Victims& v = victims_for(u);
      v.prefetch_entry(u);
      if (v.may_become_top(table_, u)) prefetch_victim(u);
    }
  }
  // write_plain() with the slot -> unit division `div`.
  template <class Div>
  size_t write_plain_by(PlainRequest* req, size_t count, size_t avail, PlainStop stop, Div div);
  // The victim policy of unit u's pool (no division with one pool).
  [[gnu::always_inline]] Victims& victims_of(UnitId u) { return pools_[one_pool_ ? 0 : pool_div_.divide(u)].victims; }
  [[gnu::always_inline]] const Victims& victims_of(UnitId u) const {
    return pools_[one_pool_ ? 0 : pool_div_.divide(u)].victims;
  }
  // Always inlined, as write(), its caller on the host path.
  [[gnu::always_inline]] void invalidate(uint32_t slot) {
    valid_bits_[slot >> 6] &= ~(uint64_t{1} << (slot & 63));
    const UnitId u = unit_div_.divide(slot);
    --table_.valid[u];
    if (table_.state[u] == UnitState::kClosed) victims_of(u).on_invalidate(table_, u);
  }
  // Places lpn at the stream's write pointer. Always inlined, as write().
  [[gnu::always_inline]] void program(uint32_t lpn, StreamId stream) {
    Stream& writer = streams_[stream];
    const uint32_t s = writer.base + writer.off;
    sink_.on_host_program(s);
    l2p_[lpn] = ~s;
    p2l_[s] = lpn;
    valid_bits_[s >> 6] |= uint64_t{1} << (s & 63);
    ++table_.valid[writer.open];
    ++stats_.programmed_slots;
    if (writer.first_host_ns == kNever) [[unlikely]]
      first_host_write(writer);
    if (++writer.off == slots_per_unit_) [[unlikely]] {
      advance(stream);
    }
  }
  void first_host_write(Stream& writer) {
    writer.first_host_ns = now_;
    if (unit_time_limit_ != 0) {
      const uint64_t due = now_ > kNever - unit_time_limit_ ? kNever : now_ + unit_time_limit_;
      next_expiry_ = std::min(next_expiry_, due);
    }
  }
  // What a pass reads first of unit u, the likely next victim: its valid
  // bits, the p2l entries its walk reads first (so that the pass's first l2p
  // prefetches do not wait for them), its owner and its erase count.
  // Called rarely (about once a pass), so kept out of the driver's loop,
  // which GCC otherwise stops inlining into; noipa: GCC may not look inside
  // and find it free of side effects (it would delete the calls).
  [[gnu::noipa]] void prefetch_victim(UnitId u) const {
    __builtin_prefetch(&owner_[u], 0, 3);
    __builtin_prefetch(&table_.erase_count[u], 1, 3);
    const uint32_t base = u * slots_per_unit_;
    const uint32_t words = std::min<uint32_t>(slots_per_unit_ / 64, 64);
    for (uint32_t w = 0; w < words; w += 8) __builtin_prefetch(&valid_bits_[base / 64 + w], 0, 3);
    if (columns_ == 1 || slots_per_unit_ <= 1024) {
      // One column, or small: the walk reads p2l nearly in order.
      for (uint32_t s = 0; s < std::min<uint32_t>(slots_per_unit_, 1024); s += 16)
        __builtin_prefetch(&p2l_[base + s], 0, 3);
    }
  }
  // After a pass: the unit the policy would pick next (when it can tell)
  // will be walked soon, often by the next request's pass.
  [[gnu::always_inline]] void prefetch_next_victim(const Pool& p) const {
    if constexpr (requires { p.victims.peek(); }) {
      const UnitId next = p.victims.peek();
      if (next != kNoUnit) prefetch_victim(next);
    }
  }
  // A background pass that the policy will decline for sure only counts the
  // decline (what gc_pass() does then): answered here, without setting a
  // pass up, for a policy that can tell (the greedy heap, rule 12).
  bool sure_to_decline(const Pool& p) {
    if constexpr (requires { p.victims.declines_background(table_, uint32_t{}); }) {
      if (!requeue_declined_ && p.victims.declines_background(table_, bg_min_invalid_)) {
        ++stats_.gc_background_declined;
        return true;
      }
    }
    return false;
  }
  // after_request() for a pool at or below its threshold, in two parts: the
  // decision, which counts a decline that is sure (then no pass is set up),
  // and the passes. write_plain() stores its locals back between the two,
  // only when a pass will be tried.
  bool background_due(const Pool& p) { return watermark_ || !sure_to_decline(p); }
  void background_passes(uint32_t p) {
    if (watermark_) [[unlikely]] {
      while (pools_[p].free_count <= pools_[p].thres && gc_pass(p, false)) {
      }
    } else {
      gc_pass(p, false);
    }
  }
  void forced_gc(uint32_t pool);
  bool gc_pass(uint32_t pool, bool force);
  // A GC pass's copies of a nearly full forced victim that go to the nearest
  // pool (ConfFDP's --gc-spill nearest): whether they do, from where, and
  // the copies made into destinations the pass has left.
  struct GcSpill {
    bool on = false;
    StreamId home = 0;  // the victim's GC destination
    uint32_t pool = 0;  // the victim's pool
    uint32_t copies_before = 0;
  };
  // The GC destination `stream` (write pointer `writer`) filled its unit with
  // `count` copies not yet counted in it: the unit closes, the stream takes
  // the next, and a spilling pass moves to the nearest pool's stream again.
  // `copies`: the pass's copies so far. Out of line: the copy loop stays small.
  [[gnu::noinline]] void dest_filled(StreamId& stream, Stream*& writer, uint32_t count, GcSpill& spill,
                                     uint32_t copies);
  // The stream a spilled GC copy from a victim of `pool` goes to: the
  // counterpart of `home` (the victim's GC destination) in nearest_pool(),
  // which takes a unit first if it has none.
  StreamId spill_stream(StreamId home, uint32_t pool);
  void advance(StreamId stream);
  void close_unit(Stream& writer);
  void open_unit(StreamId stream);
  void erase_unit(UnitId u);
  void clear_valid_bits(uint32_t begin, uint32_t end);
  void set_valid_bits(uint32_t begin, uint32_t end);
  // The out-of-order half of GC copies (gc_pass()) whose p2l entries are
  // written: settle_l2p() the l2p entries and per-tag counts of the copies
  // into slots [begin, end); settle_copies() those of [settled, end) and
  // the valid bits of [first, end), a destination's copies of a pass.
  void settle_l2p(uint32_t begin, uint32_t end);
  void settle_copies(uint32_t first, uint32_t settled, uint32_t end);
  // Copies a pass makes before it stores their l2p entries, whose lines it
  // prefetched as it copied: 16 left the stores waiting on their lines (32
  // against 16: CPU 0.974 on a 1x1 device with 64-page units, 0.960 on
  // femu-default; 64 was no better than 32; bench/README.md, seventh round).
  static constexpr uint32_t kSettleLag = 32;
  void push_free(uint32_t pool, UnitId u);
  UnitId pop_free(uint32_t pool);
  void count_over_high(const Pool& p, int sign) {
    if (p.free_count <= p.high) pools_over_high_ += sign;
  }
  void maybe_check_invariants() const;

  FastDiv unit_div_;             // slot -> unit
  FastDiv pool_div_;             // unit -> pool
  bool one_pool_ = true;         // pool_div_ always answers 0
  uint32_t slots_per_unit_ = 0;  // slots per unit
  uint32_t row_slots_ = 0;
  uint32_t bg_min_invalid_ = 0;
  bool watermark_ = false;  // --gc-trigger watermark
  bool requeue_declined_ = false;
  bool per_slot_check_ = false;
  bool every_pool_ = false;
  uint32_t pools_over_high_ = 0;  // pools with free_count <= high
  uint32_t unwritten_units_ = 0;  // units holding unwritten slots (closed early, not yet erased)
  // Per-unit arrays of 4 bytes a unit outgrow L1 (beside the maps' lines the
  // host path brings in) from this many units on: prefetch_mapped() and
  // prefetch_queued() then bring in a unit's entries ahead of the write.
  static constexpr uint32_t kUnitPrefetchUnits = 4096;
  bool unit_prefetch_ = false;
  uint32_t forced_cap_ = 0;           // passes one forced_gc() may run (layout.forced_cap or --forced-passes)
  bool page_order_ = false;           // --gc-order page (ConfFDP)
  bool spill_writes_ = false;         // layout.spill_writes (ConfFDP --write-spill nearest)
  bool spill_gc_ = false;             // layout.spill_gc (ConfFDP --gc-spill nearest)
  uint32_t spill_below_ = 0;          // a forced victim with fewer invalid slots spills its copies: U / 10
  const uint32_t* tag_of_ = nullptr;  // count_gc_by_tag()
  uint64_t* gc_per_tag_ = nullptr;
  // What the engine was built from, for reset().
  FtlConfig cfg_;
  FtlLayout layout_;
  Victims victims0_;
  // GC order: per die set, the write-order columns of a row (a column = one
  // block per plane of one die: written slots n with n mod S equal) ranked as
  // FEMU collects them; and each unit's die set (layout.unit_order).
  std::vector<std::vector<uint32_t>> gc_columns_;
  std::vector<std::vector<uint32_t>> orders_;  // layout.write_orders, for exported_slot()
  std::vector<uint16_t> unit_order_;
  uint32_t columns_ = 0;              // S: dies x planes of a unit
  uint32_t block_slots_ = 0;          // G: slots in one block
  std::vector<uint64_t> transposed_;  // gc_pass() scratch: a row's columns as words (64 columns)
  // logical slot -> the complement (~) of its physical slot, or of kUnmapped:
  // 0, so that the zero pages of a map never written read as unmapped (a
  // 2 TiB device's 2 GiB l2p costs memory only where a trace writes).
  HugeArray<uint32_t> l2p_;
  HugeArray<uint32_t> p2l_;         // physical slot -> logical slot last written there
  HugeArray<uint64_t> valid_bits_;  // physical slot holds live data
  UnitTable table_;
  std::vector<StreamId> owner_;  // per unit: the stream that filled it
  std::vector<Pool> pools_;
  std::vector<Stream> streams_;
  std::vector<StreamId> gc_dest_;
  std::vector<StreamStats> stream_stats_;
  uint64_t mapped_ = 0;
  FtlStats stats_;
  uint64_t now_ = 0;              // set_now()
  uint64_t unit_time_limit_ = 0;  // ns; 0 = none
  uint64_t next_expiry_ = kNever;
  [[no_unique_address]] Sink sink_;
};

}  // namespace ftlsim::ftl

#include "ftl/page_ftl_impl.h"
#include "ftl/page_ftl_plain.h"
