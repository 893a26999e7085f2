#include "cli/sim_options.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <cmath>
#include <limits>
#include <optional>

#include "core/error.h"
#include "cli/timing_options.h"
#include "core/units.h"
#include "fdp/fdp_config.h"
#include "fdp/placement.h"
#include "ftl/ftl_config.h"
#include "ftl/geometry.h"
#include "sim/fit.h"

namespace ftlsim::cli {
namespace {

using sim::ValueKind;

constexpr std::array<SettingInfo, kSettingCount> kSettings = {{
    {"preset", ValueKind::kWord, "femu-default"},
    {"channels", ValueKind::kInteger, ""},
    {"luns", ValueKind::kInteger, ""},
    {"planes", ValueKind::kInteger, ""},
    {"blocks", ValueKind::kInteger, ""},
    {"pages", ValueKind::kInteger, ""},
    {"page-size", ValueKind::kSize, ""},
    {"logical", ValueKind::kSize, ""},
    {"op", ValueKind::kReal, ""},
    {"gc-thres", ValueKind::kReal, "75"},
    {"gc-thres-high", ValueKind::kReal, "95"},
    {"victim", ValueKind::kWord, "greedy"},
    {"d-choices", ValueKind::kInteger, "8"},
    {"seed", ValueKind::kInteger, "1"},
    {"gc-check", ValueKind::kWord, "request"},
    {"rg-gc", ValueKind::kWord, "first"},
    {"trim-partial", ValueKind::kWord, "unmap"},
    {"rg", ValueKind::kInteger, "1"},
    {"ru-size", ValueKind::kSize, ""},
    {"ruh", ValueKind::kInteger, "8"},
    {"ruh-type", ValueKind::kWord, "pi"},
    {"pi-gc", ValueKind::kWord, "gc-ru"},
    {"ii-gc", ValueKind::kWord, "last-ruh"},
    {"ru-open", ValueKind::kWord, "startup"},
    {"rg-split", ValueKind::kWord, "lines"},
    {"rg-of", ValueKind::kWord, "pid"},
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

// Two-word settings: the first word is FEMU's rule (the default), the second
// ftlsim's alternative. Returns whether `text` is the alternative.
bool choice(Setting s, std::string_view text, std::string_view femu, std::string_view other, std::string_view what) {
  if (text == femu) return false;
  if (text == other) return true;
  throw InputError(fmt::format("{}: '{}' is not {} ({}) or {}", option_name(s), text, femu, what, other));
}
bool gc_check_per_page(std::string_view t) {
  return choice(Setting::kGcCheck, t, "request", "page", "once per write request, FEMU");
}
bool rg_gc_every(std::string_view t) { return choice(Setting::kRgGc, t, "first", "every", "FEMU"); }
bool trim_keeps(std::string_view t) { return choice(Setting::kTrimPartial, t, "unmap", "keep", "FEMU"); }
bool ru_open_lazy(std::string_view t) { return choice(Setting::kRuOpen, t, "startup", "lazy", "FEMU"); }

// Checks a name-valued item by parsing it as the model will.
void check_word(Setting s, const std::string& item) {
  switch (s) {
    case Setting::kPreset: (void)ftl::preset_geometry(item); break;
    case Setting::kVictim: (void)ftl::parse_victim_policy(item); break;
    case Setting::kGcCheck: (void)gc_check_per_page(item); break;
    case Setting::kRgGc: (void)rg_gc_every(item); break;
    case Setting::kTrimPartial: (void)trim_keeps(item); break;
    case Setting::kRuhType: (void)fdp::parse_ruh_types(item); break;
    case Setting::kPiGc: (void)fdp::parse_pi_gc(item); break;
    case Setting::kIiGc: (void)fdp::parse_ii_gc(item); break;
    case Setting::kRuOpen: (void)ru_open_lazy(item); break;
    case Setting::kRgSplit: (void)fdp::parse_rg_split(item); break;
    case Setting::kRgOf: (void)fdp::parse_rg_of(item); break;
    case Setting::kRuTimeLimit: (void)ru_time_limit(item); break;
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
  if (given(Setting::kLogical) && sim::parse_fit(val(Setting::kLogical))) {
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
  cfg.gc.forced_check_per_slot = gc_check_per_page(val(Setting::kGcCheck));
  cfg.gc.every_pool = rg_gc_every(val(Setting::kRgGc));
  cfg.trim_keeps_partial = trim_keeps(val(Setting::kTrimPartial));
  cfg.validate();
  return cfg;
}

fdp::PlacementSetup build_placement(const Point& v) {
  auto val = [&](Setting s) -> const std::string& { return v[idx(s)]; };
  fdp::PlacementSetup p;
  p.placement = fdp::parse_placement(val(Setting::kPlacement));
  p.fdp.reclaim_groups = to_u32(Setting::kRg, val(Setting::kRg));
  if (!val(Setting::kRuSize).empty()) {
    p.fdp.ru_bytes = parse_size_or_throw(val(Setting::kRuSize), "--ru-size");
    if (p.fdp.ru_bytes == 0) throw InputError("--ru-size must be above 0");
  }
  const uint32_t ruh = to_u32(Setting::kRuh, val(Setting::kRuh));
  if (ruh == 0 || ruh > 256) throw InputError(fmt::format("--ruh {} must be between 1 and 256", ruh));
  p.fdp.handles = ruh;
  p.fdp.ruh_types = fdp::parse_ruh_types(val(Setting::kRuhType));
  p.fdp.pi_gc_ru = fdp::parse_pi_gc(val(Setting::kPiGc));
  p.fdp.ii_gc = fdp::parse_ii_gc(val(Setting::kIiGc));
  p.fdp.open_at_start = !ru_open_lazy(val(Setting::kRuOpen));
  p.fdp.rg_split = fdp::parse_rg_split(val(Setting::kRgSplit));
  p.fdp.rg_of = fdp::parse_rg_of(val(Setting::kRgOf));
  p.fdp.ru_time_limit_ns = ru_time_limit(val(Setting::kRuTimeLimit));
  return p;
}

}  // namespace

const SettingInfo& setting_info(size_t i) { return kSettings.at(i); }
const SettingInfo& setting_info(Setting s) { return kSettings[idx(s)]; }

ModelArgs::ModelArgs() {
  for (size_t i = 0; i < kSettingCount; ++i) text[i] = std::string(kSettings[i].default_text);
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
      "femu-eth (98 GiB raw, 8x8 LUNs, 98 lines of 16 MiB blocks, 64 GiB logical) or femu-eth-512m (femu-eth "
      "at 1/128 scale: 98 lines of 128 KiB blocks, 512 MiB logical; for traces/geth-ethstate.ftr)");
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
  add(Setting::kRgOf, "pid|lba", "FDP",
      "Which RG a write goes to: pid (the RG bits of its placement identifier, TP4146, FEMU) or lba (its LBA "
      "in 1 MiB stripes)");
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
  app.add_flag("--wrap", a.wrap, "Fold LBAs beyond the logical capacity into it (modulo) instead of failing")
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
  run.placement = build_placement(point);
  return run;
}

}  // namespace ftlsim::cli
