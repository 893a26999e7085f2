#pragma once
// The model options of the default command (device, GC, FDP, output
// interval), shared by the default command, its sweeps and `compare`.
// Every model option is kept as text so that it can hold one value, a list
// or a range; one *point* (one value per option) becomes one run.
#include <CLI/CLI.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/report.h"
#include "sim/sweep_values.h"

namespace ftlsim::cli {

// In product order: in a sweep the last one varies fastest.
enum class Setting : uint8_t {
  kPreset, kRules, kChannels, kLuns, kPlanes, kBlocks, kPages, kPageSize, kLogical, kOp, kSizing,
  kGcThres, kGcThresHigh, kVictim, kDChoices, kSeed, kGcCheck, kRgGc, kGcOrder, kDeclined, kForcedPasses, kGcTrigger,
  kTrimPartial, kTrimRange,
  kRg, kRuSize, kRuh, kRuhType, kPiGc, kIiGc, kRuOpen, kRgSplit, kRgOf, kPidFormat, kSingle, kRuTimeLimit,
  kPlacement, kInterval,
  kCount
};
inline constexpr size_t kSettingCount = static_cast<size_t>(Setting::kCount);

struct SettingInfo {
  std::string_view name;          // option name without dashes: "gc-thres"
  sim::ValueKind kind;
  std::string_view default_text;  // "" = derived (from the preset or the trace); FEMU's rule for rule settings
  // A rule where ConfFDP differs: its value under --rules confdp when the
  // option is not given ("" = the same as default_text).
  std::string_view confdp_text = {};
};
[[nodiscard]] const SettingInfo& setting_info(Setting s);
[[nodiscard]] const SettingInfo& setting_info(size_t i);

// One value per setting.
using Point = std::array<std::string, kSettingCount>;

struct ModelArgs {
  Point text;                                 // as given (may be lists); defaults otherwise
  std::array<bool, kSettingCount> given{};    // on the command line
  bool wrap = false;
  std::string reset_at;                       // --reset-at KIND:MARKER ("" = none)
  std::string precondition = "none";          // --precondition none|seq|random|trace
  std::string repeat = "1";                   // --repeat N
  bool id_series = false;                     // --id-series

  ModelArgs();
  // The key lines of --precondition and --repeat ("" at their defaults), for
  // a configuration's description (config_key).
  [[nodiscard]] std::string steady_state_key() const;
  [[nodiscard]] bool is_given(Setting s) const { return given[static_cast<size_t>(s)]; }
};

// Registers every model option and --wrap on `app`, writing into `args`
// (which must outlive parsing). Used for the root command, `compare`, and
// the option lists of `compare --a/--b`.
void add_model_options(CLI::App& app, ModelArgs& args);

// --mem-limit auto|off|SIZE of the commands that simulate (not a setting:
// it changes no result), into `text` (default "auto"; core/memory_budget.h).
void add_mem_limit_option(CLI::App& app, std::string& text);

// Help text explaining lists, ranges and the sweep order.
[[nodiscard]] std::string sweep_help();

// The items of every setting: the expanded list when given, else the single
// default. Checks every item: numbers and sizes parse, and names (preset,
// victim, ruh-type, placement) are known. Throws InputError naming the
// option and the bad item.
[[nodiscard]] std::vector<std::vector<std::string>> expand_settings(const ModelArgs& args);

// Builds the run for one point. Throws InputError for an invalid
// configuration (the same messages as a single run).
[[nodiscard]] sim::RunDescription build_run(const ModelArgs& args, const Point& point,
                                            const std::string& trace_path);

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
