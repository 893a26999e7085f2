#include <catch2/catch.hpp>

#include "core/error.h"
#include "fdp/fdp_config.h"
#include "ftl/ftl_config.h"

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
  CHECK_THROWS_WITH(fdp::resolve_ru_shape(g, c), Catch::Contains("sizes that work here"));
  c.ru_bytes = 384u << 10;  // 3 dies do not divide 8
  CHECK_THROWS_AS(fdp::resolve_ru_shape(g, c), InputError);
  c.ru_bytes = 0;
  c.reclaim_groups = 3;
  CHECK_THROWS_WITH(fdp::resolve_ru_shape(g, c), Catch::Contains("--rg 3"));
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

  c.isolated_gc = false;  // non-FDP: one stream per group, its own GC destination
  auto l = fdp::make_layout(g, c);
  CHECK(l.streams() == 2);
  CHECK(l.gc_dest == std::vector<ftl::StreamId>{0, 1});

  c.isolated_gc = true;
  c.ruh_type = fdp::RuhType::kInitiallyIsolated;
  l = fdp::make_layout(g, c);
  REQUIRE(l.streams() == 4 * 2 + 2);
  for (ftl::StreamId s = 0; s < 8; ++s) {
    CHECK(l.gc_dest[s] == 8 + s % 2);  // the shared GC stream of its group
    CHECK(fdp::stream_handle(c, s) == s / 2);
  }
  CHECK(fdp::stream_handle_name(c, 9) == "gc");

  c.ruh_type = fdp::RuhType::kPersistentlyIsolated;
  l = fdp::make_layout(g, c);
  REQUIRE(l.streams() == 16);
  for (ftl::StreamId s = 0; s < 8; ++s) {
    CHECK(l.gc_dest[s] == 8 + s);
    CHECK(l.stream_pool[8 + s] == l.stream_pool[s]);
    CHECK(fdp::stream_handle(c, 8 + s) == s / 2);
  }
  c.pi_gc_ru = false;
  l = fdp::make_layout(g, c);
  CHECK(l.streams() == 8);
  CHECK(l.gc_dest[5] == 5);
  CHECK(l.problems().empty());
}

TEST_CASE("more handles than a reclaim group can keep open is refused", "[fdp][unit]") {
  ftl::FtlConfig cfg;
  cfg.geometry = small();
  cfg.gc.thres_pcent = 90;
  cfg.gc.thres_pcent_high = 90;  // (int)(0.1 * 16) = 1 free RU
  fdp::FdpConfig c;
  c.handles = 40;
  c.ru_bytes = 4u << 20;  // 16 RUs
  c.ruh_type = fdp::RuhType::kPersistentlyIsolated;
  const auto p = ftl::layout_problems(cfg, fdp::make_layout(cfg.geometry, c));
  REQUIRE_FALSE(p.empty());
  CHECK_THAT(p.front(), Catch::Contains("too few for 80 open units"));
}
