#include "fdp/placement_setup.h"

namespace ftlsim::fdp {

FdpConfig effective_config(const PlacementSetup& setup) {
  FdpConfig c = setup.fdp;
  c.isolated_gc = isolates(setup.placement);
  if (!c.isolated_gc) c.handles = 1;
  return c;
}

}  // namespace ftlsim::fdp
