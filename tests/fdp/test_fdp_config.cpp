#include <catch2/catch.hpp>

#include <stdexcept>

#include "core/error.h"
#include "fdp/fdp_config.h"
#include "fdp/handle_stats.h"
#include "fdp/stream_map.h"
#include "ftl/any_ftl.h"
#include "ftl/ftl_config.h"
#include "ftl/ftl_layout.h"
#include "ftl/ftl_test_util.h"

using namespace ftlsim;

namespace {
// 8 dies (8 channels x 1 LUN), 64 blocks per plane of 32 x 4 KiB pages:
// a block is 128 KiB, a line 1 MiB, 64 lines.
ftl::Geometry small() {
  ftl::Geometry g;
  g.channels = 8;
  g.luns_per_channel = 1;
  g.planes_per_lun = 1;
  g.blocks_per_plane = 64;
  g.pages_per_block = 32;
  g.page_bytes = 4096;
  g.logical_bytes = 48u << 20;
  return g;
}
}  // namespace

TEST_CASE("reclaim unit sizes from one block to many lines", "[fdp][unit]") {
  const ftl::Geometry g = small();
  fdp::FdpConfig c;
  auto shape = fdp::resolve_ru_shape(g, c);  // default: one line
  CHECK(shape.bytes == (1u << 20));
  CHECK(shape.dies == 8);
  CHECK(shape.units_per_group == 64);
  c.ru_bytes = 4u << 20;  // four lines
  shape = fdp::resolve_ru_shape(g, c);
  CHECK(shape.block_rows == 4);
  CHECK(shape.units_per_group == 16);
  c.ru_bytes = 256u << 10;  // two dies, one block each
  shape = fdp::resolve_ru_shape(g, c);
  CHECK(shape.dies == 2);
  CHECK(shape.units_per_group == 4 * 64);
  c.ru_bytes = 128u << 10;  // a single NAND block
  CHECK(fdp::resolve_ru_shape(g, c).units_per_group == 8 * 64);
  c.ru_bytes = 3u << 20;  // 3 lines do not divide 64 blocks
  CHECK_THROWS_WITH(fdp::resolve_ru_shape(g, c), Catch::Contains("sizes this geometry allows"));
  c.ru_bytes = 384u << 10;  // 3 dies do not divide 8
  CHECK_THROWS_AS(fdp::resolve_ru_shape(g, c), InputError);
  c.ru_bytes = 0;
  c.reclaim_groups = 3;
  c.rg_split = fdp::RgSplit::kDies;
  CHECK_THROWS_WITH(fdp::resolve_ru_shape(g, c), Catch::Contains("`rg` 3"));
  c.reclaim_groups = 2;  // 4 dies per group: a group line is 512 KiB
  shape = fdp::resolve_ru_shape(g, c);
  CHECK(shape.bytes == (512u << 10));
  CHECK(shape.units_per_group == 64);
}

