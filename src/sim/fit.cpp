#include "sim/fit.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "core/error.h"
#include "trace/slot_span.h"

namespace ftlsim::sim {
namespace {

constexpr uint32_t kUntouched = 0xFFFFFFFFu;
constexpr uint64_t kMaxSpaceSlots = uint64_t{1} << 28;

bool addresses_slots(uint8_t op) {
  return op == static_cast<uint8_t>(trace::Op::kWrite) || op == static_cast<uint8_t>(trace::Op::kRead) ||
         op == static_cast<uint8_t>(trace::Op::kTrim);
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

FitMap fit_trace(const TraceView& t, double fraction) {
  FitMap f;
  const uint64_t unbounded = UINT64_MAX / t.sector_bytes;
  uint64_t space = 0;
  for (const trace::Record& r : t.records) {
    if (!addresses_slots(r.op) || r.sectors == 0) continue;
    const trace::SlotSpan s = trace::slot_span(r, t.sector_bytes, unbounded, false);
    if (s.out_of_range) continue;
    space = std::max(space, s.first_slot + s.slots);
  }
  if (space > kMaxSpaceSlots) {
    throw InputError(
        say("{}: `logical` fit: the trace addresses {} 4 KiB slots, more than the {} "
            "(1 TiB) fit remaps; give `logical` as a size",
            t.path, space, kMaxSpaceSlots));
  }
  f.slot_of.assign(space, kUntouched);
  uint32_t next = 0;
  for (const trace::Record& r : t.records) {
    if (!addresses_slots(r.op) || r.sectors == 0) continue;
    const trace::SlotSpan s = trace::slot_span(r, t.sector_bytes, unbounded, false);
    if (s.out_of_range) continue;
    for (uint64_t k = s.first_slot; k < s.first_slot + s.slots; ++k) {
      if (f.slot_of[k] == kUntouched) f.slot_of[k] = next++;
    }
  }
  f.footprint = next;
  if (f.footprint == 0) throw InputError(say("{}: `logical` fit: the trace touches no data", t.path));
  f.logical_slots = static_cast<uint64_t>(std::ceil(static_cast<double>(f.footprint) / fraction - 1e-9));
  return f;
}

}  // namespace ftlsim::sim
