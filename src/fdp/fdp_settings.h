#pragma once
// The settings of FdpConfig (the FDP device and its rules), each declared
// once: name, words or number, help and ConfFDP rule (core/setting.h;
// docs/architecture.md, "Adding an option").
#include <span>
#include <string>
#include <string_view>

#include "core/setting.h"
#include "fdp/fdp_config.h"

namespace ftlsim::fdp {

// In the order of a sweep's axes (cli/model_settings.cpp places them).
[[nodiscard]] std::span<const Setting<FdpConfig>> fdp_settings();

// The text of setting `name` of `cfg` (its descriptor's printer).
[[nodiscard]] std::string fdp_setting_text(std::string_view name, const FdpConfig& cfg);

}  // namespace ftlsim::fdp
