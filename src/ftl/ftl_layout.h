#pragma once
// How the engine's physical space is cut up and written: erase units (lines
// in the core model, reclaim units under FDP), pools of units collected
// independently (reclaim groups), and streams, each an open unit being filled
// (a write pointer). The core model is one pool and one stream shared by host
// writes and GC; FDP adds a stream per (handle, reclaim group) and GC streams.
#include <cstdint>
#include <string>
#include <vector>

#include "ftl/geometry.h"

namespace ftlsim::ftl {

using StreamId = uint32_t;

struct FtlLayout {
  uint32_t units = 0;            // erase units; unit u holds slots [u*spu, (u+1)*spu)
  uint32_t slots_per_unit = 0;   // spu
  uint32_t blocks_per_unit = 0;  // NAND blocks erased with a unit
  uint32_t pools = 1;            // units are split evenly and contiguously into pools
  // Per stream: the pool it writes into, and the stream that receives the
  // survivors when GC cleans a unit this stream filled (itself for FEMU's
  // shared write pointer).
  std::vector<uint32_t> stream_pool;
  std::vector<StreamId> gc_dest;

  [[nodiscard]] uint32_t streams() const { return static_cast<uint32_t>(stream_pool.size()); }
  [[nodiscard]] uint32_t units_per_pool() const { return units / pools; }
  [[nodiscard]] uint64_t physical_slots() const { return uint64_t{units} * slots_per_unit; }
  // One message per inconsistency (empty when usable).
  [[nodiscard]] std::vector<std::string> problems() const;
};

// The core model: lines are units, one pool, one stream whose GC survivors
// go back to it (FEMU bbssd).
[[nodiscard]] FtlLayout line_layout(const Geometry& g);

}  // namespace ftlsim::ftl
