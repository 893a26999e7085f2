#pragma once
// Seeded synthetic workloads (`ftlsim gen`): a SynthSpec describes the
// pattern, generate() streams the resulting trace::Records into any sink
// with `append(const trace::Record&)` (an FtrWriter, a VectorSink, a
// counter). Same spec -> the same records, bit for bit, on every platform.
//
// Units: the address space is split into *pages* of `io_bytes` (the request
// size); every measured request covers exactly one page, page-aligned. LBAs
// are 512-byte sectors. Record i (markers excluded) has time_ns = i * iat_ns.
//
// Trace layout:
//   [fill]      one sequential pass over the space in fill_io_bytes requests,
//               split at region boundaries and tagged with the region's pid
//   [measured]  requests until `writes` writes have been emitted; each is a
//               read with probability read_ratio, a trim with trim_ratio,
//               else a write; a marker (lba = writes so far) follows every
//               marker_every-th write
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/atomic_file.h"
#include "core/progress_line.h"
#include "core/rng.h"
#include "core/setting.h"
#include "trace/record.h"
#include "trace/trace_meta.h"
#include "workload/zipf.h"

namespace ftlsim::workload {

enum class Pattern : uint8_t {
  kSeq,      // sequential writes from page 0, wrapping at the end of the space
  kUniform,  // uniform random pages over the whole space
  kZipf,     // zipf(theta) over pages, ranks scattered by ScatterPermutation
  kHotCold,  // hot_writes of the writes into the first hot_space of the space
  kStreams,  // several streams, each uniform within its own region
};
inline constexpr Pattern kAllPatterns[] = {Pattern::kSeq, Pattern::kUniform, Pattern::kZipf, Pattern::kHotCold,
                                           Pattern::kStreams};

// "seq", "uniform", "zipf", "hotcold", "streams".
[[nodiscard]] std::string_view pattern_name(Pattern p);
[[nodiscard]] std::optional<Pattern> parse_pattern(std::string_view name);

// One stream of the `streams` pattern.
struct StreamShare {
  double write_share = 0;  // fraction of requests that go to this stream, in [0, 1]
  double space_share = 0;  // fraction of the logical space it owns, in (0, 1]
};

// Every field has a usable default except logical_bytes.
struct SynthSpec {
  Pattern pattern = Pattern::kUniform;
  uint64_t logical_bytes = 0;        // logical space; required, a multiple of io_bytes
  uint64_t io_bytes = 4096;          // measured request size; a multiple of 512
  uint64_t writes = 0;               // measured writes (requests) to emit; 0 = none
  uint64_t iat_ns = 10'000;          // fixed inter-arrival time between records
  bool fill = false;                 // precede with one sequential pass over the space
  uint64_t fill_io_bytes = 1 << 20;  // fill request size; a multiple of io_bytes
  double read_ratio = 0;             // fraction of measured requests that are reads
  double trim_ratio = 0;             // fraction of measured requests that are trims
  uint64_t marker_every = 0;         // a marker after every N measured writes; 0 = none
  uint64_t seed = 1;
  double theta = 0.99;               // zipf: skew, > 0 (1 allowed)
  double hot_space = 0.1;            // hotcold: fraction of the space that is hot, (0, 1)
  double hot_writes = 0.9;           // hotcold: fraction of requests that go there, [0, 1]
  std::vector<StreamShare> streams;  // streams: shares, each summing to 1