TEST_CASE("stream layout per handle type", "[fdp][unit]") {
  const ftl::Geometry g = small();
  fdp::FdpConfig c;
  c.handles = 4;
  c.reclaim_groups = 2;
  const auto used = [](const ftl::FtlLayout& l) {
    uint32_t n = 0;
    for (ftl::StreamId s = 0; s < l.streams(); ++s) n += l.used(s);
    return n;
  };

  c.isolated_gc = false;  // non-FDP: FEMU's line path (ftl's), one stream, line 0 open at start-up
  CHECK_THROWS_AS(fdp::make_layout(g, c), std::logic_error);
  auto l = ftl::line_layout(g);
  CHECK(l.streams() == 1);
  CHECK(l.gc_dest == std::vector<ftl::StreamId>{0});
  CHECK(l.open_at_start == std::vector<ftl::StreamId>{0});
  CHECK_FALSE(l.requeue_declined);

  c.isolated_gc = true;  // FEMU: all PI, every handle's RU in every RG at start-up, handle by handle
  l = fdp::make_layout(g, c);
  CHECK(l.requeue_declined);
  CHECK(l.open_at_start == std::vector<ftl::StreamId>{0, 1, 2, 3, 4, 5, 6, 7});
  for (ftl::StreamId s = 0; s < 8; ++s) {
    CHECK(l.gc_dest[s] == 8 + s);  // host (h, g) -> the GC stream of (h, g)
    CHECK(l.stream_pool[8 + s] == l.stream_pool[s]);
    CHECK(fdp::stream_handle(c, s) == s / 2);
    CHECK(fdp::stream_handle(c, 8 + s) == s / 2);
  }
  CHECK(used(l) == 16);

  c.ruh_types = fdp::RuhTypes::kLastIi;  // handle 3 II: its survivors go into its own host RU
  l = fdp::make_layout(g, c);
  CHECK(l.gc_dest[3 * 2 + 1] == 3 * 2 + 1);
  CHECK(l.gc_dest[0] == 8);
  CHECK(used(l) == 8 + 6);

  c.ruh_types = fdp::RuhTypes::kAllIi;  // every II handle into the last handle's host RU of its RG
  l = fdp::make_layout(g, c);
  for (ftl::StreamId s = 0; s < 8; ++s) CHECK(l.gc_dest[s] == 6 + s % 2);
  CHECK(used(l) == 8);

  c.ii_gc = fdp::IiGc::kSharedGcRu;  // one shared GC stream per RG
  l = fdp::make_layout(g, c);
  for (ftl::StreamId s = 0; s < 8; ++s) CHECK(l.gc_dest[s] == 16 + s % 2);
  CHECK(fdp::stream_handle(c, 17) == c.handles);
  CHECK(fdp::handle_name(c, fdp::stream_handle(c, 17)) == "gc");
  CHECK(c.has_shared_gc_ru());
  CHECK(used(l) == 10);

  c.ruh_types = fdp::RuhTypes::kAllPi;
  c.pi_gc_ru = false;
  c.open_at_start = false;
  l = fdp::make_layout(g, c);
  CHECK(l.gc_dest[5] == 5);
  CHECK(l.open_at_start.empty());
  CHECK(used(l) == 8);
  CHECK(l.problems().empty());
}

TEST_CASE("reclaim groups split the lines as FEMU, or the dies", "[fdp][unit]") {
  const ftl::Geometry g = small();  // 64 lines of 1 MiB
  fdp::FdpConfig c;
  c.reclaim_groups = 3;  // FEMU: 64 / 3 = 21 RUs per RG, one line left unused
  auto shape = fdp::resolve_ru_shape(g, c);
  CHECK(shape.bytes == (1u << 20));
  CHECK(shape.units_per_group == 21);
  CHECK(fdp::make_layout(g, c).units == 63);
  c.reclaim_groups = 4;
  CHECK(c.rgif() == 3);              // FEMU's nvme_calc_rgif: the bit length of 4
  c.rg_split = fdp::RgSplit::kDies;  // 2 dies per RG: a group line is 256 KiB, 64 per RG
  shape = fdp::resolve_ru_shape(g, c);
  CHECK(shape.bytes == (256u << 10));
  CHECK(shape.units_per_group == 64);
  c.reclaim_groups = 1;
  CHECK(c.rgif() == 0);
  c.reclaim_groups = 2;
  CHECK(c.rgif() == 2);
  c.reclaim_groups = 5;
  CHECK(c.rgif() == 3);
  c.pid_min_rgif = true;  // the fewest bits that number the RGs
  CHECK(c.rgif() == 3);
  c.reclaim_groups = 2;
  CHECK(c.rgif() == 1);
}

