#include "ftl/ftl_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>

namespace ftlsim::ftl {

std::vector<std::string> FtlLayout::problems() const {
  std::vector<std::string> p;
  if (units == 0 || slots_per_unit == 0) p.push_back("layout has no units");
  if (pools == 0 || units % pools != 0) {
    p.push_back(fmt::format("{} units cannot be split evenly into {} reclaim groups", units, pools));
  }
  if (physical_slots() >= std::numeric_limits<uint32_t>::max()) {
    p.push_back(fmt::format("{} slots; at most 2^32-2 are supported", physical_slots()));
  }
  if (row_slots() == 0 || slots_per_unit % row_slots() != 0) p.push_back("layout has no write order");
  for (const auto& o : write_orders) {
    if (o.size() != row_slots()) p.push_back("write orders of different lengths");
  }
  if (!unit_order.empty() && unit_order.size() != units) p.push_back("unit_order does not name every unit");
  for (uint16_t o : unit_order) {
    if (o >= write_orders.size()) p.push_back(fmt::format("unit names write order {} of {}", o, write_orders.size()));
  }
  if (stream_pool.empty() || stream_pool.size() != gc_dest.size()) p.push_back("layout has no streams");
  for (size_t s = 0; s < stream_pool.size() && s < gc_dest.size(); ++s) {
    if (stream_pool[s] >= pools) p.push_back(fmt::format("stream {} names pool {}", s, stream_pool[s]));
    if (gc_dest[s] >= stream_pool.size() || stream_pool[gc_dest[s]] != stream_pool[s]) {
      p.push_back(fmt::format("stream {}: GC destination must be a stream of the same pool", s));
    }
  }
  if (spill_writes || spill_gc) {
    for (size_t s = 0; s < stream_pool.size(); ++s) {
      if (pools != 0 && stream_pool[s] != s % pools) {
        p.push_back("moves to the nearest reclaim group need streams numbered reclaim group fastest");
        break;
      }
    }
  }
  for (StreamId s : open_at_start) {
    if (s >= stream_pool.size()) p.push_back(fmt::format("start-up stream {} does not exist", s));
  }
  return p;
}

std::vector<uint32_t> block_order(const Geometry& g, const std::vector<uint32_t>& die_set) {
  // Rank the unit's dies in GC order: by channel, then LUN.
  const auto dies = static_cast<uint32_t>(die_set.size());
  std::vector<uint32_t> by_gc(dies);
  std::iota(by_gc.begin(), by_gc.end(), 0u);
  const auto channel = [&](uint32_t d) { return die_set[d] % g.channels; };
  const auto lun = [&](uint32_t d) { return die_set[d] / g.channels; };
  std::stable_sort(by_gc.begin(), by_gc.end(), [&](uint32_t a, uint32_t b) {
    return channel(a) != channel(b) ? channel(a) < channel(b) : lun(a) < lun(b);
  });
  std::vector<uint32_t> rank(dies);
  for (uint32_t r = 0; r < dies; ++r) rank[by_gc[r]] = r;
  const uint32_t planes = g.planes_per_lun;
  const auto pages = static_cast<uint32_t>(g.slots_per_block());  // slots of one block
  std::vector<uint32_t> order(uint64_t{dies} * planes * pages);
  for (uint32_t n = 0; n < order.size(); ++n) {
    const uint32_t die = n % dies;
    const uint32_t plane = (n / dies) % planes;
    const uint32_t page = n / (dies * planes);
    order[n] = (rank[die] * planes + plane) * pages + page;
  }
  return order;
}

FtlLayout unit_layout(const Geometry& g, const UnitShape& shape, uint32_t pools) {
  FtlLayout l;
  l.pools = pools;
  l.units = shape.units_per_group * pools;
  l.slots_per_unit = static_cast<uint32_t>(shape.bytes / kSlotBytes);
  l.blocks_per_unit = shape.dies * shape.block_rows * g.planes_per_lun;
  // One write order per die set a unit can take (unit_shape.h).
  for (uint32_t k = 0; k < shape.die_groups; ++k) {
    for (uint32_t j = 0; j < shape.sets(); ++j) {
      const auto first = shape.die_order.begin() + k * shape.group_dies + j * shape.dies;
      l.write_orders.push_back(block_order(g, std::vector<uint32_t>(first, first + shape.dies)));
    }
  }
  if (l.write_orders.size() > 1) {
    l.unit_order.resize(l.units);
    for (uint32_t u = 0; u < l.units; ++u) l.unit_order[u] = static_cast<uint16_t>(shape.die_set(u));
  }
  return l;
}

FtlLayout line_layout(const Geometry& g) {
  FtlLayout l = unit_layout(g, line_shape(g), 1);
  l.stream_pool = {0};
  l.gc_dest = {0};
  l.open_at_start = {0};
  return l;
}

}  // namespace ftlsim::ftl
