#include "fdp/any_placement.h"

namespace ftlsim::fdp {

AnyPlacement make_placement(const PlacementSpec& spec, const FdpConfig& c, const PlacementInputs& in) {
  switch (spec.kind) {
    case PlacementKind::kOracle:
      return OraclePlacement(oracle_handles(in.records, in.sector_bytes, in.logical_slots, in.wrap, c.handles,
                                            in.trim_keeps_partial, in.fit_map, in.trim_plus_one));
    case PlacementKind::kInterval:
      return IntervalPlacement(in.logical_slots, c.handles);
    case PlacementKind::kSingle:
      // Every write through handle 0 in RG 0 (FEMU's line path, or handle 0
      // of the FDP device with --single handle0): the identifier is not read.
      return PidPlacement(spec, c.handles);
    default: {
      // The identifier carries RG bits unless the RG comes from the LBA.
      const bool rg_bits = c.isolated_gc && c.rg_of != RgOf::kLba;
      return PidPlacement(spec, c.handles, rg_bits ? c.reclaim_groups : 1, rg_bits ? c.rgif() : 0, c.pid_confdp,
                          rg_bits ? c.handle_mask() : 0xFFFFu);
    }
  }
}

}  // namespace ftlsim::fdp
