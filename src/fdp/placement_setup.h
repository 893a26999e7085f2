#pragma once
// How a run places its writes: the FDP device configuration and the policy
// that picks a handle per write, and the configuration they amount to.
#include "fdp/fdp_config.h"
#include "fdp/placement.h"

namespace ftlsim::fdp {

// The default is the non-FDP core model (placement `single`).
struct PlacementSetup {
  FdpConfig fdp;
  PlacementSpec placement;
};

// The FDP configuration actually simulated: `single` placement turns
// isolation off (one handle, GC sharing its write pointer).
[[nodiscard]] FdpConfig effective_config(const PlacementSetup& setup);

}  // namespace ftlsim::fdp
