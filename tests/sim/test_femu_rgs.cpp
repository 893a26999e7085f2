// More than one reclaim group under FEMU's rules (MoatLab FEMU 99ce4fb):
// placement identifiers parsed as nvme_calc_rgif and nvme_pid2ph do (RGIF =
// the bit length of the RG count; the handle the low 15 - RGIF bits), and
// every host write into the handle's current RU, which stays in RG 0, the
// identifier's RG only naming where forced GC runs (ssd_stream_write:
// ru = ruh->curr_ru, do_gc_fdp_style(ssd, rgid, ...)). Every expected number
// is derived by hand in the comment above it.
//
// Notation: with C channels, 1 LUN, 1 plane and P pages, the n-th slot
// written into a unit goes to channel n % C, page n / C, at offset
// channel x P + page; exported slot = unit x U + offset (docs/model.md).
// The devices are test::two_channel_device's: 2 channels x 1 LUN x 1 plane,
// `pages` pages per block, so U = 2 x pages.
#include <catch2/catch.hpp>

#include "core/error.h"
#include "sim/simulate.h"
#include "sim_test_util.h"

using namespace ftlsim;
using trace::Op;

namespace {

fdp::PlacementSetup two_rgs(uint32_t handles, fdp::RgOf rg_of, bool min_rgif = false) {
  fdp::PlacementSetup p;
  p.placement = fdp::parse_placement("fdp");
  p.fdp.handles = handles;
  p.fdp.reclaim_groups = 2;
  p.fdp.rg_of = rg_of;
  p.fdp.pid_min_rgif = min_rgif;
  return p;
}

sim::SimResult run_rgs(const ftl::FtlConfig& c, const std::vector<trace::Record>& recs, const fdp::PlacementSetup& p) {
  sim::SimOptions o;
  o.keep_l2p = true;
  return test::simulate_records(c, recs, o, p);
}

}  // namespace

// nvme_calc_rgif: 1 RG -> 0 bits; otherwise the bit length of the count
// (2 -> 2, 3 -> 2, 4 -> 3); rgif-min: the fewest bits that number the RGs.
TEST_CASE("FEMU RGIF: the bit length of the RG count, the handle in the low 15 - RGIF bits", "[validation]") {
  fdp::FdpConfig c;
  CHECK(c.rgif() == 0);
  CHECK(c.handle_mask() == 0xFFFF);
  c.reclaim_groups = 2;
  CHECK(c.rgif() == 2);
  CHECK(c.handle_mask() == 0x1FFF);  // bits 0-12; bit 13 is read by neither part
  c.reclaim_groups = 3;
  CHECK(c.rgif() == 2);
  c.reclaim_groups = 4;
  CHECK(c.rgif() == 3);
  CHECK(c.handle_mask() == 0x0FFF);
  c.pid_min_rgif = true;
  CHECK(c.rgif() == 2);
  CHECK(c.handle_mask() == 0x3FFF);
  c.reclaim_groups = 2;
  CHECK(c.rgif() == 1);
  CHECK(c.handle_mask() == 0x7FFF);
}

// 2 RGs of 8 lines (U = 8: 2 channels x 4 pages), 4 handles, no GC (4 free
// units per RG after start-up, above the background threshold of 2). At
// start-up every handle takes an RU in every RG, handle by handle, RG by RG:
// h0 units 0 (RG 0) and 8 (RG 1), h1 1 and 9, h2 2 and 10, h3 3 and 11.
// Writes of one slot each, lpn 0..3, with the identifiers
//   0x4003: FEMU RG 0x4003 >> 14 = 1, handle 0x4003 & 0x1FFF = 3 (valid);
//           rgif-min RG 0x4003 >> 15 = 0, handle 0x4003 (invalid)
//   0x8000: FEMU RG 2 (invalid); rgif-min RG 1, handle 0 (valid)
//   0x2001: FEMU RG 0, handle 1 (bit 13 ignored, valid); rgif-min handle 0x2001 (invalid)
//   0x0005: handle 5 of 4 (invalid in both)
// An invalid one goes through handle 0 in RG 0 (unit 0: offsets 0, 4, 1, ...).
TEST_CASE("FEMU multi-RG: identifiers parsed as nvme_pid2rg/nvme_pid2ph, writes in the current RU", "[validation]") {
  const auto c = test::two_channel_device(4, 16, 16, 75, 85);  // high = (int)(0.15 x 8) = 1 free unit per RG
  const std::vector<trace::Record> recs = {test::slot_write(0, 1, 0x4003), test::slot_write(1, 1, 0x8000),
                                           test::slot_write(2, 1, 0x2001), test::slot_write(3, 1, 0x0005)};
  SECTION("rgif, --rg-of pid: the RU of the named RG") {
    const auto r = run_rgs(c, recs, two_rgs(4, fdp::RgOf::kPid));
    CHECK(r.invalid_pid_requests == 2);
    // lpn 0: h3 RG 1, unit 11 offset 0 = 88; lpn 1: h0 RG 0 unit 0 offset 0;
    // lpn 2: h1 RG 0, unit 1 offset 0 = 8; lpn 3: h0 RG 0, 2nd slot, offset 4.
    CHECK(r.l2p == std::vector<uint32_t>{88, 0, 8, 4, ftl::kUnmapped, ftl::kUnmapped, ftl::kUnmapped, ftl::kUnmapped,
                                         ftl::kUnmapped, ftl::kUnmapped, ftl::kUnmapped, ftl::kUnmapped, ftl::kUnmapped,
                                         ftl::kUnmapped, ftl::kUnmapped, ftl::kUnmapped});
  }
  SECTION("rgif, --rg-of current (FEMU): every write in RG 0") {
    const auto r = run_rgs(c, recs, two_rgs(4, fdp::RgOf::kCurrent));
    CHECK(r.invalid_pid_requests == 2);
    // lpn 0: h3's current RU, unit 3 offset 0 = 24; the rest as above.
    CHECK(r.l2p[0] == 24);
    CHECK(r.l2p[1] == 0);
    CHECK(r.l2p[2] == 8);
    CHECK(r.l2p[3] == 4);
  }
  SECTION("rgif-min, --rg-of pid") {
    const auto r = run_rgs(c, recs, two_rgs(4, fdp::RgOf::kPid, true));
    CHECK(r.invalid_pid_requests == 3);
    // lpn 1: h0 RG 1, unit 8 offset 0 = 64; lpn 0, 2, 3: h0 RG 0, unit 0's
    // slots n = 0, 1, 2: offsets 0, 4, 1.
    CHECK(r.l2p[0] == 0);
    CHECK(r.l2p[1] == 64);
    CHECK(r.l2p[2] == 4);
    CHECK(r.l2p[3] == 1);
  }
}

