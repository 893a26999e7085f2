// The naive reference FTL (see reference_ftl.h). Every block below names the
// docs/model.md rule it implements. Where docs/model.md leaves a choice open
// the comment says "READING:" and which reading was taken (the most
// FEMU-like one); the differential test's failures may come from those.
#include "reference_ftl.h"

#include <algorithm>
#include <deque>
#include <sstream>
#include <stdexcept>

#include "pqueue_model.h"

namespace ftlsim::reftest {
namespace {

enum class State : uint8_t {
  kFree,
  kOpen,
  kFull,    // closed with every slot valid: not queued (Victim queue section)
  kQueued,  // closed with an invalid slot: in its pool's victim heap
  kUnused,  // lines left over when units do not split evenly over RGs (rule 3)
};

struct Unit {
  State state = State::kFree;
  uint32_t pool = 0;
  uint32_t valid = 0;
  uint32_t written = 0;    // slots programmed since it was opened
  uint32_t owner = kNone;  // handle that took it from the free list
  uint32_t pos = 0;        // index in the heap, 0 = not in it
  uint32_t erases = 0;
  std::vector<uint32_t> lpn_at;      // per offset: the logical slot living there, kNone if none
  std::vector<uint32_t> lines;       // block index (line) of each line of the unit, in order
  std::vector<uint32_t> dies_write;  // its dies in write-pointer order (channel fastest)
  std::vector<uint32_t> dies_block;  // its dies in GC (block) order: channel outermost, then LUN
};

struct Pool {
  std::deque<uint32_t> free;          // FIFO: take from the front, append freed units at the back
  std::vector<uint32_t> heap{kNone};  // d[1..n]; d[0] unused
  uint32_t thres = 0, high = 0;
};

enum class Kind : uint8_t { kLine, kHost, kPiGc, kSharedGc };

struct Stream {
  Kind kind = Kind::kHost;
  uint32_t handle = 0;  // owner of the units it takes (handles = the shared "gc" entry)
  uint32_t rg = 0;
  uint32_t unit = kNone;
};

class Reference {
 public:
  explicit Reference(const RefConfig& c) : c_(c) { build(); }

  RefResult run(const std::vector<RefRequest>& reqs) {
    for (const RefRequest& q : reqs) {
      switch (q.op) {
        case 0: write(q); break;
        case 1: read(q); break;
        case 2: trim(q); break;
        case 3: break;  // flush: no mapping change (rule 17)
        case 4:         // marker: not a request, no background pass (rule 10)
          if (c_.reset_kind != 0 && !reset_done_ && q.lba == c_.reset_marker) reset();
          continue;
        default: throw std::invalid_argument("reference: unknown op");
      }
      background();
    }
    return result();
  }

 private:
  // --reset-at: the whole device as built (1), or only the counters (2; the
  // erase counts, which are wear, stay).
  void reset() {
    reset_done_ = true;
    if (c_.reset_kind == 1) {
      units_.clear();
      pools_.clear();
      streams_.clear();
      l2p_.clear();
      handles_.clear();
      r_ = RefResult{};
      build();
      return;
    }
    r_ = RefResult{};
    for (RefHandle& h : handles_) h = RefHandle{};
  }

  // The device has FDP's layout: placement fdp, or placement single with
  // --single handle0 (every write through handle 0; rule 1's ConfFDP column).
  bool fdp_device() const { return c_.fdp || c_.single_handle0; }

  // ---- geometry and units (Terms, "Where slots live", rule 3) ----
  uint32_t dies() const { return c_.channels * c_.luns; }
  uint32_t die_channel(uint32_t d) const { return d % c_.channels; }
  uint32_t die_lun(uint32_t d) const { return d / c_.channels; }

