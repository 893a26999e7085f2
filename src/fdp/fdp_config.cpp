#include "fdp/fdp_config.h"

#include <fmt/format.h>

#include <bit>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/error.h"
#include "core/units.h"
#include "fdp/stream_map.h"

namespace ftlsim::fdp {
std::string_view ruh_types_name(RuhTypes t) { return choice_word<RuhTypes>(kRuhTypeWords, t); }
std::string_view pi_gc_name(bool pi_gc_ru) { return choice_word<bool>(kPiGcWords, pi_gc_ru); }
std::string_view ii_gc_name(IiGc g) { return choice_word<IiGc>(kIiGcWords, g); }
std::string_view rg_split_name(RgSplit s) { return choice_word<RgSplit>(kRgSplitWords, s); }
std::string_view rg_of_name(RgOf r) { return choice_word<RgOf>(kRgOfWords, r); }

uint32_t FdpConfig::rgif() const {
  if (reclaim_groups <= 1) return 0;
  return static_cast<uint32_t>(std::bit_width(pid_min_rgif ? reclaim_groups - 1 : reclaim_groups));
}

uint32_t FdpConfig::handle_mask() const {
  const uint32_t bits = rgif();
  if (bits == 0) return 0xFFFF;
  if (bits >= 16) return 0;
  return (1u << ((pid_min_rgif ? 16 : 15) - bits)) - 1;
}

namespace {

// ConfFDP's die sets (ssd_init_params, rg2physical): RG g is channels
// [g x C/R, (g+1) x C/R) with all their LUNs, or with more RGs than channels
// LUNs [(g mod k) x L/k, (g mod k + 1) x L/k) of channel g / k, k = R/C; its
// write pointer moves channel fastest, then LUN. Dies are numbered channel
// fastest (die = LUN x channels + channel).
std::vector<uint32_t> channel_die_order(const ftl::Geometry& g, uint32_t rgs) {
  const uint32_t ch = g.channels, luns = g.luns_per_channel;
  const bool whole_channels = rgs <= ch;
  if (whole_channels ? ch % rgs != 0 : rgs % ch != 0 || luns % (rgs / ch) != 0) {
    throw InputError(
        say("`rg` {}: {} channels x {} LUNs cannot be split into that many reclaim groups of whole channels or of "
            "equal shares of one channel's LUNs (`rg-split` channels, ConfFDP's rg2physical); give a divisor of the "
            "channels (whole channels each) or the channels times a divisor of the LUNs (a LUN share each)",
            rgs, ch, luns));
  }
  const uint32_t rg_channels = whole_channels ? ch / rgs : 1;
  const uint32_t rg_luns = whole_channels ? luns : luns / (rgs / ch);
  std::vector<uint32_t> order;
  order.reserve(g.dies());
  for (uint32_t rg = 0; rg < rgs; ++rg) {
    const uint32_t first_ch = whole_channels ? rg * rg_channels : rg / (rgs / ch);
    const uint32_t first_lun = whole_channels ? 0 : rg % (rgs / ch) * rg_luns;
    for (uint32_t l = first_lun; l < first_lun + rg_luns; ++l) {
      for (uint32_t c = first_ch; c < first_ch + rg_channels; ++c) order.push_back(l * ch + c);
    }
  }
  return order;
}

}  // namespace

ftl::UnitShape resolve_ru_shape(const ftl::Geometry& g, const FdpConfig& c) {
  const uint32_t dies = g.dies();
  if (c.reclaim_groups == 0) throw InputError(say("`rg` must be at least 1"));
  const bool by_dies = c.rg_split != RgSplit::kLines;
  if (c.rg_split == RgSplit::kDies && dies % c.reclaim_groups != 0) {
    throw InputError(
        say("`rg` {}: the {} dies cannot be split evenly into that many reclaim groups "
            "(`rg-split` dies)",
            c.reclaim_groups, dies));
  }
  const uint32_t die_groups = by_dies ? c.reclaim_groups : 1;
  const uint32_t group_dies = dies / die_groups;
  const uint64_t die_row = uint64_t{g.planes_per_lun} * g.block_bytes();  // one block per plane of a die
  const uint64_t group_line = die_row * group_dies;
  ftl::UnitShape s;
  s.die_groups = die_groups;
  s.group_dies = group_dies;
  if (c.rg_split == RgSplit::kChannels && dies != 0) {
    s.die_order = channel_die_order(g, c.reclaim_groups);
  } else {
    s.die_order.resize(dies);
    std::iota(s.die_order.begin(), s.die_order.end(), 0u);
  }
  bool ok = false;
  if (c.ru_bytes == 0 || c.ru_bytes == group_line) {
    s.dies = group_dies;
    s.block_rows = 1;
    s.bytes = group_line;
    s.units_per_die_group = g.blocks_per_plane;
    ok = true;
  } else if (c.ru_bytes > group_line && c.ru_bytes % group_line == 0 &&
             g.blocks_per_plane % (c.ru_bytes / group_line) == 0) {
    const auto k = static_cast<uint32_t>(c.ru_bytes / group_line);
    s.dies = group_dies;
    s.block_rows = k;
    s.bytes = c.ru_bytes;
    s.units_per_die_group = g.blocks_per_plane / k;
    ok = true;
  } else if (c.ru_bytes < group_line && c.ru_bytes % die_row == 0 && group_dies % (c.ru_bytes / die_row) == 0) {
    const auto d = static_cast<uint32_t>(c.ru_bytes / die_row);
    s.dies = d;
    s.block_rows = 1;
    s.bytes = c.ru_bytes;
    s.units_per_die_group = group_dies / d * g.blocks_per_plane;
    ok = true;
  }
  if (ok) {
    s.units_per_group = by_dies ? s.units_per_die_group : s.units_per_die_group / c.reclaim_groups;
    if (s.units_per_group == 0) {
      throw InputError(say("`rg` {}: more reclaim groups than the {} reclaim units of the device", c.reclaim_groups,
                           s.units_per_die_group));
    }
    return s;
  }
  std::string sizes;
  for (uint32_t d = 1; d <= group_dies; ++d) {
    if (group_dies % d == 0) sizes += (sizes.empty() ? "" : ", ") + format_size_exact(die_row * d);
  }
  for (uint32_t k = 2; k <= g.blocks_per_plane && k <= 64; ++k) {
    if (g.blocks_per_plane % k == 0) sizes += ", " + format_size_exact(group_line * k);
  }
  throw InputError(
      say("`ru-size` {}: a reclaim unit must be whole blocks on a divisor of the {} dies{}, or whole lines{} "
          "dividing the {} blocks per plane; sizes this geometry allows (the GC thresholds and capacity still "
          "apply): {}",
          format_size_exact(c.ru_bytes), group_dies, by_dies ? " of a reclaim group" : "", by_dies ? " of it" : "",
          g.blocks_per_plane, sizes));
}

ftl::FtlLayout make_layout(const ftl::Geometry& g, const FdpConfig& c) {
  if (!c.isolated_gc) throw std::logic_error("make_layout: FDP only; the line path is ftl::line_layout");
  const ftl::UnitShape ru = resolve_ru_shape(g, c);
  if (c.handles == 0) throw InputError(say("`ruh` must be at least 1"));
  const uint32_t rgs = c.reclaim_groups;
  const uint32_t h_count = c.handles;
  // Streams: a host and a GC stream per handle and RG, and a shared GC
  // stream per RG; stream ids are 32-bit (counted in 64 bits: 256 handles
  // x 2^24 RGs would wrap to 0).
  const uint64_t streams = 2 * uint64_t{h_count} * rgs + rgs;
  if (streams > std::numeric_limits<uint32_t>::max()) {
    throw InputError(
        say("`rg` {} with `ruh` {} gives {} streams (a host and a GC stream per handle and "
            "reclaim group, and one per reclaim group); at most 2^32-1 are supported",
            rgs, h_count, streams));
  }
  // The placement identifier must hold the RG bits and the handles beside
  // them: FEMU's nvme_calc_rgif refuses the device otherwise.
  if (rgs > 1 && c.rg_of != RgOf::kLba && !c.pid_confdp && (c.rgif() > 15 || (0xFFFFu >> c.rgif()) < h_count)) {
    throw InputError(
        say("`rg` {} with `ruh` {}: a placement identifier has no room for {} RG bits and the "
            "handles beside them (FEMU's nvme_calc_rgif refuses this device); use fewer RGs or "
            "`rg-of` lba",
            rgs, h_count, c.rgif()));
  }
  ftl::FtlLayout l = ftl::unit_layout(g, ru, rgs);
  // ConfFDP's moves to the nearest RG (find_near_rg_id). A write is moved
  // once per request, from the RG its placement identifier names.
  if (rgs > 1 && c.spill_writes && c.rg_of != RgOf::kPid) {
    throw InputError(
        say("`write-spill` nearest moves a write from the reclaim group its placement "
            "identifier names: it needs `rg-of` pid (not {})",
            rg_of_name(c.rg_of)));
  }
  l.spill_writes = c.spill_writes && rgs > 1;
  l.spill_gc = c.spill_gc && rgs > 1;
  l.requeue_declined = c.declined_requeue;
  l.forced_cap = l.units + l.pools;  // FEMU's max_fg_gc bound in ssd_stream_write
  const uint32_t hosts = h_count * rgs;
  const uint32_t total = 2 * hosts + rgs;
  l.stream_pool.resize(total);
  l.gc_dest.resize(total);
  l.stream_used.assign(total, 0);
  for (uint32_t s = 0; s < total; ++s) {
    l.stream_pool[s] = s % rgs;
    l.gc_dest[s] = s;  // GC streams (and unused ones) collect into themselves
  }
  for (uint32_t h = 0; h < h_count; ++h) {
    for (uint32_t rg = 0; rg < rgs; ++rg) {
      const ftl::StreamId host = host_stream(rgs, static_cast<RuhId>(h), rg);
      l.stream_used[host] = 1;
      ftl::StreamId dest = host;
      if (c.is_pi(h)) {
        if (c.pi_gc_ru) dest = hosts + host;
      } else if (c.ii_gc == IiGc::kLastRuh) {
        dest = host_stream(rgs, static_cast<RuhId>(h_count - 1), rg);
      } else {
        dest = 2 * hosts + rg;
      }
      l.gc_dest[host] = dest;
      l.stream_used[dest] = 1;
    }
  }
  if (c.open_at_start) {
    for (uint32_t h = 0; h < h_count; ++h) {
      for (uint32_t rg = 0; rg < rgs; ++rg) l.open_at_start.push_back(host_stream(rgs, static_cast<RuhId>(h), rg));
    }
  }
  return l;
}

}  // namespace ftlsim::fdp
