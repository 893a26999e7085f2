#pragma once
// The device presets, one table: each preset's name, geometry, the scale
// ConfFDP's sizing uses for it and a note. --preset's names, its help text,
// the preset defaults quoted in the other options' help and the values all
// come from it.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "ftl/geometry.h"

namespace ftlsim::ftl {

struct Preset {
  std::string_view name;
  Geometry geometry;
  // --sizing thres by default (ConfFDP's line count derived from the
  // background threshold; the geometry's blocks are its count at 60%).
  bool confdp_sizing = false;
  // The scale --sizing thres sizes it at (128: a 1/128 device keeps the
  // full device's line count; ftl/confdp_sizing.h).
  uint32_t sizing_scale = 1;
  std::string_view note;  // what it models, for --help
};

[[nodiscard]] std::span<const Preset> presets();
[[nodiscard]] const Preset& preset(std::string_view name);  // throws SettingError naming `preset`

// "femu-default (16 GiB raw, 8x8 LUNs, 256 lines of 1 MiB blocks, 12 GiB logical; ...), ...": for --help.
[[nodiscard]] std::string presets_help();
// One geometry value of every preset, for help: "256 for femu-default, 98 for femu-eth, ...".
[[nodiscard]] std::string preset_values(std::string (*value)(const Geometry&));

}  // namespace ftlsim::ftl
