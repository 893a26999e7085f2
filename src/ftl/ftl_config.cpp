#include "ftl/ftl_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace ftlsim::ftl {

std::string_view victim_policy_name(VictimPolicy p) { return choice_word<VictimPolicy>(kVictimPolicies, p); }

VictimPolicy parse_victim_policy(std::string_view name) {
  std::string known;
  for (const auto& v : kVictimPolicies) {
    if (name == v.word) return v.value;
    known += fmt::format("{}{}", known.empty() ? "" : ", ", v.word);
  }
  throw SettingError({"victim", std::string(name), fmt::format("(known: {})", known), Problem::Shape::kUnknown});
}

static uint32_t femu_threshold(double pcent, uint32_t units) {
  // ftl.c: gc_thres_lines = (int)((1 - gc_thres_pcent) * tt_lines)
  return static_cast<uint32_t>((1.0 - pcent / 100.0) * static_cast<double>(units));
}

uint32_t GcConfig::thres_units(uint32_t units) const { return femu_threshold(thres_pcent, units); }
uint32_t GcConfig::thres_units_high(uint32_t units) const { return femu_threshold(thres_pcent_high, units); }

std::vector<Problem> FtlConfig::problems() const {
  std::vector<Problem> p = geometry.problems();
  const auto pct_ok = [](double v) { return std::isfinite(v) && v > 0.0 && v <= 100.0; };
  if (gc.thres_pcent == 100.0) {
    // It would hold back no unit for background GC, but it must not exceed
    // --gc-thres-high, and that must hold back at least one unit.
    p.push_back({"gc-thres", "100",
                 say("cannot switch background GC off: `gc-thres` must not exceed `gc-thres-high`, which must hold "
                     "back at least one free unit (so stays below 100); for the least background GC raise both, "
                     "e.g. `gc-thres` 99 `gc-thres-high` 99.5 (docs/cli.md, GC)")});
  } else if (!pct_ok(gc.thres_pcent)) {
    p.push_back({"gc-thres", fmt::format("{}", gc.thres_pcent), "must be a percentage in (0, 100)"});
  }
  if (!pct_ok(gc.thres_pcent_high)) {
    p.push_back({"gc-thres-high", fmt::format("{}", gc.thres_pcent_high), "must be a percentage in (0, 100]"});
  }
  if (gc.victim == VictimPolicy::kDChoice && gc.d_choices == 0) {
    p.push_back({"d-choices", "", "must be at least 1"});
  }
  if (!p.empty()) return p;

  const auto more = layout_problems(*this, line_layout(geometry));
  p.insert(p.end(), more.begin(), more.end());
  return p;
}

std::vector<Problem> layout_problems(const FtlConfig& cfg, const FtlLayout& layout) {
  std::vector<Problem> p;
  for (std::string& s : layout.problems()) p.push_back({"", "", std::move(s)});
  if (!p.empty()) return p;
  const GcConfig& gc = cfg.gc;
  if (layout.spill_writes && gc.forced_check_per_slot) {
    p.push_back({"write-spill", "nearest",
                 say("moves a write request once, after its forced passes: it cannot be combined with `gc-check` "
                     "page")});
  }
  const uint32_t per_pool = layout.units_per_pool();
  const uint32_t high = gc.thres_units_high(per_pool);
  const char* unit = layout.pools == 1 && layout.streams() == 1 ? "lines" : "units per reclaim group";
  if (gc.thres_pcent_high < gc.thres_pcent) {
    p.push_back({"gc-thres-high", fmt::format("{}", gc.thres_pcent_high),
                 say("is below `gc-thres` {}: forced GC would start before background GC", gc.thres_pcent)});
  }
  if (high < 1) {
    // A lower percentage holds back more: this one holds back 1.5 units, truncated to 1.
    const double fix = 100.0 * (1.0 - 1.5 / per_pool);
    p.push_back({"gc-thres-high", fmt::format("{}", gc.thres_pcent_high),
                 say("holds back {} free {} of {}; at least 1 is needed as GC destination (lower it, for example "
                     "to `gc-thres-high` {:.4g}",
                     high, unit, per_pool, fix) +
                     (gc.thres_pcent > fix ? say(" with `gc-thres` {:.4g}", fix) : Message()) + Message(")")});
    return p;
  }
  // The units streams hold from start-up (FEMU: every handle's RU in every
  // RG), or at least one per pool, are not usable for data. Streams that open
  // later (GC RUs, lazily opened host RUs) are not counted: like FEMU, a run
  // that needs more than the device has left stops with an error then.
  std::vector<uint32_t> open(layout.pools, 0);
  for (const StreamId s : layout.open_at_start) ++open[layout.stream_pool[s]];
  for (uint32_t& o : open) o = std::max<uint32_t>(o, 1);
  uint64_t usable_units = 0;
  for (uint32_t g = 0; g < layout.pools; ++g) {
    if (per_pool < high + open[g] + 1) {
      p.push_back({"", "",
                   fmt::format("reclaim group {} has {} units: too few for {} open units plus {} held free", g,
                               per_pool, open[g], high)});
    } else {
      usable_units += per_pool - high - open[g];
    }
  }
  const uint64_t usable = usable_units * layout.slots_per_unit;
  if (p.empty() && cfg.geometry.logical_slots() >= usable) {
    p.push_back({"", "",
                 say("logical capacity {} slots does not fit in the {} {} left after the {} free that "
                     "`gc-thres-high` holds back and the open ones; lower `logical`, use fewer handles (`ruh`), "
                     "or raise `gc-thres-high` (a higher percentage holds back fewer free units)",
                     cfg.geometry.logical_slots(), usable_units, unit, high)});
  }
  return p;
}

void FtlConfig::validate() const { throw_if_problems(problems()); }

void throw_if_problems(const std::vector<Problem>& p) {
  if (!p.empty()) throw InputError(Message("invalid configuration: ") + join(p));
}

}  // namespace ftlsim::ftl
