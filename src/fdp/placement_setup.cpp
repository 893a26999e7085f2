#include "fdp/placement_setup.h"

namespace ftlsim::fdp {

FdpConfig effective_config(const PlacementSetup& setup) {
  FdpConfig c = setup.fdp;
  // ConfFDP has no non-FDP mode: `single` then writes through handle 0 of
  // the same FDP device (--single handle0).
  c.isolated_gc = isolates(setup.placement) || c.single_handle0;
  if (!c.isolated_gc) c.handles = 1;
  return c;
}

}  // namespace ftlsim::fdp
