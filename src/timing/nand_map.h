#pragma once
// Where a physical slot of the FTL engine lives in the NAND array, for timed
// mode. The engine only knows erase units (lines or reclaim units) and slot
// offsets in them; this map fixes the hardware behind them:
//
//  - Dies are numbered channel fastest: die = lun x channels + channel.
//  - The dies form ru.die_groups groups of ru.group_dies (reclaim groups with
//    --rg-split dies or channels, one group otherwise); group k's units are the engine's
//    units [k x W, (k+1) x W), W = ru.units_per_die_group (ftl/unit_shape.h).
//  - A unit spans `unit_dies` dies of its group (all of them for a
//    line-sized RU, fewer for a smaller RU: ftl::UnitShape) and `rows` blocks per
//    plane on each. Local unit u of a group with S = group dies / unit_dies die
//    sets takes die set u mod S, so consecutive units land on different dies.
//    A group's dies are ru.die_order's: consecutive die numbers, or ConfFDP's
//    channel sets with --rg-split channels.
//  - Offsets inside a unit are the engine's internal ones, the order a stream
//    writes them (page_ftl.h): a slot at offset o is on die
//    unit_die(unit, o mod unit_dies), plane (o / unit_dies) mod planes: die
//    fastest (in the die set's write order, channel fastest), then plane,
//    then page.
// Every (die, plane, block, page) is used by exactly one slot (tested).
#include <cstdint>
#include <vector>

#include "ftl/fast_div.h"
#include "ftl/geometry.h"
#include "ftl/unit_shape.h"

namespace ftlsim::timing {

struct NandLoc {
  uint32_t plane = 0;  // global plane index: die x planes_per_die + plane
  uint32_t channel = 0;
};

class NandMap {
 public:
  NandMap() = default;
  // REQUIRES: ru is the units' shape for the same geometry (ftl::line_shape,
  // or fdp::resolve_ru_shape with FDP), and ru.dies x ru.block_rows x planes
  // x pages slots per unit (4 KiB pages); `units` engine units
  // (ru.units_per_group x reclaim groups).
  NandMap(const ftl::Geometry& g, const ftl::UnitShape& ru, uint32_t units);

  [[nodiscard]] uint32_t unit_of(uint32_t slot) const { return spu_div_.divide(slot); }
  [[nodiscard]] NandLoc locate(uint32_t slot) const {
    const uint32_t unit = spu_div_.divide(slot);
    const uint32_t off = slot - unit * spu_div_.divisor();
    const uint32_t q = dies_div_.divide(off);
    const uint32_t die = die_order_[first_die_[unit] + (off - q * dies_div_.divisor())];
    const uint32_t plane = planes_ == 1 ? 0 : q % planes_;
    return NandLoc{die * planes_ + plane, die_channel_[die]};
  }
  // For walking many slots: the first slot of a unit, the index of its first
  // die in the die order, and the global plane of offset `off` of the unit
  // whose first die index is `first` (= locate(slot).plane).
  [[nodiscard]] uint32_t unit_base(uint32_t unit) const { return unit * spu_div_.divisor(); }
  [[nodiscard]] uint32_t first_die_index(uint32_t unit) const { return first_die_[unit]; }
  [[nodiscard]] uint32_t plane_at(uint32_t first, uint32_t off) const { return plane_at_fn()(first, off); }
  // plane_at() and die_of_plane() as a value with the map's fields copied
  // into it: a loop keeps them in registers whatever it stores meanwhile.
  struct PlaneAt {
    ftl::FastDiv dies_div;
    const uint32_t* order;
    uint32_t planes;
    [[nodiscard]] uint32_t operator()(uint32_t first, uint32_t off) const {
      const uint32_t q = dies_div.divide(off);
      const uint32_t die = order[first + (off - q * dies_div.divisor())];
      return planes == 1 ? die : die * planes + q % planes;
    }
    [[nodiscard]] uint32_t die_of_plane(uint32_t plane) const { return planes == 1 ? plane : plane / planes; }
  };
  [[nodiscard]] PlaneAt plane_at_fn() const { return PlaneAt{dies_div_, die_order_.data(), planes_}; }
  // A global plane index's location and die.
  [[nodiscard]] NandLoc plane_loc(uint32_t plane) const { return NandLoc{plane, die_channel_[die_of_plane(plane)]}; }
  [[nodiscard]] uint32_t die_of_plane(uint32_t plane) const { return plane_at_fn().die_of_plane(plane); }
  // The k-th die of unit `unit` in its write order (k < unit_dies()).
  [[nodiscard]] uint32_t unit_die(uint32_t unit, uint32_t k) const { return die_order_[first_die_[unit] + k]; }
  [[nodiscard]] uint32_t unit_dies() const { return dies_div_.divisor(); }
  [[nodiscard]] uint32_t rows() const { return rows_; }  // blocks per plane a unit takes on each die
  [[nodiscard]] uint32_t units() const { return static_cast<uint32_t>(first_die_.size()); }
  [[nodiscard]] uint32_t slots_per_unit() const { return spu_div_.divisor(); }
  [[nodiscard]] uint32_t dies() const { return static_cast<uint32_t>(die_channel_.size()); }
  [[nodiscard]] uint32_t planes_per_die() const { return planes_; }
  [[nodiscard]] uint32_t channels() const { return channels_; }

 private:
  ftl::FastDiv spu_div_;
  ftl::FastDiv dies_div_;  // by unit_dies
  uint32_t planes_ = 1;
  uint32_t channels_ = 1;
  uint32_t rows_ = 1;
  std::vector<uint32_t> first_die_;    // per unit: its first die's index in die_order_
  std::vector<uint32_t> die_order_;    // ru.die_order (identity when empty there)
  std::vector<uint32_t> die_channel_;  // per die
};

}  // namespace ftlsim::timing
