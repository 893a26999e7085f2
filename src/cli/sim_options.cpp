#include "cli/sim_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "core/error.h"
#include "cli/timing_options.h"
#include "core/units.h"
#include "fdp/fdp_config.h"
#include "fdp/placement.h"
#include "ftl/confdp_sizing.h"
#include "ftl/ftl_config.h"
#include "ftl/geometry.h"
#include "sim/fit.h"

namespace ftlsim::cli {
namespace {

using sim::ValueKind;

constexpr std::array<SettingInfo, kSettingCount> kSettings = {{
    {"preset", ValueKind::kWord, "femu-default"},
    {"rules", ValueKind::kWord, "femu"},
    {"channels", ValueKind::kInteger, ""},
    {"luns", ValueKind::kInteger, ""},
    {"planes", ValueKind::kInteger, ""},
    {"blocks", ValueKind::kInteger, ""},
    {"pages", ValueKind::kInteger, ""},
    {"page-size", ValueKind::kSize, ""},
    {"logical", ValueKind::kSize, ""},
    {"op", ValueKind::kReal, ""},
    {"sizing", ValueKind::kWord, ""},
    {"gc-thres", ValueKind::kReal, "75"},
    {"gc-thres-high", ValueKind::kReal, "95"},
    {"victim", ValueKind::kWord, "greedy"},
    {"d-choices", ValueKind::kInteger, "8"},
    {"seed", ValueKind::kInteger, "1"},
    {"gc-check", ValueKind::kWord, "request"},
    {"rg-gc", ValueKind::kWord, "first", "every"},
    {"gc-order", ValueKind::kWord, "block", "page"},
    {"declined", ValueKind::kWord, "requeue", "keep"},
    {"forced-passes", ValueKind::kWord, "femu", "5"},
    {"gc-trigger", ValueKind::kWord, "femu"},
    {"trim-partial", ValueKind::kWord, "unmap"},
    {"trim-range", ValueKind::kWord, "exact", "plus-one"},
    {"rg", ValueKind::kInteger, "1"},
    {"ru-size", ValueKind::kSize, ""},
    {"ruh", ValueKind::kInteger, "8"},
    {"ruh-type", ValueKind::kWord, "pi"},
    {"pi-gc", ValueKind::kWord, "gc-ru", "host-ru"},
    {"ii-gc", ValueKind::kWord, "last-ruh"},
    {"ru-open", ValueKind::kWord, "startup"},
    {"rg-split", ValueKind::kWord, "lines", "dies"},
    {"rg-of", ValueKind::kWord, "current", "pid"},
    {"pid-format", ValueKind::kWord, "rgif", "confdp"},
    {"single", ValueKind::kWord, "line-path", "handle0"},
    {"ru-time-limit", ValueKind::kWord, "off"},
    {"placement", ValueKind::kPlacement, "single"},
    {"interval", ValueKind::kSize, ""},
}};

constexpr size_t idx(Setting s) { return static_cast<size_t>(s); }

std::string option_name(Setting s) { return fmt::format("--{}", setting_info(s).name); }

uint64_t to_u64(Setting s, std::string_view text) { return parse_uint_option(text, option_name(s)); }

uint32_t to_u32(Setting s, std::string_view text) {
  return static_cast<uint32_t>(parse_uint_option(text, option_name(s), 0, std::numeric_limits<uint32_t>::max()));
}

double to_real(Setting s, std::string_view text) {
  double v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || text.empty() || !std::isfinite(v)) {
    throw InputError(fmt::format("{}: '{}' is not a number", option_name(s), text));
  }
  return v;
}

// --ru-time-limit: "off" (0) or a duration above 0.
uint64_t ru_time_limit(const std::string& text) {
  if (text == "off") return 0;
  const std::optional<uint64_t> ns = parse_duration_ns(text);
  if (!ns || *ns == 0) {
    throw InputError(fmt::format("--ru-time-limit: '{}' is neither off nor a duration above 0 (examples: 500ms, 10s)",
                                 text));
  }
  return *ns;
}

// --reset-at device:MARKER | counters:MARKER ("" = none).
sim::ResetAt parse_reset_at(const std::string& text) {
  sim::ResetAt r;
  if (text.empty()) return r;
  const size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  if (colon != std::string::npos && (kind == "device" || kind == "counters")) {
    r.kind = kind == "device" ? sim::ResetAt::Kind::kDevice : sim::ResetAt::Kind::kCounters;
    r.marker = parse_uint_option(std::string_view(text).substr(colon + 1), "--reset-at");
    return r;
  }
  throw InputError(fmt::format("--reset-at: '{}' is not device:MARKER (reset the whole device) or counters:MARKER "
                               "(reset its counters only) at the trace's first marker of that value",
                               text));
}

// --precondition none|seq|random|trace.
sim::Precondition parse_precondition(const std::string& text) {
  if (text == "none") return sim::Precondition::kNone;
  if (text == "seq") return sim::Precondition::kSeq;
  if (text == "random") return sim::Precondition::kRandom;
  if (text == "trace") return sim::Precondition::kTrace;
  throw InputError(fmt::format("--precondition: '{}' is not none, seq (every logical page in order), random (every "
                               "logical page in a seeded random order) or trace (the pages the trace touches)",
                               text));
}

// Two-word settings: the first word is FEMU's rule (the default), the second
// ftlsim's alternative. Returns whether `text` is the alternative.
bool choice(Setting s, std::string_view text, std::string_view femu, std::string_view other, std::string_view what) {
  if (text == femu) return false;
  if (text == other) return true;
  throw InputError(fmt::format("{}: '{}' is not {} ({}) or {}", option_name(s), text, femu, what, other));
}
// The two-word settings: FEMU's word (the default) first.
struct TwoWords {
  Setting setting;
  std::string_view femu, other, what;
};
constexpr TwoWords kTwoWords[] = {
    {Setting::kRules, "femu", "confdp", "every rule MoatLab FEMU's"},
    {Setting::kGcCheck, "request", "page", "once per write request, FEMU"},
    {Setting::kRgGc, "first", "every", "FEMU"},
    {Setting::kGcOrder, "block", "page", "block by block, FEMU"},
    {Setting::kDeclined, "requeue", "keep", "popped and inserted again, FEMU's FDP path"},
    {Setting::kGcTrigger, "femu", "watermark", "background victims need 1/8 invalid pages, FEMU"},
    {Setting::kTrimPartial, "unmap", "keep", "FEMU"},
    {Setting::kTrimRange, "exact", "plus-one", "the range given, FEMU"},
    {Setting::kRuOpen, "startup", "lazy", "FEMU"},
    {Setting::kSingle, "line-path", "handle0", "FEMU's line path"},
};
// Whether `text` is the alternative word of two-word setting `s`.
bool alternative(Setting s, std::string_view text) {
  for (const TwoWords& w : kTwoWords) {
    if (w.setting == s) return choice(s, text, w.femu, w.other, w.what);
  }
  throw std::logic_error("alternative() called for a setting that is not two words");
}
bool is_two_words(Setting s) {
  return std::any_of(std::begin(kTwoWords), std::end(kTwoWords), [s](const TwoWords& w) { return w.setting == s; });
}
bool confdp_rules(std::string_view t) { return alternative(Setting::kRules, t); }
// --pid-format: rgif (FEMU's nvme_calc_rgif and nvme_pid2ph), rgif-min (the
// fewest RG bits, the rest the handle) or confdp (handle = ID & 0xff, RG = ID >> 8).
std::string_view pid_format(std::string_view t) {
  if (t == "rgif" || t == "rgif-min" || t == "confdp") return t;
  throw InputError(fmt::format("--pid-format: '{}' is not rgif (FEMU: RGIF = the bit length of the RG count, the "
                               "handle the low 15 - RGIF bits), rgif-min (the fewest bits that number the RGs, "
                               "every other bit the handle) or confdp (handle = ID & 0xff, RG = ID >> 8)",
                               t));
}
// --forced-passes: femu (0: FEMU's bound) or a count of at least 1.
uint32_t forced_passes(std::string_view t) {
  if (t == "femu") return 0;
  uint32_t n = 0;
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  if (ec != std::errc() || p != t.data() + t.size() || n == 0) {
    throw InputError(fmt::format("--forced-passes: '{}' is not femu (FEMU's bound: none on the line path, RUs + RGs "
                                 "under FDP) or a number of passes of at least 1 (ConfFDP: 5)",
                                 t));
  }
  return n;
}

// The value of setting `s` at point `v`: as given, else the rule set's
// (--rules confdp switches every rule where ConfFDP differs).
std::string rule_value(const ModelArgs& a, const Point& v, Setting s) {
  const SettingInfo& info = kSettings[idx(s)];
  if (!a.is_given(s) && !info.confdp_text.empty() && confdp_rules(v[idx(Setting::kRules)])) {
    return std::string(info.confdp_text);
  }
  return v[idx(s)];
}

// --sizing at point `v`: as given, else thres (at the preset's scale) under
// --rules confdp or on a confdp-* preset unless the line count is given
// another way, else lines. Refuses thres with --blocks, --op or fit:.
std::string sizing_value(const ModelArgs& a, const Point& v) {
  const std::string& preset = v[idx(Setting::kPreset)];
  const bool lines_given = a.is_given(Setting::kBlocks) || a.is_given(Setting::kOp) ||
                           (a.is_given(Setting::kLogical) && sim::parse_fit(v[idx(Setting::kLogical)]));
  if (a.is_given(Setting::kSizing)) {
    const std::string& text = v[idx(Setting::kSizing)];
    if (ftl::parse_sizing(text) && lines_given) {
      throw InputError(fmt::format("--sizing {} derives the line count from --gc-thres as ConfFDP does: it cannot be "
                                   "combined with --blocks, --op or --logical fit:",
                                   text));
    }
    return text;
  }
  if (lines_given || (!confdp_rules(v[idx(Setting::kRules)]) && preset.substr(0, 7) != "confdp-")) return "lines";
  const uint32_t scale = ftl::preset_sizing_scale(preset);
  return scale == 1 ? "thres" : fmt::format("thres:{}", scale);
}

// Checks a name-valued item by parsing it as the model will.
void check_word(Setting s, const std::string& item) {
  if (is_two_words(s)) {
    (void)alternative(s, item);
    return;
  }
  switch (s) {
    case Setting::kPreset: (void)ftl::preset_geometry(item); break;
    case Setting::kVictim: (void)ftl::parse_victim_policy(item); break;
    case Setting::kRuhType: (void)fdp::parse_ruh_types(item); break;
    case Setting::kPiGc: (void)fdp::parse_pi_gc(item); break;
    case Setting::kIiGc: (void)fdp::parse_ii_gc(item); break;
    case Setting::kRgSplit: (void)fdp::parse_rg_split(item); break;
    case Setting::kRgOf: (void)fdp::parse_rg_of(item); break;
    case Setting::kRuTimeLimit: (void)ru_time_limit(item); break;
    case Setting::kSizing: (void)ftl::parse_sizing(item); break;
    case Setting::kForcedPasses: (void)forced_passes(item); break;
    case Setting::kPidFormat: (void)pid_format(item); break;
    case Setting::kPlacement: (void)fdp::parse_placement(item); break;
    default: break;
  }
}

ftl::FtlConfig build_config(const ModelArgs& a, const Point& v) {
  auto given = [&](Setting s) { return a.is_given(s); };
  auto val = [&](Setting s) -> const std::string& { return v[idx(s)]; };
  ftl::FtlConfig cfg;
  ftl::Geometry& g = cfg.geometry;
  g = ftl::preset_geometry(val(Setting::kPreset));
  const double preset_op = g.over_provisioning();
  if (given(Setting::kChannels)) g.channels = to_u32(Setting::kChannels, val(Setting::kChannels));
  if (given(Setting::kLuns)) g.luns_per_channel = to_u32(Setting::kLuns, val(Setting::kLuns));
  if (given(Setting::kPlanes)) g.planes_per_lun = to_u32(Setting::kPlanes, val(Setting::kPlanes));
  if (given(Setting::kBlocks)) g.blocks_per_plane = to_u32(Setting::kBlocks, val(Setting::kBlocks));
  if (given(Setting::kPages)) g.pages_per_block = to_u32(Setting::kPages, val(Setting::kPages));
  if (given(Setting::kPageSize)) {
    const std::string& text = val(Setting::kPageSize);
    const uint64_t ps = parse_size_or_throw(text, "--page-size");
    if (ps > (uint64_t{1} << 24)) throw InputError(fmt::format("--page-size {} is larger than 16 MiB", text));
    g.page_bytes = static_cast<uint32_t>(ps);
  }
  const bool has_op = given(Setting::kOp);
  const double op_value = has_op ? to_real(Setting::kOp, val(Setting::kOp)) : -1.0;
  if (has_op && !(op_value > 0.0 && op_value < 100.0)) {
    throw InputError(fmt::format("--op {} is out of range: give a fraction above 0 and below 100 (0.25 = 25% spare "
                                 "area, physical = 1.25 x logical)",
                                 val(Setting::kOp)));
  }
  const double op = has_op ? op_value : preset_op;
  const std::optional<uint32_t> thres_scale = ftl::parse_sizing(sizing_value(a, v));
  if (thres_scale && !given(Setting::kLogical)) {
    // ConfFDP sizes the raw capacity from the logical one: keep the preset's.
  } else if (given(Setting::kLogical) && sim::parse_fit(val(Setting::kLogical))) {
    // --logical fit:P%: sized from the trace by simulate(); a placeholder here.
    g.logical_bytes = ftl::kSlotBytes;
  } else if (given(Setting::kLogical)) {
    g.logical_bytes = parse_size_or_throw(val(Setting::kLogical), "--logical");
    if (has_op) {
      if (given(Setting::kBlocks)) throw InputError("--blocks cannot be combined with both --logical and --op");
      g.blocks_per_plane = ftl::blocks_for_capacity(g, g.logical_bytes, op);
    }
  } else {
    const auto slots = static_cast<uint64_t>(static_cast<double>(g.physical_slots()) / (1.0 + op));
    g.logical_bytes = slots * ftl::kSlotBytes;
  }
  cfg.gc.thres_pcent = to_real(Setting::kGcThres, val(Setting::kGcThres));
  cfg.gc.thres_pcent_high = to_real(Setting::kGcThresHigh, val(Setting::kGcThresHigh));
  cfg.gc.victim = ftl::parse_victim_policy(val(Setting::kVictim));
  cfg.gc.d_choices = to_u32(Setting::kDChoices, val(Setting::kDChoices));
  cfg.gc.seed = to_u64(Setting::kSeed, val(Setting::kSeed));
  cfg.gc.forced_check_per_slot = alternative(Setting::kGcCheck, val(Setting::kGcCheck));
  cfg.gc.every_pool = alternative(Setting::kRgGc, rule_value(a, v, Setting::kRgGc));
  cfg.gc.page_order = alternative(Setting::kGcOrder, rule_value(a, v, Setting::kGcOrder));
  cfg.gc.forced_passes = forced_passes(rule_value(a, v, Setting::kForcedPasses));
  cfg.gc.watermark = alternative(Setting::kGcTrigger, val(Setting::kGcTrigger));
  cfg.trim_keeps_partial = alternative(Setting::kTrimPartial, val(Setting::kTrimPartial));
  cfg.trim_plus_one = alternative(Setting::kTrimRange, rule_value(a, v, Setting::kTrimRange));
  // (A geometry without dies or pages is left to validate(), which names the option.)
  if (thres_scale && g.dies() != 0 && g.block_bytes() != 0) {
    g.blocks_per_plane = ftl::confdp_lines(g, cfg.gc.thres_pcent, *thres_scale);
  }
  cfg.validate();
  return cfg;
}

fdp::PlacementSetup build_placement(const ModelArgs& a, const Point& v) {
  auto val = [&](Setting s) -> const std::string& { return v[idx(s)]; };
  auto rule = [&](Setting s) { return rule_value(a, v, s); };
  fdp::PlacementSetup p;
  p.placement = fdp::parse_placement(val(Setting::kPlacement));
  p.fdp.reclaim_groups = to_u32(Setting::kRg, val(Setting::kRg));
  if (!val(Setting::kRuSize).empty()) {
    p.fdp.ru_bytes = parse_size_or_throw(val(Setting::kRuSize), "--ru-size");
    if (p.fdp.ru_bytes == 0) throw InputError("--ru-size must be above 0");
  }
  const uint32_t ruh = to_u32(Setting::kRuh, val(Setting::kRuh));
  if (ruh == 0 || ruh > fdp::kMaxHandles) {
    throw InputError(fmt::format("--ruh {} must be between 1 and {}", ruh, fdp::kMaxHandles));
  }
  p.fdp.handles = ruh;
  p.fdp.ruh_types = fdp::parse_ruh_types(val(Setting::kRuhType));
  p.fdp.pi_gc_ru = fdp::parse_pi_gc(rule(Setting::kPiGc));
  p.fdp.ii_gc = fdp::parse_ii_gc(val(Setting::kIiGc));
  p.fdp.open_at_start = !alternative(Setting::kRuOpen, val(Setting::kRuOpen));
  p.fdp.rg_split = fdp::parse_rg_split(rule(Setting::kRgSplit));
  p.fdp.rg_of = fdp::parse_rg_of(rule(Setting::kRgOf));
  p.fdp.declined_requeue = !alternative(Setting::kDeclined, rule(Setting::kDeclined));
  const std::string pid(pid_format(rule(Setting::kPidFormat)));
  p.fdp.pid_confdp = pid == "confdp";
  p.fdp.pid_min_rgif = pid == "rgif-min";
  p.fdp.single_handle0 = alternative(Setting::kSingle, rule(Setting::kSingle));
  if (confdp_rules(val(Setting::kRules)) && p.fdp.reclaim_groups > 1) {
    throw InputError(fmt::format(
        "--rules confdp --rg {}: ConfFDP's rules for more than one reclaim group (RGs of whole channels, a write "
        "or GC copy moved to the nearest RG not at its high threshold) are not modelled yet; use --rg 1",
        p.fdp.reclaim_groups));
  }
  p.fdp.ru_time_limit_ns = ru_time_limit(val(Setting::kRuTimeLimit));
  return p;
}

}  // namespace

