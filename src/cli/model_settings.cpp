// The table of model settings in product order: the settings declared
// beside their structs (geometry, FTL, FDP) and the few the CLI declares
// itself because they combine several structs (--preset, --rules,
// --logical, --op, --sizing, --placement, --interval).
#include <fmt/format.h>

#include <stdexcept>

#include "cli/flag_text.h"
#include "cli/sim_options.h"
#include "fdp/fdp_settings.h"
#include "fdp/placement.h"
#include "ftl/confdp_sizing.h"
#include "ftl/ftl_settings.h"
#include "ftl/geometry_settings.h"
#include "ftl/presets.h"

namespace ftlsim::cli {
namespace {

// The settings in their product order: those of ftlsim 0.1.0, which sweep
// resume keys (sweep/sweep_resume.h) list always and in this order, and the
// later ones in kLaterSettings, which enter a key only when their value is
// not the default, so the sweeps of earlier versions still resume. A setting
// not listed here is appended after them (in its table's order), as a later one.
constexpr std::string_view kKeyedOrder[] = {
    "preset",   "rules",      "channels", "luns",          "planes",        "blocks",     "pages",        "page-size",
    "logical",  "op",         "sizing",   "gc-thres",      "gc-thres-high", "victim",     "d-choices",    "seed",
    "gc-check", "rg-gc",      "gc-order", "declined",      "forced-passes", "gc-trigger", "trim-partial", "trim-range",
    "rg",       "ru-size",    "ruh",      "ruh-type",      "pi-gc",         "ii-gc",      "ru-open",      "rg-split",
    "rg-of",    "pid-format", "single",   "ru-time-limit", "placement",     "interval"};

// Settings of kKeyedOrder added after 0.1.0 (#26: gc-trigger, in its product
// place since it was added): keyed only when not at their default.
constexpr std::string_view kLaterSettings[] = {"gc-trigger"};

// The refusal of another word, as since --rules came (--help lists kRulesWords).
constexpr std::string_view kRulesRefusal = "is not femu (every rule MoatLab FEMU's) or confdp";
constexpr Choice<bool> kRulesWords[] = {{false, "femu", "MoatLab FEMU's BlackBox SSD"},
                                        {true, "confdp", "the ConfFDP fork the Ethereum FDP study ran"}};

std::string preset_op_text(const ftl::Geometry& g) { return fmt::format("{:.3g}", g.over_provisioning()); }

// The settings the CLI declares itself (their values are combined in build_run).
std::vector<SettingInfo> own_settings() {
  std::vector<SettingInfo> v;
  v.push_back({"preset", ValueKind::kWord, "NAME", "Device", "Device preset: " + ftl::presets_help(), "femu-default",
               "", true, [](std::string_view t) { (void)ftl::preset(t); }});
  v.push_back({"rules", ValueKind::kWord, "femu|confdp", "Device", "", "femu", "", true,
               [](std::string_view t) { (void)parse_choice<bool>(kRulesWords, "rules", t, kRulesRefusal); }});
  v.push_back({"logical", ValueKind::kSize, "SIZE|fit:P%", "Device",
               "Logical capacity the host sees, in bytes (e.g. 12G); with --op, the number of blocks is derived "
               "from it. fit:P% sizes it from the trace: its footprint (the 4 KiB pages it touches, remapped densely "
               "in first-touch order) fills P% of it, and unless --pages or --blocks is given the device keeps the "
               "preset's lines and takes the fewest whole pages per block that give at least its "
               "over-provisioning (or --op): more, by up to a page in every block, on a small footprint (printed "
               "as `fit OP`). "
               "Default: physical / (1 + op)",
               "", "", true, [](std::string_view t) {
                 // "80%" in `--logical fit:70%,80%`: each fill level is its own fit: item.
                 if (!t.empty() && t.back() == '%') {
                   throw InputError(fmt::format(
                       "--logical: '{}' is not a size; a fill level is written fit:{} (each item of a list)", t, t));
                 }
               }});
  v.push_back({"op", ValueKind::kReal, "FRACTION", "Device",
               "Over-provisioning as a fraction, physical/logical - 1 (default: the preset's: " +
                   ftl::preset_values(&preset_op_text) + ")",
               "", "", true, nullptr});
  v.push_back({"sizing", ValueKind::kWord, "lines|thres[:S]", "Device",
               "Line count: lines (the preset's or --blocks', FEMU) or thres (ConfFDP: raw = logical x 100 / "
               "--gc-thres in whole MiB; thres:S sizes as for a device S times larger, keeping its line count). "
               "Default: thres (at the preset's scale, 128 for the -512m presets) under --rules confdp or a "
               "confdp-* preset, else lines",
               "", "", true, [](std::string_view t) { (void)ftl::parse_sizing(t); }});
  v.push_back({"placement", ValueKind::kPlacement, "POLICY", "FDP",
               "Placement policy: single (non-FDP: one handle, GC shares its write pointer), fdp (the trace's "
               "placement IDs, ID i -> handle i), map:PID=RUH,... (remap IDs), oracle (by the time until each LBA "
               "is rewritten, from the whole trace: usually best, not a strict bound), interval (device-side, by "
               "the overwrite interval it observes; no host tags). In a list, a map: spec runs to the next ';'",
               "single", "", true, [](std::string_view t) { (void)fdp::parse_placement(t); }});
  v.push_back({"interval", ValueKind::kSize, "SIZE", "Output",
               "Host bytes between timeseries rows (default: 1% of the bytes the trace writes)", "", "", true,
               nullptr});
  return v;
}

template <class C>
SettingInfo row_of(const Setting<C>& d) {
  SettingInfo r;
  r.name = std::string(d.name);
  r.kind = d.kind;
  r.type = std::string(d.type);
  r.group = std::string(d.group);
  r.help = help_flag_text(std::string(d.help) + (d.words != nullptr ? d.words() : std::string()));
  r.default_text = d.default_text();
  r.confdp_text = std::string(d.confdp);
  return r;
}

template <class C>
void check_with(const Setting<C>& d, std::string_view t) {
  C c{};
  d.parse(c, t);
}

// The item as the setting reads it, printed back.
template <class C>
std::string read_back(const Setting<C>& d, std::string_view t) {
  C c{};
  d.parse(c, t);
  return d.print(c);
}

std::vector<SettingInfo> build_table() {
  std::vector<SettingInfo> all = own_settings();
  for (const auto& d : ftl::geometry_settings()) {
    SettingInfo r = row_of(d);
    r.help += " (default: the preset's: " + ftl::preset_values(d.print) + ")";
    r.geometry = &d;
    all.push_back(std::move(r));
  }
  for (const auto& d : ftl::ftl_settings()) {
    SettingInfo r = row_of(d);
    r.ftl = &d;
    all.push_back(std::move(r));
  }
  for (const auto& d : fdp::fdp_settings()) {
    SettingInfo r = row_of(d);
    r.fdp = &d;
    all.push_back(std::move(r));
  }
  // Product order: the keyed settings first, then the others in table order.
  std::vector<SettingInfo> ordered;
  std::vector<char> used(all.size(), 0);
  for (const std::string_view name : kKeyedOrder) {
    for (size_t i = 0; i < all.size(); ++i) {
      if (all[i].name == name) {
        ordered.push_back(all[i]);
        used[i] = 1;
        for (const std::string_view later : kLaterSettings) {
          if (name == later) ordered.back().always_keyed = false;
        }
      }
    }
  }
  if (ordered.size() != std::size(kKeyedOrder)) throw std::logic_error("a keyed setting has no descriptor");
  for (size_t i = 0; i < all.size(); ++i) {
    if (used[i] == 0) {
      ordered.push_back(all[i]);
      ordered.back().always_keyed = false;
    }
  }
  // --rules: its help lists every rule ConfFDP changes, from the table.
  std::string confdp;
  for (const SettingInfo& r : ordered) {
    if (r.name == "sizing") confdp += "--sizing thres";
    if (!r.confdp_text.empty()) confdp += fmt::format(", --{} {}", r.name, r.confdp_text);
  }
  for (SettingInfo& r : ordered) {
    if (r.name == "rules") {
      r.help = fmt::format(
          "Rule set: femu (MoatLab FEMU's BlackBox SSD) or confdp (the ConfFDP fork the Ethereum "
          "FDP study ran: {}); an option given explicitly overrides its rule (docs/model.md)",
          confdp);
    }
  }
  return ordered;
}

}  // namespace

const std::vector<SettingInfo>& model_settings() {
  static const std::vector<SettingInfo> table = build_table();
  return table;
}

const SettingInfo& setting_info(size_t i) { return model_settings().at(i); }

size_t setting_count() { return model_settings().size(); }

size_t setting_index(std::string_view name) {
  const std::vector<SettingInfo>& t = model_settings();
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i].name == name) return i;
  }
  throw std::logic_error(fmt::format("no model setting {}", name));
}

void check_item(const SettingInfo& s, std::string_view item) {
  if (s.check != nullptr) return s.check(item);
  if (s.geometry != nullptr) return check_with(*s.geometry, item);
  if (s.ftl != nullptr) return check_with(*s.ftl, item);
  if (s.fdp != nullptr) return check_with(*s.fdp, item);
}

std::string canonical_item(const SettingInfo& s, std::string_view item) {
  if (s.kind == ValueKind::kPlacement) return fdp::canonical_text(fdp::parse_placement(item));
  if (s.kind != ValueKind::kWord) return std::string(item);
  if (s.geometry != nullptr) return read_back(*s.geometry, item);
  if (s.ftl != nullptr) return read_back(*s.ftl, item);
  if (s.fdp != nullptr) return read_back(*s.fdp, item);
  return std::string(item);
}

bool confdp_rules(std::string_view t) { return parse_choice<bool>(kRulesWords, "rules", t, kRulesRefusal); }

}  // namespace ftlsim::cli
