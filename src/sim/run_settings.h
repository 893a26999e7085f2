#pragma once
// The settings of SimOptions that say how the trace is driven through the
// model (the trace's bounds, a reset at a marker, preconditioning,
// repetition, per-ID series), each declared once: its name, its value, its
// help and its default. They hold one value per run (no sweep lists); the
// command line and the resume key come from this table (core/setting.h;
// docs/architecture.md, "Adding an option").
#include <span>
#include <string_view>

#include "core/setting.h"
#include "sim/simulate.h"

namespace ftlsim::sim {

[[nodiscard]] std::span<const Setting<SimOptions>> run_settings();

// Settings of run_settings() that take no value (given = "true").
[[nodiscard]] bool is_flag(const Setting<SimOptions>& s);

}  // namespace ftlsim::sim
