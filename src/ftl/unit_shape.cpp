#include "ftl/unit_shape.h"

#include <numeric>

namespace ftlsim::ftl {

UnitShape line_shape(const Geometry& g) {
  const uint32_t dies = g.dies();
  UnitShape s;
  s.dies = dies;
  s.block_rows = 1;
  s.bytes = uint64_t{g.planes_per_lun} * g.block_bytes() * dies;
  s.units_per_group = g.lines();
  s.die_groups = 1;
  s.group_dies = dies;
  s.units_per_die_group = g.lines();
  s.die_order.resize(dies);
  std::iota(s.die_order.begin(), s.die_order.end(), 0u);
  return s;
}

}  // namespace ftlsim::ftl
