// FDP policy outside the engine: the stream of a write (stream_map.h), the
// placement of a run (placement.h), per-handle aggregation and handle
// names (handle_stats.h). Expected numbers are worked out by hand in the
// comments.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "fdp/fdp_config.h"
#include "fdp/handle_stats.h"
#include "fdp/placement.h"
#include "fdp/stream_map.h"
#include "ftl/ftl_test_util.h"

using namespace ftlsim;

namespace {

constexpr uint64_t kSlot = ftl::kSlotBytes;

fdp::FdpConfig two_handles() {
  fdp::FdpConfig c;
  c.handles = 2;
  c.reclaim_groups = 1;
  return c;
}

}  // namespace

TEST_CASE("handle_stats adds up streams and units per handle", "[fdp][unit]") {
  // Two PI handles in one RG with GC RUs: streams 0, 1 are the host streams
  // of ruh0, ruh1; 2, 3 their GC streams; 4 the (unused) shared GC stream.
  const fdp::FdpConfig c = two_handles();
  const std::vector<ftl::StreamStats> streams = {
      {100, 0, 30, 2},  // ruh0 host: 100 written, 30 copied out of its RUs, 2 RUs erased
      {50, 0, 0, 0},    // ruh1 host
      {0, 40, 10, 1},   // ruh0 GC: 40 survivors in, 10 copied out again, 1 RU erased
      {0, 0, 0, 0},
      {0, 0, 0, 0}};
  const std::vector<uint32_t> open_room = {5, 7, 3, 0, 0};  // the GC stream's 3 is not RUAMW
  const std::vector<ftl::StreamId> owner = {0, 0, 1, 2, 3, 0};
  using S = ftl::UnitState;
  const std::vector<S> state = {S::kOpen, S::kFree, S::kClosed, S::kClosed, S::kFree, S::kClosed};
  fdp::EngineCounts e;
  e.streams = streams;
  e.open_room = open_room;
  e.unit_owner = owner;
  e.unit_state = state;
  e.host_slots = 150;
  e.unit_bytes = 1 << 20;

  const std::vector<fdp::HandleStats> h = fdp::handle_stats(c, e);
  REQUIRE(h.size() == 2);  // no shared GC handle with PI handles
  CHECK(h[0].name == "ruh0");
  CHECK(h[0].ruh == 0U);
  CHECK(h[0].host_bytes == 100 * kSlot);
  CHECK(h[0].gc_in_bytes == 40 * kSlot);
  CHECK(h[0].gc_out_bytes == 40 * kSlot);   // 30 + 10
  CHECK(h[0].mbmw_bytes == 140 * kSlot);    // host + gc_out
  CHECK(h[0].mbe_bytes == 3 * (1u << 20));  // 2 + 1 RUs
  CHECK(h[0].units_in_use == 3);            // units 0 (open), 3 and 5: not 1 (free)
  CHECK(h[0].ru_available_bytes == 5 * kSlot);
  CHECK(h[0].waf_share == Approx(140.0 / 150.0));
  CHECK(h[1].name == "ruh1");
  CHECK(h[1].ruh == 1U);
  CHECK(h[1].host_bytes == 50 * kSlot);
  CHECK(h[1].gc_out_bytes == 0);
  CHECK(h[1].units_in_use == 1);  // unit 2; unit 4 of its GC stream is free
  CHECK(h[1].ru_available_bytes == 7 * kSlot);
  CHECK(h[1].waf_share == Approx(50.0 / 150.0));
  // The shares sum to the WAF: (150 host + 40 copies) / 150.
  CHECK(h[0].waf_share + h[1].waf_share == Approx(190.0 / 150.0));
}

TEST_CASE("handle_stats keeps the shared GC handle of --ii-gc gc-ru, and one handle for single", "[fdp][unit]") {
  fdp::FdpConfig c = two_handles();
  c.ruh_types = fdp::RuhTypes::kAllIi;
  c.ii_gc = fdp::IiGc::kSharedGcRu;
  REQUIRE(c.has_shared_gc_ru());
  const std::vector<ftl::StreamStats> streams = {{10, 0, 4, 0}, {6, 0, 0, 0}, {}, {}, {0, 4, 1, 0}};
  const std::vector<uint32_t> room(5, 0);
  fdp::EngineCounts e;
  e.streams = streams;
  e.open_room = room;
  e.host_slots = 16;
  const auto h = fdp::handle_stats(c, e);
  REQUIRE(h.size() == 3);
  CHECK(h[2].name == "gc");
  CHECK_FALSE(h[2].ruh.has_value());
  CHECK(h[2].gc_in_bytes == 4 * kSlot);
  CHECK(h[2].gc_out_bytes == 1 * kSlot);
  CHECK(h[2].waf_share == Approx(1.0 / 16.0));
  CHECK(h[0].waf_share == Approx(14.0 / 16.0));

  // Placement single: no isolation, one stream, one handle ruh0 with everything.
  fdp::PlacementSetup single;
  single.fdp = two_handles();
  const fdp::FdpConfig line_path = fdp::effective_config(single);
  CHECK_FALSE(line_path.isolated_gc);
  CHECK(line_path.handles == 1);
  const std::vector<ftl::StreamStats> one = {{20, 5, 5, 3}};
  const std::vector<uint32_t> room1 = {2};
  e = {};
  e.streams = one;
  e.open_room = room1;
  e.host_slots = 20;
  const auto h1 = fdp::handle_stats(line_path, e);
  REQUIRE(h1.size() == 1);
  CHECK(h1[0].name == "ruh0");
  CHECK(h1[0].ruh == 0U);
  CHECK(h1[0].ru_available_bytes == 2 * kSlot);
  CHECK(h1[0].waf_share == Approx(25.0 / 20.0));
}

