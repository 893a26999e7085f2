#pragma once
// Configuration of the page-mapped FTL: geometry plus GC policy. One plain
// struct with documented defaults and one validate() reporting every problem.
// Each setting's name, words and help are declared in ftl/ftl_settings.h.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/setting.h"
#include "ftl/ftl_layout.h"
#include "ftl/geometry.h"

namespace ftlsim::ftl {

enum class VictimPolicy : uint8_t { kGreedy, kCostBenefit, kFifo, kRandom, kDChoice };

// The one table of victim policies: names, --help text and parsing all come
// from it (docs/model.md, "Victim policies").
inline constexpr Choice<VictimPolicy> kVictimPolicies[] = {
    {VictimPolicy::kGreedy, "greedy", "fewest valid pages, ties in FEMU's heap order (FEMU's policy)"},
    {VictimPolicy::kCostBenefit, "cost-benefit", "max (1-u) x age / (1+u) (Rosenblum & Ousterhout, LFS)"},
    {VictimPolicy::kFifo, "fifo", "oldest closed unit with an invalid page"},
    {VictimPolicy::kRandom, "random", "uniform among units with an invalid page (seeded)"},
    {VictimPolicy::kDChoice, "d-choice", "fewest valid of `d-choices` random candidates (Van Houdt, SIGMETRICS 2013)"},
};

[[nodiscard]] std::string_view victim_policy_name(VictimPolicy p);
// Throws SettingError naming `victim` and the known names for unknown names.
[[nodiscard]] VictimPolicy parse_victim_policy(std::string_view name);

struct GcConfig {
  // FEMU gc_thres_pcent: background GC runs after a request while
  // free_units <= (int)((1 - pcent/100) * units). Percent, (0, 100].
  double thres_pcent = 75.0;
  // FEMU gc_thres_pcent_high: forced GC in the write path while
  // free_units <= (int)((1 - pcent_high/100) * units).
  double thres_pcent_high = 95.0;
  VictimPolicy victim = VictimPolicy::kGreedy;
  uint32_t d_choices = 8;  // candidates sampled by kDChoice
  uint64_t seed = 1;       // for kRandom and kDChoice
  // --gc-check: false (FEMU) checks the forced threshold once at the start of
  // each write request; true before every slot written (docs/model.md rule 9).
  bool forced_check_per_slot = false;
  // --rg-gc: false (FEMU): background GC in the first pool over its threshold
  // only, forced GC while any pool is over its high threshold; true: every
  // pool on its own (docs/model.md rules 9 and 10).
  bool every_pool = false;
  // --gc-order: false (FEMU) copies a victim's live slots block by block;
  // true page by page across the dies, channel outermost (ConfFDP do_gc).
  bool page_order = false;
  // --forced-passes: at most this many forced passes per write request; 0
  // keeps FEMU's bound (none on the line path, units + RGs under FDP).
  uint32_t forced_passes = 0;
  // --gc-trigger: false (FEMU) runs one background pass after a request while
  // free units <= thres, and a pass takes only a victim with >= 1/8 invalid
  // slots (rules 10-13); true (ftlsim's watermark trigger, not FEMU's) runs
  // passes after a request until free units > thres, with no minimum
  // invalid share (docs/model.md, "The watermark trigger").
  bool watermark = false;

  // FEMU computes both thresholds with a truncating cast; so do we.
  [[nodiscard]] uint32_t thres_units(uint32_t units) const;
  [[nodiscard]] uint32_t thres_units_high(uint32_t units) const;
};

struct FtlConfig {
  Geometry geometry;
  GcConfig gc;
  // --trim-partial: false (FEMU) unmaps every slot a trim touches; true keeps
  // the slots it covers only partly (docs/model.md rule 16).
  bool trim_keeps_partial = false;
  // --trim-range: false (FEMU) unmaps the slots a trim covers; true also the
  // slot after each range (ConfFDP msssd_trim's (nlb + 1), a bug it ran with).
  bool trim_plus_one = false;

  // Every problem with geometry and GC settings.
  [[nodiscard]] std::vector<Problem> problems() const;
  // Throws InputError listing all problems (joined with "; ") if any.
  void validate() const;
};

// Thresholds and capacity of `cfg` against `layout` (problems() checks them
// against the core model's line layout).
[[nodiscard]] std::vector<Problem> layout_problems(const FtlConfig& cfg, const FtlLayout& layout);

// Throws InputError "invalid configuration: a; b; c" when `problems` is not empty.
void throw_if_problems(const std::vector<Problem>& problems);

}  // namespace ftlsim::ftl
