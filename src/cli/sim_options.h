#pragma once
// The model options of the default command (device, GC, FDP, output
// interval), shared by the default command, its sweeps and `compare`.
// Every model option is kept as text so that it can hold one value, a list
// or a range; one *point* (one value per option) becomes one run.
//
// The options are not declared here: each is a setting declared once beside
// its struct (ftl/geometry_settings.h, ftl/ftl_settings.h,
// fdp/fdp_settings.h; the few that combine several structs, such as
// --preset, --logical and --placement, in model_settings.cpp). This file
// registers them with CLI11, expands their lists and builds a run.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/setting.h"
#include "fdp/fdp_config.h"
#include "ftl/ftl_config.h"
#include "ftl/geometry.h"
#include "sim/report.h"
#include "sweep/sweep_values.h"

namespace ftlsim::cli {

// One model setting as the command line sees it, in product order (in a
// sweep the last one varies fastest).
struct SettingInfo {
  std::string name;  // option name without dashes: "gc-thres"
  ValueKind kind;
  std::string type;          // the value in --help: "PCT"
  std::string group;         // the --help section
  std::string help;          // as --help shows it (flags, the words and their meanings)
  std::string default_text;  // "" = derived (from the preset or the trace)
  // A rule where ConfFDP differs: its value under --rules confdp when the
  // option is not given ("" = the same as default_text).
  std::string confdp_text;
  // In every config_key description (the settings of version 0.1.0, whose
  // sweeps must keep resuming); a setting added later enters the
  // description only when its value is not the default.
  bool always_keyed = true;
  // Checks one item as the run will parse it; throws InputError.
  void (*check)(std::string_view) = nullptr;
  // The descriptor the value goes through (one of them; none for the
  // settings that combine several structs, which build_run reads itself).
  const Setting<ftl::Geometry>* geometry = nullptr;
  const Setting<ftl::FtlConfig>* ftl = nullptr;
  const Setting<fdp::FdpConfig>* fdp = nullptr;
};
[[nodiscard]] const std::vector<SettingInfo>& model_settings();
[[nodiscard]] const SettingInfo& setting_info(size_t i);
[[nodiscard]] size_t setting_count();
// Index of the setting named `name` (throws std::logic_error for a name that is none).
[[nodiscard]] size_t setting_index(std::string_view name);

// Checks one item of setting `s` as the run will parse it; throws InputError.
void check_item(const SettingInfo& s, std::string_view item);
// A word or placement item as the run reads it (map:1=2,0=1 as map:0=1,1=2),
// for finding a value listed twice in a sweep (sweep/sweep_values.h).
[[nodiscard]] std::string canonical_item(const SettingInfo& s, std::string_view item);
// Whether `rules` (an item of --rules) is confdp.
[[nodiscard]] bool confdp_rules(std::string_view rules);

// One value per setting.
using Point = std::vector<std::string>;

struct ModelArgs {
  Point text;                    // as given (may be lists); defaults otherwise
  std::vector<char> given;       // on the command line
  std::vector<std::string> run;  // the run settings (sim/run_settings.h) as given, one value each; defaults otherwise

  ModelArgs();
  // The key lines of the run settings for a configuration's description
  // (config_key; cli/run_key.h): `wrap` always (first, before the timing
  // settings: the keys of version 0.1.0's sweeps), every other one as
  // "<key>=<text>" only when not at its default, in the table's order.
  // tests/cli/test_cli_keyed_options.cpp fails on an option --help lists
  // that no key knows.
  [[nodiscard]] std::string wrap_key_line() const;
  [[nodiscard]] std::string key_lines() const;
  // The run settings parsed into `options` (throws SettingError).
  void apply_run_settings(sim::SimOptions& options) const;
  [[nodiscard]] bool is_given(std::string_view name) const { return given[setting_index(name)] != 0; }
};

// Registers every model option and run setting on `app`, writing into `args`
// (which must outlive parsing). Used for the root command, `compare`, and
// the option lists of `compare --a/--b`.
void add_model_options(CLI::App& app, ModelArgs& args);

// --mem-limit auto|off|SIZE of the commands that simulate (not a setting:
// it changes no result), into `text` (default "auto"; core/memory_budget.h).
void add_mem_limit_option(CLI::App& app, std::string& text);

// Parses an option list given as one string (compare's --a/--b, replay's
// --predict) into `overlay`. Arguments it does not know are named in the
// order given (CLI11's own message lists them reversed for a string).
// Throws CLI::ParseError.
void parse_overlay(CLI::App& overlay, const std::string& text);

// Help text explaining lists, ranges and the sweep order.
[[nodiscard]] std::string sweep_help();

// The items of every setting: the expanded list when given, else the single
// default. Checks every item: numbers and sizes parse, and names (preset,
// victim, ruh-type, placement) are known. Throws InputError naming the
// option and the bad item.
[[nodiscard]] std::vector<std::vector<std::string>> expand_settings(const ModelArgs& args);

// Builds the run for one point. Throws InputError for an invalid
// configuration (the same messages as a single run).
[[nodiscard]] sim::RunDescription build_run(const ModelArgs& args, const Point& point, const std::string& trace_path);

// "name=value\n" for every setting of `point` that enters a config_key
// (sweep/sweep_resume.h): the description of a configuration.
[[nodiscard]] std::string key_description(const Point& point);

// With only `single` placement (the non-FDP device: one handle, reclaim
// units are lines, one reclaim group) the FDP device options change nothing:
// given, each gets a warning on stderr. Not refused: a sweep's `single`
// configuration, rerun alone with the sweep's options, must still run and
// give the same summary.json. A placement list with another policy in it
// keeps them silently; so do options also given in `common` (compare's
// shared options, meant for its FDP side).
void check_options_apply(const ModelArgs& a, const std::vector<std::vector<std::string>>& items,
                         const ModelArgs* common = nullptr);

// The first value of each setting (a run with no lists: its only point).
[[nodiscard]] Point first_point(const std::vector<std::vector<std::string>>& items);

}  // namespace ftlsim::cli