TEST_CASE("handle names sort as reports list them", "[fdp][unit]") {
  std::vector<std::string> names = {"gc", "ruh10", "ruhx", "ruh2", "ruh0"};
  std::sort(names.begin(), names.end(), fdp::handle_name_before);
  CHECK(names == std::vector<std::string>{"ruh0", "ruh2", "ruh10", "gc", "ruhx"});
  fdp::FdpConfig c = two_handles();
  CHECK(fdp::handle_name(c, 1) == "ruh1");
  CHECK(fdp::handle_name(c, 2) == "gc");
}

TEST_CASE("StreamMap sends each write to a host stream of make_layout", "[fdp][unit]") {
  const ftl::Geometry g = test::geometry(8, 1, 1, 64, 32, 12288);
  fdp::FdpConfig c;
  c.handles = 3;
  c.reclaim_groups = 4;
  for (const fdp::RgOf rg_of : {fdp::RgOf::kPid, fdp::RgOf::kLba}) {
    c.rg_of = rg_of;
    const ftl::FtlLayout l = fdp::make_layout(g, c);
    const fdp::StreamMap map(c);
    for (fdp::RuhId h = 0; h < c.handles; ++h) {
      for (uint32_t rg = 0; rg < c.reclaim_groups; ++rg) {
        const ftl::StreamId s = map.stream(h, rg);
        CHECK(s == h * 4U + rg);
        CHECK(l.used(s));
        CHECK(l.stream_pool[s] == rg);
        CHECK(fdp::stream_handle(c, s) == h);
        CHECK(fdp::is_host_stream(c, s));
      }
    }
    // The RG: the placement identifier's, or the slot's 1 MiB stripe (256 slots).
    CHECK(map.rg_of(3, 5 * 256 + 17) == (rg_of == fdp::RgOf::kPid ? 3U : 1U));
  }
  c.isolated_gc = false;  // the line path: one stream, the RG bits ignored
  const fdp::StreamMap line(c);
  CHECK(line.stream(0, line.rg_of(0, 5 * 256)) == 0);
}

TEST_CASE("make_placement picks the policy, and the RG bits only with --rg-of pid", "[fdp][unit]") {
  const std::vector<trace::Record> records = {{0, 0, 8, 0, static_cast<uint8_t>(trace::Op::kWrite), 0}};
  fdp::PlacementInputs in;
  in.records = records;
  in.logical_slots = 1024;
  fdp::FdpConfig c;
  c.handles = 4;
  c.reclaim_groups = 2;  // FEMU's nvme_calc_rgif: 2 RG bits (the bit length of 2), the handle bits 0-12
  CHECK(fdp::make_placement(fdp::parse_placement("oracle"), c, in).index() == 1);
  CHECK(fdp::make_placement(fdp::parse_placement("interval"), c, in).index() == 2);
  trace::Record r = records[0];
  r.pid = 0x4003;  // RG 0x4003 >> 14 = 1, handle 3
  auto by_pid = fdp::make_placement(fdp::parse_placement("fdp"), c, in);
  auto& pid = std::get<fdp::PidPlacement>(by_pid);
  const fdp::Placed p = pid.begin_request(r);
  CHECK(p.handle == 3);
  CHECK(p.rg == 1);
  CHECK(pid.invalid_pid_requests() == 0);
  c.rg_of = fdp::RgOf::kLba;  // no RG bits: 0x4003 names no handle
  auto by_lba = fdp::make_placement(fdp::parse_placement("fdp"), c, in);
  auto& lba = std::get<fdp::PidPlacement>(by_lba);
  CHECK(lba.begin_request(r).handle == 0);
  CHECK(lba.invalid_pid_requests() == 1);
}