  // Every problem, empty when the spec is usable. Options that do not
  // apply to `pattern` are not checked.
  [[nodiscard]] std::vector<Problem> problems() const;
  // Throws InputError listing every problem ("invalid workload: a; b; c").
  void validate() const;
};

// A contiguous run of pages owned by one placement ID.
struct Region {
  uint64_t first_page = 0;
  uint64_t pages = 0;
  trace::PlacementId pid = 0;
  std::string name;  // "hot"/"cold", "s0", "s1", ...; "" for one-region patterns
  double write_share = 1.0;
};

// The disjoint regions that tile [0, pages): one (pid 0, unnamed) for seq,
// uniform and zipf; hot (pid 0) then cold (pid 1) for hotcold; one per
// stream (pid i) for streams. Region boundaries are the space shares
// rounded to the nearest page. REQUIRES: spec.problems() is empty.
[[nodiscard]] std::vector<Region> regions(const SynthSpec& spec);

// Number of requests the fill pass emits (0 without fill). REQUIRES: valid.
[[nodiscard]] uint64_t fill_request_count(const SynthSpec& spec);

// Expected number of records generate() emits: fill requests, then writes
// / (1 - read_ratio - trim_ratio) measured requests (reads and trims are
// drawn at random, so the count varies around this), plus markers.
// REQUIRES: valid.
[[nodiscard]] double expected_record_count(const SynthSpec& spec);

// A canonical `ftlsim gen ...` command line that reproduces the spec (no -o).
[[nodiscard]] std::string command_line(const SynthSpec& spec);

// Header metadata: source=ftlsim gen, generator=<command_line>, every
// parameter as its own key, region.<name> extents, and pid names (hotcold,
// streams). REQUIRES: valid.
[[nodiscard]] trace::TraceMeta make_trace_meta(const SynthSpec& spec);

// Option-value parsers (return nullopt on malformed input or overflow).
// Counts are core/units parse_count; `--writes 2G` is ambiguous (see
// count_suffix).
// "2G" -> {2, 9}: digits and one letter K, M, G or T (any case), the form a
// size takes; the caller refuses it as a count and says both readings.
struct CountSuffix {
  uint64_t value = 0;
  uint32_t decimal_exponent = 0;  // K 3, M 6, G 9, T 12
};
[[nodiscard]] std::optional<CountSuffix> count_suffix(std::string_view text);
// "0.5:0.05,0.3:0.25,0.2:0.7" -> {{0.5,0.05},{0.3,0.25},{0.2,0.7}}. Throws
// InputError naming the malformed entry. Does not check the sums (validate does).
[[nodiscard]] std::vector<StreamShare> parse_streams(std::string_view text);

// What generate() emitted.
struct GenerateStats {
  uint64_t fill = 0;    // fill writes
  uint64_t writes = 0;  // measured writes
  uint64_t reads = 0;
  uint64_t trims = 0;
  uint64_t markers = 0;
  [[nodiscard]] uint64_t total() const { return fill + writes + reads + trims + markers; }
};

template <typename S>
concept RecordSink = requires(S& s, const trace::Record& r) {
  s.append(r);
};

// Collects records in memory (tests, small traces).
struct VectorSink {
  std::vector<trace::Record> records;
  void append(const trace::Record& r) { records.push_back(r); }
};

// Streams the whole trace into `sink`. Validates first (throws InputError);
// no allocation per record.
template <RecordSink Sink>
GenerateStats generate(const SynthSpec& spec, Sink& sink);

// generate() into a vector.
[[nodiscard]] std::vector<trace::Record> generate_records(const SynthSpec& spec);

// generate() into a new .ftr file at `path` with make_trace_meta(spec); the
// file appears only when complete. Throws InputError / SystemError, and
// InputError (leaving no file) once more than `max_records` records would be
// written: the caller's bound (the output's free space), which random reads
// and trims could otherwise pass. Records written are added to `progress`
// (when set) every kProgressBatch records and at the end.
// (Defined in synth_ftr.cpp so that in-memory users need no FtrWriter.)
GenerateStats write_ftr(const SynthSpec& spec, const std::string& path, Existing existing = Existing::kReplace,
                        uint64_t max_records = UINT64_MAX, ProgressLine* progress = nullptr);
// The same into the output file `out`, opened and checked (OutputFile:
// `gen -o`): written into the folder that was checked.
GenerateStats write_ftr(const SynthSpec& spec, OutputFile out, uint64_t max_records = UINT64_MAX,
                        ProgressLine* progress = nullptr);

// ---------------------------------------------------------------------------
// Implementation.
namespace detail {

// The spec reduced to what the record loops need.
struct Plan {
  Pattern pattern = Pattern::kUniform;
  uint64_t pages = 0;
  uint32_t page_sectors = 0;
  uint32_t fill_sectors = 0;  // 0: no fill
  uint64_t writes = 0;
  uint64_t iat_ns = 0;
  uint64_t marker_every = 0;
  uint64_t seed = 0;
  double theta = 0;
  bool mixed = false;           // any reads or trims
  uint64_t read_below = 0;      // next53() < read_below -> read
  uint64_t trim_below = 0;      // else next53() < trim_below -> trim, else write
  std::vector<Region> regions;  // tile the space in page order
  // Cumulative write shares scaled to Rng::kUnit53; the last is kUnit53.
  std::vector<uint64_t> region_below;
};

// Validates (throws InputError) and derives the plan.
[[nodiscard]] Plan make_plan(const SynthSpec& spec);

struct Target {
  uint64_t page;
  trace::PlacementId pid;
};

// Separate cursors per op so that writes stay one sequential stream when
// reads or trims are mixed in.
class SeqAddresses {
 public:
  explicit SeqAddresses(uint64_t pages) : pages_(pages) {}
  Target next(Rng& /*rng*/, trace::Op op) {
    uint64_t& c = cursor_[static_cast<unsigned>(op)];
    const Target t{c, 0};
    if (++c == pages_) c = 0;
    return t;
  }

 private:
  uint64_t pages_;
  uint64_t cursor_[3] = {};  // write, read, trim
};

class UniformAddresses {
 public:
  explicit UniformAddresses(uint64_t pages) : pages_(pages) {}
  Target next(Rng& rng, trace::Op /*op*/) { return {rng.below(pages_), 0}; }

 private:
  uint64_t pages_;
};

class ZipfAddresses {
 public:
  ZipfAddresses(uint64_t pages, double theta) : zipf_(pages, theta), scatter_(pages) {}
  Target next(Rng& rng, trace::Op /*op*/) { return {scatter_(zipf_(rng) - 1), 0}; }

