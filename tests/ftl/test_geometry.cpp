#include <catch2/catch.hpp>

#include "core/error.h"
#include "ftl/ftl_config.h"
#include "ftl/geometry.h"
#include "ftl_test_util.h"

using namespace ftlsim;

TEST_CASE("presets match the published geometries", "[ftl][unit]") {
  const ftl::Geometry d = ftl::preset_geometry("femu-default");
  CHECK(d.physical_bytes() == (uint64_t{16} << 30));  // 8*8*256*256*4K
  CHECK(d.lines() == 256);
  CHECK(d.slots_per_line() == 64 * 256);
  CHECK(d.logical_bytes == (uint64_t{12} << 30));  // FEMU run-blackbox.sh ssd_size=12288
  CHECK(d.over_provisioning() == Approx(1.0 / 3.0).epsilon(1e-9));

  const ftl::Geometry e = ftl::preset_geometry("femu-eth");
  CHECK(e.lines() == 98);
  CHECK(e.block_bytes() == (uint64_t{16} << 20));
  CHECK(e.physical_bytes() == uint64_t{98} * 64 * (uint64_t{16} << 20));
  CHECK(e.logical_bytes == (uint64_t{64} << 30));
  CHECK_THROWS_AS(ftl::preset_geometry("nope"), InputError);
}

TEST_CASE("FEMU threshold arithmetic truncates like (int)((1 - pcent) * lines)", "[ftl][unit]") {
  ftl::GcConfig gc;
  gc.thres_pcent = 75;
  gc.thres_pcent_high = 95;
  CHECK(gc.thres_units(256) == 64);
  CHECK(gc.thres_units_high(256) == 12);  // 12.8 -> 12
  CHECK(gc.thres_units(98) == 24);        // 24.5 -> 24: GC at 74 used lines, as the study says
  gc.thres_pcent = 60;
  CHECK(gc.thres_units(98) == 39);  // 39.2 -> 39
  gc.thres_pcent = 90;
  CHECK(gc.thres_units(10) == 0);  // 0.1 * 10 is 0.9999999999999998 in binary
}

TEST_CASE("impossible configurations report every problem", "[ftl][unit]") {
  auto c = test::tiny_config(10, 8, 40);
  c.geometry.channels = 0;
  c.gc.thres_pcent = 150;
  const auto p = c.problems();
  REQUIRE(p.size() >= 2);
  // Each names its setting as data, the value apart from the reason.
  CHECK(p[0].setting == "channels");
  CHECK(p[0].text() == "`channels` must be at least 1");
  CHECK(p[1].setting == "gc-thres");
  CHECK(p[1].value == "150");
  CHECK(p[1].text() == "`gc-thres` 150 must be a percentage in (0, 100)");
  CHECK_THROWS_AS(c.validate(), InputError);

  auto full = test::tiny_config(10, 8, 72, 75, 85);  // 9 lines of data, 8 usable
  CHECK_THROWS_WITH(full.validate(), Catch::Contains("does not fit"));
  auto no_free = test::tiny_config(10, 8, 40, 99, 99.9);
  CHECK_THROWS_WITH(no_free.validate(), Catch::Contains("at least 1 is needed"));
  auto ok = test::tiny_config(10, 8, 40, 75, 85);
  CHECK_NOTHROW(ok.validate());
}
