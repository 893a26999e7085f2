#pragma once
// How the engine's physical space is cut up and written: erase units (lines
// without FDP, reclaim units with it), pools of units collected together
// (reclaim groups), and streams, each an open unit being filled (a write
// pointer). The line path is one pool and one stream shared by host writes
// and GC; FDP adds a host stream per (handle, reclaim group) and GC streams.
//
// Slot offsets inside a unit follow FEMU's GC order (docs/model.md, "Where
// slots live"): block by block, channel outermost, then LUN, then plane, the
// pages of a block consecutive. Writes visit them in FEMU's write-pointer
// order (channel fastest); a write order maps the n-th slot written into a
// row (one block per plane of every die of the unit) to its offset. Units on
// different die sets can rank their dies differently, so each unit names one
// of the layout's write orders.
#include <cstdint>
#include <string>
#include <vector>

#include "ftl/geometry.h"
#include "ftl/unit_shape.h"

namespace ftlsim::ftl {

using StreamId = uint32_t;

struct FtlLayout {
  uint32_t units = 0;            // erase units; unit u holds slots [u*spu, (u+1)*spu)
  uint32_t slots_per_unit = 0;   // spu = rows x row_slots
  uint32_t blocks_per_unit = 0;  // NAND blocks erased with a unit
  uint32_t pools = 1;            // units are split evenly and contiguously into pools
  // Per die set: row_slots entries, write index in a row -> offset in the row.
  std::vector<std::vector<uint32_t>> write_orders;
  std::vector<uint16_t> unit_order;  // per unit: its write order (empty: all use write_orders[0])
  // Per stream: the pool it writes into, and the stream that receives the
  // survivors when GC cleans a unit this stream filled (itself for FEMU's
  // shared write pointer).
  std::vector<uint32_t> stream_pool;
  std::vector<StreamId> gc_dest;
  // Per stream: 0 when this configuration never opens a unit on it (empty:
  // every stream may). Only streams in use count against the free units.
  std::vector<uint8_t> stream_used;
  // Streams that take a unit at start-up, in this order (FEMU: line 0 for the
  // line path; every handle's RU in every RG under FDP). Others open on use.
  std::vector<StreamId> open_at_start;
  // FEMU's FDP path (docs/model.md rule 13): a declined background victim is
  // popped and inserted again, and one without valid slots is always taken.
  bool requeue_declined = false;
  // ConfFDP's moves to the nearest pool not at its high threshold
  // (docs/model.md rules 6 and 9; find_near_rg_id): a write request whose
  // pool is still at it after the forced passes (spill_writes), and each GC
  // copy of a forced victim with fewer than slots_per_unit / 10 invalid slots
  // (spill_gc). Both need streams numbered pool fastest (stream s of pool
  // s mod pools; s - s mod pools + p is its counterpart in pool p).
  bool spill_writes = false;
  bool spill_gc = false;
  // Forced passes one write request may run by default (FEMU: none on the
  // line path; units + pools on the FDP path, ssd_stream_write's
  // max_fg_gc loop).
  uint32_t forced_cap = UINT32_MAX;

  [[nodiscard]] uint32_t row_slots() const {
    return write_orders.empty() ? 0 : static_cast<uint32_t>(write_orders[0].size());
  }
  [[nodiscard]] uint32_t streams() const { return static_cast<uint32_t>(stream_pool.size()); }
  [[nodiscard]] bool used(StreamId s) const { return stream_used.empty() || stream_used[s] != 0; }
  [[nodiscard]] uint32_t units_per_pool() const { return units / pools; }
  [[nodiscard]] uint64_t physical_slots() const { return uint64_t{units} * slots_per_unit; }
  // One message per inconsistency (empty when usable).
  [[nodiscard]] std::vector<std::string> problems() const;
};

// write_order for a unit row spanning `dies` of `g` in write order (dies
// numbered channel fastest: die = lun x channels + channel): the n-th slot
// written is on dies[n % D], plane (n / D) % planes, page n / (D x planes);
// its offset ranks that die's blocks by (channel, LUN) as FEMU's and
// ConfFDP's GC visit them, then the plane, then the page.
[[nodiscard]] std::vector<uint32_t> block_order(const Geometry& g, const std::vector<uint32_t>& dies);

// The units of `shape` split into `pools` pools (units_per_group each): their
// count, size, blocks and write orders (one per die set, a unit taking its
// group's die sets in turn). No streams: the caller adds them.
[[nodiscard]] FtlLayout unit_layout(const Geometry& g, const UnitShape& shape, uint32_t pools);

// The line path: lines are units (line_shape), one pool, one stream whose GC
// survivors go back to it, line 0 open at start-up (FEMU bbssd).
[[nodiscard]] FtlLayout line_layout(const Geometry& g);

}  // namespace ftlsim::ftl
