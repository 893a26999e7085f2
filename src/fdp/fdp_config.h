#pragma once
// NVMe Flexible Data Placement (TP4146) configuration of the modelled device
// and its mapping onto the FTL engine: reclaim groups (RG) partition the
// dies, reclaim units (RU) are the erase units, and each reclaim unit handle
// (RUH) keeps one open RU per RG. Terms as in MODEL_REFERENCE.md section 2.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ftl/ftl_layout.h"
#include "ftl/geometry.h"

namespace ftlsim::fdp {

using RuhId = uint16_t;

enum class RuhType : uint8_t {
  kInitiallyIsolated,    // 01h: GC survivors of every handle go to one shared GC RU stream per RG
  kPersistentlyIsolated  // 02h: GC survivors stay with their handle (its GC RU, see pi_gc_ru)
};
[[nodiscard]] std::string_view ruh_type_name(RuhType t);  // "ii" / "pi"
[[nodiscard]] RuhType parse_ruh_type(std::string_view s);  // throws InputError
// --pi-gc: "gc-ru" -> true (FdpConfig::pi_gc_ru), "host-ru" -> false; throws InputError.
[[nodiscard]] bool parse_pi_gc(std::string_view s);
[[nodiscard]] std::string_view pi_gc_name(bool pi_gc_ru);

struct FdpConfig {
  uint32_t reclaim_groups = 1;  // --rg: must divide the number of dies
  uint64_t ru_bytes = 0;        // --ru-size: 0 = one line of a reclaim group
  uint32_t handles = 8;         // --ruh
  // FEMU's FDP scripts default to initially isolated handles (NUM_PI_HANDLE=0).
  RuhType ruh_type = RuhType::kInitiallyIsolated;
  // false: non-FDP (placement `single`): one handle whose GC survivors share
  // its write pointer, FEMU bbssd's behaviour; ruh_type is then irrelevant.
  bool isolated_gc = true;
  // Persistently isolated handles: survivors go to a GC RU of their handle
  // (true) or are appended to the handle's host RU (false).
  bool pi_gc_ru = true;
  // --ru-time-limit: an RU that host writes reach is closed this long (trace
  // time) after its first host write, full or not; 0 = no limit.
  uint64_t ru_time_limit_ns = 0;
};

// The shape of a reclaim unit in NAND terms.
struct RuShape {
  uint32_t dies = 0;             // dies one RU spans
  uint32_t block_rows = 0;       // blocks per plane of each die it takes
  uint64_t bytes = 0;
  uint32_t units_per_group = 0;  // RUs in one reclaim group
};

// Resolves --ru-size against the geometry. An RU is either `k` blocks per
// plane on every die of its reclaim group (k dividing the blocks per plane;
// k = 1 is one line of the group) or one block per plane on a divisor of the
// group's dies. Throws InputError listing the sizes that would work.
[[nodiscard]] RuShape resolve_ru_shape(const ftl::Geometry& g, const FdpConfig& c);

// Engine layout: streams 0 .. handles*rgs-1 are host streams, (h, g) at
// h * rgs + g. Persistently isolated handles add a GC stream per (h, g) at
// handles*rgs + h*rgs + g (or are their own GC destination without
// pi_gc_ru); initially isolated ones add one shared GC stream per RG at
// handles*rgs + g. Non-FDP: one stream per RG, its own GC destination (FEMU bbssd).
// Throws InputError for inconsistent settings.
[[nodiscard]] ftl::FtlLayout make_layout(const ftl::Geometry& g, const FdpConfig& c);

// Index of the host stream for handle h in reclaim group g.
[[nodiscard]] inline ftl::StreamId host_stream(const FdpConfig& c, RuhId h, uint32_t g) {
  return static_cast<ftl::StreamId>(h) * c.reclaim_groups + g;
}

// Name of what stream s is, for reports: "ruh3", or "gc" for the shared GC
// stream of initially isolated handles.
[[nodiscard]] std::string stream_handle_name(const FdpConfig& c, ftl::StreamId s);
// The handle stream s belongs to, or `handles` for the shared GC stream of
// initially isolated handles.
[[nodiscard]] uint32_t stream_handle(const FdpConfig& c, ftl::StreamId s);

}  // namespace ftlsim::fdp