  void build() {
    if (c_.channels == 0 || c_.luns == 0 || c_.planes == 0 || c_.blocks == 0 || c_.pages == 0) {
      throw std::invalid_argument("reference: empty geometry");
    }
    const uint32_t rgs = fdp_device() ? c_.rgs : 1;
    if (rgs == 0 || (fdp_device() && c_.handles == 0)) throw std::invalid_argument("reference: no RG or no handle");
    const uint32_t k = fdp_device() && c_.rg_split_lines ? c_.lines_per_ru : 1;
    if (k == 0 || c_.blocks % k != 0) throw std::invalid_argument("reference: lines_per_ru must divide blocks");
    if (fdp_device() && !c_.rg_split_lines && (c_.lines_per_ru != 1 || dies() % rgs != 0)) {
      throw std::invalid_argument("reference: --rg-split dies needs lines_per_ru 1 and RGs dividing the dies");
    }
    if (fdp_device() && !c_.rg_split_lines && c_.rg_split_channels &&
        (rgs <= c_.channels ? c_.channels % rgs != 0 : rgs % c_.channels != 0 || c_.luns % (rgs / c_.channels) != 0)) {
      throw std::invalid_argument("reference: --rg-split channels needs RGs of whole channels or LUN shares");
    }
    std::vector<uint32_t> all(dies());
    for (uint32_t d = 0; d < dies(); ++d) all[d] = d;
    const auto block_order = [&](std::vector<uint32_t> ds) {
      std::sort(ds.begin(), ds.end(), [&](uint32_t a, uint32_t b) {
        if (die_channel(a) != die_channel(b)) return die_channel(a) < die_channel(b);
        return die_lun(a) < die_lun(b);
      });
      return ds;
    };
    if (!fdp_device() || c_.rg_split_lines) {
      // Rule 3: RG g owns units [g N, (g+1) N), N = units / RGs rounded down.
      const uint32_t n_units = c_.blocks / k;
      per_pool_ = n_units / rgs;
      units_.resize(n_units);
      for (uint32_t u = 0; u < n_units; ++u) {
        Unit& x = units_[u];
        for (uint32_t i = 0; i < k; ++i) x.lines.push_back(u * k + i);
        x.dies_write = all;
        x.dies_block = block_order(all);
        if (u < per_pool_ * rgs) {
          x.pool = u / per_pool_;
        } else {
          x.state = State::kUnused;
        }
      }
    } else {
      // --rg-split dies. READING: RG g has the dies g*D/R .. (g+1)*D/R - 1 in
      // die order (die = lun x channels + channel); its unit for line b is
      // unit g x blocks + b; block order sorts those dies by (channel, LUN).
      const uint32_t gd = dies() / rgs;
      per_pool_ = c_.blocks;
      units_.resize(uint64_t{rgs} * c_.blocks);
      for (uint32_t u = 0; u < units_.size(); ++u) {
        Unit& x = units_[u];
        const uint32_t g = u / c_.blocks;
        x.lines.push_back(u % c_.blocks);
        if (c_.rg_split_channels) {
          // Rule 3's ConfFDP column (rg2physical): with RGs <= channels, RG g
          // is channels g*C/R .. (g+1)*C/R - 1 with every LUN; with more, k =
          // R/C RGs per channel, RG g is LUNs (g%k)*L/k .. of channel g/k.
          // Its write pointer moves channel fastest, then LUN.
          uint32_t ch0 = 0, nch = 0, lun0 = 0, nlun = 0;
          if (rgs <= c_.channels) {
            nch = c_.channels / rgs;
            ch0 = g * nch;
            nlun = c_.luns;
          } else {
            const uint32_t per_channel = rgs / c_.channels;
            nch = 1;
            ch0 = g / per_channel;
            nlun = c_.luns / per_channel;
            lun0 = g % per_channel * nlun;
          }
          for (uint32_t l = lun0; l < lun0 + nlun; ++l) {
            for (uint32_t ch = ch0; ch < ch0 + nch; ++ch) x.dies_write.push_back(l * c_.channels + ch);
          }
        } else {
          for (uint32_t d = g * gd; d < (g + 1) * gd; ++d) x.dies_write.push_back(d);
        }
        x.dies_block = block_order(x.dies_write);
        x.pool = g;
      }
    }
    if (per_pool_ == 0) throw std::invalid_argument("reference: fewer units than reclaim groups");
    slots_per_unit_ =
        static_cast<uint32_t>(units_[0].lines.size() * units_[0].dies_write.size() * c_.planes * c_.pages);
    for (Unit& x : units_) x.lpn_at.assign(slots_per_unit_, kNone);
    if (c_.logical_slots == 0 || c_.logical_slots > UINT32_MAX) {
      throw std::invalid_argument("reference: logical capacity out of range");
    }
    l2p_.assign(c_.logical_slots, kNone);

    // Rule 11: thresholds per pool in units, truncated.
    pools_.resize(rgs);
    for (uint32_t g = 0; g < rgs; ++g) {
      Pool& p = pools_[g];
      p.thres = static_cast<uint32_t>((1.0 - c_.gc_thres / 100.0) * static_cast<double>(per_pool_));
      p.high = static_cast<uint32_t>((1.0 - c_.gc_thres_high / 100.0) * static_cast<double>(per_pool_));
      for (uint32_t u = g * per_pool_; u < (g + 1) * per_pool_; ++u) p.free.push_back(u);
    }

    const uint32_t n_handles = fdp_device() ? c_.handles : 1;
    shared_gc_ = fdp_device() && !c_.ii_gc_last_ruh && c_.ruh_types != RuhTypes::pi;
    handles_.assign(n_handles + (shared_gc_ ? 1 : 0), RefHandle{});

    if (!fdp_device()) {
      // Rule 2: line 0 opens at start-up.
      open(stream(Kind::kLine, 0, 0));
    } else if (c_.open_at_start) {
      // Rule 4: every handle takes an RU in every RG, handle by handle, RG by RG.
      for (uint32_t h = 0; h < c_.handles; ++h) {
        for (uint32_t g = 0; g < rgs; ++g) open(stream(Kind::kHost, h, g));
      }
    }
  }

