#include "timing/timing_settings.h"

#include <fmt/format.h>

#include <array>
#include <limits>

#include "core/units.h"
#include "timing/event_series.h"

namespace ftlsim::timing {
namespace {

using C = TimingConfig;

static_assert(kAutoIntervals == 256, "event-interval's help says at most 256 intervals");
static_assert(EventSeries::kMaxIntervals == 100'000, "event-interval's help says at most 100,000 intervals");

constexpr std::array<Setting<C>, 7> kSettings = {{
    {"qd",
     ValueKind::kInteger,
     "N",
     "Timing",
     "Closed loop: keep N requests outstanding, issuing the next record when one completes (trace time stamps "
     "ignored). Default: open loop. A list makes a sweep (or see ftlsim qd-sweep)",
     [](C& c, std::string_view t) {
       c.mode = HostMode::kClosed;
       // Its real range in the message of a text out of it (TimingConfig::
       // problems checks it again for a configuration made otherwise).
       c.qd = static_cast<uint32_t>(parse_uint_option(t, Message::setting("qd"), 1, kMaxQd));
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
    // The help's "at most 256 intervals" is kAutoIntervals (static_assert above),
    // its 100,000 EventSeries::kMaxIntervals.
    {"event-interval",
     ValueKind::kWord,
     "DURATION",
     "Timing",
     "Simulated time per events.csv interval (a row per event kind in it). Default: automatic, 1 ms doubled "
     "until the run spans at most 256 intervals; a given one is doubled until it spans at most 100,000 (summary.json's "
     "events_interval_ns is the one used)",
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
