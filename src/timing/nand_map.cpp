#include "timing/nand_map.h"

#include <stdexcept>

namespace ftlsim::timing {

NandMap::NandMap(const ftl::Geometry& g, const fdp::RuShape& ru, uint32_t reclaim_groups) {
  const uint32_t dies = g.dies();
  if (reclaim_groups == 0 || dies % reclaim_groups != 0 || ru.dies == 0 ||
      (dies / reclaim_groups) % ru.dies != 0) {
    throw std::logic_error("NandMap: reclaim unit shape does not fit the dies");
  }
  planes_ = g.planes_per_lun;
  channels_ = g.channels;
  rows_ = ru.block_rows;
  const uint64_t spu = uint64_t{ru.dies} * ru.block_rows * g.planes_per_lun * g.pages_per_block;
  spu_div_ = ftl::FastDiv(static_cast<uint32_t>(spu));
  dies_div_ = ftl::FastDiv(ru.dies);
  const uint32_t group_dies = dies / reclaim_groups;
  const uint32_t sets = group_dies / ru.dies;
  first_die_.resize(uint64_t{ru.units_per_group} * reclaim_groups);
  for (uint32_t u = 0; u < first_die_.size(); ++u) {
    const uint32_t group = u / ru.units_per_group;
    const uint32_t local = u % ru.units_per_group;
    first_die_[u] = group * group_dies + (local % sets) * ru.dies;
  }
  die_channel_.resize(dies);
  for (uint32_t d = 0; d < dies; ++d) die_channel_[d] = d % g.channels;
}

}  // namespace ftlsim::timing
