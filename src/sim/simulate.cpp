#include "sim/simulate.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <variant>

#include "core/error.h"
#include "fdp/handle_stats.h"
#include "fdp/placement.h"
#include "fdp/stream_map.h"
#include "ftl/any_ftl.h"
#include "sim/fit.h"
#include "sim/id_series.h"
#include "sim/memory_estimate.h"
#include "sim/precondition.h"
#include "sim/report.h"
#include "sim/run_layout.h"
#include "timing/host_loop.h"
#include "timing/nand_map.h"
#include "timing/timed_device.h"
#include "trace/ftr_reader.h"
#include "trace/slot_span.h"

namespace ftlsim::sim {
namespace {

using trace::Op;
using trace::Record;

constexpr uint32_t kSlot = ftl::kSlotBytes;
// The host path's prefetch distances, in records: ftl::kPrefetchFar,
// kPrefetchNear and kPrefetchNearest (ftl/page_ftl.h).
using ftl::kPrefetchFar;
using ftl::kPrefetchNear;
using ftl::kPrefetchNearest;
// Records beyond the first step's that prefetch_ahead() brings into cache.
constexpr size_t kRecordsAhead = 32;
// Requests the lean loop decodes and hands to the engine at a time.
constexpr size_t kPlainBatch = 1024;

[[noreturn]] void bad_record(const TraceView& t, uint64_t index, const Message& why) {
  throw InputError(Message(fmt::format("{}: record {}: ", t.path, index)) + why);
}

template <class Ftl, class Placement>
class Driver {
 public:
  Driver(Ftl& ftl, Placement& placement, const fdp::FdpConfig& fdp, const ftl::FtlConfig& cfg, const TraceView& t,
         const SimOptions& o, uint64_t interval, const trace::SlotRemap* fit_map)
      : ftl_(ftl),
        placement_(placement),
        streams_(fdp),
        trim_keeps_partial_(cfg.trim_keeps_partial),
        trim_plus_one_(cfg.trim_plus_one),
        t_(t),
        opts_(o),
        interval_(interval),
        ru_time_limit_(fdp.ru_time_limit_ns != 0),
        isolated_(fdp.isolated_gc),

        next_row_(interval),
        logical_bytes_(uint64_t{ftl.logical_slots()} * kSlot),
        sector_(t.sector_bytes),
        logical_sectors_((fit_map != nullptr ? fit_map->space * kSlot : logical_bytes_) / sector_),
        has_fit_(fit_map != nullptr),
        fit_(fit_map != nullptr ? *fit_map : trace::SlotRemap{}),
        fit_flat_(fit_.dir == nullptr ? fit_.slots : nullptr) {
    fill_rgs_ = fdp.isolated_gc ? std::max<uint32_t>(fdp.reclaim_groups, 1) : 1;
    // The lean loop (run_plain()): FEMU's line path (placement single: one
    // handle, one stream, one pool, the identifier not read), no remapping,
    // per-ID series or RU time limit, the forced threshold checked per
    // request, and sectors that divide a slot.
    if constexpr (!Placement::kPerSlot) {
      lean_ = !isolated_ && !has_fit_ && !o.id_series && !ru_time_limit_ && ftl.plain_host_path() && sector_ <= kSlot &&
              std::has_single_bit(sector_);
    }
    if (lean_) {
      plain_.resize(kPlainBatch + kPrefetchFar);
      slot_shift_ = static_cast<uint32_t>(std::countr_zero(kSlot / sector_));
      align_mask_ = (uint64_t{1} << slot_shift_) - 1;
    }
    handle_sent_bytes_.assign(isolated_ ? fdp.handles : 1, 0);
    if (o.id_series) {
      // Per-ID GC copies: the engine counts each copy under its slot's tag.
      ids_.emplace(ftl.logical_slots(), fdp, ftl.stream_stats().size());
      ftl_.count_gc_by_tag(ids_->tags(), ids_->gc_per_tag());
    }
  }
  ~Driver() {
    if (ids_) ftl_.count_gc_by_tag(nullptr, nullptr);
  }
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  void run(SimResult& r) {
    const auto records = t_.records;
    const size_t n = records.size();
    ProgressCounter progress(opts_.progress);
    const uint64_t period = repeat_period();
    for (uint64_t pass = 0; pass < opts_.repeat; ++pass) {
      time_offset_ = pass * period;
      const ftl::FtlStats before = ftl_.stats();
      run_pass(r, progress, pass * n);
      if (opts_.repeat > 1) {
        const ftl::FtlStats& after = ftl_.stats();
        r.passes.push_back({after.host_slots - before.host_slots, after.gc_slots - before.gc_slots,
                            after.unit_erases - before.unit_erases});
      }
    }
    progress.finish(n * opts_.repeat);
    finish(r);
  }

