#include "sim/precondition.h"

#include <utility>

#include "core/rng.h"
#include "ftl/page_ftl.h"
#include "trace/slot_span.h"

namespace ftlsim::sim {

using trace::Op;
using trace::Record;

std::vector<uint64_t> touched_slots(const TraceView& t, uint64_t logical_slots, bool wrap,
                                    const trace::SlotRemap* fit_map) {
  std::vector<uint64_t> bits((logical_slots + 63) / 64, 0);
  const uint64_t sector = t.sector_bytes;
  const uint64_t logical_sectors = (fit_map != nullptr ? fit_map->space : logical_slots) * ftl::kSlotBytes / sector;
  for (const Record& rec : t.records) {
    if (rec.op != static_cast<uint8_t>(Op::kWrite) && rec.op != static_cast<uint8_t>(Op::kRead) &&
        rec.op != static_cast<uint8_t>(Op::kTrim)) {
      continue;
    }
    if (rec.sectors == 0) continue;
    const trace::SlotSpan s = trace::slot_span(rec, sector, logical_sectors, wrap);
    if (s.out_of_range) continue;
    for (uint64_t k = 0; k < s.slots; ++k) {
      const uint64_t slot = s.first_slot + k;
      const uint32_t p = fit_map != nullptr ? fit_map->at(slot) : trace::slot_lpn(slot, logical_slots);
      bits[p >> 6] |= uint64_t{1} << (p & 63);
    }
  }
  return bits;
}

PreconditionOrder::PreconditionOrder(Precondition kind, const TraceView& t, uint64_t logical_slots, bool wrap,
                                     const trace::SlotRemap* fit_map, uint64_t seed)
    : kind_(kind), slots_(logical_slots) {
  if (kind == Precondition::kRandom) {
    // Fisher-Yates over every slot (xoshiro256**, core/rng.h).
    perm_.resize(logical_slots);
    for (uint64_t i = 0; i < logical_slots; ++i) perm_[i] = static_cast<uint32_t>(i);
    Rng rng(seed);
    for (uint64_t i = logical_slots; i > 1; --i) std::swap(perm_[i - 1], perm_[rng.below(i)]);
  } else if (kind == Precondition::kTrace) {
    bits_ = touched_slots(t, logical_slots, wrap, fit_map);
  }
}

uint32_t PreconditionOrder::operator()() {
  switch (kind_) {
    case Precondition::kSeq:
    case Precondition::kRandom:
      if (next_ == slots_) return ftl::kUnmapped;
      ++next_;
      return kind_ == Precondition::kSeq ? static_cast<uint32_t>(next_ - 1) : perm_[next_ - 1];
    case Precondition::kTrace:
      for (; next_ < slots_; ++next_) {
        if ((bits_[next_ >> 6] >> (next_ & 63)) & 1) return static_cast<uint32_t>(next_++);
      }
      return ftl::kUnmapped;
    case Precondition::kNone: break;
  }
  return ftl::kUnmapped;
}

}  // namespace ftlsim::sim
