#pragma once
// The placement policy of one run, chosen once: a std::variant over the
// policy classes of placement.h, so that the driver, dispatching once per
// run with std::visit, calls the policy without a virtual call per write.
#include <cstdint>
#include <span>
#include <variant>

#include "core/io_units.h"
#include "fdp/fdp_config.h"
#include "fdp/placement.h"
#include "trace/record.h"

namespace ftlsim::fdp {

using AnyPlacement = std::variant<PidPlacement, OraclePlacement, IntervalPlacement>;

// What make_placement needs to know of the run besides the policy.
struct PlacementInputs {
  std::span<const trace::Record> records;  // the whole trace (oracle reads it first)
  uint32_t sector_bytes = kSectorBytes;
  uint64_t logical_slots = 0;              // of the device
  bool wrap = false;                       // --wrap
  bool trim_keeps_partial = false;         // --trim-partial keep
  bool trim_plus_one = false;              // --trim-range plus-one
  std::span<const uint32_t> fit_map;       // --logical fit: trace slot -> device slot; empty without
};

// The placement of `spec` on a device with FDP configuration `c` (the
// effective one: effective_config()). single, fdp and map: look up the
// write's placement identifier, whose RG bits name its reclaim group when
// the device isolates streams and --rg-of is pid; oracle reads the whole
// trace first; interval keeps a clock per logical slot. Throws InputError
// for a map to a missing handle.
[[nodiscard]] AnyPlacement make_placement(const PlacementSpec& spec, const FdpConfig& c, const PlacementInputs& in);

}  // namespace ftlsim::fdp