  // --precondition: writes each slot `next()` yields (kUnmapped ends) once,
  // one 4 KiB write request each through handle 0, then zeroes the counters.
  // With several RGs named by placement ID, the logical space is spread over
  // them in equal contiguous shares, as data the trace spreads would be.
  template <class Next>
  void precondition(Next&& next, SimResult& r) {
    const uint64_t slots = ftl_.logical_slots();
    for (uint32_t p = next(); p != ftl::kUnmapped; p = next()) {
      const uint32_t rg = streams_.rg_of(static_cast<uint32_t>(uint64_t{p} * fill_rgs_ / slots), p);
      const uint32_t write_rg = ftl_.before_write(rg);
      if (ids_) ids_->tag(p, IdSeries::kPreconditionTag);
      ftl_.write(p, streams_.stream(0, write_rg));
      ftl_.after_request();
    }
    if (ids_) ids_->see(IdSeries::kPreconditionTag);
    const ftl::FtlStats& st = ftl_.stats();
    r.precondition = PreconditionCounts{st.host_slots, st.gc_slots, st.gc_passes, st.unit_erases, ftl_.mapped_slots()};
    ftl_.reset_counters();
  }

 private:
  // --repeat: pass k runs at the trace's times + k x this.
  uint64_t repeat_period() const {
    const auto records = t_.records;
    if (records.size() < 2) return 1;
    const uint64_t first = records.front().time_ns, last = records.back().time_ns;
    const uint64_t span = last > first ? last - first : 0;
    return span + std::max<uint64_t>(span / (records.size() - 1), 1);
  }

  void run_pass(SimResult& r, ProgressCounter& progress, uint64_t done_before) {
    const auto records = t_.records;
    const size_t n = records.size();
    prime_prefetch(0);
    for (size_t i = 0; i < n; ++i) {
      if (lean_) {
        i = run_plain(i, r, progress, done_before);
        if (i == n) break;
      }
      prefetch_ahead(i);
      step(i, r);
      progress.tick(done_before + i + 1);
    }
  }

  // A plain write: in range, whole slots (no partial slot to read first),
  // not empty; what the lean loop applies.
  // (end > lba: not empty and no overflow.)
  [[nodiscard]] bool plain_write(const Record& rec) const {
    const uint64_t end = rec.lba + rec.sectors;
    return rec.op == static_cast<uint8_t>(Op::kWrite) && ((rec.lba | rec.sectors) & align_mask_) == 0 &&
           end > rec.lba && end <= logical_sectors_;
  }

  // The lean loop, for runs of plain writes when lean_: applies records from
  // i on as step() would (the same engine work in the same order: before
  // the request forced GC, each slot's write through stream 0, background
  // GC after it; the same counters) until the first record that is not a
  // plain write, whose index it returns (n at the end). What step() does
  // per record and per slot beyond that (the record's checks, the span's
  // partial slots, remapping, placement, the stream and RG of each slot)
  // cannot act on such records on the line path.
  // The records are decoded into plain_ (their slots) ahead of the engine,
  // which applies them in batches (PageFtl::write_plain) and stops after a
  // request that needs after_request()'s bookkeeping here: a new time-series
  // row, or the GC onset.
  size_t run_plain(size_t i, SimResult& r, ProgressCounter& progress, uint64_t done_before) {
    const auto records = t_.records;
    const size_t n = records.size();
    size_t have = 0;  // records [i, i + have) are decoded in plain_[0, have)
    for (;;) {
      // Decoding counts each request's bytes already: every request decoded
      // is applied before run_plain() returns (or the run ends in an error).
      const size_t room = std::min(plain_.size(), n - i);
      size_t k = have;
      for (; k < room; ++k) {
        const Record& rec = records[i + k];
        if (!plain_write(rec)) break;
        plain_[k] = ftl::PlainRequest{static_cast<uint32_t>(rec.lba >> slot_shift_), rec.sectors >> slot_shift_};
        pid_bytes_[rec.pid] += uint64_t{rec.sectors} * sector_;
      }
      have = k;
      // A full buffer may continue: its last kPrefetchFar requests wait to be
      // the pipeline's look-ahead for the next batch.
      const bool full = have == plain_.size();
      const size_t count = full ? have - kPrefetchFar : have;
      if (count == 0) break;
      ftl::PlainStop stop;
      stop.host_slots = next_row_ / kSlot + (next_row_ % kSlot != 0);  // after_request()'s row test
      stop.first_gc = !r.gc_onset;
      const size_t done = ftl_.write_plain(plain_.data(), count, have, stop);
      r.requests.writes += done;
      r.lean_requests += done;
      time_ns_ = records[i + done - 1].time_ns + time_offset_;
      note_request(r);
      progress.advance(done_before + i, done_before + i + done);
      i += done;
      std::copy(plain_.begin() + static_cast<std::ptrdiff_t>(done), plain_.begin() + static_cast<std::ptrdiff_t>(have),
                plain_.begin());
      have -= done;
    }
    // The step-by-step loop's rings start again at i (step() prefetches as
    // it goes).
    prime_prefetch(i);
    return i;
  }

