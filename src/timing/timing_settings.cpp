#include "timing/timing_settings.h"

#include <fmt/format.h>

#include <array>
#include <limits>

namespace ftlsim::timing {
namespace {

using C = TimingConfig;

static_assert(kAutoIntervals == 256, "event-interval's help says at most 256 rows");

constexpr std::array<Setting<C>, 7> kSettings = {{
    {"qd",
     ValueKind::kInteger,
     "N",
     "Timing",
     "Closed loop: keep N requests outstanding, issuing the next record when one completes (trace time stamps "
     "ignored). Default: open loop. A list makes a sweep (or see ftlsim qd-sweep)",
     [](C& c, std::string_view t) {
       c.mode = HostMode::kClosed;
       // Range checked by TimingConfig::problems with the other settings.
       c.qd = parse_u32("qd", t);
     },
     [](const C& c) { return c.mode == HostMode::kClosed ? fmt::format("{}", c.qd) : std::string(); },
     nullptr,
     {},
     true},
    {"speed",
     ValueKind::kReal,
     "X",
     "Timing",
     "Open loop: issue each record at its time stamp divided by X (2 = twice as fast)",
     [](C& c, std::string_view t) { c.speed = parse_real("speed", t); },
     [](const C& c) { return print_real(c.speed); },
     nullptr,
     {},
     true},
    {"read-time",
     ValueKind::kWord,
     "DURATION",
     "Timing",
     "NAND page read (array) time",
     [](C& c, std::string_view t) { c.read_ns = parse_duration("read-time", t); },
     [](const C& c) { return print_duration(c.read_ns); },
     nullptr,
     {},
     false,
     "read"},
    {"program-time",
     ValueKind::kWord,
     "DURATION",
     "Timing",
     "NAND page program time",
     [](C& c, std::string_view t) { c.program_ns = parse_duration("program-time", t); },
     [](const C& c) { return print_duration(c.program_ns); },
     nullptr,
     {},
     false,
     "program"},
    {"erase-time",
     ValueKind::kWord,
     "DURATION",
     "Timing",
     "NAND block erase time",
     [](C& c, std::string_view t) { c.erase_ns = parse_duration("erase-time", t); },
     [](const C& c) { return print_duration(c.erase_ns); },
     nullptr,
     {},
     false,
     "erase"},
    {"xfer-time",
     ValueKind::kWord,
     "DURATION",
     "Timing",
     "Channel transfer time of one 4 KiB page (FEMU charges none)",
     [](C& c, std::string_view t) { c.xfer_ns = parse_duration("xfer-time", t); },
     [](const C& c) { return print_duration(c.xfer_ns); },
     nullptr,
     {},
     false,
     "xfer"},
    // The help's "at most 256 rows" is kAutoIntervals (static_assert below).
    {"event-interval",
     ValueKind::kWord,
     "DURATION",
     "Timing",
     "Simulated time per events.csv row (default: automatic, at most 256 rows)",
     [](C& c, std::string_view t) {
       c.event_interval_ns = parse_duration("event-interval", t);
       if (c.event_interval_ns == 0) throw SettingError({"event-interval", "", "must be above 0"});
     },
     [](const C& c) { return c.event_interval_ns == 0 ? std::string() : print_duration(c.event_interval_ns); },
     nullptr,
     {},
     true},
}};

}  // namespace

std::span<const Setting<TimingConfig>> timing_settings() { return kSettings; }

bool is_latency(const Setting<TimingConfig>& s) { return s.name.size() > 5 && s.name.ends_with("-time"); }

}  // namespace ftlsim::timing
