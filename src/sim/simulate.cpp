#include "sim/simulate.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <variant>

#include "core/error.h"
#include "ftl/any_ftl.h"
#include "trace/ftr_reader.h"

namespace ftlsim::sim {
namespace {

using trace::Op;
using trace::Record;

constexpr uint32_t kSlot = ftl::kSlotBytes;
// Records ahead whose first slot's l2p entry, then valid-bit word, is prefetched.
constexpr size_t kPrefetchDistance = 64;
constexpr size_t kPrefetchNear = 16;

[[noreturn]] void bad_record(const TraceView& t, uint64_t index, const std::string& why) {
  throw InputError(fmt::format("{}: record {}: {}", t.path, index, why));
}

template <class Ftl>
class Driver {
 public:
  Driver(Ftl& ftl, const TraceView& t, const SimOptions& o, uint64_t interval)
      : ftl_(ftl), t_(t), opts_(o), interval_(interval), next_row_(interval),
        logical_bytes_(uint64_t{ftl.logical_slots()} * kSlot), sector_(t.sector_bytes),
        logical_sectors_(logical_bytes_ / sector_) {}

  void run(SimResult& r) {
    const auto records = t_.records;
    const size_t n = records.size();
    const size_t progress_step = size_t{1} << 22;
    for (size_t i = 0; i < n; ++i) {
      if (i + kPrefetchDistance < n) {
        const Record& ahead = records[i + kPrefetchDistance];
        if (ahead.op == static_cast<uint8_t>(Op::kWrite)) {
          const uint64_t slot = ahead.lba * sector_ / kSlot;
          if (slot < ftl_.logical_slots()) ftl_.prefetch(static_cast<uint32_t>(slot));
        }
      }
      if (i + kPrefetchNear < n) {
        const Record& near = records[i + kPrefetchNear];
        if (near.op == static_cast<uint8_t>(Op::kWrite)) {
          const uint64_t slot = near.lba * sector_ / kSlot;
          if (slot < ftl_.logical_slots()) ftl_.prefetch_mapped(static_cast<uint32_t>(slot));
        }
      }
      const Record& rec = records[i];
      time_ns_ = rec.time_ns;
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
          continue;  // not a device request: no GC opportunity
        default: bad_record(t_, i, trace::check_record(rec));
      }
      ftl_.after_request();
      if (!r.gc_onset && ftl_.stats().gc_passes > 0) [[unlikely]] {
        r.gc_onset = GcOnset{ftl_.stats().gc_onset_host_slots * kSlot, time_ns_, marker_};
      }
      if (ftl_.stats().host_slots * kSlot >= next_row_) [[unlikely]] {
        add_row(r);
        while (next_row_ <= ftl_.stats().host_slots * kSlot) next_row_ += interval_;
      }
      if (opts_.progress && (i & (progress_step - 1)) == 0 && i > 0) [[unlikely]] {
        std::fprintf(stderr, "\rftlsim: %5.1f%% of %zu records", 100.0 * static_cast<double>(i) / static_cast<double>(n), n);
      }
    }
    if (opts_.progress) std::fprintf(stderr, "\r%60s\r", "");
    if (r.timeseries.empty() || r.timeseries.back().host_bytes != ftl_.stats().host_slots * kSlot) {
      add_row(r);
    }
  }

 private:
  // Byte range of a read/write/trim, checked against the device. Returns the
  // first slot and the slot count; sets partial flags for unaligned ends.
  struct Span {
    uint64_t first_slot, slots;
    bool head_partial, tail_partial;
  };

  Span span_of(const Record& rec, uint64_t index, RequestCounts& c) {
    if (rec.sectors == 0) bad_record(t_, index, trace::check_record(rec));
    uint64_t lba = rec.lba;
    const uint64_t logical_sectors = logical_sectors_;
    if (lba >= logical_sectors || logical_sectors - lba < rec.sectors) {
      if (!opts_.wrap) {
        bad_record(t_, index,
                   fmt::format("{} of sectors [{}, {}) ends beyond the logical capacity of {} sectors; "
                               "use --wrap to fold LBAs into the device, or a larger --logical",
                               trace::op_name(static_cast<Op>(rec.op)), rec.lba,
                               rec.lba > UINT64_MAX - rec.sectors ? UINT64_MAX : rec.lba + rec.sectors,
                               logical_sectors));
      }
      ++c.wrapped_requests;
      lba %= logical_sectors;  // the tail past the end wraps slot by slot in lpn()
    }
    const uint64_t begin = lba * sector_;
    const uint64_t end = begin + uint64_t{rec.sectors} * sector_;
    Span s{};
    s.first_slot = begin / kSlot;
    s.slots = (end + kSlot - 1) / kSlot - s.first_slot;
    s.head_partial = begin % kSlot != 0;
    s.tail_partial = end % kSlot != 0;
    return s;
  }