  // Offset of the n-th slot written into unit u ("Where slots live"): the
  // write pointer goes die (channel fastest, then LUN), plane, page, line by
  // line; the offset numbers slots line, die in block order, plane, page.
  uint32_t write_offset(const Unit& x, uint32_t n) const {
    const auto nd = static_cast<uint32_t>(x.dies_write.size());
    const uint32_t per_line = nd * c_.planes * c_.pages;
    const uint32_t li = n / per_line;
    const uint32_t r = n % per_line;
    const uint32_t die = x.dies_write[r % nd];
    const uint32_t plane = (r / nd) % c_.planes;
    const uint32_t page = r / (nd * c_.planes);
    uint32_t rank = 0;
    while (x.dies_block[rank] != die) ++rank;  // linear scan
    return li * per_line + (rank * c_.planes + plane) * c_.pages + page;
  }

  // ---- the victim heap, exactly docs/model.md "Victim queue" (pqueue_model.h) ----
  uint32_t key(uint32_t u) const { return units_[u].valid; }
  auto heap_of(Pool& p) {
    return PqueueModel{p.heap, [this](uint32_t u) { return key(u); },
                       [this](uint32_t u) -> uint32_t& { return units_[u].pos; }};
  }
  void heap_insert(Pool& p, uint32_t u) { heap_of(p).insert(u); }
  uint32_t heap_pop(Pool& p) { return heap_of(p).pop(); }
  void change_priority(Pool& p, uint32_t u) { heap_of(p).change_priority(u); }
  bool heap_empty(const Pool& p) const { return p.heap.size() == 1; }

  // ---- streams and units ----
  uint32_t stream(Kind kind, uint32_t handle, uint32_t rg) {
    for (uint32_t i = 0; i < streams_.size(); ++i) {  // linear scan
      const Stream& s = streams_[i];
      if (s.kind == kind && s.handle == handle && s.rg == rg) return i;
    }
    streams_.push_back(Stream{kind, handle, rg, kNone});
    return static_cast<uint32_t>(streams_.size() - 1);
  }

  // Takes the next free unit of the stream's pool (rule 2: FIFO).
  void open(uint32_t si) {
    Stream& s = streams_[si];
    Pool& p = pools_[s.rg];
    if (p.free.empty()) throw std::runtime_error("device full");
    const uint32_t u = p.free.front();
    p.free.pop_front();
    Unit& x = units_[u];
    x.state = State::kOpen;
    x.owner = s.handle;
    x.written = 0;
    x.valid = 0;
    s.unit = u;
  }

  // A unit that filled: queued if it has an invalid slot, else kept as full (rule 2).
  void close(uint32_t u) {
    Unit& x = units_[u];
    if (x.valid == slots_per_unit_) {
      x.state = State::kFull;
    } else {
      x.state = State::kQueued;
      heap_insert(pools_[x.pool], u);
    }
  }

  // Programs lpn at the stream's write pointer; a unit that fills closes and
  // the stream takes the next free unit at once (rules 2 and 14).
  uint32_t program(uint32_t si, uint32_t lpn) {
    if (streams_[si].unit == kNone) open(si);
    const uint32_t u = streams_[si].unit;
    Unit& x = units_[u];
    const uint32_t off = write_offset(x, x.written);
    if (x.lpn_at[off] != kNone) throw std::logic_error("reference: programming a live slot");
    x.lpn_at[off] = lpn;
    ++x.valid;
    ++x.written;
    l2p_[lpn] = u * slots_per_unit_ + off;
    if (x.written == slots_per_unit_) {
      close(u);
      streams_[si].unit = kNone;
      open(si);
    }
    return u * slots_per_unit_ + off;
  }

