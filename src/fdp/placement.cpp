#include "fdp/placement.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <limits>

#include "core/error.h"
#include "core/io_units.h"
#include "fdp/fdp_config.h"
#include "trace/slot_span.h"

namespace ftlsim::fdp {
namespace {

uint16_t parse_u16(std::string_view s, std::string_view what, std::string_view spec) {
  unsigned v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v > 65535) {
    throw InputError(say("`placement` {}: '{}' is not a {} (0-65535)", spec, s, what));
  }
  return static_cast<uint16_t>(v);
}

}  // namespace

PlacementSpec parse_placement(std::string_view text) {
  PlacementSpec p;
  p.text = std::string(text);
  if (text == "single") {
    p.kind = PlacementKind::kSingle;
  } else if (text == "fdp") {
    p.kind = PlacementKind::kFdp;
  } else if (text == "oracle") {
    p.kind = PlacementKind::kOracle;
  } else if (text == "interval") {
    p.kind = PlacementKind::kInterval;
  } else if (text.substr(0, 4) == "map:") {
    p.kind = PlacementKind::kMap;
    std::string_view rest = text.substr(4);
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      const std::string_view item = rest.substr(0, comma);
      const size_t eq = item.find('=');
      if (eq == std::string_view::npos) {
        throw InputError(say("`placement` {}: '{}' is not PID=HANDLE", text, item));
      }
      p.map.emplace_back(parse_u16(item.substr(0, eq), "placement ID", text),
                         parse_u16(item.substr(eq + 1), "handle", text));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    if (p.map.empty()) throw InputError(say("`placement` {}: the map is empty", text));
    // One handle per ID, as a pid map file refuses a duplicate key: with two,
    // one would silently win.
    std::vector<std::pair<uint16_t, size_t>> ids(p.map.size());
    for (size_t i = 0; i < p.map.size(); ++i) ids[i] = {p.map[i].first, i};
    std::sort(ids.begin(), ids.end());
    for (size_t i = 1; i < ids.size(); ++i) {
      if (ids[i].first == ids[i - 1].first) {
        throw InputError(say("`placement` {}: placement ID {} is mapped twice (to {} and to {}); map each ID once",
                             text, ids[i].first, p.map[ids[i - 1].second].second, p.map[ids[i].second].second));
      }
    }
  } else {
    throw InputError(
        say("`placement`: unknown policy '{}' (known: single, fdp, map:PID=HANDLE,..., oracle, interval)", text));
  }
  return p;
}

bool isolates(const PlacementSpec& p) { return p.kind != PlacementKind::kSingle; }

std::string canonical_text(const PlacementSpec& p) {
  if (p.kind != PlacementKind::kMap) return p.text;
  std::vector<std::pair<uint16_t, uint16_t>> pairs = p.map;
  std::sort(pairs.begin(), pairs.end());
  std::string out = "map:";
  for (size_t i = 0; i < pairs.size(); ++i) {
    out += fmt::format("{}{}={}", i > 0 ? "," : "", pairs[i].first, pairs[i].second);
  }
  return out;
}

PidPlacement::PidPlacement(const PlacementSpec& spec, uint32_t handles, uint32_t rgs, uint32_t rgif, bool confdp,
                           uint32_t handle_mask)
    : handle_bits_(confdp ? 8 : 16 - rgif),
      handle_mask_(confdp ? 0xFFu : handle_mask),
      rgs_(rgs),
      confdp_(confdp),
      last_handle_(static_cast<uint16_t>(handles - 1)) {
  if (rgif > 15) throw std::logic_error("PidPlacement: RG identifier format wider than 15 bits");
  switch (spec.kind) {
    case PlacementKind::kSingle: std::fill(table_.begin(), table_.end(), 0); break;
    case PlacementKind::kFdp:
      for (uint32_t pid = 0; pid < handles && pid < table_.size(); ++pid) table_[pid] = static_cast<uint16_t>(pid);
      break;
    case PlacementKind::kMap:
      for (const auto& [pid, h] : spec.map) {
        if (pid > handle_mask_) {
          throw InputError(say("`placement` {}: placement handle {} does not fit the {} bits a placement "
                               "identifier leaves beside {} reclaim groups",
                               spec.text, pid, std::bit_width(handle_mask_), rgs) +
                           (confdp ? say(" (`pid-format` confdp)") : Message()));
        }
        if (h >= handles) {
          throw InputError(say("`placement` {}: handle {} does not exist (`ruh` {} gives 0-{})", spec.text, h, handles,
                               handles - 1));
        }
        table_[pid] = h;
      }
      break;
    default: throw std::logic_error("PidPlacement built for a per-slot policy");
  }
}

IntervalPlacement::IntervalPlacement(uint64_t logical_slots, uint32_t handles)
    : last_write_(logical_slots, 0), last_handle_(static_cast<uint16_t>(handles - 1)) {
  const uint32_t shift = handles > 1 ? handles - 1 : 0;
  base_ = shift >= 63 ? 1 : std::max<uint64_t>(logical_slots >> shift, 1);
}

