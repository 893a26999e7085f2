#include "ftl/ftl_layout.h"

#include <fmt/format.h>

#include <limits>

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
  if (stream_pool.empty() || stream_pool.size() != gc_dest.size()) p.push_back("layout has no streams");
  for (size_t s = 0; s < stream_pool.size() && s < gc_dest.size(); ++s) {
    if (stream_pool[s] >= pools) p.push_back(fmt::format("stream {} names pool {}", s, stream_pool[s]));
    if (gc_dest[s] >= stream_pool.size() || stream_pool[gc_dest[s]] != stream_pool[s]) {
      p.push_back(fmt::format("stream {}: GC destination must be a stream of the same pool", s));
    }
  }
  return p;
}

FtlLayout line_layout(const Geometry& g) {
  FtlLayout l;
  l.units = g.lines();
  l.slots_per_unit = static_cast<uint32_t>(g.slots_per_line());
  l.blocks_per_unit = g.blocks_per_line();
  l.pools = 1;
  l.stream_pool = {0};
  l.gc_dest = {0};
  return l;
}

}  // namespace ftlsim::ftl
