#pragma once
// Internal to the text importers: the line loop shared by every format.
//
// A format is a parser class with
//   static constexpr bool kRebaseTime;   // write times relative to the first record
//                                        // (unless ImportOptions::keep_time)
//   bool has_device() const;             // events carry a kernel device number
//                                        // (MAJ,MIN) the hint join can match
//   bool has_process() const;            // events carry a process id / name
//   LineKind parse(std::string_view line, Event& ev, std::string& why, ImportSummary& s);
// and the driver, a template over the parser and the placement-ID source (both
// chosen once per import), does the rest per line: line-length limit,
// malformed-line policy, device filter, time rebasing, placement, output.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "core/error.h"
#include "core/io_units.h"
#include "trace/import/import.h"
#include "trace/import/marker_sidecar.h"
#include "trace/import/placement_id_source.h"
#include "trace/import/text_scan.h"
#include "trace/record.h"

namespace ftlsim::trace::detail {

// One request as a parser sees it, before placement and time rebasing.
struct Event {
  uint64_t time_ns = 0;  // on the source's clock
  uint64_t lba = 0;
  uint32_t sectors = 0;
  Op op = Op::kWrite;
  uint32_t dev = 0;   // device (blk formats: make_dev(major, minor))
  uint32_t proc = 0;  // process id (blk formats)
  bool has_pid = false;
  PlacementId pid = 0;    // a placement ID the line itself carries (csv pid column)
  std::string_view comm;  // process name (blk formats), a view into the line
};

enum class LineKind : uint8_t {
  kEvent,  // `ev` holds a request
  kSkip,   // nothing to import; the parser counted why where it matters
  kBad,    // malformed; `why` says how
};

// Counts a malformed line or throws once the limit is passed: the one
// message format for every importer.
// `unit` names what `line_no` counts (records in a binary format).
inline void on_bad_line(const std::string& source, uint64_t line_no, const std::string& why, uint64_t skip_bad,
                        uint64_t& bad_lines, uint64_t* first_bad_line = nullptr,
                        std::string* first_bad_reason = nullptr, std::string_view unit = "line") {
  if (bad_lines < skip_bad) {
    if (bad_lines == 0 && first_bad_line != nullptr) {
      *first_bad_line = line_no;
      *first_bad_reason = why;
    }
    ++bad_lines;
    return;
  }
  if (skip_bad > 0) {
    throw InputError(fmt::format("{}: {} {}: {} (the limit of {} malformed {}s is reached)", source, unit, line_no, why,
                                 skip_bad, unit));
  }
  throw InputError(fmt::format("{}: {} {}: {}", source, unit, line_no, why));
}

// Records leave the driver in chunks, through one indirect call per chunk.
class RecordSink {
 public:
  using FlushFn = void (*)(void* ctx, std::span<const Record> records);
  // The buffer grows to kChunk on demand: a short import (a test, a fuzz
  // input) does not pay for 384 KiB up front.
  RecordSink(FlushFn fn, void* ctx) : fn_(fn), ctx_(ctx) {}
  void push(const Record& r) {
    buf_.push_back(r);
    if (buf_.size() == kChunk) flush();
  }
  void flush() {
    if (!buf_.empty()) fn_(ctx_, buf_);
    buf_.clear();
  }