  // The slot's data is dead (overwrite, trim). Victim queue section: a full
  // unit's first invalidation inserts it, a queued unit's changes its priority.
  void invalidate(uint32_t slot) {
    const uint32_t u = slot / slots_per_unit_;
    const uint32_t off = slot % slots_per_unit_;
    Unit& x = units_[u];
    if (x.lpn_at[off] == kNone) throw std::logic_error("reference: invalidating a dead slot");
    x.lpn_at[off] = kNone;
    --x.valid;
    if (x.state == State::kFull) {
      x.state = State::kQueued;
      heap_insert(pools_[x.pool], u);
    } else if (x.state == State::kQueued) {
      change_priority(pools_[x.pool], u);
    }
  }

  // ---- GC (rules 6, 7, 12, 13, 14) ----
  bool is_pi(uint32_t h) const {
    return c_.ruh_types == RuhTypes::pi || (c_.ruh_types == RuhTypes::last_ii && h + 1 < c_.handles);
  }

  // Where survivors of a unit taken by `owner` in RG g go.
  uint32_t gc_destination(uint32_t owner, uint32_t g) {
    if (!fdp_device()) return stream(Kind::kLine, 0, 0);                     // rule 1: the shared write pointer
    if (owner == c_.handles) return stream(Kind::kSharedGc, c_.handles, g);  // the shared GC RU's own units
    if (is_pi(owner)) {
      return c_.pi_gc_ru ? stream(Kind::kPiGc, owner, g)   // rule 6
                         : stream(Kind::kHost, owner, g);  // --pi-gc host-ru
    }
    return c_.ii_gc_last_ruh ? stream(Kind::kHost, c_.handles - 1, g)   // rule 7
                             : stream(Kind::kSharedGc, c_.handles, g);  // --ii-gc gc-ru
  }

  // One pass in pool g; false when it took no victim.
  bool gc_pass(uint32_t g, bool force) {
    Pool& p = pools_[g];
    if (heap_empty(p)) {
      if (!force) ++r_.gc_background_no_victim;
      return false;
    }
    const uint32_t min_invalid = c_.gc_watermark ? 0 : slots_per_unit_ / 8;  // the watermark trigger has no U/8 rule
    uint32_t v = 0;
    if (!fdp_device() || c_.declined_keep) {
      // Rule 12 (and rule 13's ConfFDP column): a background pass leaves a
      // victim with < U/8 invalid in place.
      v = p.heap[1];
      if (!force && slots_per_unit_ - units_[v].valid < min_invalid) {
        ++r_.gc_background_declined;
        return false;
      }
      heap_pop(p);
    } else {
      // Rule 13: popped; a refused victim is inserted again.
      v = heap_pop(p);
      if (!force && units_[v].valid > 0 && slots_per_unit_ - units_[v].valid < min_invalid) {
        heap_insert(p, v);
        ++r_.gc_background_declined;
        return false;
      }
    }
    if (r_.gc_passes == 0) r_.gc_onset_host_slots = r_.host_slots;
    ++r_.gc_passes;
    ++(force ? r_.gc_forced_passes : r_.gc_background_passes);
    collect(v);
    return true;
  }