 public:
  // Before step(i), when records are applied in trace order (both modes),
  // after prime_prefetch() at the first record: brings in the l2p entry of
  // the write kPrefetchFar records ahead, what invalidating the old
  // slot of the one kPrefetchNear ahead reads, and the policy's entries for
  // the old slot of the one kPrefetchNearest ahead (and, when that write will
  // likely make a victim, its maps). Each record's device slot is worked out
  // once, at the first step, and its old slot read once, at the second; the
  // rings hold them for the later steps (a slot moved in between only makes
  // a prefetch miss). Always inlined: GCC finds a function that only
  // prefetches free of side effects and deletes calls to it.
  [[gnu::always_inline]] void prefetch_ahead(size_t i) {
    const auto records = t_.records;
    uint32_t far = ftl::kUnmapped;
    // The trace itself, a few lines beyond the record the first step reads
    // (the hardware's stream prefetch does not run that far ahead here).
    if (i + kPrefetchFar + kRecordsAhead < records.size()) {
      __builtin_prefetch(&records[i + kPrefetchFar + kRecordsAhead], 0, 3);
    }
    if (i + kPrefetchFar < records.size()) {
      far = ahead_slot(records[i + kPrefetchFar]);
      if (far != ftl::kUnmapped) ftl_.prefetch(far);
    }
    slot_ring_[i % kPrefetchFar] = far;  // record i + kPrefetchFar's
    const uint32_t near = slot_ring_[(i + kPrefetchNear) % kPrefetchFar];
    old_ring_[(i + kPrefetchNear) % kPrefetchNear] = near != ftl::kUnmapped ? ftl_.prefetch_mapped(near) : near;
    ftl_.prefetch_queued(old_ring_[(i + kPrefetchNearest) % kPrefetchNear]);
  }
  // The rings for the records from `first` on (the first step's slots of
  // the next kPrefetchFar records; no old slots yet).
  void prime_prefetch(size_t first) {
    const auto records = t_.records;
    for (size_t k = first; k < first + kPrefetchFar; ++k) {
      slot_ring_[k % kPrefetchFar] = k < records.size() ? ahead_slot(records[k]) : ftl::kUnmapped;
    }
    old_ring_.fill(ftl::kUnmapped);
  }

  // Applies record i (timed mode calls this as each request is issued).
  void step(size_t i, SimResult& r) {
    const Record& rec = t_.records[i];
    time_ns_ = rec.time_ns + time_offset_;
    if (ru_time_limit_) [[unlikely]] {
      // The device closes RUs whose time limit passed before this request.
      ftl_.set_now(time_ns_);
      if (time_ns_ >= ftl_.next_expiry()) ftl_.expire_units(time_ns_);
    }
    switch (rec.op) {
      case static_cast<uint8_t>(Op::kWrite): do_write(rec, i, r.requests); break;
      case static_cast<uint8_t>(Op::kRead): do_read(rec, i, r.requests); break;
      case static_cast<uint8_t>(Op::kTrim): do_trim(rec, i, r.requests); break;
      case static_cast<uint8_t>(Op::kFlush):
        if (rec.sectors != 0) bad_record(t_, i, trace::check_record(rec));
        ++r.requests.flushes;
        break;
      case static_cast<uint8_t>(Op::kMarker):
        if (rec.sectors != 0) bad_record(t_, i, trace::check_record(rec));
        ++r.requests.markers;
        marker_ = rec.lba;
        if (opts_.reset.kind != ResetAt::Kind::kNone && !r.reset_record && rec.lba == opts_.reset.marker) [[unlikely]] {
          reset(i, r);
        }
        return;  // not a device request: no GC opportunity
      default: bad_record(t_, i, trace::check_record(rec));
    }
    after_request(r);
  }