const SettingInfo& setting_info(size_t i) { return kSettings.at(i); }
const SettingInfo& setting_info(Setting s) { return kSettings[idx(s)]; }

ModelArgs::ModelArgs() {
  for (size_t i = 0; i < kSettingCount; ++i) text[i] = std::string(kSettings[i].default_text);
}

std::string ModelArgs::steady_state_key() const {
  std::string out;
  if (precondition != "none") out += "precondition=" + precondition + "\n";
  if (repeat != "1") out += "repeat=" + repeat + "\n";
  return out;
}

void add_model_options(CLI::App& app, ModelArgs& a) {
  auto add = [&](Setting s, std::string_view type, std::string_view group, std::string description) {
    const size_t i = idx(s);
    CLI::Option* o = app.add_option_function<std::string>(
        option_name(s),
        [&a, i](const std::string& value) {
          a.text[i] = value;
          a.given[i] = true;
        },
        std::move(description));
    o->type_name(std::string(type));
    if (!kSettings[i].default_text.empty()) o->default_str(std::string(kSettings[i].default_text));
    o->group(std::string(group));
  };
  // Registered in product order, so --help lists them in the order a sweep varies them.
  add(Setting::kPreset, "NAME", "Device",
      "Device preset: femu-default (16 GiB raw, 8x8 LUNs, 256 blocks x 256 x 4 KiB pages, 12 GiB logical) "
      "femu-eth (98 GiB raw, 8x8 LUNs, 98 lines of 16 MiB blocks, 64 GiB logical), femu-eth-512m (femu-eth "
      "at 1/128 scale: 98 lines of 128 KiB blocks, 512 MiB logical; for traces/geth-ethstate.ftr), confdp-eth "
      "and confdp-eth-512m (the same devices with the lines ConfFDP derives from --gc-thres: 106 at 60)");
  add(Setting::kRules, "femu|confdp", "Device",
      "Rule set: femu (MoatLab FEMU's BlackBox SSD) or confdp (the ConfFDP fork the Ethereum FDP study ran: "
      "--sizing thres, --rg-gc every, --gc-order page, --declined keep, --forced-passes 5, --trim-range "
      "plus-one, --pi-gc host-ru, --rg-split dies, --rg-of pid, --pid-format confdp, --single handle0); an option given "
      "explicitly overrides its rule (docs/model.md)");
  add(Setting::kChannels, "N", "Device", "Channels (default: the preset's; 8 for all presets)");
  add(Setting::kLuns, "N", "Device", "LUNs (dies) per channel (default: the preset's; 8 for all presets)");
  add(Setting::kPlanes, "N", "Device", "Planes per LUN (default: the preset's; 1)");
  add(Setting::kBlocks, "N", "Device",
      "Blocks per plane = number of lines (default: the preset's, 256 / 98 / 98; derived when both --logical "
      "and --op are given)");
  add(Setting::kPages, "N", "Device", "Pages per block (default: the preset's, 256 / 4096 / 32)");
  add(Setting::kPageSize, "SIZE", "Device",
      "NAND page size in bytes, a multiple of 4K (e.g. 4K, 16K; default: the preset's, 4K)");
  add(Setting::kLogical, "SIZE|fit:P%", "Device",
      "Logical capacity the host sees, in bytes (e.g. 12G); with --op, the number of blocks is derived "
      "from it. fit:P% sizes it from the trace: its footprint (the 4 KiB pages it touches, remapped densely "
      "in first-touch order) fills P% of it, and unless --pages or --blocks is given the device keeps the "
      "preset's lines and over-provisioning (or --op) with as many pages per block as that needs. "
      "Default: physical / (1 + op)");
  add(Setting::kOp, "FRACTION", "Device",
      "Over-provisioning as a fraction, physical/logical - 1 (default: the preset's, 1/3 for femu-default, "
      "0.53 for femu-eth and femu-eth-512m)");
  add(Setting::kSizing, "lines|thres[:S]", "Device",
      "Line count: lines (the preset's or --blocks', FEMU) or thres (ConfFDP: raw = logical x 100 / --gc-thres "
      "in whole MiB; thres:S sizes as for a device S times larger, keeping its line count). Default: thres (at "
      "the preset's scale, 128 for the -512m presets) under --rules confdp or a confdp-* preset, else lines");
  add(Setting::kGcThres, "PCT", "GC",
      "Background GC threshold in percent (FEMU gc_thres_pcent): GC runs while free lines <= "
      "(1 - pct/100) x lines, taking only victims with >= 1/8 invalid pages. Below 100 and at most "
      "--gc-thres-high: 100 cannot switch background GC off");
  add(Setting::kGcThresHigh, "PCT", "GC",
      "Forced GC threshold in percent (FEMU gc_thres_pcent_high), in the write path");
  add(Setting::kVictim, "NAME", "GC", "Victim policy: " + ftl::victim_policy_help());
  add(Setting::kDChoices, "N", "GC", "Candidates sampled by --victim d-choice");
  add(Setting::kSeed, "N", "GC", "Seed for the random and d-choice victim policies");
  add(Setting::kGcCheck, "request|page", "GC",
      "When the forced threshold is checked: request (once at the start of each write request, FEMU) or "
      "page (before every page written)");
  add(Setting::kRgGc, "first|every", "GC",
      "GC across reclaim groups: first (FEMU: a background pass in the first RG over its threshold, forced GC "
      "while any RG is over its high threshold) or every (each RG on its own)");
  add(Setting::kGcOrder, "block|page", "GC",
      "Order GC copies a victim's live pages in: block (block by block, FEMU) or page (page by page across the "
      "dies, ConfFDP)");
  add(Setting::kDeclined, "requeue|keep", "GC",
      "Under FDP, a background victim declined for having < 1/8 invalid pages: requeue (popped and inserted "
      "again, FEMU) or keep (left in place, ConfFDP and FEMU's line path)");
  add(Setting::kForcedPasses, "femu|N", "GC",
      "Forced GC passes one write request may run: femu (FEMU's bound: none on the line path, RUs + RGs under "
      "FDP) or N (ConfFDP: 5)");
  add(Setting::kGcTrigger, "femu|watermark", "GC",
      "Background GC trigger: femu (FEMU's: one pass after a request while free units <= the --gc-thres "
      "count, taking only a victim with >= 1/8 invalid pages) or watermark (ftlsim's own: after a request, "
      "passes until free units are above the --gc-thres count again, each taking the policy's victim "
      "whatever its invalid share); forced GC (--gc-thres-high) is the same in both");
  add(Setting::kTrimRange, "exact|plus-one", "Device",
      "LBAs a trim unmaps: exact (its range, FEMU) or plus-one (also the 4 KiB page after each range: ConfFDP's "
      "(nlb + 1) bug, reproduced because the study ran it)");
  add(Setting::kTrimPartial, "unmap|keep", "Device",
      "A trim covering part of a 4 KiB page: unmap (the page is unmapped, FEMU) or keep (it stays mapped)");
  add(Setting::kRg, "N", "FDP",
      "Reclaim groups; a write's RG comes from its placement identifier's RG bits (see --rg-of)");
  add(Setting::kRuSize, "SIZE", "FDP",
      "Reclaim unit size in bytes (default: one line, as FEMU); whole lines, or one block per plane on "
      "fewer dies");
  add(Setting::kRuh, "N", "FDP", "Reclaim unit handles (placement IDs the device accepts), 1-256");
  add(Setting::kRuhType, "pi|last-ii|ii", "FDP",
      "Handle types: pi (all persistently isolated: GC survivors stay with their handle; FEMU's default), "
      "last-ii (the last handle initially isolated, FEMU's fdp.isolation_mode=1) or ii (all initially isolated)");
  add(Setting::kPiGc, "gc-ru|host-ru", "FDP",
      "Where GC puts the survivors of a pi handle: gc-ru (a GC reclaim unit of the same handle, FEMU) or "
      "host-ru (appended to the handle's open host RU)");
  add(Setting::kIiGc, "last-ruh|gc-ru", "FDP",
      "Where GC puts the survivors of an ii handle: last-ruh (the host RU of the last handle, FEMU) or gc-ru "
      "(one GC reclaim unit per RG shared by the ii handles)");
  add(Setting::kRuOpen, "startup|lazy", "FDP",
      "When a handle takes its RU in an RG: startup (every handle in every RG when the device starts, FEMU) "
      "or lazy (on its first write there)");
  add(Setting::kRgSplit, "lines|dies", "FDP",
      "What a reclaim group is: lines (a share of the lines; RUs span all dies, FEMU) or dies (a share of the "
      "dies; an RU is one line of them)");
  add(Setting::kRgOf, "current|pid|lba", "FDP",
      "Which RG a write goes to: current (the handle's current RU, which stays in RG 0; the placement "
      "identifier's RG only picks where forced GC runs, FEMU), pid (the RU of the RG its placement identifier "
      "names) or lba (its LBA in 1 MiB stripes)");
  add(Setting::kPidFormat, "rgif|rgif-min|confdp", "FDP",
      "Placement identifier parsing: rgif (FEMU: RGIF = the bit length of the RG count, the handle the low "
      "15 - RGIF bits; an invalid ID goes to handle 0 of RG 0 as an FDP event), rgif-min (the fewest bits that "
      "number the RGs, every other bit the handle) or confdp (handle = ID & 0xff, RG = ID >> 8; an invalid "
      "handle goes to the last handle, an invalid RG to the last RG, no event)");
  add(Setting::kSingle, "line-path|handle0", "FDP",
      "What --placement single runs on: line-path (FEMU's non-FDP line path, one write pointer) or handle0 "
      "(ConfFDP, which has no non-FDP mode: every write through handle 0 of the same FDP device)");
  add(Setting::kRuTimeLimit, "DURATION|off", "FDP",
      "RU time limit: an RU that host writes reach is closed this long (trace time) after its first host "
      "write, full or not, and the FDP events RU time limit exceeded and RU not fully written are counted "
      "(e.g. 500ms, 10s; default off)");
  add(Setting::kPlacement, "POLICY", "FDP",
      "Placement policy: single (non-FDP: one handle, GC shares its write pointer), fdp (the "
      "trace's placement IDs, ID i -> handle i), map:PID=RUH,... (remap IDs), oracle (by the time "
      "until each LBA is rewritten, from the whole trace: usually best, not a strict bound), "
      "interval (device-side, by the overwrite "
      "interval it observes; no host tags). In a list, a map: spec runs to the next ';'");
  add(Setting::kInterval, "SIZE", "Output",
      "Host bytes between timeseries rows (default: 1% of the bytes the trace writes)");
  app.add_flag("--id-series", a.id_series,
               "Also write id_timeseries.csv: host bytes, GC bytes and WAF share over time per placement ID and per "
               "handle (4 B of memory per logical page)")
      ->group("Output");
  app.add_flag("--wrap", a.wrap, "Fold LBAs beyond the logical capacity into it (modulo) instead of failing")
      ->group("Input");
  app.add_option("--reset-at", a.reset_at,
                 "device:MARKER resets the whole device (mapping, units, erase counts, counters; ConfFDP's "
                 "management reset) and counters:MARKER only its counters, at the trace's first marker of that "
                 "value, so WAF, GC onset and the time series count from there (fast mode; not sweepable)")
      ->type_name("KIND:MARKER")
      ->group("Input");
  app.add_option("--precondition", a.precondition,
                 "Fill the device before the trace, then zero the counters: none, seq (every logical page once, "
                 "in order), random (every logical page once, in a random order seeded by --seed) or trace (the "
                 "pages the trace reads, writes or trims, in order); 4 KiB writes through handle 0. Reads of "
                 "filled pages are reads of mapped data (not sweepable)")
      ->type_name("none|seq|random|trace")
      ->default_str("none")
      ->group("Input");
  app.add_option("--repeat", a.repeat,
                 "Replay the trace N times to reach steady state; the counters cover every pass and summary.json "
                 "gives each pass's (fast mode; not sweepable)")
      ->type_name("N")
      ->default_str("1")
      ->group("Input");
}

