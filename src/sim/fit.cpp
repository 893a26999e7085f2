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
// every footprint numbers below trace::kUntouchedSlot; the directory is then at
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

// The flat table when the blocks (and the shared untouched one) would take
// half of it or more.
bool flat_table(uint64_t space, uint64_t touched_blocks) {
  return 2 * ((touched_blocks + 1) << FitMap::kBlockBits) >= space;
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
  // One pass: a block's entries are made when the block is first touched
  // (block 0, all untouched, first). Once the blocks would take half of a
  // flat table, the table becomes flat and stays so (the blocks are never
  // more than half of it: at most twice the flat table at that moment).
  f.dir_.assign((space + FitMap::kBlockSlots - 1) >> FitMap::kBlockBits, 0);
  f.slots_.assign(FitMap::kBlockSlots, trace::kUntouchedSlot);
  const auto to_flat = [&f, space] {
    std::vector<uint32_t> flat(space);
    for (uint64_t k = 0; k < space; k += FitMap::kBlockSlots) {
      const uint64_t n = std::min<uint64_t>(FitMap::kBlockSlots, space - k);
      const uint32_t* from = f.slots_.data() + (uint64_t{f.dir_[k >> FitMap::kBlockBits]} << FitMap::kBlockBits);
      std::copy(from, from + n, flat.begin() + static_cast<ptrdiff_t>(k));
    }
    f.slots_ = std::move(flat);
    f.dir_ = HugeArray<uint32_t>();
    f.flat_ = true;
  };
  uint32_t blocks = 0;
  uint32_t next = 0;  // < trace::kUntouchedSlot: at most kMaxSpaceSlots slots are numbered
  for_each_span(t, [&](const trace::SlotSpan& s) {
    const uint64_t end = s.first_slot + s.slots;
    for (uint64_t k = s.first_slot; k < end;) {
      uint32_t* entries = f.slots_.data();
      uint64_t stop = end;
      uint64_t mask = ~uint64_t{0};
      if (!f.flat_) {
        uint32_t& b = f.dir_[k >> FitMap::kBlockBits];
        if (b == 0) {
          b = ++blocks;
          f.slots_.resize(f.slots_.size() + FitMap::kBlockSlots, trace::kUntouchedSlot);
          if (flat_table(space, blocks)) {
            to_flat();
            continue;
          }
        }
        entries = f.slots_.data() + (uint64_t{b} << FitMap::kBlockBits);
        stop = std::min(end, (k | (FitMap::kBlockSlots - 1)) + 1);
        mask = FitMap::kBlockSlots - 1;
      }
      for (; k < stop; ++k) {
        uint32_t& d = entries[k & mask];
        if (d == trace::kUntouchedSlot) d = next++;
      }
    }
  });
  f.footprint_ = next;
  if (f.footprint_ == 0) throw InputError(say("{}: `logical` fit: the trace touches no data", t.path));
  return f;
}

uint64_t fit_table_bytes(uint64_t space, uint64_t touched_blocks) {
  if (flat_table(space, touched_blocks)) return space * 4;
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
  // One pass: a bit per slot of each touched block, the block's bits made
  // when it is first touched; a word (64 slots, never across blocks) at a
  // time: a trim of a whole device (mkfs) is 2^32 slots at most, 2^26 words.
  constexpr uint64_t kWords = FitMap::kBlockSlots / 64;
  HugeArray<uint32_t> dir((f.space + FitMap::kBlockSlots - 1) >> FitMap::kBlockBits, 0);
  std::vector<uint64_t> seen;
  for_each_span(t, [&](const trace::SlotSpan& s) {
    const uint64_t end = s.first_slot + s.slots;
    for (uint64_t k = s.first_slot; k < end;) {
      uint32_t& b = dir[k >> FitMap::kBlockBits];
      if (b == 0) {
        b = static_cast<uint32_t>(++f.touched_blocks);
        seen.resize(seen.size() + kWords, 0);
      }
      const uint64_t word_end = std::min(end, (k | 63) + 1);
      const uint64_t n = word_end - k;
      const uint64_t bits = (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1) << (k % 64);
      uint64_t& w = seen[uint64_t{b - 1} * kWords + (k & (FitMap::kBlockSlots - 1)) / 64];
      // Most spans are a slot or a few: a single new bit needs no popcount
      // (a library call in this portable build).
      const uint64_t fresh = bits & ~w;
      f.footprint += (fresh & (fresh - 1)) == 0 ? uint64_t{fresh != 0} : static_cast<uint64_t>(std::popcount(fresh));
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