  // Rule 14: copy live slots in offset order, then erase and free the unit.
  void collect(uint32_t v) {
    const uint32_t owner = units_[v].owner;
    const uint32_t g = units_[v].pool;
    // Rule 6's ConfFDP column (--gc-spill nearest): a victim (forced or
    // not) with fewer than U/10 invalid slots sends every copy to its destination in
    // the nearest RG not at its high threshold, looked up again per copy.
    // READING: a destination without a unit takes one first, and since that
    // changes its RG's free count, the nearest RG is looked up again.
    const bool spill = c_.gc_spill && slots_per_unit_ - units_[v].valid < slots_per_unit_ / 10;
    const auto spill_destination = [&] {
      for (;;) {
        const uint32_t d = gc_destination(owner, nearest(g));
        if (streams_[d].unit != kNone) return d;
        open(d);
      }
    };
    uint32_t dest = spill ? spill_destination() : gc_destination(owner, g);
    // Rules 6 and 7: the destination (a PI GC RU, a lazily opened host RU)
    // is taken before anything is copied, whether or not the victim has a
    // live slot, and before the victim is freed.
    if (streams_[dest].unit == kNone) open(dest);
    for (const uint32_t off : copy_order()) {
      const uint32_t lpn = units_[v].lpn_at[off];
      if (lpn == kNone) continue;
      units_[v].lpn_at[off] = kNone;
      --units_[v].valid;
      if (spill) {
        dest = spill_destination();
        if (streams_[dest].rg != g) ++r_.spilled_copies;
      }
      const uint32_t dest_owner = streams_[dest].handle;
      program(dest, lpn);
      ++r_.gc_slots;
      ++handles_[owner].gc_out_slots;
      ++handles_[dest_owner].gc_in_slots;
    }
    Unit& x = units_[v];
    if (x.valid != 0) throw std::logic_error("reference: victim still holds data");
    x.state = State::kFree;
    x.written = 0;
    ++x.erases;
    ++r_.unit_erases;
    ++handles_[owner].erased_units;
    pools_[g].free.push_back(v);
  }

  // Rule 14: offsets in block order (0, 1, 2, ...), or with --gc-order page
  // (ConfFDP's do_gc) page by page: for each line of the unit, each page, the
  // blocks in block order (die rank, then plane).
  std::vector<uint32_t> copy_order() const {
    std::vector<uint32_t> order;
    if (!c_.gc_page_order) {
      for (uint32_t off = 0; off < slots_per_unit_; ++off) order.push_back(off);
      return order;
    }
    const uint32_t blocks_per_line = static_cast<uint32_t>(units_[0].dies_write.size()) * c_.planes;
    const uint32_t per_line = blocks_per_line * c_.pages;
    for (uint32_t li = 0; li < slots_per_unit_ / per_line; ++li) {
      for (uint32_t page = 0; page < c_.pages; ++page) {
        for (uint32_t b = 0; b < blocks_per_line; ++b) order.push_back(li * per_line + b * c_.pages + page);
      }
    }
    return order;
  }

  // ---- thresholds (rules 9 and 10) ----
  bool over_high(uint32_t g) const { return pools_[g].free.size() <= pools_[g].high; }
  bool over_thres(uint32_t g) const { return pools_[g].free.size() <= pools_[g].thres; }
  bool any_over_high() const {
    for (uint32_t g = 0; g < pools_.size(); ++g) {
      if (over_high(g)) return true;
    }
    return false;
  }
  // "RUs closed early": the max_fg_gc loop of FEMU's ssd_stream_write stops
  // after this many passes. READING: the cap is FDP's; FEMU's line path loop in
  // ssd_write has none, so none here (a guard throws if it would never end).
  uint64_t forced_cap() const { return uint64_t{pools_.size()} * per_pool_ + pools_.size(); }

  // ConfFDP's find_near_rg_id: the first RG above g and the first below it
  // whose free units are above its high threshold; the nearer of the two,
  // the lower on a tie; g itself when there is neither.
  uint32_t nearest(uint32_t g) const {
    const auto n = static_cast<int64_t>(pools_.size());
    int64_t up = -1, down = -1;
    for (int64_t q = int64_t{g} + 1; q < n; ++q) {
      if (!over_high(static_cast<uint32_t>(q))) {
        up = q;
        break;
      }
    }
    for (int64_t q = int64_t{g} - 1; q >= 0; --q) {
      if (!over_high(static_cast<uint32_t>(q))) {
        down = q;
        break;
      }
    }
    if (up < 0 && down < 0) return g;
    if (up < 0) return static_cast<uint32_t>(down);
    if (down < 0) return static_cast<uint32_t>(up);
    return static_cast<uint32_t>(g - down > up - g ? up : down);
  }

  // Forced GC before a write request (or before a slot with --gc-check page)
  // that writes into pool g.
  void forced(uint32_t g, bool per_slot) {
    if (!fdp_device()) {
      uint64_t n = 0;
      while (over_high(0) && (c_.forced_passes == 0 || n < c_.forced_passes)) {  // --forced-passes N: at most N
        if (!gc_pass(0, true)) break;
        if (++n > 10'000'000) throw std::logic_error("reference: forced GC does not end");
      }
      return;
    }
    // Rule 9: while any RG is over its high threshold, a forced pass in the
    // writing RG. --gc-check page and --rg-gc every look at that RG only.
    const bool only_writing = per_slot || c_.every_pool;
    uint64_t n = 0;
    const uint64_t cap = c_.forced_passes != 0 ? c_.forced_passes : forced_cap();
    while ((only_writing ? over_high(g) : any_over_high()) && n < cap) {
      if (!gc_pass(g, true)) break;
      ++n;
    }
  }