void add_mem_limit_option(CLI::App& app, std::string& text) {
  text = "auto";
  app.add_option("--mem-limit", text,
                 "Refuse a run whose estimated memory (the device's maps and tables; a sweep's -j "
                 "configurations at once) exceeds this: auto (the default: MemAvailable, or the room under a "
                 "lower cgroup limit), a size (e.g. 48G), or off")
      ->type_name("auto|off|SIZE")
      ->group("Output");
}

std::string sweep_help() {
  std::string order;
  for (size_t i = 0; i < kSettingCount; ++i) {
    if (i > 0) order += i % 8 == 0 ? ",\n  " : ", ";
    order += kSettings[i].name;
  }
  std::string timing_order;
  for (size_t i = 0; i < kTimingSettingCount; ++i) {
    timing_order += fmt::format("{}{}", i > 0 ? ", " : "", timing_setting_name(i));
  }
  return fmt::format(
      "Sweeps: every Device, GC, FDP, Output and Timing option above (but the --timing flag) also takes\n"
      "a list, and numbers and sizes a range:\n"
      "  --gc-thres 50,60,75     a list (items separated by ',')\n"
      "  --gc-thres 50:90:10     an inclusive range START:STOP:STEP (50,60,70,80,90);\n"
      "                          numbers and sizes only, and may be mixed with lists: 16M:64M:16M,1G\n"
      "  --timing --qd 1,4,16    timing values are axes too (durations: lists only, 40us,80us)\n"
      "  --placement \"single,fdp;map:0=0,1=0,2=1;oracle\"\n"
      "                          a map: spec takes everything up to the next ';'\n"
      "With more than one value anywhere, ftlsim runs the Cartesian product of all values in one\n"
      "invocation on -j threads sharing the trace, and needs --out DIR: it writes DIR/sweep.csv (one\n"
      "row per configuration: config_id, the swept values, waf, host_bytes, gc_bytes, erases (blocks),\n"
      "gc_onset_host_bytes, gc_onset_marker, invalid_pid_requests, ru_not_fully_written, with --timing\n"
      "iops, lat_mean_ns, lat_p50_ns, lat_p99_ns, lat_p99_9_ns, then waf_share_<handle>..., error,\n"
      "status, config_key) and\n"
      "DIR/<config_id>/summary.json + timeseries.csv, config_id naming the swept values\n"
      "(gc-thres=60_placement=fdp). Configurations are ordered like nested loops over\n"
      "  {}\n"
      "with the last option varying fastest; the timing options follow them (varying faster still):\n"
      "  {}.\n"
      "Results do not depend on -j. A configuration that is\n"
      "invalid (say, a threshold impossible for one --ru-size) gets its message in the error column;\n"
      "the others still run, and ftlsim exits with code 2 at the end.\n"
      "Compare two configurations side by side: ftlsim compare --help\n",
      order, timing_order);
}

