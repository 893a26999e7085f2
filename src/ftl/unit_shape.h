#pragma once
// The shape of the engine's erase units in NAND terms: how many dies a unit
// spans, how many blocks per plane it takes on each, and how the dies are
// grouped. FEMU's line path has one shape (line_shape: a unit is one line of
// every die); FDP's reclaim units have others (fdp::resolve_ru_shape).
// Timed mode places slots on dies from it (timing/nand_map.h); the engine
// layout's write orders come from it (unit_layout in ftl_layout.h).
#include <cstdint>
#include <vector>

#include "ftl/geometry.h"

namespace ftlsim::ftl {

struct UnitShape {
  uint32_t dies = 0;        // dies one unit spans
  uint32_t block_rows = 0;  // blocks per plane of each die it takes (lines of it)
  uint64_t bytes = 0;
  uint32_t units_per_group = 0;  // units in one pool (reclaim group)
  // Dies are split into die_groups equal groups of group_dies (RGs with
  // --rg-split dies or channels; one group of all dies otherwise), each with
  // units_per_die_group units, which take the group's die sets in turn.
  uint32_t die_groups = 1;
  uint32_t group_dies = 0;
  uint32_t units_per_die_group = 0;
  // The dies, group by group, each group's in write order (a unit's n-th
  // written slot is on the (n mod unit dies)-th die of its die set):
  // die_order[k x group_dies + j x dies + i] is die i of die set j of group
  // k. Die numbers in order for `rg-split` lines and dies; ConfFDP's channel
  // sets, channel fastest, then LUN, for `rg-split` channels.
  std::vector<uint32_t> die_order;

  // Die sets per group (0 for an empty shape).
  [[nodiscard]] uint32_t sets() const { return dies == 0 ? 0 : group_dies / dies; }
  // The die set unit `u` takes, group by group: its dies are die_order's
  // [die_set(u) x dies, + dies).
  [[nodiscard]] uint32_t die_set(uint32_t u) const {
    return u / units_per_die_group * sets() + u % units_per_die_group % sets();
  }
};

// FEMU's line path: a unit is one line (block b of every plane of every
// die), `lines()` units in one group of all dies, dies in number order.
[[nodiscard]] UnitShape line_shape(const Geometry& g);

}  // namespace ftlsim::ftl