  // Rule 10: after every request, one background pass in the first pool over
  // its threshold (every pool with --rg-gc every).
  // The watermark trigger: passes until the pool is above its threshold, or
  // a pass takes no victim.
  void background() {
    for (uint32_t g = 0; g < pools_.size(); ++g) {
      if (!over_thres(g)) continue;
      if (c_.gc_watermark) {
        while (over_thres(g) && gc_pass(g, false)) {
        }
      } else {
        gc_pass(g, false);
      }
      if (!c_.every_pool) return;
    }
  }

  // ---- requests ----
  struct Span {
    uint64_t first = 0, count = 0;
    bool head_partial = false, tail_partial = false;
  };
  Span span(const RefRequest& q) const {
    const uint64_t logical_sectors = c_.logical_slots * 8;
    if (q.sectors == 0 || q.lba >= logical_sectors || logical_sectors - q.lba < q.sectors) {
      throw std::invalid_argument("reference: request beyond the logical capacity");
    }
    const uint64_t begin = q.lba * 512;
    const uint64_t end = begin + uint64_t{q.sectors} * 512;
    Span s;
    s.first = begin / 4096;
    s.count = (end + 4095) / 4096 - s.first;
    s.head_partial = begin % 4096 != 0;
    s.tail_partial = end % 4096 != 0;
    return s;
  }
  static bool partial(const Span& s, uint64_t k) {
    return (k == 0 && s.head_partial) || (k + 1 == s.count && s.tail_partial);
  }

  // Rule 8: bits of a PID that name the RG (0 for one RG): the bit length
  // of the RG count, or with rgif-min the fewest bits that number the RGs.
  uint32_t rgif() const {
    if (c_.rgs <= 1) return 0;
    uint32_t bits = 0;
    if (c_.pid_min_rgif) {
      while ((1u << bits) < c_.rgs) ++bits;
    } else {
      while ((c_.rgs >> bits) != 0) ++bits;
    }
    return bits;
  }
  // RG of logical slot lpn under --rg-of lba: 1 MiB stripes.
  uint32_t lba_rg(uint64_t lpn) const { return static_cast<uint32_t>((lpn / 256) % c_.rgs); }