 private:
  static constexpr size_t kChunk = 16384;
  FlushFn fn_;
  void* ctx_;
  std::vector<Record> buf_;
};

// Requests per device, counted once per line: the last device's counter is
// cached, so a run of one device costs a compare.
class DeviceTally {
 public:
  void add(uint32_t dev) {
    if (last_ == nullptr || dev != last_dev_) {
      last_dev_ = dev;
      last_ = &counts_[dev];
    }
    ++*last_;
  }
  // By device number.
  [[nodiscard]] std::vector<std::pair<uint32_t, uint64_t>> sorted() const {
    std::vector<std::pair<uint32_t, uint64_t>> out(counts_.begin(), counts_.end());
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::unordered_map<uint32_t, uint64_t> counts_;
  uint32_t last_dev_ = 0;
  uint64_t* last_ = nullptr;
};

// --- placement-ID sources --------------------------------------------------

struct ConstantPlacer {
  PlacementId pid = 0;
  PlacementId place(const Event& ev) { return ev.has_pid ? ev.pid : pid; }
  void report(ImportSummary&) const {}
};

struct MapPlacer {
  const PidMap* map = nullptr;
  uint64_t matched = 0;
  uint64_t unmatched = 0;
  PlacementId place(const Event& ev) {
    bool hit = false;
    const PlacementId pid = map->lookup(ev.proc, ev.comm, ev.lba, hit);
    ++(hit ? matched : unmatched);
    return pid;
  }
  void report(ImportSummary& s) const {
    s.map_matched = matched;
    s.map_unmatched = unmatched;
  }
};

// Writes take the hint of the nearest overlapping hint-log row; everything
// else gets 0 (placement only steers writes).
struct HintPlacer {
  HintIndex* index = nullptr;
  const std::vector<PlacementId>* map = nullptr;  // hint value -> placement ID
  uint64_t tolerance_ns = 0;
  int64_t offset_ns = 0;
  uint64_t matched = 0;
  uint64_t unmatched = 0;
  uint64_t unmatched_sectors = 0;
  PlacementId place(const Event& ev) {
    if (ev.op != Op::kWrite) return 0;
    uint64_t t = ev.time_ns;
    if (offset_ns >= 0) {
      const auto off = static_cast<uint64_t>(offset_ns);
      t = t > std::numeric_limits<uint64_t>::max() - off ? std::numeric_limits<uint64_t>::max() : t + off;
    } else {
      const uint64_t off = 0 - static_cast<uint64_t>(offset_ns);
      t = t < off ? 0 : t - off;
    }
    const std::optional<uint16_t> v = index->lookup(ev.dev, ev.lba, ev.sectors, t, tolerance_ns);
    if (!v) {
      ++unmatched;
      unmatched_sectors += ev.sectors;
      return 0;
    }
    ++matched;
    return (*map)[*v];
  }
  void report(ImportSummary& s) const {
    s.hint_matched = matched;
    s.hint_unmatched = unmatched;
    s.hint_unmatched_bytes = unmatched_sectors * kSectorBytes;
  }
};

using Placer = std::variant<ConstantPlacer, MapPlacer, HintPlacer>;

// Everything a format's run function gets from import.cpp.
struct DriveContext {
  // Every input file's bytes and name (for messages), at least one; only a
  // binary format (blktrace's per-CPU files) takes more than one.
  std::span<const std::string_view> texts;
  std::span<const std::string> sources;
  const ImportOptions* options = nullptr;
  std::optional<uint32_t> device;  // parsed --device
  Placer* placer = nullptr;
  RecordSink* sink = nullptr;
  ImportSummary* summary = nullptr;
  const std::vector<MarkerPoint>* markers = nullptr;  // sidecar markers, time order; may be null
  DeviceTally* devices = nullptr;                     // requests per device, before the device filter

  // A text format's one input.
  [[nodiscard]] std::string_view text() const { return texts.front(); }
  [[nodiscard]] const std::string& source() const { return sources.front(); }
};

// Emits sidecar markers into the record stream as the trace's time passes
// them (see ImportOptions::markers).
class MarkerMerger {
 public:
  MarkerMerger(const std::vector<MarkerPoint>* points, int64_t offset_ns) : offset_ns_(offset_ns) {
    if (points != nullptr) points_ = std::span<const MarkerPoint>(*points);
  }
  // Before a request at `source_time` (the block trace's clock) is pushed:
  // every marker not later than it, at `base` rebased times (`rebase`) or
  // source times.
  void before(uint64_t source_time, bool rebase, uint64_t base, bool first, RecordSink& sink, ImportSummary& s) {
    const uint64_t t = on_sidecar_clock(source_time);
    while (next_ < points_.size() && points_[next_].time_ns <= t) {
      if (first) ++s.markers_before_first;
      emit(points_[next_++], rebase, base, sink, s);
    }
  }
  // After the last request: the markers left.
  void finish(bool rebase, uint64_t base, RecordSink& sink, ImportSummary& s) {
    while (next_ < points_.size()) {
      ++s.markers_after_last;
      emit(points_[next_++], rebase, base, sink, s);
    }
  }

 private:
  uint64_t on_sidecar_clock(uint64_t t) const {
    if (offset_ns_ >= 0) {
      const auto off = static_cast<uint64_t>(offset_ns_);
      return t > std::numeric_limits<uint64_t>::max() - off ? std::numeric_limits<uint64_t>::max() : t + off;
    }
    const uint64_t off = 0 - static_cast<uint64_t>(offset_ns_);
    return t < off ? 0 : t - off;
  }
  // Sidecar time back on the block trace's clock, then rebased.
  uint64_t record_time(uint64_t sidecar_t, bool rebase, uint64_t base) const {
    uint64_t t = sidecar_t;
    if (offset_ns_ >= 0) {
      const auto off = static_cast<uint64_t>(offset_ns_);
      t = t < off ? 0 : t - off;
    } else {
      const uint64_t off = 0 - static_cast<uint64_t>(offset_ns_);
      t = t > std::numeric_limits<uint64_t>::max() - off ? std::numeric_limits<uint64_t>::max() : t + off;
    }
    if (!rebase) return t;
    return t < base ? 0 : t - base;
  }
  void emit(const MarkerPoint& m, bool rebase, uint64_t base, RecordSink& sink, ImportSummary& s) {
    Record r{};
    r.time_ns = record_time(m.time_ns, rebase, base);
    r.lba = m.value;
    r.op = static_cast<uint8_t>(Op::kMarker);
    sink.push(r);
    ++s.ops[static_cast<size_t>(Op::kMarker)];
    ++s.records;
    ++s.markers;
  }