 private:
  ZipfSampler zipf_;
  ScatterPermutation scatter_;
};

// Picks a region by write share, then a uniform page inside it.
class RegionAddresses {
 public:
  explicit RegionAddresses(const Plan& plan) : plan_(plan) {}
  Target next(Rng& rng, trace::Op /*op*/) {
    const uint64_t u = rng.next53();
    const std::vector<uint64_t>& below = plan_.region_below;
    size_t i = 0;
    if (below.size() <= 16) {
      while (u >= below[i]) ++i;  // the last bound is 2^53 > u
    } else {
      i = static_cast<size_t>(std::upper_bound(below.begin(), below.end(), u) - below.begin());
    }
    const Region& r = plan_.regions[i];
    return {r.first_page + rng.below(r.pages), r.pid};
  }

 private:
  const Plan& plan_;
};

template <typename Sink>
void emit_fill(const Plan& plan, Sink& sink, uint64_t& now, GenerateStats& stats) {
  trace::Record rec{};
  rec.op = static_cast<uint8_t>(trace::Op::kWrite);
  for (const Region& region : plan.regions) {
    uint64_t lba = region.first_page * plan.page_sectors;
    const uint64_t end = (region.first_page + region.pages) * plan.page_sectors;
    rec.pid = region.pid;
    while (lba < end) {
      const uint64_t left = end - lba;
      rec.sectors = left < plan.fill_sectors ? static_cast<uint32_t>(left) : plan.fill_sectors;
      rec.lba = lba;
      rec.time_ns = now;
      now += plan.iat_ns;
      sink.append(rec);
      lba += rec.sectors;
      ++stats.fill;
    }
  }
}

template <bool kMixed, typename Sink, typename Addresses>
void emit_measured(const Plan& plan, Addresses& addresses, Rng& rng, Sink& sink, uint64_t& now, GenerateStats& stats) {
  trace::Record rec{};
  rec.sectors = plan.page_sectors;
  trace::Record marker{};
  marker.op = static_cast<uint8_t>(trace::Op::kMarker);
  // Counts down to the next marker; never reaches 0 when markers are off.
  uint64_t until_marker = plan.marker_every == 0 ? ~uint64_t{0} : plan.marker_every;
  uint64_t written = 0;
  while (written < plan.writes) {
    trace::Op op = trace::Op::kWrite;
    if constexpr (kMixed) {
      const uint64_t u = rng.next53();
      if (u < plan.read_below) {
        op = trace::Op::kRead;
      } else if (u < plan.trim_below) {
        op = trace::Op::kTrim;
      }
    }
    const Target t = addresses.next(rng, op);
    rec.time_ns = now;
    rec.lba = t.page * plan.page_sectors;
    rec.pid = t.pid;
    rec.op = static_cast<uint8_t>(op);
    sink.append(rec);
    now += plan.iat_ns;
    if (op == trace::Op::kWrite) {
      ++written;
      if (--until_marker == 0) {
        until_marker = plan.marker_every;
        marker.time_ns = rec.time_ns;
        marker.lba = written;
        sink.append(marker);
        ++stats.markers;
      }
    } else if (op == trace::Op::kRead) {
      ++stats.reads;
    } else {
      ++stats.trims;
    }
  }
  stats.writes = written;
}

template <typename Sink, typename Addresses>
void emit_measured(const Plan& plan, Addresses& addresses, Rng& rng, Sink& sink, uint64_t& now, GenerateStats& stats) {
  if (plan.mixed) {
    emit_measured<true>(plan, addresses, rng, sink, now, stats);
  } else {
    emit_measured<false>(plan, addresses, rng, sink, now, stats);
  }
}

}  // namespace detail

template <RecordSink Sink>
GenerateStats generate(const SynthSpec& spec, Sink& sink) {
  const detail::Plan plan = detail::make_plan(spec);
  GenerateStats stats;
  uint64_t now = 0;
  if (plan.fill_sectors != 0) detail::emit_fill(plan, sink, now, stats);
  // The measured part depends only on the seed, not on whether a fill precedes it.
  Rng rng(plan.seed);
  switch (plan.pattern) {
    case Pattern::kSeq: {
      detail::SeqAddresses a(plan.pages);
      detail::emit_measured(plan, a, rng, sink, now, stats);
      break;
    }
    case Pattern::kUniform: {
      detail::UniformAddresses a(plan.pages);
      detail::emit_measured(plan, a, rng, sink, now, stats);
      break;
    }
    case Pattern::kZipf: {
      detail::ZipfAddresses a(plan.pages, plan.theta);
      detail::emit_measured(plan, a, rng, sink, now, stats);
      break;
    }
    case Pattern::kHotCold:
    case Pattern::kStreams: {
      detail::RegionAddresses a(plan);
      detail::emit_measured(plan, a, rng, sink, now, stats);
      break;
    }
  }
  return stats;
}

}  // namespace ftlsim::workload
