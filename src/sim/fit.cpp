#include "sim/fit.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/units.h"
#include "trace/slot_span.h"

namespace ftlsim::sim {
namespace {

// The address spaces fit remaps: up to 2^32 - 2 slots (16 TiB), so that
// every footprint numbers below kFitUntouched; the directory is then at
// most 4 MiB.
constexpr uint64_t kMaxSpaceSlots = (uint64_t{1} << 32) - 2;

bool addresses_slots(uint8_t op) {
  return op == static_cast<uint8_t>(trace::Op::kWrite) || op == static_cast<uint8_t>(trace::Op::kRead) ||
         op == static_cast<uint8_t>(trace::Op::kTrim);
}

// Calls `visit` with the slot span of every record that addresses slots
// (writes, reads, trims), as the driver enumerates them; records the driver
// refuses (past 64 bits) are skipped here, the driver reports them.
template <class Visit>
void for_each_span(const TraceView& t, Visit&& visit) {
  const uint64_t unbounded = UINT64_MAX / t.sector_bytes;
  for (const trace::Record& r : t.records) {
    if (!addresses_slots(r.op) || r.sectors == 0) continue;
    const trace::SlotSpan s = trace::slot_span(r, t.sector_bytes, unbounded, false);
    if (!s.out_of_range) visit(s);
  }
}

// The slots the trace addresses: one past the highest it touches.
uint64_t addressed_slots(const TraceView& t) {
  uint64_t space = 0;
  for_each_span(t, [&](const trace::SlotSpan& s) { space = std::max(space, s.first_slot + s.slots); });
  return space;
}

// Numbers the FitMap blocks (of kBlockSlots slots) the trace touches 1, 2,
// ... in first-touch order in `dir` (one entry per block of `space` slots;
// 0: untouched); returns how many.
uint64_t number_blocks(const TraceView& t, uint64_t space, HugeArray<uint32_t>& dir) {
  dir.assign((space + FitMap::kBlockSlots - 1) >> FitMap::kBlockBits, 0);
  uint32_t blocks = 0;
  for_each_span(t, [&](const trace::SlotSpan& s) {
    const uint64_t last = (s.first_slot + s.slots - 1) >> FitMap::kBlockBits;
    for (uint64_t b = s.first_slot >> FitMap::kBlockBits; b <= last; ++b) {
      if (dir[b] == 0) dir[b] = ++blocks;
    }
  });
  return blocks;
}

// ceil(footprint / fraction) as double: checked against the limits before
// it is converted (a tiny share overflows any integer).
double logical_slots_wanted(uint64_t footprint, double fraction) {
  return std::ceil(static_cast<double>(footprint) / fraction - 1e-9);
}

// A count too large for 64 bits is shown as a real number.
std::string figure(double v) {
  if (v < 18446744073709551615.0) return fmt::format("{}", static_cast<uint64_t>(v));
  return fmt::format("{:.4g}", v);
}

Message space_error(const std::string& path, uint64_t space) {
  return say(
      "{}: `logical` fit: the trace addresses {} 4 KiB slots, more than the {} (16 TiB) fit remaps; "
      "give `logical` as a size",
      path, space, kMaxSpaceSlots);
}

}  // namespace

std::optional<double> parse_fit(std::string_view text) {
  if (text.substr(0, 4) != "fit:") return std::nullopt;
  std::string_view p = text.substr(4);
  const bool percent = !p.empty() && p.back() == '%';
  if (percent) p.remove_suffix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
  if (!percent || ec != std::errc() || end != p.data() + p.size() || !(v > 0.0 && v <= 100.0)) {
    throw InputError(
        say("`logical` {}: fit takes a fill level in percent above 0 and at most 100, "
            "e.g. fit:85%",
            text));
  }
  return v / 100.0;
}

FitMap fit_trace(const TraceView& t) {
  const uint64_t space = addressed_slots(t);
  if (space > kMaxSpaceSlots) throw InputError(space_error(t.path, space));
  FitMap f;
  f.space_ = space;
  const uint64_t blocks = number_blocks(t, space, f.dir_);
  f.slots_.assign((blocks + 1) << FitMap::kBlockBits, kFitUntouched);
  uint32_t next = 0;  // < kFitUntouched: at most kMaxSpaceSlots slots are numbered
  for_each_span(t, [&](const trace::SlotSpan& s) {
    for (uint64_t k = s.first_slot; k < s.first_slot + s.slots; ++k) {
      uint32_t& d = f.slots_[(uint64_t{f.dir_[k >> FitMap::kBlockBits]} << FitMap::kBlockBits) |
                             (k & (FitMap::kBlockSlots - 1))];  // as SlotRemap::at
      if (d == kFitUntouched) d = next++;
    }
  });
  f.footprint_ = next;
  if (f.footprint_ == 0) throw InputError(say("{}: `logical` fit: the trace touches no data", t.path));
  return f;
}

uint64_t fit_table_bytes(uint64_t space, uint64_t touched_blocks) {
  const uint64_t dir = (space + FitMap::kBlockSlots - 1) >> FitMap::kBlockBits;
  const uint64_t dir_bytes =
      (dir * 4 + HugeArray<uint32_t>::kHuge - 1) / HugeArray<uint32_t>::kHuge * HugeArray<uint32_t>::kHuge;
  return dir_bytes + ((touched_blocks + 1) << FitMap::kBlockBits) * 4;
}

FitFootprint fit_footprint(const TraceView& t) {
  FitFootprint f;
  if (t.sector_bytes == 0) return f;  // simulate refuses it
  f.space = addressed_slots(t);
  if (f.space > kMaxSpaceSlots) return f;
  // A bit per slot of each touched block, the blocks numbered as fit_trace's.
  HugeArray<uint32_t> dir;
  f.touched_blocks = number_blocks(t, f.space, dir);
  constexpr uint64_t kWords = FitMap::kBlockSlots / 64;
  std::vector<uint64_t> seen(f.touched_blocks * kWords, 0);
  // A word (64 slots, never across blocks) at a time: a trim of a whole
  // device (mkfs) is 2^32 slots at most, 2^26 words.
  for_each_span(t, [&](const trace::SlotSpan& s) {
    const uint64_t end = s.first_slot + s.slots;
    for (uint64_t k = s.first_slot; k < end;) {
      const uint64_t word_end = std::min(end, (k | 63) + 1);
      const uint64_t n = word_end - k;
      const uint64_t bits = (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1) << (k % 64);
      uint64_t& w = seen[uint64_t{dir[k >> FitMap::kBlockBits] - 1} * kWords + (k & (FitMap::kBlockSlots - 1)) / 64];
      f.footprint += static_cast<uint64_t>(std::popcount(bits & ~w));
      w |= bits;
      k = word_end;
    }
  });
  return f;
}

ftl::FtlConfig fitted_config(const ftl::FtlConfig& given, const FitFootprint& fp, double fraction,
                             std::optional<double> fit_op, const std::string& trace_path) {
  if (fp.space > kMaxSpaceSlots) throw InputError(space_error(trace_path, fp.space));
  if (fp.footprint == 0) throw InputError(say("{}: `logical` fit: the trace touches no data", trace_path));
  const double percent = fraction * 100.0;
  const double wanted = logical_slots_wanted(fp.footprint, fraction);
  // At most kMaxPhysicalSlots - 1 logical slots fit a geometry (logical < physical).
  if (!(wanted < static_cast<double>(ftl::kMaxPhysicalSlots))) {
    throw InputError(say(
        "`logical` fit:{:g}%: the trace's footprint of {} slots needs a logical capacity of "
        "{} slots ({:.4g} bytes), more than the {} (2^32-2, 16 TiB) a geometry holds: too "
        "small a share; give a higher fill level",
        percent, fp.footprint, figure(wanted), wanted * static_cast<double>(ftl::kSlotBytes), ftl::kMaxPhysicalSlots));
  }
  const auto logical = static_cast<uint64_t>(wanted);
  ftl::FtlConfig cfg = given;
  ftl::Geometry& g = cfg.geometry;
  g.logical_bytes = logical * ftl::kSlotBytes;
  if (fit_op) {
    const double physical = static_cast<double>(logical) * (1.0 + *fit_op);
    const double per_page = static_cast<double>(uint64_t{g.lines()} * g.blocks_per_line() * g.slots_per_page());
    const double pages = std::ceil(physical / per_page - 1e-9);
    if (!(pages <= static_cast<double>(std::numeric_limits<uint32_t>::max()))) {
      throw InputError(
          say("`logical` fit:{:g}%: the trace's footprint of {} slots needs a logical capacity "
              "of {} slots, which with `op` {:g} needs {} pages per block, more than the "
              "4294967295 a block holds",
              percent, fp.footprint, logical, *fit_op, figure(pages)));
    }
    g.pages_per_block = std::max<uint32_t>(1, static_cast<uint32_t>(pages));
  }
  const auto problems = cfg.problems();
  if (!problems.empty()) {
    throw InputError(say("`logical` fit:{:g}%: the trace's footprint of {} slots needs a logical capacity "
                         "of {} slots: ",
                         percent, fp.footprint, logical) +
                     problems.front().message());
  }
  return cfg;
}

}  // namespace ftlsim::sim