  std::span<const MarkerPoint> points_;
  size_t next_ = 0;
  int64_t offset_ns_ = 0;
};

// What every format does with a request it parsed, in input order: counts
// its device, applies the device filter, rebases its time, places it, merges
// the sidecar markers before it and pushes the record.
template <class P>
class EventWriter {
 public:
  EventWriter(P& placer, const DriveContext& ctx, bool rebase)
      : placer_(placer),
        ctx_(ctx),
        s_(*ctx.summary),
        markers_(ctx.markers, ctx.options->markers_offset_ns),
        rebase_(rebase) {}

  void write(const Event& ev) {
    ctx_.devices->add(ev.dev);
    if (ctx_.device && ev.dev != *ctx_.device) {
      ++s_.filtered;
      return;
    }
    if (s_.records > 0 && ev.time_ns < last_) ++s_.backwards_timestamps;
    last_ = ev.time_ns;
    Record r{};
    if (rebase_) {
      if (!have_base_) {
        have_base_ = true;
        base_ = ev.time_ns;
      }
      if (ev.time_ns >= base_) {
        r.time_ns = ev.time_ns - base_;
      } else {
        r.time_ns = 0;
        ++s_.before_first;
      }
    } else {
      r.time_ns = ev.time_ns;
    }
    r.lba = ev.lba;
    r.sectors = ev.sectors;
    r.op = static_cast<uint8_t>(ev.op);
    r.flags = 0;
    r.pid = placer_.place(ev);
    markers_.before(ev.time_ns, rebase_, base_, s_.records == s_.markers, *ctx_.sink, s_);
    ++s_.ops[static_cast<size_t>(ev.op)];
    ++s_.records;
    ctx_.sink->push(r);
  }

  // After the last request: the markers left, and the placer's counts.
  void finish() {
    markers_.finish(rebase_, base_, *ctx_.sink, s_);
    placer_.report(s_);
  }

