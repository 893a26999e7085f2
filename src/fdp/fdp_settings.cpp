#include "fdp/fdp_settings.h"

#include <fmt/format.h>

#include <array>
#include <stdexcept>

#include "core/units.h"

namespace ftlsim::fdp {
namespace {

using C = FdpConfig;

// `ruh`'s help text states the range.
static_assert(kMaxHandles == 256, "update the ruh help text: 1-256");

template <class E>
std::string word(std::span<const Choice<E>> words, E v) {
  return std::string(choice_word(words, v));
}

constexpr std::array<Setting<C>, 15> kSettings = {{
    {"rg", ValueKind::kInteger, "N", "FDP",
     "Reclaim groups; a write's RG comes from its placement identifier's RG bits (see `rg-of`)",
     [](C& c, std::string_view t) { c.reclaim_groups = parse_u32("rg", t); },
     [](const C& c) { return fmt::format("{}", c.reclaim_groups); }},
    {"ru-size", ValueKind::kSize, "SIZE", "FDP",
     "Reclaim unit size in bytes (default: one line, as FEMU); whole lines, or one block per plane on fewer dies",
     [](C& c, std::string_view t) {
       c.ru_bytes = t.empty() ? 0 : parse_bytes("ru-size", t);
       if (!t.empty() && c.ru_bytes == 0) throw SettingError({"ru-size", "", "must be above 0"});
     },
     [](const C& c) { return c.ru_bytes == 0 ? std::string() : format_size_exact(c.ru_bytes); }},
    {"ruh", ValueKind::kInteger, "N", "FDP", "Reclaim unit handles (placement IDs the device accepts), 1-256",
     [](C& c, std::string_view t) {
       const uint32_t ruh = parse_u32("ruh", t);
       if (ruh == 0 || ruh > kMaxHandles) {
         throw SettingError({"ruh", fmt::format("{}", ruh), fmt::format("must be between 1 and {}", kMaxHandles)});
       }
       c.handles = ruh;
     },
     [](const C& c) { return fmt::format("{}", c.handles); }},
    {"ruh-type", ValueKind::kWord, "pi|last-ii|ii", "FDP", "Handle types: ",
     [](C& c, std::string_view t) {
       c.ruh_types = parse_choice<RuhTypes>(
           kRuhTypeWords, "ruh-type", t,
           "is not one of pi (every handle persistently isolated, FEMU), last-ii (the last handle initially "
           "isolated, FEMU fdp.isolation_mode=1) or ii (every handle initially isolated)");
     },
     [](const C& c) { return word<RuhTypes>(kRuhTypeWords, c.ruh_types); }, &words_of<kRuhTypeWords>},
    {"pi-gc", ValueKind::kWord, "gc-ru|host-ru", "FDP", "Where GC puts the survivors of a pi handle: ",
     [](C& c, std::string_view t) {
       c.pi_gc_ru = parse_choice<bool>(
           kPiGcWords, "pi-gc", t,
           "is not gc-ru (survivors to a GC RU of their handle) or host-ru (survivors to the handle's host RU)");
     },
     [](const C& c) { return word<bool>(kPiGcWords, c.pi_gc_ru); }, &words_of<kPiGcWords>, "host-ru"},
    {"ii-gc", ValueKind::kWord, "last-ruh|gc-ru", "FDP", "Where GC puts the survivors of an ii handle: ",
     [](C& c, std::string_view t) {
       c.ii_gc = parse_choice<IiGc>(
           kIiGcWords, "ii-gc", t,
           "is not one of last-ruh (into the last handle's host RU, FEMU) or gc-ru (one GC RU per RG shared by "
           "the initially isolated handles)");
     },
     [](const C& c) { return word<IiGc>(kIiGcWords, c.ii_gc); }, &words_of<kIiGcWords>},
    {"ru-open", ValueKind::kWord, "startup|lazy", "FDP", "When a handle takes its RU in an RG: ",
     [](C& c, std::string_view t) {
       c.open_at_start = parse_choice<bool>(kRuOpenWords, "ru-open", t, "is not startup (FEMU) or lazy");
     },
     [](const C& c) { return word<bool>(kRuOpenWords, c.open_at_start); }, &words_of<kRuOpenWords>},
    {"rg-split", ValueKind::kWord, "lines|dies|channels", "FDP", "What a reclaim group is: ",
     [](C& c, std::string_view t) {
       c.rg_split = parse_choice<RgSplit>(
           kRgSplitWords, "rg-split", t,
           "is not one of lines (RGs split the lines, FEMU), dies (RGs split the dies) or channels (RGs of whole "
           "channels, ConfFDP)");
     },
     [](const C& c) { return word<RgSplit>(kRgSplitWords, c.rg_split); }, &words_of<kRgSplitWords>, "channels"},
    {"rg-of", ValueKind::kWord, "current|pid|lba", "FDP", "Which RG a write goes to: ",
     [](C& c, std::string_view t) {
       c.rg_of = parse_choice<RgOf>(kRgOfWords, "rg-of", t, "is not one of " + choice_list(kRgOfWords));
     },
     [](const C& c) { return word<RgOf>(kRgOfWords, c.rg_of); }, &words_of<kRgOfWords>, "pid"},
    {"declined", ValueKind::kWord, "requeue|keep", "GC",
     "Under FDP, a background victim declined for having < 1/8 invalid pages: ",
     [](C& c, std::string_view t) {
       c.declined_requeue = parse_choice<bool>(kDeclinedWords, "declined", t,
                                               "is not requeue (popped and inserted again, FEMU's FDP path) or keep");
     },
     [](const C& c) { return word<bool>(kDeclinedWords, c.declined_requeue); }, &words_of<kDeclinedWords>, "keep"},
    {"pid-format", ValueKind::kWord, "rgif|rgif-min|confdp", "FDP",
     "Placement identifier parsing (an invalid ID goes to handle 0 of RG 0 as an FDP event under rgif and "
     "rgif-min; under confdp an invalid handle goes to the last handle, an invalid RG to the last RG, no event): ",
     [](C& c, std::string_view t) {
       const PidFormat f = parse_choice<PidFormat>(kPidFormatWords, "pid-format", t);
       c.pid_confdp = f == PidFormat::kConfdp;
       c.pid_min_rgif = f == PidFormat::kRgifMin;
     },
     [](const C& c) {
       const PidFormat f = c.pid_confdp ? PidFormat::kConfdp : c.pid_min_rgif ? PidFormat::kRgifMin : PidFormat::kRgif;
       return word<PidFormat>(kPidFormatWords, f);
     },
     &words_of<kPidFormatWords>, "confdp"},
    {"single", ValueKind::kWord, "line-path|handle0", "FDP", "What `placement` single runs on: ",
     [](C& c, std::string_view t) {
       c.single_handle0 =
           parse_choice<bool>(kSingleWords, "single", t, "is not line-path (FEMU's line path) or handle0");
     },
     [](const C& c) { return word<bool>(kSingleWords, c.single_handle0); }, &words_of<kSingleWords>, "handle0"},
    {"write-spill", ValueKind::kWord, "stay|nearest", "FDP",
     "With several RGs, a write request whose RG is still at its high threshold after its forced passes (needs "
     "`rg-of` pid): ",
     [](C& c, std::string_view t) { c.spill_writes = parse_choice<bool>(kWriteSpillWords, "write-spill", t); },
     [](const C& c) { return word<bool>(kWriteSpillWords, c.spill_writes); }, &words_of<kWriteSpillWords>, "nearest"},
    {"gc-spill", ValueKind::kWord, "stay|nearest", "FDP",
     "With several RGs, the GC copies of a forced victim with fewer than 1/10 of its pages invalid: ",
     [](C& c, std::string_view t) { c.spill_gc = parse_choice<bool>(kGcSpillWords, "gc-spill", t); },
     [](const C& c) { return word<bool>(kGcSpillWords, c.spill_gc); }, &words_of<kGcSpillWords>, "nearest"},
    {"ru-time-limit", ValueKind::kWord, "DURATION|off", "FDP",
     "RU time limit: an RU that host writes reach is closed this long (trace time) after its first host write, "
     "full or not, and the FDP events RU time limit exceeded and RU not fully written are counted (e.g. 500ms, 10s; "
     "default off)",
     [](C& c, std::string_view t) {
       if (t == "off") {
         c.ru_time_limit_ns = 0;
         return;
       }
       const std::optional<uint64_t> ns = parse_duration_ns(t);
       if (!ns || *ns == 0) {
         throw SettingError({"ru-time-limit", std::string(t),
                             "is neither off nor a duration above 0 (examples: 500ms, 10s)", Problem::Shape::kBadText});
       }
       c.ru_time_limit_ns = *ns;
     },
     [](const C& c) { return c.ru_time_limit_ns == 0 ? std::string("off") : print_duration(c.ru_time_limit_ns); }},
}};

}  // namespace

std::span<const Setting<FdpConfig>> fdp_settings() { return kSettings; }

std::string fdp_setting_text(std::string_view name, const FdpConfig& cfg) {
  const Setting<FdpConfig>* s = find_setting(fdp_settings(), name);
  if (s == nullptr) throw std::logic_error(fmt::format("no FDP setting {}", name));
  return s->print(cfg);
}

}  // namespace ftlsim::fdp