  // After each device request (not a marker): background GC, the GC onset,
  // the time series.
  [[gnu::always_inline]] void after_request(SimResult& r) {
    ftl_.after_request();
    note_request(r);
  }
  // after_request()'s bookkeeping: the GC onset, the time series.
  [[gnu::always_inline]] void note_request(SimResult& r) {
    if (!r.gc_onset && ftl_.stats().gc_passes > 0) [[unlikely]] {
      r.gc_onset = GcOnset{ftl_.stats().gc_onset_host_slots * kSlot, time_ns_, marker_, std::nullopt};
    }
    if (ftl_.stats().host_slots * kSlot >= next_row_) [[unlikely]] {
      add_row(r);
      next_row_ = next_row_after(ftl_.stats().host_slots * kSlot, interval_);
    }
  }

  // The last timeseries row, after the last record.
  void finish(SimResult& r) {
    if (r.timeseries.empty() || r.timeseries.back().host_bytes != ftl_.stats().host_slots * kSlot) {
      add_row(r);
    } else {
      r.timeseries.back().marker = marker_;  // markers after the last write still count
    }
  }

 private:
  trace::SlotSpan span_of(const Record& rec, uint64_t index, RequestCounts& c) const {
    if (rec.sectors == 0) bad_record(t_, index, trace::check_record(rec));
    const trace::SlotSpan s = trace::slot_span(rec, sector_, logical_sectors_, opts_.wrap);
    if (s.out_of_range) [[unlikely]] {
      const uint64_t end = rec.lba > UINT64_MAX - rec.sectors ? UINT64_MAX : rec.lba + rec.sectors;
      bad_record(t_, index,
                 say("{} of sectors [{}, {}) ends beyond the logical capacity of {} sectors; "
                     "use `wrap` to fold LBAs into the device, or a larger `logical`",
                     trace::op_name(static_cast<Op>(rec.op)), rec.lba, end, logical_sectors_));
    }
    if (s.wrapped) ++c.wrapped_requests;
    return s;
  }

  // The device slot of trace slot `slot`: as is (folded with --wrap), or
  // remapped densely by --logical fit:.
  uint32_t lpn(uint64_t slot) const {
    if (has_fit_) [[unlikely]]
      return fitted(slot);
    return trace::slot_lpn(slot, ftl_.logical_slots());
  }

  // For prefetching: the device slot the first slot of write `rec` will
  // be written to, or kUnmapped when it is no write or lies outside the
  // device (the request is then refused or wrapped by step()).
  [[gnu::always_inline]] uint32_t ahead_slot(const Record& rec) const {
    if (rec.op != static_cast<uint8_t>(Op::kWrite)) return ftl::kUnmapped;
    const uint64_t slot = rec.lba * sector_ / kSlot;
    if (has_fit_) [[unlikely]]
      return slot < fit_.space ? fitted(slot) : ftl::kUnmapped;
    return slot < ftl_.logical_slots() ? static_cast<uint32_t>(slot) : ftl::kUnmapped;
  }

  void do_write(const Record& rec, uint64_t index, RequestCounts& c) {
    ++c.writes;
    const trace::SlotSpan s = span_of(rec, index, c);
    const fdp::Placed placed = placement_.begin_request(rec);
    // FEMU checks the forced threshold once, before the request's first page.
    // ConfFDP's --write-spill nearest (`rg-of` pid only, where the RG forced
    // GC runs in is the named one) may then move the whole request to
    // another RG; with `rg-of` current or lba it returns the RG it was given.
    const uint32_t moved_rg = ftl_.before_write(streams_.rg_of(placed.rg, lpn(s.first_slot)));
    const uint32_t write_rg = streams_.write_rg(moved_rg);
    const uint64_t bytes = uint64_t{rec.sectors} * sector_;
    for (uint64_t k = 0; k < s.slots; ++k) {
      const uint32_t p = lpn(s.first_slot + k);
      if ((k == 0 && s.head_partial) || (k + 1 == s.slots && s.tail_partial)) [[unlikely]] {
        ++c.rmw_slots;
        if (ftl_.read(p)) ++c.rmw_read_slots;  // the old data is read first
      }
      const uint16_t h = placement_.slot_handle(placed.handle, p);
      if constexpr (Placement::kPerSlot) {
        if (isolated_) handle_sent_bytes_[h] += slot_sent_bytes(rec, s, k, bytes);
      }
      ftl_.write(p, streams_.stream(h, streams_.rg_of(write_rg, p)));
    }
    // The FDP statistics count the bytes the host sent (FEMU nvme_do_write_fdp:
    // nlb x secsz into HBMW and MBMW), not the slots programmed: from these
    // per identifier after the run (host_sent_bytes()), and per slot for the
    // placements that choose a handle per slot.
    pid_bytes_[rec.pid] += bytes;
    if (ids_) [[unlikely]] {
      for (uint64_t k = 0; k < s.slots; ++k) ids_->tag(lpn(s.first_slot + k), rec.pid);
      ids_->host(rec.pid, s.slots);
    }
  }