// ConfFDP's die sets (ssd_init_params, rg2physical, get_rg_id), dies
// numbered LUN x channels + channel, each RG's in its write pointer's order
// (channel fastest, then LUN):
//   8 channels x 2 LUNs, 2 RGs: RG g = channels 4g..4g+3, LUNs 0, 1:
//     RG 0 = d0 d1 d2 d3 d8 d9 d10 d11, RG 1 = d4..d7 d12..d15;
//   the same, 4 RGs: RG g = channels 2g, 2g+1: RG 0 = d0 d1 d8 d9, RG 1 =
//     d2 d3 d10 d11, RG 2 = d4 d5 d12 d13, RG 3 = d6 d7 d14 d15;
//   2 channels x 4 LUNs, 4 RGs (more RGs than channels: k = 2 per channel,
//     LUN shares of 2): RG g = channel g / 2, LUNs (g % 2) x 2, +1: RG 0 =
//     c0 l0, l1 = d0 d2; RG 1 = c0 l2, l3 = d4 d6; RG 2 = d1 d3; RG 3 = d5 d7;
//   1 channel x 4 LUNs, 2 RGs: RG 0 = d0 d1, RG 1 = d2 d3.
// Counts with no such split (3 RGs of 8 channels; 16 RGs of 8 channels x 1
// LUN; 6 of 2 x 4) are refused: ConfFDP's rg2physical has no die set for them.
TEST_CASE("reclaim groups of whole channels or LUN shares, as ConfFDP's", "[fdp][unit]") {
  fdp::FdpConfig c;
  c.rg_split = fdp::RgSplit::kChannels;
  const auto order = [&](uint32_t channels, uint32_t luns, uint32_t rgs) {
    c.reclaim_groups = rgs;
    return fdp::resolve_ru_shape(test::geometry(channels, luns, 1, 8, 4, 64), c).die_order;
  };
  using V = std::vector<uint32_t>;
  CHECK(order(8, 2, 2) == V{0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15});
  CHECK(order(8, 2, 4) == V{0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15});
  CHECK(order(2, 4, 4) == V{0, 2, 4, 6, 1, 3, 5, 7});
  CHECK(order(1, 4, 2) == V{0, 1, 2, 3});
  CHECK(order(8, 2, 1) == V{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});  // one RG: every die
  CHECK(order(2, 4, 2) == V{0, 2, 4, 6, 1, 3, 5, 7});                                // RGs = channels: one channel each
  c.reclaim_groups = 4;
  const auto shape = fdp::resolve_ru_shape(test::geometry(8, 2, 1, 8, 4, 64), c);
  CHECK(shape.group_dies == 4);
  CHECK(shape.units_per_group == 8);  // every line of its dies
  CHECK_THROWS_WITH(order(8, 1, 3), Catch::Contains("`rg` 3") && Catch::Contains("rg2physical"));
  CHECK_THROWS_WITH(order(8, 1, 16), Catch::Contains("`rg` 16"));
  CHECK_THROWS_WITH(order(2, 4, 6), Catch::Contains("`rg` 6"));
  // The die set's write order ranks its dies by (channel, LUN) for GC: RG 0
  // of 8 x 2 with 4 RGs writes d0 d1 d8 d9 and collects d0 d8 d1 d9.
  const ftl::Geometry g = test::geometry(8, 2, 1, 8, 2, 64);
  CHECK(ftl::block_order(g, V{0, 1, 8, 9}) == V{0, 4, 2, 6, 1, 5, 3, 7});
}

// ConfFDP's moves to the nearest RG need the RG its identifier names, and
// are checked once per request.
TEST_CASE("write spill needs rg-of pid and the per-request check", "[fdp][unit]") {
  ftl::FtlConfig cfg;
  cfg.geometry = small();
  fdp::FdpConfig c;
  c.reclaim_groups = 2;
  c.rg_split = fdp::RgSplit::kChannels;
  c.spill_writes = true;
  CHECK_THROWS_WITH(fdp::make_layout(cfg.geometry, c), Catch::Contains("`rg-of` pid (not current)"));
  c.rg_of = fdp::RgOf::kPid;
  const ftl::FtlLayout l = fdp::make_layout(cfg.geometry, c);
  CHECK(l.spill_writes);
  CHECK_FALSE(l.spill_gc);
  CHECK(ftl::layout_problems(cfg, l).empty());
  cfg.gc.forced_check_per_slot = true;
  const auto p = ftl::layout_problems(cfg, l);
  REQUIRE_FALSE(p.empty());
  CHECK(p.front().setting == "write-spill");
  CHECK(p.front().reason.settings() == std::vector<std::string>{"gc-check"});
  CHECK_THAT(p.front().text(), Catch::Contains("`gc-check` page"));
  c.reclaim_groups = 1;  // one RG: nothing to move to, nothing refused
  c.rg_of = fdp::RgOf::kCurrent;
  CHECK_FALSE(fdp::make_layout(cfg.geometry, c).spill_writes);
}

TEST_CASE("write order is channel fastest, slot offsets are FEMU's block order", "[fdp][unit]") {
  // 2 channels x 2 LUNs, 1 plane, 3-page blocks. Dies: 0 = ch0 lun0,
  // 1 = ch1 lun0, 2 = ch0 lun1, 3 = ch1 lun1. GC order ranks them
  // (ch0,lun0), (ch0,lun1), (ch1,lun0), (ch1,lun1) = dies 0, 2, 1, 3, so the
  // blocks of dies 0, 1, 2, 3 sit at offsets 0, 6, 3, 9. The n-th slot
  // written is on die n % 4, page n / 4.
  ftl::Geometry g;
  g.channels = 2;
  g.luns_per_channel = 2;
  g.planes_per_lun = 1;
  g.blocks_per_plane = 4;
  g.pages_per_block = 3;
  const auto order = ftl::block_order(g, std::vector<uint32_t>{0, 1, 2, 3});
  CHECK(order == std::vector<uint32_t>{0, 6, 3, 9, 1, 7, 4, 10, 2, 8, 5, 11});
}

