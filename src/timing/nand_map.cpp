#include "timing/nand_map.h"

#include <stdexcept>

namespace ftlsim::timing {

NandMap::NandMap(const ftl::Geometry& g, const ftl::UnitShape& ru, uint32_t units) {
  const uint32_t dies = g.dies();
  if (ru.die_groups == 0 || dies % ru.die_groups != 0 || ru.dies == 0 || ru.group_dies % ru.dies != 0 ||
      ru.units_per_die_group == 0 || units > ru.units_per_die_group * ru.die_groups) {
    throw std::logic_error("NandMap: reclaim unit shape does not fit the dies");
  }
  planes_ = g.planes_per_lun;
  channels_ = g.channels;
  rows_ = ru.block_rows;
  spu_div_ = ftl::FastDiv(ru.dies * ru.block_rows * g.planes_per_lun * static_cast<uint32_t>(g.slots_per_block()));
  dies_div_ = ftl::FastDiv(ru.dies);
  first_die_.resize(units);
  for (uint32_t u = 0; u < units; ++u) first_die_[u] = ru.die_set(u) * ru.dies;
  die_order_ = ru.die_order;
  if (die_order_.size() != dies) throw std::logic_error("NandMap: die order does not name every die");
  die_channel_.resize(dies);
  for (uint32_t d = 0; d < dies; ++d) die_channel_[d] = d % g.channels;
}

}  // namespace ftlsim::timing