  // The bytes of request `rec` that fall in its k-th slot (per-slot placements).
  uint64_t slot_sent_bytes(const Record& rec, const trace::SlotSpan& s, uint64_t k, uint64_t bytes) const {
    const uint64_t lba = s.wrapped ? rec.lba % logical_sectors_ : rec.lba;
    const uint64_t head = lba * sector_ % kSlot;
    const uint64_t lo = k == 0 ? head : 0;
    const uint64_t end = (head + bytes) % kSlot;
    const uint64_t hi = k + 1 == s.slots && end != 0 ? end : kSlot;
    return hi - lo;
  }

  void do_read(const Record& rec, uint64_t index, RequestCounts& c) {
    ++c.reads;
    const trace::SlotSpan s = span_of(rec, index, c);
    c.read_slots += s.slots;
    for (uint64_t k = 0; k < s.slots; ++k) {
      if (!ftl_.read(lpn(s.first_slot + k))) ++c.unmapped_read_slots;
    }
  }

  void do_trim(const Record& rec, uint64_t index, RequestCounts& c) {
    ++c.trims;
    const trace::SlotSpan s = span_of(rec, index, c);
    for (uint64_t k = 0; k < s.slots; ++k) {
      if (trim_keeps_partial_ && ((k == 0 && s.head_partial) || (k + 1 == s.slots && s.tail_partial))) {
        ++c.partial_trim_slots;  // --trim-partial keep: left mapped (FEMU unmaps it)
        continue;
      }
      ftl_.trim(lpn(s.first_slot + k));
    }
    if (trim_plus_one_) [[unlikely]] {
      // ConfFDP's msssd_trim unmaps (nlb + 1) LBAs of a range of nlb: the
      // slot after the range too, when the device has it (folded with --wrap).
      // Under --logical fit: a slot no record touches has no device slot
      // (the remap table holds trace::kUntouchedSlot): nothing to unmap.
      const uint64_t extra = s.first_slot + s.slots;
      const uint64_t limit = has_fit_ ? fit_.space : ftl_.logical_slots();
      if (extra < limit || (opts_.wrap && !has_fit_)) {
        const uint32_t p = lpn(extra);
        if (p != trace::kUntouchedSlot) {
          if (ftl_.is_mapped(p)) ++c.trim_extra_slots;
          ftl_.trim(p);
        }
      }
    }
  }

  // --reset-at: the device (or its counters) starts again at marker record i.
  void reset(uint64_t i, SimResult& r) {
    if (opts_.reset.kind == ResetAt::Kind::kDevice) {
      ftl_.reset();
    } else {
      ftl_.reset_counters();
    }
    placement_.reset_counts();
    r.requests = RequestCounts{};  // markers too: the ones after the reset's are counted
    std::fill(pid_bytes_.begin(), pid_bytes_.end(), 0);
    if (ids_) ids_->zero();
    std::fill(handle_sent_bytes_.begin(), handle_sent_bytes_.end(), 0);
    r.timeseries.clear();
    r.id_timeseries.clear();
    r.gc_onset.reset();
    r.reset_record = i;
    last_host_ = 0;
    last_nand_ = 0;
    next_row_ = interval_;
  }

  void add_row(SimResult& r) {
    const ftl::FtlStats& st = ftl_.stats();
    TimeseriesRow row;
    row.host_bytes = st.host_slots * kSlot;
    row.trace_time_ns = time_ns_;
    row.waf = st.waf();
    const uint64_t d_host = st.host_slots - last_host_;
    const uint64_t d_nand = st.nand_slots() - last_nand_;
    row.interval_waf = d_host == 0 ? 0.0 : static_cast<double>(d_nand) / static_cast<double>(d_host);
    row.free_units = ftl_.free_units();
    row.valid_ratio = static_cast<double>(ftl_.mapped_slots()) / static_cast<double>(ftl_.physical_slots());
    row.gc_bytes = st.gc_slots * kSlot;
    row.erases = st.unit_erases;
    row.marker = marker_;
    last_host_ = st.host_slots;
    last_nand_ = st.nand_slots();
    r.timeseries.push_back(row);
    if (ids_) [[unlikely]]
      ids_->add_rows(r.id_timeseries, row.host_bytes, ftl_.stream_stats());
  }

