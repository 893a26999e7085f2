#include "fdp/fdp_config.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/units.h"

namespace ftlsim::fdp {

std::string_view ruh_type_name(RuhType t) {
  return t == RuhType::kInitiallyIsolated ? "ii" : "pi";
}

RuhType parse_ruh_type(std::string_view s) {
  if (s == "ii") return RuhType::kInitiallyIsolated;
  if (s == "pi") return RuhType::kPersistentlyIsolated;
  throw InputError(fmt::format("--ruh-type: '{}' is not ii (initially isolated) or pi (persistently isolated)", s));
}

bool parse_pi_gc(std::string_view s) {
  if (s == "gc-ru") return true;
  if (s == "host-ru") return false;
  throw InputError(fmt::format("--pi-gc: '{}' is not gc-ru (survivors to a GC RU of their handle) or host-ru "
                               "(survivors to the handle's host RU)", s));
}

std::string_view pi_gc_name(bool pi_gc_ru) { return pi_gc_ru ? "gc-ru" : "host-ru"; }

RuShape resolve_ru_shape(const ftl::Geometry& g, const FdpConfig& c) {
  const uint32_t dies = g.dies();
  if (c.reclaim_groups == 0 || dies % c.reclaim_groups != 0) {
    throw InputError(fmt::format("--rg {}: the {} dies cannot be split evenly into that many reclaim groups",
                                 c.reclaim_groups, dies));
  }
  const uint32_t group_dies = dies / c.reclaim_groups;
  const uint64_t die_row = uint64_t{g.planes_per_lun} * g.block_bytes();  // one block per plane of a die
  const uint64_t group_line = die_row * group_dies;
  RuShape s;
  if (c.ru_bytes == 0 || c.ru_bytes == group_line) {
    s = {group_dies, 1, group_line, g.blocks_per_plane};
    return s;
  }
  if (c.ru_bytes > group_line && c.ru_bytes % group_line == 0) {
    const uint64_t k = c.ru_bytes / group_line;
    if (g.blocks_per_plane % k == 0) {
      s = {group_dies, static_cast<uint32_t>(k), c.ru_bytes, static_cast<uint32_t>(g.blocks_per_plane / k)};
      return s;
    }
  }
  if (c.ru_bytes < group_line && c.ru_bytes % die_row == 0) {
    const uint64_t d = c.ru_bytes / die_row;
    if (group_dies % d == 0) {
      s = {static_cast<uint32_t>(d), 1, c.ru_bytes,
           static_cast<uint32_t>(group_dies / d * g.blocks_per_plane)};
      return s;
    }
  }
  std::string ok;
  for (uint32_t d = 1; d <= group_dies; ++d) {
    if (group_dies % d == 0) ok += (ok.empty() ? "" : ", ") + format_bytes(die_row * d);
  }
  for (uint32_t k = 2; k <= g.blocks_per_plane && k <= 64; ++k) {
    if (g.blocks_per_plane % k == 0) ok += ", " + format_bytes(group_line * k);
  }
  throw InputError(fmt::format(
      "--ru-size {}: a reclaim unit must be whole blocks on a divisor of the {} dies of a reclaim group, or "
      "whole lines of it dividing the {} blocks per plane; sizes that work here: {}",
      c.ru_bytes, group_dies, g.blocks_per_plane, ok));
}

ftl::FtlLayout make_layout(const ftl::Geometry& g, const FdpConfig& c) {
  const RuShape ru = resolve_ru_shape(g, c);
  if (c.handles == 0) throw InputError("--ruh must be at least 1");
  ftl::FtlLayout l;
  l.pools = c.reclaim_groups;
  l.units = ru.units_per_group * c.reclaim_groups;
  l.slots_per_unit = static_cast<uint32_t>(ru.bytes / ftl::kSlotBytes);
  l.blocks_per_unit = ru.dies * ru.block_rows * g.planes_per_lun;
  const uint32_t rgs = c.reclaim_groups;
  const uint32_t hosts = c.isolated_gc ? c.handles * rgs : rgs;
  for (uint32_t s = 0; s < hosts; ++s) l.stream_pool.push_back(s % rgs);
  if (!c.isolated_gc) {
    for (uint32_t s = 0; s < hosts; ++s) l.gc_dest.push_back(s);
    return l;
  }
  if (c.ruh_type == RuhType::kPersistentlyIsolated) {
    // Survivors stay with their handle: data written through different
    // handles never shares an RU. Either in a GC RU of the handle (the
    // default, as FEMU) or appended to the handle's host RU.
    if (!c.pi_gc_ru) {
      for (uint32_t s = 0; s < hosts; ++s) l.gc_dest.push_back(s);
      return l;
    }
    for (uint32_t s = 0; s < hosts; ++s) l.gc_dest.push_back(static_cast<ftl::StreamId>(hosts + s));
    for (uint32_t s = 0; s < hosts; ++s) {
      l.stream_pool.push_back(s % rgs);
      l.gc_dest.push_back(static_cast<ftl::StreamId>(hosts + s));
    }
    return l;
  }
  // Initially isolated: survivors of every handle go to one GC stream per RG.
  for (uint32_t s = 0; s < hosts; ++s) l.gc_dest.push_back(static_cast<ftl::StreamId>(hosts + s % rgs));
  for (uint32_t g2 = 0; g2 < rgs; ++g2) {
    l.stream_pool.push_back(g2);
    l.gc_dest.push_back(static_cast<ftl::StreamId>(hosts + g2));
  }
  return l;
}

uint32_t stream_handle(const FdpConfig& c, ftl::StreamId s) {
  if (!c.isolated_gc) return 0;
  const uint32_t hosts = c.handles * c.reclaim_groups;
  if (s < hosts) return s / c.reclaim_groups;
  if (c.ruh_type == RuhType::kPersistentlyIsolated) return (s - hosts) / c.reclaim_groups;
  return c.handles;
}

std::string stream_handle_name(const FdpConfig& c, ftl::StreamId s) {
  const uint32_t h = stream_handle(c, s);
  return h == c.handles ? std::string("gc") : fmt::format("ruh{}", h);
}

}  // namespace ftlsim::fdp
