#include "cli/sim_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>

#include "cli/flag_text.h"
#include "cli/timing_options.h"
#include "core/error.h"
#include "core/units.h"
#include "fdp/placement.h"
#include "ftl/confdp_sizing.h"
#include "ftl/presets.h"
#include "sim/fit.h"
#include "sim/run_settings.h"

namespace ftlsim::cli {
namespace {

// The value of a setting at one point, by name.
struct PointView {
  const ModelArgs& args;
  const Point& point;
  [[nodiscard]] const std::string& operator()(std::string_view name) const { return point[setting_index(name)]; }
  [[nodiscard]] bool given(std::string_view name) const { return args.is_given(name); }
  // As given, else the rule set's (--rules confdp switches every rule where
  // ConfFDP differs).
  [[nodiscard]] std::string rule(size_t i) const {
    const SettingInfo& s = setting_info(i);
    if (args.given[i] == 0 && !s.confdp_text.empty() && confdp_rules((*this)("rules"))) return s.confdp_text;
    return point[i];
  }
};

double real_of(std::string_view name, const std::string& text) { return parse_real(name, text); }

// --sizing at point `v`: as given, else thres (at the preset's scale) under
// --rules confdp or on a preset sized as ConfFDP sizes it, unless the line
// count is given another way, else lines. Refuses thres with --blocks, --op
// or fit:.
std::string sizing_value(const PointView& v) {
  const bool lines_given = v.given("blocks") || v.given("op") || (v.given("logical") && sim::parse_fit(v("logical")));
  if (v.given("sizing")) {
    const std::string& text = v("sizing");
    if (ftl::parse_sizing(text) && lines_given) {
      throw InputError(
          fmt::format("--sizing {} derives the line count from --gc-thres as ConfFDP does: it cannot be "
                      "combined with --blocks, --op or --logical fit:",
                      text));
    }
    return text;
  }
  const ftl::Preset& preset = ftl::preset(v("preset"));
  if (lines_given || (!confdp_rules(v("rules")) && !preset.confdp_sizing)) return "lines";
  return preset.sizing_scale == 1 ? "thres" : fmt::format("thres:{}", preset.sizing_scale);
}

ftl::FtlConfig build_config(const PointView& v) {
  ftl::FtlConfig cfg;
  ftl::Geometry& g = cfg.geometry;
  g = ftl::preset_geometry(v("preset"));
  const double preset_op = g.over_provisioning();
  for (size_t i = 0; i < setting_count(); ++i) {
    const SettingInfo& s = setting_info(i);
    if (s.geometry != nullptr && v.args.given[i] != 0) s.geometry->parse(g, v.point[i]);
  }
  const bool has_op = v.given("op");
  const double op_value = has_op ? real_of("op", v("op")) : -1.0;
  if (has_op && !(op_value > 0.0 && op_value < 100.0)) {
    throw InputError(
        fmt::format("--op {} is out of range: give a fraction above 0 and below 100 (0.25 = 25% spare "
                    "area, physical = 1.25 x logical)",
                    v("op")));
  }
  const double op = has_op ? op_value : preset_op;
  const std::optional<uint32_t> thres_scale = ftl::parse_sizing(sizing_value(v));
  if (thres_scale && !v.given("logical")) {
    // ConfFDP sizes the raw capacity from the logical one: keep the preset's.
  } else if (v.given("logical") && sim::parse_fit(v("logical"))) {
    // --logical fit:P%: sized from the trace by simulate(); a placeholder here.
    g.logical_bytes = ftl::kSlotBytes;
  } else if (v.given("logical")) {
    g.logical_bytes = parse_size_or_throw(v("logical"), "--logical");
    if (has_op) {
      if (v.given("blocks")) throw InputError("--blocks cannot be combined with both --logical and --op");
      g.blocks_per_plane = ftl::blocks_for_capacity(g, g.logical_bytes, op);
    }
  } else {
    const auto slots = static_cast<uint64_t>(static_cast<double>(g.physical_slots()) / (1.0 + op));
    g.logical_bytes = slots * ftl::kSlotBytes;
  }
  for (size_t i = 0; i < setting_count(); ++i) {
    const SettingInfo& s = setting_info(i);
    if (s.ftl != nullptr) s.ftl->parse(cfg, v.rule(i));
  }
  // (A geometry without dies or pages is left to validate(), which names the option.)
  if (thres_scale && g.dies() != 0 && g.block_bytes() != 0) {
    g.blocks_per_plane = ftl::confdp_lines(g, cfg.gc.thres_pcent, *thres_scale);
  }
  cfg.validate();
  return cfg;
}

fdp::PlacementSetup build_placement(const PointView& v) {
  fdp::PlacementSetup p;
  p.placement = fdp::parse_placement(v("placement"));
  for (size_t i = 0; i < setting_count(); ++i) {
    const SettingInfo& s = setting_info(i);
    if (s.fdp != nullptr) s.fdp->parse(p.fdp, v.rule(i));
  }
  return p;
}

// The FDP device settings that change nothing under `single` placement.
constexpr std::string_view kFdpDeviceSettings[] = {"rg-gc", "rg",      "ru-size",  "ruh",   "ruh-type",    "pi-gc",
                                                   "ii-gc", "ru-open", "rg-split", "rg-of", "write-spill", "gc-spill"};

}  // namespace

ModelArgs::ModelArgs() : given(setting_count(), 0) {
  for (size_t i = 0; i < setting_count(); ++i) text.push_back(setting_info(i).default_text);
  for (const Setting<sim::SimOptions>& s : sim::run_settings()) run.push_back(s.default_text());
}

std::string ModelArgs::wrap_key_line() const {
  const auto settings = sim::run_settings();
  for (size_t i = 0; i < settings.size(); ++i) {
    if (settings[i].name == "wrap") return "wrap=" + run[i] + "\n";
  }
  throw std::logic_error("run_settings() lacks wrap");
}

std::string ModelArgs::key_lines() const {
  const auto settings = sim::run_settings();
  std::string out;
  for (size_t i = 0; i < settings.size(); ++i) {
    const Setting<sim::SimOptions>& s = settings[i];
    if (s.name != "wrap" && run[i] != s.default_text()) out += fmt::format("{}={}\n", s.key_name(), run[i]);
  }
  return out;
}

void ModelArgs::apply_run_settings(sim::SimOptions& options) const {
  const auto settings = sim::run_settings();
  for (size_t i = 0; i < settings.size(); ++i) settings[i].parse(options, run[i]);
}

void add_model_options(CLI::App& app, ModelArgs& a) {
  // Registered in product order, so --help lists them in the order a sweep varies them.
  for (size_t i = 0; i < setting_count(); ++i) {
    const SettingInfo& s = setting_info(i);
    CLI::Option* o = app.add_option_function<std::string>(
        "--" + s.name,
        [&a, i](const std::string& value) {
          a.text[i] = value;
          a.given[i] = 1;
        },
        s.help);
    o->type_name(s.type);
    if (!s.default_text.empty()) o->default_str(s.default_text);
    o->group(s.group);
  }
  // Then the run settings, one value each.
  const auto run = sim::run_settings();
  for (size_t i = 0; i < run.size(); ++i) {
    const Setting<sim::SimOptions>& s = run[i];
    const std::string help = help_flag_text(s.help);
    CLI::Option* o = nullptr;
    if (sim::is_flag(s)) {
      o = app.add_flag_callback(
          "--" + std::string(s.name), [&a, i] { a.run[i] = "true"; }, help);
    } else {
      o = app.add_option_function<std::string>(
          "--" + std::string(s.name), [&a, i](const std::string& value) { a.run[i] = value; }, help);
      o->type_name(std::string(s.type));
      if (!s.default_text().empty()) o->default_str(s.default_text());
    }
    o->group(std::string(s.group));
  }
}

void parse_overlay(CLI::App& overlay, const std::string& text) {
  overlay.allow_extras();
  overlay.parse(text, false);
  std::vector<std::string> extra = overlay.remaining();  // in the order given
  std::reverse(extra.begin(), extra.end());              // ExtrasError joins them from the back
  if (!extra.empty()) throw CLI::ExtrasError(overlay.get_name(), extra);
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
  for (size_t i = 0; i < setting_count(); ++i) {
    if (i > 0) order += i % 8 == 0 ? ",\n  " : ", ";
    order += setting_info(i).name;
  }
  std::string timing_order;
  for (size_t i = 0; i < timing_setting_count(); ++i) {
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
  std::vector<std::vector<std::string>> items(setting_count());
  for (size_t i = 0; i < setting_count(); ++i) {
    const SettingInfo& s = setting_info(i);
    if (a.given[i] == 0) {
      items[i] = {a.text[i]};
      continue;
    }
    // A number the generic parser refuses is refused by the setting's own
    // parser, which names its real range (`--blocks` from 4); a word or
    // placement listed twice is found as the setting reads it.
    items[i] = sim::expand_values(
        "--" + s.name, s.kind, a.text[i], [&s](std::string_view t) { check_item(s, t); },
        [&s](std::string_view item) { return canonical_item(s, item); });
    if (s.kind == ValueKind::kWord || s.kind == ValueKind::kPlacement) {
      for (const std::string& item : items[i]) check_item(s, item);
    }
  }
  return items;
}

void check_options_apply(const ModelArgs& a, const std::vector<std::vector<std::string>>& items,
                         const ModelArgs* common) {
  // The one victim policy's own option, given where that policy never runs.
  if (a.is_given("d-choices") && (common == nullptr || !common->is_given("d-choices"))) {
    const std::vector<std::string>& victims = items.at(setting_index("victim"));
    if (std::find(victims.begin(), victims.end(), "d-choice") == victims.end()) {
      fmt::print(stderr, "ftlsim: warning: --d-choices applies only to --victim d-choice and changes no result here\n");
    }
  }
  for (const std::string& p : items.at(setting_index("placement"))) {
    if (fdp::parse_placement(p).kind != fdp::PlacementKind::kSingle) return;
  }
  // `single` handle0 (given, or --rules confdp's) runs on the FDP device
  // itself, where every device setting applies (ConfFDP has no non-FDP mode).
  const size_t single = setting_index("single");
  const SettingInfo& si = setting_info(single);
  for (const std::string& r : items.at(setting_index("rules"))) {
    for (const std::string& v : items.at(single)) {
      const bool by_rule = a.given[single] == 0 && !si.confdp_text.empty() && confdp_rules(r);
      const std::string& effective = by_rule ? si.confdp_text : v;
      if (effective != si.default_text) return;
    }
  }
  for (const std::string_view s : kFdpDeviceSettings) {
    if (a.is_given(s) && (common == nullptr || !common->is_given(s))) {
      fmt::print(stderr,
                 "ftlsim: warning: --{} does not apply to --placement single (the non-FDP device: one handle, "
                 "reclaim units are lines, one reclaim group) and changes no result; give --placement fdp, "
                 "map:..., oracle or interval for it to apply\n",
                 s);
    }
  }
}

Point first_point(const std::vector<std::vector<std::string>>& items) {
  Point p(setting_count());
  for (size_t i = 0; i < setting_count(); ++i) p[i] = items.at(i).at(0);
  return p;
}

std::string key_description(const Point& point) {
  std::string out;
  for (size_t i = 0; i < setting_count(); ++i) {
    const SettingInfo& s = setting_info(i);
    if (s.always_keyed || point[i] != s.default_text) out += fmt::format("{}={}\n", s.name, point[i]);
  }
  return out;
}

sim::RunDescription build_run(const ModelArgs& a, const Point& point, const std::string& trace_path) {
  const PointView v{a, point};
  sim::RunDescription run;
  run.trace_path = trace_path;
  run.config = build_config(v);
  bool overridden = false;
  for (const std::string_view s : {"channels", "luns", "planes", "blocks", "pages", "op", "page-size", "logical"}) {
    overridden = overridden || a.is_given(s);
  }
  run.preset = overridden ? v("preset") + "+overrides" : v("preset");
  if (a.is_given("logical")) run.options.fit = sim::parse_fit(v("logical"));
  if (run.options.fit && !a.is_given("pages") && !a.is_given("blocks")) {
    // The device scales with the trace: the preset's lines and dies, its
    // over-provisioning (or --op), and as many pages per block as that takes.
    run.options.fit_op =
        a.is_given("op") ? real_of("op", v("op")) : ftl::preset_geometry(v("preset")).over_provisioning();
  }
  if (a.is_given("interval")) {
    run.options.interval_bytes = parse_size_or_throw(v("interval"), "--interval");
    if (run.options.interval_bytes == 0) throw InputError("--interval must be above 0");
  }
  run.placement = build_placement(v);
  run.rules = v("rules");
  run.sizing = sizing_value(v);
  a.apply_run_settings(run.options);
  return run;
}

}  // namespace ftlsim::cli