// Forced GC runs in the RG the identifier names, while the data is in RG 0.
// 2 RGs of 4 lines of U = 16 (2 channels x 8 pages), 1 handle whose
// survivors go to its host RU (--pi-gc host-ru), GC 75/75: thres = high =
// (int)(0.25 x 4) = 1 free unit; a background victim needs U/8 = 2 invalid.
// Start-up: h0 opens unit 0 (RG 0, free 1, 2, 3) and unit 4 (RG 1).
//   A: lpn 0..15, RG 0: unit 0 full (all valid), unit 1 opens (free 2).
//   B: lpn 16..31, RG 0: unit 1 full, unit 2 opens (free 1); background:
//      nothing queued.
//   C: lpn 0, RG 0: forced (free 1 <= 1): nothing queued; written to unit 2,
//      unit 0 queued with 1 invalid; background declines it (1 < 2).
//   D: lpn 1, naming RG n:
//      n = 0: forced pass in RG 0 takes unit 0 (15 valid) into unit 2 (1
//         written + 15 = full; unit 3 opens, free 0), erases it (free 1); the
//         next forced pass finds nothing queued. lpn 1 goes to unit 3, unit
//         2 queued with 1 invalid; background declines it. Forced 1,
//         background 0, declined 2, GC slots 15.
//      n = 1: forced pass in RG 1: nothing queued there; lpn 1 goes to unit
//         2 (RG 0), unit 0 has 2 invalid; background takes it: 14 copies into
//         unit 2 (2 + 14 = full; unit 3 opens), erased. Forced 0,
//         background 1, declined 1, GC slots 14.
TEST_CASE("FEMU multi-RG: forced GC in the named RG, the data in RG 0", "[validation]") {
  const auto c = test::two_channel_device(8, 8, 32, 75, 75);
  for (const uint32_t named : {0u, 1u}) {
    INFO("request D names RG " << named);
    const std::vector<trace::Record> recs = {test::slot_write(0, 16, 0), test::slot_write(16, 16, 0),
                                             test::slot_write(0, 1, 0),
                                             test::slot_write(1, 1, static_cast<uint16_t>(named << 14))};
    auto p = two_rgs(1, fdp::RgOf::kCurrent);
    p.fdp.pi_gc_ru = false;
    const auto r = run_rgs(c, recs, p);
    CHECK(r.invalid_pid_requests == 0);
    CHECK(r.ftl.gc_forced_passes == (named == 0 ? 1u : 0u));
    CHECK(r.ftl.gc_background_passes == (named == 0 ? 0u : 1u));
    CHECK(r.ftl.gc_background_declined == (named == 0 ? 2u : 1u));
    CHECK(r.ftl.gc_slots == (named == 0 ? 15u : 14u));
    CHECK(r.ftl.unit_erases == 1);
    // lpn 1: unit 3's first slot (48), or unit 2's second (channel 1: offset 8, 40).
    CHECK(r.l2p[1] == (named == 0 ? 48u : 40u));
    // Nothing was ever written into RG 1 (units 4..7) but h0's open RU.
    for (const uint32_t s : r.l2p) CHECK((s == ftl::kUnmapped || s < 4 * 16));
  }
}

// nvme_calc_rgif refuses a device whose identifier cannot hold the RG bits
// and the handles: 128 RGs take 8 bits, leaving 0xFFFF >> 8 = 255 < 256.
TEST_CASE("FEMU multi-RG: a placement identifier too narrow for the RGs and handles is refused", "[unit]") {
  const auto c = test::two_channel_device(4, 256, 16, 75, 85);
  auto p = two_rgs(256, fdp::RgOf::kCurrent);
  p.fdp.reclaim_groups = 128;
  CHECK_THROWS_WITH(run_rgs(c, {test::slot_write(0, 1, 0)}, p), Catch::Contains("nvme_calc_rgif"));
}