  void write(const RefRequest& q) {
    const Span s = span(q);
    uint32_t handle = 0;
    uint32_t rg = 0;  // from the PID (rule 8), or per slot with --rg-of lba
    if (c_.fdp && c_.pid_confdp) {
      // Rule 8's ConfFDP column: handle = pid & 0xff, RG = pid >> 8 (RG 0
      // only without RG bits, --rg-of lba); an invalid handle becomes the
      // last handle, an invalid RG the last RG.
      const uint32_t rgs = c_.rg_of_pid ? c_.rgs : 1;
      handle = q.pid & 0xFFu;
      rg = q.pid >> 8;
      if (handle >= c_.handles || rg >= rgs) ++r_.invalid_pid_requests;
      handle = std::min(handle, c_.handles - 1);
      rg = std::min(rg, rgs - 1);
    } else if (c_.fdp) {
      if (c_.rg_of_pid) {
        // Rule 8: RG = PID >> (16 - RGIF); the handle is the low 15 - RGIF
        // bits (16 - RGIF with rgif-min; the whole PID with one RG).
        const uint32_t bits = rgif();
        const uint32_t pid_rg = bits == 0 ? 0 : uint32_t{q.pid} >> (16 - bits);
        const uint32_t handle_bits = bits == 0 ? 16 : (c_.pid_min_rgif ? 16 : 15) - bits;
        const uint32_t pid_h = uint32_t{q.pid} & ((1u << handle_bits) - 1);
        if (pid_rg >= c_.rgs || pid_h >= c_.handles) {
          ++r_.invalid_pid_requests;
        } else {
          handle = pid_h;
          rg = pid_rg;
        }
      } else {
        // READING: with --rg-of lba the PID has no RG bits: it names the
        // handle, and one the device lacks is invalid (handle 0).
        if (q.pid >= c_.handles) {
          ++r_.invalid_pid_requests;
        } else {
          handle = q.pid;
        }
      }
    }
    // The FDP log counts what the host sent: sectors x 512 per request, to
    // the request's handle (docs/fdp.md, What is reported).
    r_.hbmw_bytes += uint64_t{q.sectors} * 512;
    handles_[handle].hbmw_bytes += uint64_t{q.sectors} * 512;
    const auto slot_rg = [&](uint64_t lpn) { return fdp_device() && !c_.rg_of_pid ? lba_rg(lpn) : rg; };
    // Rule 8, --rg-of current: written into RG 0 (the handle's current RU).
    const bool current = fdp_device() && c_.rg_of_pid && c_.rg_current;
    // Rule 9: once per request, before its slot loop, in the PID's RG.
    // READING: with --rg-of lba the request's pool is its first slot's RG.
    // Rule 9's ConfFDP column (--write-spill nearest, --rg-of pid only): an RG
    // still at its high threshold after the passes sends the whole request
    // to the nearest RG that is not.
    bool moved = false;
    if (!c_.forced_check_per_slot) {
      const uint32_t g = slot_rg(s.first);
      forced(g, false);
      if (fdp_device() && c_.write_spill && over_high(g) && nearest(g) != g) {
        rg = nearest(g);
        moved = true;
        ++r_.spilled_writes;
      }
    }
    for (uint64_t k = 0; k < s.count; ++k) {
      const auto lpn = static_cast<uint32_t>(s.first + k);
      const uint32_t g = moved ? rg : current ? 0 : slot_rg(lpn);
      if (c_.forced_check_per_slot) forced(g, true);
      if (partial(s, k)) {  // rule 15
        ++r_.rmw_slots;
        if (l2p_[lpn] != kNone) ++r_.rmw_read_slots;
      }
      if (l2p_[lpn] != kNone) invalidate(l2p_[lpn]);
      ++r_.host_slots;
      ++handles_[handle].host_slots;
      program(fdp_device() ? stream(Kind::kHost, handle, g) : stream(Kind::kLine, 0, 0), lpn);
    }
  }

  void read(const RefRequest& q) {
    const Span s = span(q);
    for (uint64_t k = 0; k < s.count; ++k) {
      if (l2p_[s.first + k] == kNone) ++r_.unmapped_read_slots;  // rule 17
    }
  }

  void trim(const RefRequest& q) {
    const Span s = span(q);
    for (uint64_t k = 0; k < s.count; ++k) {
      const uint64_t lpn = s.first + k;
      if (c_.trim_keeps_partial && partial(s, k)) {  // --trim-partial keep
        ++r_.partial_trim_slots;
        continue;
      }
      if (l2p_[lpn] == kNone) continue;  // rule 16: every touched slot is unmapped
      invalidate(l2p_[lpn]);
      l2p_[lpn] = kNone;
      ++r_.trimmed_slots;
    }
    // Rule 16's ConfFDP column (--trim-range plus-one): the slot after the
    // range too, when the device has it.
    const uint64_t extra = s.first + s.count;
    if (c_.trim_plus_one && extra < c_.logical_slots && l2p_[extra] != kNone) {
      invalidate(l2p_[extra]);
      l2p_[extra] = kNone;
      ++r_.trimmed_slots;
      ++r_.trim_extra_slots;
    }
  }

  // Recounts the state from scratch; throws std::logic_error on the first
  // inconsistency (the reference checks itself before anyone trusts it).
  void self_check() const {
    uint64_t live = 0;
    for (uint32_t u = 0; u < units_.size(); ++u) {
      const Unit& x = units_[u];
      uint32_t n = 0;
      for (uint32_t off = 0; off < slots_per_unit_; ++off) {
        const uint32_t lpn = x.lpn_at[off];
        if (lpn == kNone) continue;
        ++n;
        if (l2p_[lpn] != u * slots_per_unit_ + off)
          throw std::logic_error("reference self-check: l2p and slot disagree");
      }
      if (n != x.valid) throw std::logic_error("reference self-check: valid count");
      if ((x.state == State::kFree || x.state == State::kUnused) && n != 0) {
        throw std::logic_error("reference self-check: data in a free unit");
      }
      if ((x.state == State::kQueued) != (x.pos != 0)) throw std::logic_error("reference self-check: queued state");
      if (x.state == State::kFull && x.valid != slots_per_unit_)
        throw std::logic_error("reference self-check: full unit");
      live += n;
    }
    uint64_t mapped = 0;
    for (uint32_t s : l2p_) mapped += s != kNone;
    if (mapped != live) throw std::logic_error("reference self-check: mapped slots");
    for (const Pool& p : pools_) {
      for (uint32_t i = 1; i < p.heap.size(); ++i) {
        if (units_[p.heap[i]].pos != i) throw std::logic_error("reference self-check: heap position");
        if (i > 1 && key(p.heap[i / 2]) > key(p.heap[i])) throw std::logic_error("reference self-check: heap order");
      }
    }
    if (r_.host_slots + r_.gc_slots == 0 && r_.unit_erases != 0) throw std::logic_error("reference self-check");
    if (r_.gc_passes != r_.unit_erases || r_.gc_passes != r_.gc_forced_passes + r_.gc_background_passes) {
      throw std::logic_error("reference self-check: pass counts");
    }
  }

