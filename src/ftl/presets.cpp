#include "ftl/presets.h"

#include <fmt/format.h>

#include <array>

#include "core/setting.h"
#include "core/units.h"
#include "ftl/confdp_sizing.h"

namespace ftlsim::ftl {
namespace {

constexpr Geometry geometry(uint32_t blocks, uint32_t pages, uint64_t logical_bytes) {
  Geometry g;
  g.channels = 8;
  g.luns_per_channel = 8;
  g.planes_per_lun = 1;
  g.blocks_per_plane = blocks;
  g.pages_per_block = pages;
  g.page_bytes = kSlotBytes;  // FEMU's 4 KiB page: one slot
  g.logical_bytes = logical_bytes;
  return g;
}

constexpr uint64_t kGiB = uint64_t{1} << 30;
constexpr uint64_t kMiB = uint64_t{1} << 20;

// femu-default: FEMU's BlackBox SSD defaults with the 12 GiB namespace of
// femu-scripts/run-blackbox.sh (ssd_size=12288). femu-eth: the Ethereum FDP
// study's device (docs/model.md, Terms). femu-eth-512m: femu-eth at 1/128
// scale (the same dies, 98 lines and over-provisioning, 128 KiB blocks).
// confdp-*: the same devices as ConfFDP sizes them (run-fdp.sh): the lines
// derived from --gc-thres by --sizing thres; 106 is the count at 60%.
constexpr std::array<Preset, 5> kPresets = {{
    {"femu-default", geometry(256, 256, 12 * kGiB), false, 1, "FEMU's BlackBox SSD"},
    {"femu-eth", geometry(98, 4096, 64 * kGiB), false, 1, "the Ethereum FDP study's device"},
    {"femu-eth-512m", geometry(98, 32, 512 * kMiB), false, 128,
     "femu-eth at 1/128 scale; for traces/geth-ethstate.ftr"},
    {"confdp-eth", geometry(106, 4096, 64 * kGiB), true, 1,
     "femu-eth with the lines ConfFDP derives from `gc-thres`: 106 at 60"},
    {"confdp-eth-512m", geometry(106, 32, 512 * kMiB), true, 128,
     "femu-eth-512m with the lines ConfFDP derives from `gc-thres`: 106 at 60"},
}};

// "16 GiB", "128 KiB": exact sizes for help.
std::string help_size(uint64_t bytes) {
  const std::string s = format_size_exact(bytes);
  return s.back() >= 'A' && s.back() <= 'Z' ? fmt::format("{} {}iB", s.substr(0, s.size() - 1), s.back()) : s + " B";
}

}  // namespace

std::span<const Preset> presets() { return kPresets; }

const Preset& preset(std::string_view name) {
  std::string known;
  for (const Preset& p : kPresets) {
    if (p.name == name) return p;
    known += fmt::format("{}{}", known.empty() ? "" : ", ", p.name);
  }
  throw SettingError({"preset", std::string(name), fmt::format("(known: {})", known), Problem::Shape::kUnknown});
}

Geometry preset_geometry(std::string_view name) { return preset(name).geometry; }

uint32_t preset_sizing_scale(std::string_view name) { return preset(name).sizing_scale; }

std::string presets_help() {
  std::string out;
  for (const Preset& p : kPresets) {
    const Geometry& g = p.geometry;
    out += fmt::format("{}{} ({} raw, {}x{} LUNs, {} lines of {} blocks, {} logical; {})", out.empty() ? "" : ", ",
                       p.name, help_size(g.physical_bytes()), g.channels, g.luns_per_channel, g.lines(),
                       help_size(g.block_bytes()), help_size(g.logical_bytes), p.note);
  }
  return out;
}

std::string preset_values(std::string (*value)(const Geometry&)) {
  bool same = true;
  for (const Preset& p : kPresets) same = same && value(p.geometry) == value(kPresets[0].geometry);
  if (same) return fmt::format("{} for all presets", value(kPresets[0].geometry));
  std::string out;
  for (const Preset& p : kPresets)
    out += fmt::format("{}{} for {}", out.empty() ? "" : ", ", value(p.geometry), p.name);
  return out;
}

}  // namespace ftlsim::ftl