  uint32_t lpn(uint64_t slot) const {
    const uint64_t n = ftl_.logical_slots();
    return static_cast<uint32_t>(slot < n ? slot : slot % n);
  }

  void do_write(const Record& rec, uint64_t index, RequestCounts& c) {
    ++c.writes;
    const Span s = span_of(rec, index, c);
    for (uint64_t k = 0; k < s.slots; ++k) {
      const uint32_t p = lpn(s.first_slot + k);
      if ((k == 0 && s.head_partial) || (k + 1 == s.slots && s.tail_partial)) [[unlikely]] {
        ++c.rmw_slots;
        if (ftl_.is_mapped(p)) ++c.rmw_read_slots;
      }
      ftl_.write(p);
    }
    pid_bytes_[rec.pid] += uint64_t{rec.sectors} * sector_;
  }

  void do_read(const Record& rec, uint64_t index, RequestCounts& c) {
    ++c.reads;
    const Span s = span_of(rec, index, c);
    c.read_slots += s.slots;
    for (uint64_t k = 0; k < s.slots; ++k) {
      if (!ftl_.is_mapped(lpn(s.first_slot + k))) ++c.unmapped_read_slots;
    }
  }

  void do_trim(const Record& rec, uint64_t index, RequestCounts& c) {
    ++c.trims;
    const Span s = span_of(rec, index, c);
    for (uint64_t k = 0; k < s.slots; ++k) {
      if ((k == 0 && s.head_partial) || (k + 1 == s.slots && s.tail_partial)) {
        ++c.partial_trim_slots;  // a device cannot unmap part of a mapping unit
        continue;
      }
      ftl_.trim(lpn(s.first_slot + k));
    }
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
    row.free_lines = ftl_.free_lines();
    row.valid_ratio = static_cast<double>(ftl_.mapped_slots()) / static_cast<double>(ftl_.physical_slots());
    row.gc_bytes = st.gc_slots * kSlot;
    row.erases = st.line_erases;
    row.marker = marker_;
    last_host_ = st.host_slots;
    last_nand_ = st.nand_slots();
    r.timeseries.push_back(row);
  }

 public:
  std::vector<uint64_t> pid_bytes_ = std::vector<uint64_t>(65536, 0);

 private:
  Ftl& ftl_;
  const TraceView& t_;
  const SimOptions& opts_;
  uint64_t interval_;
  uint64_t next_row_;
  uint64_t logical_bytes_;
  uint64_t sector_;
  uint64_t logical_sectors_;
  uint64_t time_ns_ = 0;
  std::optional<uint64_t> marker_;
  uint64_t last_host_ = 0, last_nand_ = 0;
};

}  // namespace

uint64_t trace_write_bytes(const TraceView& trace) {
  uint64_t bytes = 0;
  for (const Record& r : trace.records) {
    if (r.op == static_cast<uint8_t>(Op::kWrite)) bytes += uint64_t{r.sectors} * trace.sector_bytes;
  }
  return bytes;
}

SimResult simulate(const ftl::FtlConfig& cfg, const TraceView& trace, const SimOptions& opts) {
  if (trace.sector_bytes == 0 || trace.sector_bytes > 65536) {
    throw InputError(fmt::format("{}: unsupported sector size {}", trace.path, trace.sector_bytes));
  }
  const auto start = std::chrono::steady_clock::now();
  ftl::AnyFtl any = ftl::make_ftl(cfg);
  uint64_t interval = opts.interval_bytes;
  if (interval == 0) interval = std::max<uint64_t>(trace_write_bytes(trace) / 100, kSlot);

  SimResult r;
  r.records = trace.records.size();
  r.interval_bytes = interval;
  std::visit(
      [&](auto& ftl) {
        Driver driver(ftl, trace, opts, interval);
        driver.run(r);
        r.ftl = ftl.stats();
        r.free_lines_end = ftl.free_lines();
        r.mapped_slots_end = ftl.mapped_slots();
        const auto& erase = ftl.lines().erase_count;
        r.erase_min = *std::min_element(erase.begin(), erase.end());
        r.erase_max = *std::max_element(erase.begin(), erase.end());
        uint64_t sum = 0;
        for (uint32_t e : erase) sum += e;
        r.erase_mean = static_cast<double>(sum) / static_cast<double>(erase.size());
        for (uint32_t pid = 0; pid < driver.pid_bytes_.size(); ++pid) {
          if (driver.pid_bytes_[pid] != 0) r.host_bytes_by_pid.emplace_back(static_cast<uint16_t>(pid), driver.pid_bytes_[pid]);
        }
        if constexpr (ftl::kCheckInvariants) {
          const auto problems = ftl.check_invariants();
          if (!problems.empty()) throw std::logic_error("FTL invariant violated at end: " + problems.front());
        }
      },
      any);
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ftlsim::sim
