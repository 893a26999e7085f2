#include "ftl/geometry_settings.h"

#include <fmt/format.h>

#include <array>

#include "core/units.h"

namespace ftlsim::ftl {
namespace {

using G = Geometry;

constexpr uint64_t kMaxPageBytes = uint64_t{1} << 24;

constexpr std::array<Setting<G>, 6> kSettings = {{
    {"channels",
     ValueKind::kInteger,
     "N",
     "Device",
     "Channels",
     [](G& g, std::string_view t) { g.channels = parse_u32_count("channels", t, 1); },
     [](const G& g) { return fmt::format("{}", g.channels); },
     nullptr,
     {},
     true},
    {"luns",
     ValueKind::kInteger,
     "N",
     "Device",
     "LUNs (dies) per channel",
     [](G& g, std::string_view t) { g.luns_per_channel = parse_u32_count("luns", t, 1); },
     [](const G& g) { return fmt::format("{}", g.luns_per_channel); },
     nullptr,
     {},
     true},
    {"planes",
     ValueKind::kInteger,
     "N",
     "Device",
     "Planes per LUN",
     [](G& g, std::string_view t) { g.planes_per_lun = parse_u32_count("planes", t, 1); },
     [](const G& g) { return fmt::format("{}", g.planes_per_lun); },
     nullptr,
     {},
     true},
    {"blocks",
     ValueKind::kInteger,
     "N",
     "Device",
     "Blocks per plane = number of lines (derived when both `logical` and `op` are given)",
     [](G& g, std::string_view t) { g.blocks_per_plane = parse_u32_count("blocks", t, 4); },
     [](const G& g) { return fmt::format("{}", g.blocks_per_plane); },
     nullptr,
     {},
     true},
    {"pages",
     ValueKind::kInteger,
     "N",
     "Device",
     "Pages per block",
     [](G& g, std::string_view t) { g.pages_per_block = parse_u32_count("pages", t, 1); },
     [](const G& g) { return fmt::format("{}", g.pages_per_block); },
     nullptr,
     {},
     true},
    {"page-size",
     ValueKind::kSize,
     "SIZE",
     "Device",
     "NAND page size in bytes, a multiple of 4K (e.g. 4K, 16K)",
     [](G& g, std::string_view t) {
       const uint64_t ps = parse_bytes("page-size", t);
       if (ps > kMaxPageBytes) throw SettingError({"page-size", std::string(t), "is larger than 16 MiB"});
       g.page_bytes = static_cast<uint32_t>(ps);
     },
     [](const G& g) { return format_size_exact(g.page_bytes); },
     nullptr,
     {},
     true},
}};

}  // namespace

std::span<const Setting<Geometry>> geometry_settings() { return kSettings; }

}  // namespace ftlsim::ftl
