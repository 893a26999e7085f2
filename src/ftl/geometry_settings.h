#pragma once
// The geometry settings (channels, LUNs, planes, blocks, pages, page size),
// each declared once (core/setting.h). Their default is the preset's
// (ftl/presets.h): not given, the field keeps the preset's value.
#include <span>

#include "core/setting.h"
#include "ftl/geometry.h"

namespace ftlsim::ftl {

[[nodiscard]] std::span<const Setting<Geometry>> geometry_settings();

}  // namespace ftlsim::ftl