std::vector<std::vector<std::string>> expand_settings(const ModelArgs& a) {
  std::vector<std::vector<std::string>> items(kSettingCount);
  for (size_t i = 0; i < kSettingCount; ++i) {
    const auto s = static_cast<Setting>(i);
    if (!a.given[i]) {
      items[i] = {a.text[i]};
      continue;
    }
    items[i] = sim::expand_values(option_name(s), kSettings[i].kind, a.text[i]);
    if (kSettings[i].kind == ValueKind::kWord || kSettings[i].kind == ValueKind::kPlacement) {
      for (const std::string& item : items[i]) check_word(s, item);
    }
  }
  return items;
}

void check_options_apply(const ModelArgs& a, const std::vector<std::vector<std::string>>& items,
                         const ModelArgs* common) {
  for (const std::string& p : items.at(idx(Setting::kPlacement))) {
    if (fdp::parse_placement(p).kind != fdp::PlacementKind::kSingle) return;
  }
  for (const Setting s : {Setting::kRgGc, Setting::kRg, Setting::kRuSize, Setting::kRuh, Setting::kRuhType,
                          Setting::kPiGc, Setting::kIiGc, Setting::kRuOpen, Setting::kRgSplit, Setting::kRgOf}) {
    if (a.is_given(s) && (common == nullptr || !common->is_given(s))) {
      fmt::print(stderr,
                 "ftlsim: warning: {} does not apply to --placement single (the non-FDP device: one handle, "
                 "reclaim units are lines, one reclaim group) and changes no result; give --placement fdp, "
                 "map:..., oracle or interval for it to apply\n",
                 option_name(s));
    }
  }
}

