#pragma once
// The settings of TimingConfig (NAND latencies and the host model), each
// declared once: name, parser and printer, help, default from the struct's
// initialiser (core/setting.h; docs/architecture.md, "Adding an option").
#include <span>

#include "core/setting.h"
#include "timing/timing_config.h"

namespace ftlsim::timing {

// In the order of a sweep's axes: after every model setting. qd, speed and
// event-interval keep the struct's value when not given (open loop, speed 1,
// automatic); the latencies' defaults are FEMU's, printed ("40us").
[[nodiscard]] std::span<const Setting<TimingConfig>> timing_settings();

// The latencies alone (read-time, program-time, erase-time, xfer-time): the
// options of commands that are always timed (qd-sweep).
[[nodiscard]] bool is_latency(const Setting<TimingConfig>& s);

}  // namespace ftlsim::timing