std::vector<uint8_t> oracle_handles(std::span<const trace::Record> records, uint32_t sector_bytes,
                                    uint64_t logical_slots, bool wrap, uint32_t handles, bool trim_keeps_partial,
                                    const trace::SlotRemap& fit_map, bool trim_plus_one) {
  using trace::Op;
  if (handles > kMaxHandles) {
    throw InputError(say("`placement` oracle supports at most {} handles", kMaxHandles));
  }
  const bool fit = !fit_map.empty();
  const uint64_t logical_sectors = (fit ? fit_map.space : logical_slots) * kSlotBytes / sector_bytes;
  const auto lpn_of = [&](uint64_t slot) { return fit ? fit_map.at(slot) : trace::slot_lpn(slot, logical_slots); };
  auto usable = [&](const trace::Record& r, trace::SlotSpan& s) {
    if (r.op != static_cast<uint8_t>(Op::kWrite) && r.op != static_cast<uint8_t>(Op::kTrim)) return false;
    if (r.sectors == 0) return false;
    s = trace::slot_span(r, sector_bytes, logical_sectors, wrap && !fit);
    return !s.out_of_range;
  };
  uint64_t writes = 0;
  trace::SlotSpan span;
  for (const auto& r : records) {
    if (r.op == static_cast<uint8_t>(Op::kWrite) && usable(r, span)) writes += span.slots;
  }
  // Backwards: the next write/trim of each LBA, in write-slot time.
  constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
  constexpr uint8_t kNeverBucket = 64;
  std::vector<uint64_t> next_event(logical_slots, kNever);
  std::vector<uint8_t> bucket(writes);
  std::vector<uint64_t> volume(kNeverBucket + 1, 0);
  uint64_t idx = writes;
  for (size_t i = records.size(); i-- > 0;) {
    const auto& r = records[i];
    if (!usable(r, span)) continue;
    const bool is_write = r.op == static_cast<uint8_t>(Op::kWrite);
    const uint64_t after = span.first_slot + span.slots;  // --trim-range plus-one unmaps it too
    if (!is_write && trim_plus_one && (after < (fit ? fit_map.space : logical_slots) || (wrap && !fit))) {
      const uint32_t p = lpn_of(after);  // under fit, none when no record touches it
      if (p != trace::kUntouchedSlot) next_event[p] = idx;
    }
    for (uint64_t k = span.slots; k-- > 0;) {
      const uint32_t lpn = lpn_of(span.first_slot + k);
      if (!is_write) {
        const bool partial = (k == 0 && span.head_partial) || (k + 1 == span.slots && span.tail_partial);
        if (!partial || !trim_keeps_partial) next_event[lpn] = idx;
        continue;
      }
      --idx;
      const uint64_t next = next_event[lpn];
      const uint8_t b = next == kNever ? kNeverBucket : static_cast<uint8_t>(63 - __builtin_clzll(next - idx));
      bucket[idx] = b;
      ++volume[b];
      next_event[lpn] = idx;
    }
  }
  // Buckets to handles: equal volume shares among the finite lifetimes.
  std::vector<uint8_t> handle_of_bucket(kNeverBucket + 1, static_cast<uint8_t>(handles - 1));
  const uint32_t finite_handles = handles > 1 ? handles - 1 : 1;
  uint64_t finite = 0;
  for (uint8_t b = 0; b < kNeverBucket; ++b) finite += volume[b];
  uint64_t acc = 0;
  for (uint8_t b = 0; b < kNeverBucket; ++b) {
    const uint64_t mid = acc + volume[b] / 2;  // a bucket goes where its middle falls
    const uint64_t h = finite == 0 ? 0 : mid * finite_handles / finite;
    handle_of_bucket[b] = static_cast<uint8_t>(std::min<uint64_t>(h, finite_handles - 1));
    acc += volume[b];
  }
  for (auto& b : bucket) b = handle_of_bucket[b];
  return bucket;
}

AnyPlacement make_placement(const PlacementSpec& spec, const FdpConfig& c, const PlacementInputs& in) {
  switch (spec.kind) {
    case PlacementKind::kOracle:
      return OraclePlacement(oracle_handles(in.records, in.sector_bytes, in.logical_slots, in.wrap, c.handles,
                                            in.trim_keeps_partial, in.fit_map, in.trim_plus_one));
    case PlacementKind::kInterval: return IntervalPlacement(in.logical_slots, c.handles);
    case PlacementKind::kSingle:
      // Every write through handle 0 in RG 0 (FEMU's line path, or handle 0
      // of the FDP device with --single handle0): the identifier is not read.
      return PidPlacement(spec, c.handles);
    default: {
      // The identifier carries RG bits unless the RG comes from the LBA.
      const bool rg_bits = c.isolated_gc && c.rg_of != RgOf::kLba;
      return PidPlacement(spec, c.handles, rg_bits ? c.reclaim_groups : 1, rg_bits ? c.rgif() : 0, c.pid_confdp,
                          rg_bits ? c.handle_mask() : 0xFFFFu);
    }
  }
}

FdpConfig effective_config(const PlacementSetup& setup) {
  FdpConfig c = setup.fdp;
  // ConfFDP has no non-FDP mode: `single` then writes through handle 0 of
  // the same FDP device (--single handle0).
  c.isolated_gc = isolates(setup.placement) || c.single_handle0;
  if (!c.isolated_gc) c.handles = 1;
  return c;
}

}  // namespace ftlsim::fdp