  RefResult result() {
    self_check();
    RefResult r = r_;
    r.slots_per_unit = slots_per_unit_;
    r.units_per_pool = per_pool_;
    for (const Pool& p : pools_) r.free_units_end += static_cast<uint32_t>(p.free.size());
    for (uint32_t s : l2p_) r.mapped_slots_end += s != kNone;
    for (uint32_t u = 0; u < units_.size(); ++u) {
      const Unit& x = units_[u];
      if (x.state == State::kUnused) continue;
      r.erase_count_per_unit.push_back(x.erases);
      if (x.state != State::kFree) ++handles_[x.owner].units_in_use;
    }
    r.handles = handles_;
    r.l2p = l2p_;
    return r;
  }

  RefConfig c_;
  std::vector<Unit> units_;
  std::vector<Pool> pools_;
  std::vector<Stream> streams_;
  std::vector<uint32_t> l2p_;
  std::vector<RefHandle> handles_;
  uint32_t slots_per_unit_ = 0;
  uint32_t per_pool_ = 0;
  bool shared_gc_ = false;
  bool reset_done_ = false;
  RefResult r_;
};

}  // namespace

RefResult run_reference(const RefConfig& cfg, const std::vector<RefRequest>& requests) {
  Reference ref(cfg);
  return ref.run(requests);
}

std::string describe(const RefConfig& c) {
  static const char* const kTypes[] = {"pi", "last-ii", "ii"};
  std::ostringstream o;
  o << "channels=" << c.channels << " luns=" << c.luns << " planes=" << c.planes << " blocks=" << c.blocks
    << " pages=" << c.pages << " logical_slots=" << c.logical_slots << " gc_thres=" << c.gc_thres
    << " gc_thres_high=" << c.gc_thres_high << " placement=" << (c.fdp ? "fdp" : "single") << " rgs=" << c.rgs
    << " handles=" << c.handles << " ruh_types=" << kTypes[static_cast<int>(c.ruh_types)]
    << " pi_gc=" << (c.pi_gc_ru ? "gc-ru" : "host-ru") << " ii_gc=" << (c.ii_gc_last_ruh ? "last-ruh" : "gc-ru")
    << " ru_open=" << (c.open_at_start ? "start" : "lazy") << " rg_split=" << (c.rg_split_lines ? "lines" : "dies")
    << " rg_of="
    << (!c.rg_of_pid   ? "lba"
        : c.rg_current ? "current"
                       : "pid")
    << " gc_check=" << (c.forced_check_per_slot ? "page" : "request") << " rg_gc=" << (c.every_pool ? "every" : "first")
    << " trim_partial=" << (c.trim_keeps_partial ? "keep" : "unmap") << " lines_per_ru=" << c.lines_per_ru
    << " gc_order=" << (c.gc_page_order ? "page" : "block") << " declined=" << (c.declined_keep ? "keep" : "requeue")
    << " forced_passes=" << c.forced_passes << " trim_range=" << (c.trim_plus_one ? "plus-one" : "exact")
    << " pid_format="
    << (c.pid_confdp     ? "confdp"
        : c.pid_min_rgif ? "rgif-min"
                         : "rgif")
    << " single=" << (c.single_handle0 ? "handle0" : "line-path") << " rg_split_channels=" << c.rg_split_channels
    << " write_spill=" << c.write_spill << " gc_spill=" << c.gc_spill
    << " gc_trigger=" << (c.gc_watermark ? "watermark" : "femu") << " reset_kind=" << int{c.reset_kind}
    << " reset_marker=" << c.reset_marker;
  return o.str();
}

}  // namespace ftlsim::reftest