 public:
  std::vector<uint64_t> pid_bytes_ = std::vector<uint64_t>(65536, 0);
  std::vector<uint64_t> handle_sent_bytes_;  // per handle, per-slot placements: host bytes sent through it

  // Host bytes sent through each handle (its HBMW): by placement identifier
  // for the per-request placements, as counted per slot for the others.
  std::vector<uint64_t> host_sent_bytes() const {
    if constexpr (Placement::kPerSlot) {
      return handle_sent_bytes_;
    } else {
      std::vector<uint64_t> out(handle_sent_bytes_.size(), 0);
      for (uint32_t pid = 0; pid < pid_bytes_.size(); ++pid) {
        if (pid_bytes_[pid] == 0) continue;
        out[isolated_ ? placement_.placed_of(static_cast<uint16_t>(pid)).handle : 0] += pid_bytes_[pid];
      }
      return out;
    }
  }

 private:
  Ftl& ftl_;
  Placement& placement_;
  fdp::StreamMap streams_;
  bool trim_keeps_partial_;
  bool trim_plus_one_;
  const TraceView& t_;
  const SimOptions& opts_;
  uint64_t interval_;
  bool ru_time_limit_;
  bool isolated_;
  uint64_t next_row_;
  uint64_t logical_bytes_;
  uint64_t sector_;
  uint64_t logical_sectors_;
  const bool has_fit_;
  const trace::SlotRemap fit_;  // a copy: lookups read its fields, not through a pointer
  const uint32_t* fit_flat_;    // fit_.slots when the table is flat (one load a lookup), else nullptr
  // The device slot of trace slot `slot` (< fit_.space) under --logical fit:.
  [[gnu::always_inline]] uint32_t fitted(uint64_t slot) const {
    return fit_flat_ != nullptr ? fit_flat_[slot] : fit_.at_blocked(slot);
  }
  // prefetch_ahead()'s rings: the device slot of record k's first slot at
  // k % kPrefetchFar, its old slot at k % kPrefetchNear.
  std::array<uint32_t, kPrefetchFar> slot_ring_{};
  std::array<uint32_t, kPrefetchNear> old_ring_{};
  bool lean_ = false;  // run_plain() applies plain writes
  // run_plain()'s decoded requests: a batch and the look-ahead after it.
  std::vector<ftl::PlainRequest> plain_;
  uint32_t slot_shift_ = 0;  // lean_: log2(sectors per slot)
  uint64_t align_mask_ = 0;  // lean_: sectors per slot - 1
  uint64_t time_ns_ = 0;
  uint64_t time_offset_ = 0;     // --repeat: added to the records' times in later passes
  std::optional<IdSeries> ids_;  // --id-series
  uint32_t fill_rgs_ = 1;        // --precondition: RGs the fill is spread over
  std::optional<uint64_t> marker_;
  uint64_t last_host_ = 0, last_nand_ = 0;
};

}  // namespace

TraceScan scan(const TraceView& trace) {
  return trace.scan ? *trace.scan : scan_records(trace.path, trace.records, trace.sector_bytes);
}

uint64_t trace_write_bytes(const TraceView& trace) { return scan(trace).write_bytes; }

namespace {

// The per-handle statistics (fdp/handle_stats.h) from the engine's counters.
template <class Ftl>
std::vector<fdp::HandleStats> collect_handles(const Ftl& ftl, const fdp::FdpConfig& fdp, uint64_t unit_bytes,
                                              std::span<const uint64_t> host_sent_bytes) {
  const auto& streams = ftl.stream_stats();
  std::vector<uint32_t> open_room(streams.size());
  for (ftl::StreamId s = 0; s < streams.size(); ++s) open_room[s] = ftl.open_room(s);
  fdp::EngineCounts counts;
  counts.streams = streams;
  counts.open_room = open_room;
  counts.unit_owner = ftl.unit_owner();
  counts.unit_state = ftl.unit_table().state;
  counts.host_slots = ftl.stats().host_slots;
  counts.host_sent_bytes = host_sent_bytes;
  counts.unit_bytes = unit_bytes;
  return fdp::handle_stats(fdp, counts);
}

// The counters of a finished run, from the engine, placement and driver.
template <class Ftl, class Place, class Drv>
void collect(const Ftl& ftl, const Place& place, const Drv& driver, const fdp::FdpConfig& fdp, SimResult& r) {
  r.ftl = ftl.stats();
  r.free_units_end = ftl.free_units();
  r.mapped_slots_end = ftl.mapped_slots();
  r.invalid_pid_requests = place.invalid_pid_requests();
  const auto& erase = ftl.unit_table().erase_count;
  r.erase_min = *std::min_element(erase.begin(), erase.end());
  r.erase_max = *std::max_element(erase.begin(), erase.end());
  uint64_t sum = 0;
  for (uint32_t e : erase) sum += e;
  r.erase_mean = static_cast<double>(sum) / static_cast<double>(erase.size());
  for (uint32_t pid = 0; pid < driver.pid_bytes_.size(); ++pid) {
    if (driver.pid_bytes_[pid] != 0)
      r.host_bytes_by_pid.emplace_back(static_cast<uint16_t>(pid), driver.pid_bytes_[pid]);
  }
  r.host_sent_bytes = 0;
  for (const uint64_t b : driver.pid_bytes_) r.host_sent_bytes += b;
  r.handles = collect_handles(ftl, fdp, r.ru_bytes, driver.host_sent_bytes());
  if constexpr (kCheckInvariants) {
    const auto problems = ftl.check_invariants();
    if (!problems.empty()) throw std::logic_error("FTL invariant violated at end: " + problems.front());
  }
}

}  // namespace

void check_reset_marker(const TraceView& trace, const ResetAt& reset) {
  if (reset.kind == ResetAt::Kind::kNone) return;
  uint64_t markers = 0;
  uint64_t low = UINT64_MAX;
  uint64_t high = 0;
  for (const trace::Record& r : trace.records) {
    if (r.op != static_cast<uint8_t>(trace::Op::kMarker)) continue;
    if (r.lba == reset.marker) return;
    ++markers;
    low = std::min(low, r.lba);
    high = std::max(high, r.lba);
  }
  std::string has = "it has no marker records";
  if (markers == 1) {
    has = fmt::format("its one marker has value {}", low);
  } else if (markers > 1) {
    has = low == high ? fmt::format("its {} markers all have value {}", markers, low)
                      : fmt::format("its {} markers have values {} to {}", markers, low, high);
  }
  throw InputError(
      say("{}: `reset-at` {}:{}: the trace has no marker of value {} ({}), so nothing would be reset "
          "and every counter would count the whole trace; give a marker value the trace holds "
          "(ftlsim dump --op marker lists them)",
          trace.path, reset.kind == ResetAt::Kind::kDevice ? "device" : "counters", reset.marker, reset.marker, has));
}

SimResult simulate(const ftl::FtlConfig& given, const TraceView& trace, const SimOptions& opts,
                   const fdp::PlacementSetup& setup) {
  if (trace.sector_bytes == 0 || trace.sector_bytes > 65536) {
    throw InputError(fmt::format("{}: unsupported sector size {}", trace.path, trace.sector_bytes));
  }
  const auto start = std::chrono::steady_clock::now();
  // --logical fit: the device's logical capacity comes from the trace.
  std::optional<FitMap> fit;
  ftl::FtlConfig cfg = given;
  if (opts.fit) {
    fit = fit_trace(trace);
    FitFootprint fp;  // what fitted_config reads of it
    fp.space = fit->space();
    fp.footprint = fit->footprint();
    cfg = fitted_config(given, fp, *opts.fit, opts.fit_op, trace.path);
  }
  const trace::SlotRemap remap = fit ? fit->view() : trace::SlotRemap{};
  const trace::SlotRemap* fit_map = fit ? &remap : nullptr;
  const fdp::FdpConfig fdp = fdp::effective_config(setup);
  const ftl::FtlLayout layout = run_layout(cfg.geometry, fdp);
  if (opts.timing) ftl::throw_if_problems(opts.timing->problems(cfg.geometry));
  if (opts.timing && opts.reset.kind != ResetAt::Kind::kNone) {
    throw InputError(say("`reset-at` works in fast mode only: a timed run cannot reset the NAND it is timing"));
  }
  if (opts.repeat == 0) throw InputError(say("`repeat` must be at least 1"));
  if (opts.repeat > 1 && opts.timing) {
    throw InputError(say("`repeat` works in fast mode only: timed mode replays the trace once"));
  }
  if (opts.repeat > 1 && opts.reset.kind != ResetAt::Kind::kNone) {
    throw InputError(
        say("`repeat` cannot be combined with `reset-at`: a reset in the first pass would leave the "
            "passes' counts unclear"));
  }
  if (opts.repeat > 1 && setup.placement.kind == fdp::PlacementKind::kOracle) {
    throw InputError(
        say("`repeat` cannot be combined with `placement` oracle, whose future knowledge covers one pass"));
  }
  if (opts.precondition != Precondition::kNone && opts.reset.kind == ResetAt::Kind::kDevice) {
    throw InputError(
        say("`precondition` cannot be combined with `reset-at` device:M, which would erase what it wrote; "
            "use `reset-at` counters:M"));
  }
  check_reset_marker(trace, opts.reset);
  uint64_t interval = opts.interval_bytes;
  // 1% of every pass's writes (--repeat).
  if (interval == 0) interval = std::max<uint64_t>(trace_write_bytes(trace) * opts.repeat / 100, kSlot);

  SimResult r;
  r.records = trace.records.size();
  r.interval_bytes = interval;
  r.ru_bytes = uint64_t{layout.slots_per_unit} * kSlot;
  r.units = layout.units;
  r.units_per_group = layout.units_per_pool();
  r.blocks_per_unit = layout.blocks_per_unit;
  r.fit_footprint_slots = fit ? fit->footprint() : 0;
  if (fit) r.fitted_geometry = cfg.geometry;
  // Builds the placement, runs `drive` with a Driver over the engine (the
  // FTL decisions are the same code in both modes) and collects the counters.
  // `quiet(true)` before preconditioning, `quiet(false)` after it: timed
  // mode times none of its NAND operations.
  const auto run_on = [&](auto& any, auto&& quiet, auto&& drive) {
    fdp::PlacementInputs inputs;
    inputs.records = trace.records;
    inputs.sector_bytes = trace.sector_bytes;
    inputs.logical_slots = cfg.geometry.logical_slots();
    inputs.wrap = opts.wrap;
    inputs.trim_keeps_partial = cfg.trim_keeps_partial;
    inputs.trim_plus_one = cfg.trim_plus_one;
    if (fit_map != nullptr) inputs.fit_map = *fit_map;
    fdp::AnyPlacement placement = fdp::make_placement(setup.placement, fdp, inputs);
    std::visit(
        [&](auto& ftl, auto& place) {
          ftl.set_unit_time_limit(fdp.ru_time_limit_ns);
          Driver driver(ftl, place, fdp, cfg, trace, opts, interval, fit_map);
          if (opts.precondition != Precondition::kNone) {
            PreconditionOrder order(opts.precondition, trace, ftl.logical_slots(), opts.wrap, fit_map, cfg.gc.seed);
            quiet(true);
            driver.precondition(order, r);
            quiet(false);
          }
          drive(driver);
          collect(ftl, place, driver, fdp, r);
          if (opts.keep_l2p) {
            r.l2p.resize(ftl.logical_slots());
            for (uint32_t l = 0; l < ftl.logical_slots(); ++l) {
              const uint32_t s = ftl.physical_of(l);
              r.l2p[l] = s == ftl::kUnmapped ? s : ftl.exported_slot(s);
            }
          }
        },
        any, placement);
  };
  if (opts.timing) {
    // Timed mode: each record applied as the host loop issues it; the FTL's
    // sink hands its NAND operations to the device.
    r.timing.emplace();
    timing::TimingResult& tr = *r.timing;
    tr.config = *opts.timing;
    tr.events = timing::EventSeries(opts.timing->event_interval_ns);
    const timing::NandMap map(cfg.geometry, run_unit_shape(cfg.geometry, fdp), layout.units);
    timing::TimedDevice device(*opts.timing, map, tr);
    auto any = ftl::make_ftl(cfg, layout, timing::TimingSink{&device});
    run_on(
        any, [&](bool on) { device.set_recording(!on); },
        [&](auto& driver) {
          // The host loop applies every record once, in trace order.
          ProgressCounter progress(opts.progress);
          driver.prime_prefetch(0);
          timing::run_host_loop(trace.records, trace.sector_bytes, *opts.timing, device, tr, [&](size_t i) {
            driver.prefetch_ahead(i);
            driver.step(i, r);
            // The GC onset (found by the step) in simulated time: the issue
            // time of the request after which it ran (set again after a
            // --reset-at, which clears the onset).
            if (r.gc_onset && !r.gc_onset->sim_time_ns) [[unlikely]]
              r.gc_onset->sim_time_ns = device.now();
            progress.tick(i + 1);
          });
          progress.finish(trace.records.size());
          driver.finish(r);
        });
  } else {
    ftl::AnyFtl any = ftl::make_ftl(cfg, layout);
    run_on(
        any, [](bool) {}, [&](auto& driver) { driver.run(r); });
  }
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ftlsim::sim