Point first_point(const std::vector<std::vector<std::string>>& items) {
  Point p;
  for (size_t i = 0; i < kSettingCount; ++i) p[i] = items.at(i).at(0);
  return p;
}

sim::RunDescription build_run(const ModelArgs& a, const Point& point, const std::string& trace_path) {
  sim::RunDescription run;
  run.trace_path = trace_path;
  run.config = build_config(a, point);
  bool overridden = false;
  for (const Setting s : {Setting::kChannels, Setting::kLuns, Setting::kPlanes, Setting::kBlocks, Setting::kPages,
                          Setting::kOp, Setting::kPageSize, Setting::kLogical}) {
    overridden = overridden || a.is_given(s);
  }
  const std::string& preset = point[idx(Setting::kPreset)];
  run.preset = overridden ? preset + "+overrides" : preset;
  run.options.wrap = a.wrap;
  if (a.is_given(Setting::kLogical)) run.options.fit = sim::parse_fit(point[idx(Setting::kLogical)]);
  if (run.options.fit && !a.is_given(Setting::kPages) && !a.is_given(Setting::kBlocks)) {
    // The device scales with the trace: the preset's lines and dies, its
    // over-provisioning (or --op), and as many pages per block as that takes.
    const double op = a.is_given(Setting::kOp) ? to_real(Setting::kOp, point[idx(Setting::kOp)])
                                               : ftl::preset_geometry(point[idx(Setting::kPreset)]).over_provisioning();
    run.options.fit_op = op;
  }
  if (a.is_given(Setting::kInterval)) {
    run.options.interval_bytes = parse_size_or_throw(point[idx(Setting::kInterval)], "--interval");
    if (run.options.interval_bytes == 0) throw InputError("--interval must be above 0");
  }
  run.placement = build_placement(a, point);
  run.rules = point[idx(Setting::kRules)];
  run.sizing = sizing_value(a, point);
  run.options.reset = parse_reset_at(a.reset_at);
  run.options.precondition = parse_precondition(a.precondition);
  run.options.repeat = parse_uint_option(a.repeat, "--repeat", 1, 1000000);
  run.options.id_series = a.id_series;
  return run;
}

}  // namespace ftlsim::cli