 private:
  P& placer_;
  const DriveContext& ctx_;
  ImportSummary& s_;
  MarkerMerger markers_;
  bool rebase_;
  bool have_base_ = false;
  uint64_t base_ = 0;
  uint64_t last_ = 0;
};

template <class Parser, class P>
void drive_with(Parser& parser, P& placer, const DriveContext& ctx) {
  ImportSummary& s = *ctx.summary;
  const uint64_t skip_bad = ctx.options->skip_bad;
  scan::LineCursor cursor(ctx.text());
  std::string why;
  std::string_view line;
  Event ev;
  EventWriter<P> out(placer, ctx, Parser::kRebaseTime && !ctx.options->keep_time);
  ProgressLine* const progress = ctx.options->progress;
  while (cursor.next(line)) {
    if (progress != nullptr && (cursor.line_no() & (kProgressBatch - 1)) == 0) [[unlikely]] {
      progress->set(cursor.pos());
    }
    LineKind kind;
    if (cursor.overlong()) {  // cut at the limit: nothing past it was read
      why = scan::overlong_line_message();
      kind = LineKind::kBad;
    } else {
      ev.has_pid = false;
      ev.comm = {};
      ev.proc = 0;
      ev.dev = 0;
      kind = parser.parse(line, ev, why, s);
    }
    if (kind == LineKind::kSkip) continue;
    if (kind == LineKind::kBad) {
      on_bad_line(ctx.source(), cursor.line_no(), why, skip_bad, s.bad_lines, &s.first_bad_line, &s.first_bad_reason);
      cursor.skip_overlong();  // skipped (--skip-bad): on to its end
      continue;
    }
    out.write(ev);
  }
  out.finish();
  if (progress != nullptr) progress->set(ctx.text().size());
  s.lines = cursor.line_no();
}

// Runs `parser` over the context's text with its placement-ID source: the one
// std::visit per import.
template <class Parser>
void drive(Parser& parser, const DriveContext& ctx) {
  if (auto* m = std::get_if<MapPlacer>(ctx.placer);
      m != nullptr && m->map->has_process_rules() && !parser.has_process()) {
    throw InputError(say("{}: the pid map has comm: or pid: rules, but `from` {} records no processes",
                         ctx.options->placement.pid_map, format_name(ctx.options->format)));
  }
  if (auto* h = std::get_if<HintPlacer>(ctx.placer); h != nullptr) h->index->set_match_device(parser.has_device());
  std::visit([&](auto& placer) { drive_with(parser, placer, ctx); }, *ctx.placer);
  ctx.sink->flush();
}

// One run function per format (formats_*.cpp), indexed by TextFormat.
void run_disksim(const DriveContext& ctx);
void run_blkparse(const DriveContext& ctx);
void run_ftrace_blk(const DriveContext& ctx);
void run_msr(const DriveContext& ctx);
void run_alibaba(const DriveContext& ctx);
void run_tencent(const DriveContext& ctx);
void run_csv(const DriveContext& ctx);
void run_blktrace(const DriveContext& ctx);

// Throws InputError for --columns or --op-map that no CSV could satisfy
// (what the header must hold is checked when it is read).
void check_csv_options(const ImportOptions& o);

// Whether the first line of a CSV file is a header: its first field starts
// with a letter where data would have a number.
[[nodiscard]] inline bool looks_like_header(std::string_view first_field) {
  first_field = scan::trim(first_field);
  return !first_field.empty() &&
         ((first_field[0] >= 'a' && first_field[0] <= 'z') || (first_field[0] >= 'A' && first_field[0] <= 'Z'));
}

// The fixed-column CSV formats (msr, alibaba, tencent): splits `line` on ','
// into `f`. kSkip for a blank line and for a header on the first line (the
// caller keeps `first`, true until the first line is seen); kBad with `why`
// naming the `columns` when the field count is not `expected`; else kEvent.
template <size_t N>
[[nodiscard]] LineKind split_fixed_csv(std::string_view line, std::string_view (&f)[N], size_t expected,
                                       std::string_view columns, bool& first, std::string& why, ImportSummary& s) {
  static_assert(N > 0);
  if (scan::is_blank_line(line)) return LineKind::kSkip;
  const size_t n = scan::split(line, ',', f);
  if (first) {
    first = false;
    if (looks_like_header(f[0])) {
      ++s.header_lines;
      return LineKind::kSkip;
    }
  }
  if (n != expected) {
    why = fmt::format("expected {} fields ({}), found {}", expected, columns, n);
    return LineKind::kBad;
  }
  return LineKind::kEvent;
}

// A read/write column spelled with two words (case-insensitive), e.g.
// Write/Read or W/R. False with `why` for anything else.
[[nodiscard]] inline bool parse_rw_word(std::string_view text, std::string_view write_word, std::string_view read_word,
                                        std::string_view what, Event& ev, std::string& why) {
  text = scan::trim(text);
  if (scan::iequals(text, write_word)) {
    ev.op = Op::kWrite;
  } else if (scan::iequals(text, read_word)) {
    ev.op = Op::kRead;
  } else {
    why = fmt::format("{} {} is neither {} nor {}", what, scan::quote(text), read_word, write_word);
    return false;
  }
  return true;
}

// Shared by the byte-addressed formats: the 512-byte sectors covering
// [offset, offset + bytes). False with `why` when bytes is 0 or the result
// does not fit (sectors in 32 bits, end in 64). Counts unaligned requests.
[[nodiscard]] inline bool covering_sectors(uint64_t offset, uint64_t bytes, Event& ev, std::string& why,
                                           ImportSummary& s) {
  if (bytes == 0) {
    why = "size is 0 bytes (zero-length request)";
    return false;
  }
  if (bytes > uint64_t{kSectorBytes} * std::numeric_limits<uint32_t>::max() - 2 * kSectorBytes) {
    why = fmt::format("size {} bytes is more than 2^32 - 3 sectors", bytes);
    return false;
  }
  if (offset > std::numeric_limits<uint64_t>::max() - bytes) {
    why = fmt::format("offset {} + size {} overflows 64 bits", offset, bytes);
    return false;
  }
  const uint64_t first = offset / kSectorBytes;
  const uint64_t end = first + (offset % kSectorBytes + bytes + kSectorBytes - 1) / kSectorBytes;
  if (offset % kSectorBytes != 0 || bytes % kSectorBytes != 0) ++s.unaligned;
  ev.lba = first;
  ev.sectors = static_cast<uint32_t>(end - first);
  return true;
}

}  // namespace ftlsim::trace::detail
