#include "timing/nand_map.h"

#include <stdexcept>

#include "ftl/ftl_layout.h"

namespace ftlsim::timing {

NandMap::NandMap(const ftl::Geometry& g, const fdp::RuShape& ru, uint32_t units) {
  const uint32_t dies = g.dies();
  if (ru.die_groups == 0 || dies % ru.die_groups != 0 || ru.dies == 0 || ru.group_dies % ru.dies != 0 ||
      ru.units_per_die_group == 0 || units > ru.units_per_die_group * ru.die_groups) {
    throw std::logic_error("NandMap: reclaim unit shape does not fit the dies");
  }
  planes_ = g.planes_per_lun;
  channels_ = g.channels;
  rows_ = ru.block_rows;
  const uint32_t block_slots = static_cast<uint32_t>(g.slots_per_block());
  const uint32_t row = ru.dies * g.planes_per_lun * block_slots;
  spu_div_ = ftl::FastDiv(row * ru.block_rows);
  row_div_ = ftl::FastDiv(row);
  block_div_ = ftl::FastDiv(block_slots);
  dies_div_ = ftl::FastDiv(ru.dies);
  // Each die set ranks its dies as the engine's write order for it does
  // (fdp::make_layout): slot n = d of a row is written on unit die d, plane 0,
  // page 0, at block rank x planes.
  const uint32_t sets = ru.group_dies / ru.dies;
  unit_dies_ = ru.dies;
  die_of_rank_.assign(uint64_t{ru.die_groups} * sets * ru.dies, 0);
  for (uint32_t k = 0; k < ru.die_groups; ++k) {
    for (uint32_t j = 0; j < sets; ++j) {
      const std::vector<uint32_t> order = ftl::block_order(g, k * ru.group_dies + j * ru.dies, ru.dies);
      for (uint32_t d = 0; d < ru.dies; ++d) {
        die_of_rank_[(k * sets + j) * ru.dies + order[d] / block_slots / g.planes_per_lun] = d;
      }
    }
  }
  first_die_.resize(units);
  set_.resize(units);
  for (uint32_t u = 0; u < units; ++u) {
    const uint32_t group = u / ru.units_per_die_group;
    const uint32_t local = u % ru.units_per_die_group;
    first_die_[u] = group * ru.group_dies + (local % sets) * ru.dies;
    set_[u] = group * sets + local % sets;
  }
  die_channel_.resize(dies);
  for (uint32_t d = 0; d < dies; ++d) die_channel_[d] = d % g.channels;
}

}  // namespace ftlsim::timing
