#include "ftl/ftl_settings.h"

#include <fmt/format.h>

#include <stdexcept>

namespace ftlsim::ftl {
namespace {

using C = FtlConfig;

// --forced-passes: femu (0: FEMU's bound) or a count of at least 1.
uint32_t parse_forced_passes(std::string_view t) {
  if (t == "femu") return 0;
  uint64_t n = 0;
  try {
    n = parse_u32("forced-passes", t);
  } catch (const InputError&) {
  }
  if (n == 0) {
    throw SettingError({"forced-passes", std::string(t),
                        "is not femu (FEMU's bound: none on the line path, RUs + RGs under FDP) or a number of "
                        "passes of at least 1 (ConfFDP: 5)",
                        Problem::Shape::kBadText});
  }
  return static_cast<uint32_t>(n);
}

constexpr std::array<Setting<C>, 12> kSettings = {{
    {"gc-thres", ValueKind::kReal, "PCT", "GC",
     "Background GC threshold in percent (FEMU gc_thres_pcent): GC runs while free lines <= (1 - pct/100) x lines, "
     "taking only victims with >= 1/8 invalid pages. Below 100 and at most `gc-thres-high`: 100 cannot switch "
     "background GC off",
     [](C& c, std::string_view t) { c.gc.thres_pcent = parse_real("gc-thres", t); },
     [](const C& c) { return print_real(c.gc.thres_pcent); }},
    {"gc-thres-high", ValueKind::kReal, "PCT", "GC",
     "Forced GC threshold in percent (FEMU gc_thres_pcent_high), in the write path",
     [](C& c, std::string_view t) { c.gc.thres_pcent_high = parse_real("gc-thres-high", t); },
     [](const C& c) { return print_real(c.gc.thres_pcent_high); }},
    {"victim", ValueKind::kWord, "NAME", "GC",
     "Victim policy: ", [](C& c, std::string_view t) { c.gc.victim = parse_victim_policy(t); },
     [](const C& c) { return std::string(victim_policy_name(c.gc.victim)); }, &words_of<kVictimPolicies>},
    {"d-choices", ValueKind::kInteger, "N", "GC", "Candidates sampled by `victim` d-choice",
     [](C& c, std::string_view t) { c.gc.d_choices = parse_u32_count("d-choices", t, 1); },
     [](const C& c) { return fmt::format("{}", c.gc.d_choices); }},
    {"seed", ValueKind::kInteger, "N", "GC", "Seed for the random and d-choice victim policies",
     [](C& c, std::string_view t) { c.gc.seed = parse_u64("seed", t); },
     [](const C& c) { return fmt::format("{}", c.gc.seed); }},
    {"gc-check", ValueKind::kWord, "request|page", "GC", "When the forced threshold is checked: ",
     [](C& c, std::string_view t) {
       c.gc.forced_check_per_slot =
           parse_choice<bool>(kGcCheckWords, "gc-check", t, "is not request (once per write request, FEMU) or page");
     },
     [](const C& c) { return std::string(choice_word<bool>(kGcCheckWords, c.gc.forced_check_per_slot)); },
     &words_of<kGcCheckWords>},
    {"rg-gc", ValueKind::kWord, "first|every", "GC", "GC across reclaim groups: ",
     [](C& c, std::string_view t) {
       c.gc.every_pool = parse_choice<bool>(kRgGcWords, "rg-gc", t, "is not first (FEMU) or every");
     },
     [](const C& c) { return std::string(choice_word<bool>(kRgGcWords, c.gc.every_pool)); }, &words_of<kRgGcWords>,
     "every"},
    {"gc-order", ValueKind::kWord, "block|page", "GC", "Order GC copies a victim's live pages in: ",
     [](C& c, std::string_view t) {
       c.gc.page_order =
           parse_choice<bool>(kGcOrderWords, "gc-order", t, "is not block (block by block, FEMU) or page");
     },
     [](const C& c) { return std::string(choice_word<bool>(kGcOrderWords, c.gc.page_order)); },
     &words_of<kGcOrderWords>, "page"},
    {"forced-passes", ValueKind::kWord, "femu|N", "GC",
     "Forced GC passes one write request may run: femu (FEMU's bound: none on the line path, RUs + RGs under FDP) "
     "or N (ConfFDP: 5)",
     [](C& c, std::string_view t) { c.gc.forced_passes = parse_forced_passes(t); },
     [](const C& c) { return c.gc.forced_passes == 0 ? std::string("femu") : fmt::format("{}", c.gc.forced_passes); },
     nullptr, "5"},
    {"gc-trigger", ValueKind::kWord, "femu|watermark", "GC",
     "Background GC trigger: femu (FEMU's: one pass after a request while free units <= the `gc-thres` count, "
     "taking only a victim with >= 1/8 invalid pages) or watermark (ftlsim's own: after a request, passes until "
     "free units are above the `gc-thres` count again, each taking the policy's victim whatever its invalid "
     "share); forced GC (`gc-thres-high`) is the same in both",
     [](C& c, std::string_view t) { c.gc.watermark = parse_choice<bool>(kGcTriggerWords, "gc-trigger", t); },
     [](const C& c) { return std::string(choice_word<bool>(kGcTriggerWords, c.gc.watermark)); }},
    {"trim-partial", ValueKind::kWord, "unmap|keep", "Device", "A trim covering part of a 4 KiB page: ",
     [](C& c, std::string_view t) {
       c.trim_keeps_partial = parse_choice<bool>(kTrimPartialWords, "trim-partial", t, "is not unmap (FEMU) or keep");
     },
     [](const C& c) { return std::string(choice_word<bool>(kTrimPartialWords, c.trim_keeps_partial)); },
     &words_of<kTrimPartialWords>},
    {"trim-range", ValueKind::kWord, "exact|plus-one", "Device", "LBAs a trim unmaps: ",
     [](C& c, std::string_view t) {
       c.trim_plus_one =
           parse_choice<bool>(kTrimRangeWords, "trim-range", t, "is not exact (the range given, FEMU) or plus-one");
     },
     [](const C& c) { return std::string(choice_word<bool>(kTrimRangeWords, c.trim_plus_one)); },
     &words_of<kTrimRangeWords>, "plus-one"},
}};

}  // namespace

std::span<const Setting<FtlConfig>> ftl_settings() { return kSettings; }

std::string ftl_setting_text(std::string_view name, const FtlConfig& cfg) {
  const Setting<FtlConfig>* s = find_setting(ftl_settings(), name);
  if (s == nullptr) throw std::logic_error(fmt::format("no FTL setting {}", name));
  return s->print(cfg);
}

}  // namespace ftlsim::ftl