TEST_CASE("more handles than a reclaim group can keep open is refused", "[fdp][unit]") {
  ftl::FtlConfig cfg;
  cfg.geometry = small();
  cfg.gc.thres_pcent = 90;
  cfg.gc.thres_pcent_high = 90;  // (int)(0.1 * 16) = 1 free RU
  fdp::FdpConfig c;
  c.handles = 40;
  c.ru_bytes = 4u << 20;  // 16 RUs
  const auto p = ftl::layout_problems(cfg, fdp::make_layout(cfg.geometry, c));
  REQUIRE_FALSE(p.empty());
  CHECK_THAT(p.front().text(), Catch::Contains("too few for 40 open units"));
}

// FEMU's per-stream GC path takes the GC RU when it picks its first victim,
// even a victim with nothing valid to copy (bbssd/ftl.c: the GC write pointer
// is set up before the copy loop). Hand-counted: 8 lines of 4 slots, one
// handle, isolated GC; thres 37.5 % -> GC at <= 5 free lines. Writing lpn
// 0..3 fills line 0 and opens line 1 (6 free); overwriting them fills line 1,
// opens line 2 (5 free) and leaves line 0 with 0 valid. The background pass
// takes line 0: the GC RU opens line 3 (4 free), erasing line 0 gives 5 free.
// Had the GC RU been left unopened for an empty victim, 6 would be free.
TEST_CASE("the GC RU opens at the first victim even when it holds nothing valid", "[fdp][unit]") {
  const ftl::FtlConfig cfg = test::tiny_config(8, 4, 4, 37.5, 87.5);
  fdp::FdpConfig c;
  c.handles = 1;
  c.reclaim_groups = 1;
  c.isolated_gc = true;
  const ftl::FtlLayout l = fdp::make_layout(cfg.geometry, c);
  REQUIRE(l.gc_dest.at(0) == 1);  // host stream 0 -> GC stream 1
  ftl::PageFtl<ftl::HeapVictims> f(cfg, l, ftl::HeapVictims{});
  for (uint32_t lpn = 0; lpn < 4; ++lpn) f.write(lpn);
  CHECK(f.free_units() == 6);
  for (uint32_t lpn = 0; lpn < 4; ++lpn) f.write(lpn);
  CHECK(f.free_units() == 5);
  CHECK(f.unit_table().valid[0] == 0);
  f.after_request();
  CHECK(f.stats().gc_passes == 1);
  CHECK(f.stats().gc_slots == 0);
  CHECK(f.stats().unit_erases == 1);
  CHECK(f.free_units() == 5);
  CHECK(f.unit_owner()[3] == 1);  // the GC stream's RU
  CHECK(f.check_invariants().empty());
}

TEST_CASE("the line path's units (ftl) are FDP's one-line RUs in one RG", "[fdp][unit]") {
  for (const ftl::Geometry& g : {small(), test::geometry(4, 2, 2, 8, 4, 64), test::geometry(8, 8, 1, 98, 32, 512)}) {
    const ftl::UnitShape line = ftl::line_shape(g);
    const ftl::UnitShape ru = fdp::resolve_ru_shape(g, fdp::FdpConfig{});
    CHECK(line.dies == ru.dies);
    CHECK(line.block_rows == ru.block_rows);
    CHECK(line.bytes == ru.bytes);
    CHECK(line.units_per_group == ru.units_per_group);
    CHECK(line.die_groups == ru.die_groups);
    CHECK(line.group_dies == ru.group_dies);
    CHECK(line.units_per_die_group == ru.units_per_die_group);
    CHECK(line.die_order == ru.die_order);
    const ftl::FtlLayout l = ftl::line_layout(g);
    const ftl::FtlLayout f = fdp::make_layout(g, fdp::FdpConfig{});
    CHECK(l.units == f.units);
    CHECK(l.slots_per_unit == f.slots_per_unit);
    CHECK(l.blocks_per_unit == f.blocks_per_unit);
    CHECK(l.write_orders == f.write_orders);
    CHECK(l.unit_order == f.unit_order);
    CHECK(l.units == g.lines());
    CHECK(l.slots_per_unit == g.slots_per_line());
  }
}
