// Hand-counted cases for the rules where ConfFDP (locomotiivo/ConfFDP,
// hw/femu/fdp/fdpftl.c) differs from FEMU, one per rule (docs/model.md, the
// ConfFDP column): sizing, GC copy order, GC destination, the forced-pass
// limit, the trim range, invalid placement IDs and the reset. Every expected
// number is derived in the comment above it; none was copied from a run.
//
// Notation as in tests/reference/test_reference_hand.cpp: with C channels,
// 1 LUN, 1 plane and P pages, the n-th slot written into a unit goes to
// channel n % C, page n / C, at offset channel x P + page; exported slot =
// unit x U + offset.
#include <catch2/catch.hpp>

#include "core/error.h"
#include "ftl/confdp_sizing.h"
#include "ftl/geometry.h"
#include "sim/simulate.h"
#include "sim_test_util.h"

using namespace ftlsim;
using trace::Op;

namespace {

trace::Record W(uint64_t lpn, uint32_t n = 1, uint16_t pid = 0) { return test::slot_write(lpn, n, pid); }
trace::Record T(uint64_t lpn, uint32_t n = 1) { return test::rec(Op::kTrim, lpn * 8, n * 8); }
trace::Record M(uint64_t value) { return test::rec(Op::kMarker, value, 0); }

// 2 channels x 1 LUN x 1 plane, `pages` pages per block: U = 2 x pages.
ftl::FtlConfig device(uint32_t pages, uint32_t lines, uint64_t logical_slots, double thres, double high) {
  return test::two_channel_device(pages, lines, logical_slots, thres, high);
}

fdp::PlacementSetup fdp_setup(uint32_t handles) {
  fdp::PlacementSetup p;
  p.placement = fdp::parse_placement("fdp");
  p.fdp.handles = handles;
  return p;
}

sim::SimResult run(const ftl::FtlConfig& c, const std::vector<trace::Record>& recs,
                   const fdp::PlacementSetup& setup = {}, sim::ResetAt reset = {}) {
  sim::SimOptions o;
  o.keep_l2p = true;
  o.reset = reset;
  return test::simulate_records(c, recs, o, setup);
}

}  // namespace

// ConfFDP's ssd_init_params, by hand for the study's device (64 GiB =
// 65536 MiB logical, 64 dies, 16 MiB blocks):
//   60%: 65536 x 100 / 60 = 109226; / 64 = 1706; / 16 = 106 lines
//   65%: 6553600 / 65 = 100824; / 64 = 1575; / 16 = 98 lines
//   57%: the ratio is (int)(100 x 0.57) = (int)56.999... = 56:
//        6553600 / 56 = 117028; / 64 = 1828; / 16 = 114 (112 with 57)
// and the 1/128 device (512 MiB, 128 KiB blocks) at scale 128 is the same.
TEST_CASE("confdp sizing: lines from the logical capacity and --gc-thres in whole MiB", "[validation]") {
  const ftl::Geometry eth = ftl::preset_geometry("confdp-eth");
  CHECK(ftl::confdp_lines(eth, 60, 1) == 106);
  CHECK(ftl::confdp_lines(eth, 65, 1) == 98);
  CHECK(ftl::confdp_lines(eth, 57, 1) == 114);
  const ftl::Geometry small = ftl::preset_geometry("confdp-eth-512m");
  CHECK(small.block_bytes() == 128 * 1024);
  CHECK(small.logical_bytes == uint64_t{512} << 20);
  CHECK(ftl::confdp_lines(small, 60, 128) == 106);
  CHECK(ftl::confdp_lines(small, 65, 128) == 98);
  CHECK(ftl::preset_sizing_scale("confdp-eth-512m") == 128);
  // 128 KiB blocks are not whole MiB at scale 1: ConfFDP cannot size it.
  CHECK_THROWS_AS(ftl::confdp_lines(small, 60, 1), InputError);
  CHECK_THROWS_AS(ftl::confdp_lines(eth, 0.5, 1), InputError);  // ratio 0: ConfFDP divides by zero
  CHECK_THROWS_AS(ftl::confdp_lines(eth, -5, 1), InputError);
  CHECK(ftl::parse_sizing("lines") == std::nullopt);
  CHECK(ftl::parse_sizing("thres") == 1u);
  CHECK(ftl::parse_sizing("thres:128") == 128u);
  CHECK_THROWS_AS(ftl::parse_sizing("thres:0"), InputError);
}

// Copy order. U = 8 (P = 4), 6 lines, thres (int)(0.7 x 6) = 4, high
// (int)(0.2 x 6) = 1. W(0,8) fills line 0 (free [2..5] = 4): lpn n sits at
// channel n % 2, page n / 2. T(0) queues it with 7 valid and the background
// pass (1 invalid >= U/8) copies the rest into line 1 (slots 8..15):
//  block order (FEMU): channel 0's block then channel 1's: lpns 2,4,6,1,3,5,7
//    written n = 0..6 -> offsets 0,4,1,5,2,6,3 -> lpn 2 at 8, 4 at 12, 6 at 9, 1 at 13
//  page order (ConfFDP do_gc): page by page, channel 0 then 1: lpns 1..7
//    lpn k written n = k-1 -> lpn 1 at 8, 2 at 12, 3 at 9, 7 at 11
TEST_CASE("confdp gc order: a victim's pages are copied page by page across the dies", "[validation]") {
  ftl::FtlConfig c = device(4, 6, 16, 30, 80);
  const std::vector<trace::Record> recs = {W(0, 8), T(0)};
  const sim::SimResult block = run(c, recs);
  REQUIRE(block.ftl.gc_slots == 7);
  CHECK(block.l2p[2] == 8);
  CHECK(block.l2p[4] == 12);
  CHECK(block.l2p[6] == 9);
  CHECK(block.l2p[1] == 13);
  c.gc.page_order = true;
  const sim::SimResult page = run(c, recs);
  REQUIRE(page.ftl.gc_slots == 7);
  CHECK(page.l2p[1] == 8);
  CHECK(page.l2p[2] == 12);
  CHECK(page.l2p[3] == 9);
  CHECK(page.l2p[7] == 11);
}

// GC destination. FDP, 2 handles opening lines 0 and 1 at start-up, 6 lines,
// thres (int)(0.5 x 6) = 3. W(0,8) through handle 0 fills line 0 and opens
// line 2 (free [3,4,5] = 3). T(0) and the background pass copies lpns
// 2,4,6,1,3,5,7 (block order):
//   --pi-gc host-ru (ConfFDP): into handle 0's host line 2: lpn 2 at 16
//   --pi-gc gc-ru (FEMU): into a GC line taken then, line 3: lpn 2 at 24
TEST_CASE("confdp gc destination: survivors are appended to the handle's host RU", "[validation]") {
  const ftl::FtlConfig c = device(4, 6, 16, 50, 80);
  const std::vector<trace::Record> recs = {W(0, 8), T(0)};
  fdp::PlacementSetup setup = fdp_setup(2);
  const sim::SimResult gc_ru = run(c, recs, setup);
  REQUIRE(gc_ru.ftl.gc_slots == 7);
  CHECK(gc_ru.l2p[2] == 24);
  setup.fdp.pi_gc_ru = false;
  const sim::SimResult host_ru = run(c, recs, setup);
  REQUIRE(host_ru.ftl.gc_slots == 7);
  CHECK(host_ru.l2p[2] == 16);
  CHECK(host_ru.handles[0].gc_in_bytes == 7 * 4096);
}

// Forced-pass limit. Line path, U = 8, 16 lines, thres = high =
// (int)(0.5 x 16) = 8, logical 48 slots (6 lines). W(0,48): free 15 -> 9
// (lines 0..5 full, line 6 open). W(0,48) again: lines 6..11 fill, line 12
// opens, free 3; lines 0..5 hold nothing and are queued. The background pass
// after it frees line 0: free 4. W(0,1): the forced loop runs while free <= 8:
//   FEMU (no bound): lines 1..5, free 4 -> 9: 5 forced passes, 6 erases;
//     free 9 > 8: no background pass after it.
//   --forced-passes 2: 2 passes (free 6), then the background pass after the
//     request (6 <= 8): 2 forced, 2 background, 4 erases.
//   --forced-passes 3: 3 passes (free 7), background after: 3 + 2, 5 erases.
TEST_CASE("confdp forced passes: at most N forced passes per write request", "[validation]") {
  ftl::FtlConfig c = device(4, 16, 48, 50, 50);
  const std::vector<trace::Record> recs = {W(0, 48), W(0, 48), W(0, 1)};
  const sim::SimResult femu = run(c, recs);
  CHECK(femu.ftl.gc_forced_passes == 5);
  CHECK(femu.ftl.gc_background_passes == 1);
  CHECK(femu.ftl.unit_erases == 6);
  c.gc.forced_passes = 2;
  const sim::SimResult two = run(c, recs);
  CHECK(two.ftl.gc_forced_passes == 2);
  CHECK(two.ftl.gc_background_passes == 2);
  CHECK(two.ftl.unit_erases == 4);
  c.gc.forced_passes = 3;
  const sim::SimResult three = run(c, recs);
  CHECK(three.ftl.gc_forced_passes == 3);
  CHECK(three.ftl.gc_background_passes == 2);
  CHECK(three.ftl.unit_erases == 5);
}

// Trim range. W(0,4) maps lpns 0..3; T(0,2) unmaps 0,1, and with ConfFDP's
// (nlb + 1) also lpn 2: trimmed 3 (1 beyond the range), lpn 3 stays. A trim
// of the last slot (15) has no slot after it: nothing more.
TEST_CASE("confdp trim range: the page after each trimmed range is unmapped too", "[validation]") {
  ftl::FtlConfig c = device(4, 6, 16, 30, 80);
  const std::vector<trace::Record> recs = {W(0, 4), W(15), T(0, 2), T(15)};
  const sim::SimResult exact = run(c, recs);
  CHECK(exact.ftl.trimmed_slots == 3);
  CHECK(exact.mapped_slots_end == 2);
  CHECK(exact.requests.trim_extra_slots == 0);
  c.trim_plus_one = true;
  const sim::SimResult plus = run(c, recs);
  CHECK(plus.ftl.trimmed_slots == 4);
  CHECK(plus.requests.trim_extra_slots == 1);
  CHECK(plus.mapped_slots_end == 1);
  CHECK(plus.l2p[2] == ftl::kUnmapped);
  CHECK(plus.l2p[3] != ftl::kUnmapped);
}

// Invalid placement IDs, 4 handles, 1 RG. One 4 KiB write each:
//   pid 0x0002: handle 2 under both formats
//   pid 0x0005: handle 5 does not exist: FEMU -> handle 0; ConfFDP -> the
//     last handle, 3
//   pid 0x0102: FEMU (RGIF 0) reads handle 0x102: invalid -> handle 0;
//     ConfFDP reads handle 2, RG 1 -> the last RG, 0: handle 2
// Both count 2 invalid IDs (ConfFDP logs no event; ftlsim still counts).
TEST_CASE("confdp placement IDs: handle = pid & 0xff, RG = pid >> 8, invalid ones to the last", "[validation]") {
  const ftl::FtlConfig c = device(4, 12, 16, 50, 80);
  const std::vector<trace::Record> recs = {W(0, 1, 0x0002), W(1, 1, 0x0005), W(2, 1, 0x0102)};
  fdp::PlacementSetup setup = fdp_setup(4);
  const sim::SimResult femu = run(c, recs, setup);
  CHECK(femu.invalid_pid_requests == 2);
  CHECK(femu.handles[0].host_bytes == 2 * 4096);
  CHECK(femu.handles[2].host_bytes == 4096);
  CHECK(femu.handles[3].host_bytes == 0);
  setup.fdp.pid_confdp = true;
  const sim::SimResult confdp = run(c, recs, setup);
  CHECK(confdp.invalid_pid_requests == 2);
  CHECK(confdp.handles[0].host_bytes == 0);
  CHECK(confdp.handles[2].host_bytes == 2 * 4096);
  CHECK(confdp.handles[3].host_bytes == 4096);
}

// --single handle0: placement single on the FDP device. 4 handles take lines
// 0..3 at start-up; all writes go through handle 0 (line 0). W(0,9): line 0
// fills, handle 0 opens line 4, lpn 8 at its first slot: 4 x 8 = 32. On
// FEMU's line path line 1 would be next: 8.
TEST_CASE("confdp single: every write through handle 0 of the FDP device", "[validation]") {
  const ftl::FtlConfig c = device(4, 12, 16, 50, 80);
  fdp::PlacementSetup setup = fdp_setup(4);
  setup.placement = fdp::parse_placement("single");
  const sim::SimResult line_path = run(c, {W(0, 9, 3)}, setup);
  CHECK(line_path.l2p[8] == 8);
  CHECK(line_path.handles.size() == 1);
  setup.fdp.single_handle0 = true;
  const sim::SimResult handle0 = run(c, {W(0, 9, 3)}, setup);
  CHECK(handle0.l2p[8] == 32);
  REQUIRE(handle0.handles.size() == 4);
  CHECK(handle0.handles[0].host_bytes == 9 * 4096);
  CHECK(handle0.invalid_pid_requests == 0);
}

// Reset at marker 7 (record 3; markers 3 before and 9 after it). Line path, U = 8, 6 lines, thres 4. Before
// it: W(0,8) fills line 0 and opens line 1 (free [2..5] = 4); W(0,1) puts
// lpn 0 at line 1's first slot (8) and queues line 0 with 7 valid; the
// background pass copies its 7 (block order: lpns 2,4,6,1,3,5,7 to n = 1..7
// of line 1, which fills: line 2 opens) and erases line 0: 7 GC slots.
//   device: everything starts again: W(8,4) is the only write counted and
//     lands in line 0 again (lpn 8..11 at n = 0..3: offsets 0,4,1,5); lpns
//     0..7 are unmapped; 4 host slots, 4 mapped, no erase, no GC.
//   counters: the mapping stays (lpn 0 at 8; lpn 8 at line 2's first slot,
//     16; 12 mapped) but the counters count from the marker: 4 host slots,
//     0 GC slots (line 1 is full, not queued: no pass after W(8,4)).
// Without a reset: 13 host slots, 7 GC slots. A reset at marker 6, which
// never comes, is refused: it would count the same as no reset.
TEST_CASE("reset at a marker: the whole device or only its counters", "[validation]") {
  const ftl::FtlConfig c = device(4, 6, 16, 30, 80);
  const std::vector<trace::Record> recs = {M(3), W(0, 8), W(0, 1), M(7), W(8, 4), M(9)};
  const sim::SimResult dev = run(c, recs, {}, {sim::ResetAt::Kind::kDevice, 7});
  REQUIRE(dev.reset_record == 3u);
  CHECK(dev.ftl.host_slots == 4);
  CHECK(dev.mapped_slots_end == 4);
  CHECK(dev.l2p[0] == ftl::kUnmapped);
  CHECK(dev.l2p[8] == 0);
  CHECK(dev.l2p[9] == 4);
  CHECK(dev.requests.writes == 1);
  CHECK(dev.requests.markers == 1);  // M(9): request counts, markers too, start after the reset's
  CHECK(dev.erase_max == 0);
  CHECK(dev.ftl.gc_slots == 0);
  const sim::SimResult cnt = run(c, recs, {}, {sim::ResetAt::Kind::kCounters, 7});
  REQUIRE(cnt.reset_record == 3u);
  CHECK(cnt.ftl.host_slots == 4);
  CHECK(cnt.mapped_slots_end == 12);
  CHECK(cnt.l2p[0] == 8);
  CHECK(cnt.l2p[8] == 16);
  CHECK(cnt.ftl.gc_slots == 0);
  CHECK(cnt.erase_max == 1);  // erase counts are wear: a counters reset keeps them
  CHECK(cnt.requests.writes == 1);
  CHECK(cnt.requests.markers == 1);
  CHECK_THROWS_WITH(run(c, recs, {}, {sim::ResetAt::Kind::kDevice, 6}),
                    Catch::Contains("no marker of value 6 (its 3 markers have values 3 to 9)"));
  const sim::SimResult none = run(c, recs, {}, {});
  CHECK_FALSE(none.reset_record.has_value());
  CHECK(none.requests.markers == 3);
  CHECK(none.ftl.host_slots == 13);
  CHECK(none.ftl.gc_slots == 7);
}

// ---- ConfFDP with several reclaim groups (docs/model.md rules 3, 6, 9) ----
//
// ConfFDP's RGs are whole channels, or LUN shares of one channel
// (ssd_init_params, rg2physical); each RG has every line of its dies, its
// own thresholds and free list. Notation for the cases below: a device of C
// channels x L LUNs, 1 plane, P pages; RG g's units are g x B .. (g+1) x B -
// 1 (B = blocks per plane); one handle, whose start-up RU in RG g is unit
// g x B; a write of pid 0xg00 goes to RG g (`pid-format` confdp). The n-th
// slot written into a unit is on the (n mod D)-th die of its RG in write
// order (channel fastest, then LUN), page n / D; exported slot = unit x U +
// rank x P + page, rank = the die's place in GC order (channel, then LUN).

namespace {

ftl::FtlConfig rg_device(uint32_t channels, uint32_t luns, uint32_t pages, uint32_t blocks, uint64_t logical_slots,
                         double thres, double high) {
  ftl::FtlConfig c = device(pages, blocks, logical_slots, thres, high);
  c.geometry.channels = channels;
  c.geometry.luns_per_channel = luns;
  c.gc.page_order = true;  // ConfFDP's copy order
  c.gc.every_pool = true;  // `rg-gc` every
  c.gc.forced_passes = 5;
  return c;
}

// ConfFDP's FDP rules with `rgs` RGs and one handle; each test switches
// off the rule it is about.
fdp::PlacementSetup rg_setup(uint32_t rgs) {
  fdp::PlacementSetup p = fdp_setup(1);
  p.fdp.reclaim_groups = rgs;
  p.fdp.rg_split = fdp::RgSplit::kChannels;
  p.fdp.rg_of = fdp::RgOf::kPid;
  p.fdp.pid_confdp = true;
  p.fdp.pi_gc_ru = false;
  p.fdp.declined_requeue = false;
  p.fdp.spill_writes = true;
  p.fdp.spill_gc = true;
  return p;
}

}  // namespace

// (a) Die sets, 2 RGs. 4 channels x 2 LUNs (die = LUN x 4 + channel), P =
// 2, 6 blocks; U = 4 dies x 2 = 8; thres (int)(0.7 x 6) = 4, high
// (int)(0.2 x 6) = 1. Start-up: unit 0 (RG 0, free [1..5] = 5), unit 6.
//   `rg-split` channels: RG 0 = channels 0, 1 with LUNs 0, 1: write order
//     d0 d1 d4 d5, GC order (channel, LUN) d0 d4 d1 d5: write index i has
//     rank [0, 2, 1, 3][i].
//   `rg-split` dies: RG 0 = dies 0..3 = channels 0..3 of LUN 0: write
//     index i has rank i.
// W(0,8) fills unit 0 (lpn k at n = k), unit 1 opens: free 4 <= 4, but
// nothing is queued. T(0): unit 0 queued with 7 valid; the background pass
// (1 invalid >= U/8 = 1) copies page by page in GC order:
//   channels: page 0 ranks 0..3 = write indices 0, 2, 1, 3, page 1 the
//     same + 4: lpns (0), 2, 1, 3, 4, 6, 5, 7 -> unit 1, n = 0..6 at
//     offsets rank x 2 + page = 0, 4, 2, 6, 1, 5, 3: lpn 2 at 8, 1 at 12,
//     3 at 10, 4 at 14, 6 at 9, 5 at 13, 7 at 11;
//   dies: lpns 1..7 -> n = 0..6 at offsets 0, 2, 4, 6, 1, 3, 5: lpn 1 at 8,
//     2 at 10, 3 at 12, 4 at 14, 5 at 9, 6 at 11, 7 at 13.
// Either way: 8 host, 7 GC slots, 1 background pass, 1 erase, free 5 + 5.
TEST_CASE("confdp RGs are whole channels: die sets and copy order, 2 RGs", "[validation]") {
  const ftl::FtlConfig c = rg_device(4, 2, 2, 6, 32, 30, 80);
  const std::vector<trace::Record> recs = {W(0, 8), T(0)};
  for (const bool channels : {true, false}) {
    INFO("rg-split " << (channels ? "channels" : "dies"));
    fdp::PlacementSetup setup = rg_setup(2);
    if (!channels) setup.fdp.rg_split = fdp::RgSplit::kDies;
    const sim::SimResult r = run(c, recs, setup);
    CHECK(r.ftl.host_slots == 8);
    CHECK(r.ftl.gc_slots == 7);
    CHECK(r.ftl.gc_background_passes == 1);
    CHECK(r.ftl.gc_forced_passes == 0);
    CHECK(r.ftl.unit_erases == 1);
    CHECK(r.free_units_end == 10);
    const std::vector<uint32_t> want = channels ? std::vector<uint32_t>{ftl::kUnmapped, 12, 8, 10, 14, 13, 9, 11}
                                                : std::vector<uint32_t>{ftl::kUnmapped, 8, 10, 12, 14, 9, 11, 13};
    for (uint32_t lpn = 1; lpn < 8; ++lpn) CHECK(r.l2p[lpn] == want[lpn]);
  }
}

// (a) 4 RGs: 8 channels x 2 LUNs (die = LUN x 8 + channel), P = 2, 6
// blocks, U = 8, the same thresholds; writes name RG 2 (pid 0x200), whose
// units are 12..17 (start-up unit 12).
//   channels: RG 2 = channels 4, 5 with LUNs 0, 1: write order d4 d5 d12
//     d13, GC order d4 d12 d5 d13: ranks [0, 2, 1, 3], as above;
//   dies: RG 2 = dies 8..11 = channels 0..3 of LUN 1: ranks [0, 1, 2, 3].
// The same steps as above in RG 2, into unit 13 (base 104): channels: lpn
// 2 at 104, 1 at 108, 3 at 106, 4 at 110, 6 at 105, 5 at 109, 7 at 107;
// dies: lpn 1 at 104, 2 at 106, 3 at 108, 4 at 110, 5 at 105, 6 at 107, 7
// at 109. 8 host, 7 GC slots, 1 pass, 1 erase, free 4 x 5 = 20.
TEST_CASE("confdp RGs are whole channels: die sets and copy order, 4 RGs", "[validation]") {
  const ftl::FtlConfig c = rg_device(8, 2, 2, 6, 64, 30, 80);
  const std::vector<trace::Record> recs = {W(0, 8, 0x200), T(0)};
  for (const bool channels : {true, false}) {
    INFO("rg-split " << (channels ? "channels" : "dies"));
    fdp::PlacementSetup setup = rg_setup(4);
    if (!channels) setup.fdp.rg_split = fdp::RgSplit::kDies;
    const sim::SimResult r = run(c, recs, setup);
    CHECK(r.ftl.host_slots == 8);
    CHECK(r.ftl.gc_slots == 7);
    CHECK(r.ftl.gc_background_passes == 1);
    CHECK(r.ftl.unit_erases == 1);
    CHECK(r.free_units_end == 20);
    CHECK(r.invalid_pid_requests == 0);
    const std::vector<uint32_t> want = channels
                                           ? std::vector<uint32_t>{ftl::kUnmapped, 108, 104, 106, 110, 109, 105, 107}
                                           : std::vector<uint32_t>{ftl::kUnmapped, 104, 106, 108, 110, 105, 107, 109};
    for (uint32_t lpn = 1; lpn < 8; ++lpn) CHECK(r.l2p[lpn] == want[lpn]);
  }
}

// (b) A write moved after its 5 forced passes, 2 RGs. 2 channels x 1 LUN:
// RG g = channel g, one die, so n-th slot = offset n. P = 20 (U = 20, U/8
// = U/10 = 2), 12 blocks, GC 60/60: thres = high = (int)(0.4 x 12) = 4.
// Start-up: unit 0 (RG 0, free [1..11]), unit 12 (RG 1, free [13..23]).
//  1. W(0,120): units 0..5 full (lpn 20k..20k+19 in unit k), unit 6 opens:
//     free [7..11] = 5.
//  2. W(18,4), W(58,4), W(98,4) named RG 1: into unit 12 (12 slots); each
//     unit 0..5 loses 2 slots (18 valid) and is queued: heap u0..u5.
//  3. W(120,38): unit 6 fills (lpn 120..139), unit 7 opens (free 4), takes
//     lpn 140..157 (room 2). Background (4 <= 4): u0, 2 invalid >= U/8:
//     its 18 valid slots, 2 fill unit 7, unit 8 opens (free 3), 16 into it
//     (room 4); u0 erased: free 4.
//  4. W(158): forced while free <= 4, at most 5 passes; each victim (u5,
//     u4, u3, u2, u1: 18 valid, 2 invalid, not < U/10, so its copies stay
//     in RG 0) fills the open unit, which takes a free one, and is erased:
//     free stays 4 (rooms 4 -> 6 -> 8 -> 10 -> 12 -> 14; units 9, 10, 11,
//     0 and 5 taken, the last holding 6). Still at the threshold:
//       `write-spill` nearest: lpn 158 to RG 1's unit 12, n = 12: 252;
//       stay: into RG 0's unit 5, n = 6: 106.
//     Background after it: nothing queued.
// 171 host slots, 6 x 18 = 108 GC, 5 forced + 1 background passes, 6
// erases, free 4 + 11 = 15 either way; lpn 0 copied in step 3 to unit 7,
// n = 18: 158.
TEST_CASE("confdp write spill: a write still at the high threshold after 5 forced passes moves, 2 RGs",
          "[validation]") {
  const ftl::FtlConfig c = rg_device(2, 1, 20, 12, 200, 60, 60);
  const std::vector<trace::Record> recs = {W(0, 120),       W(18, 4, 0x100), W(58, 4, 0x100),
                                           W(98, 4, 0x100), W(120, 38),      W(158)};
  for (const bool spill : {true, false}) {
    INFO("write-spill " << (spill ? "nearest" : "stay"));
    fdp::PlacementSetup setup = rg_setup(2);
    setup.fdp.spill_writes = spill;
    const sim::SimResult r = run(c, recs, setup);
    CHECK(r.ftl.host_slots == 171);
    CHECK(r.ftl.gc_slots == 108);
    CHECK(r.ftl.gc_forced_passes == 5);
    CHECK(r.ftl.gc_background_passes == 1);
    CHECK(r.ftl.gc_background_declined == 0);
    CHECK(r.ftl.unit_erases == 6);
    CHECK(r.free_units_end == 15);
    CHECK(r.mapped_slots_end == 159);
    CHECK(r.l2p[0] == 158);
    CHECK(r.l2p[158] == (spill ? 252u : 106u));
  }
}

// (b) The nearest RG, 4 RGs. 4 channels x 1 LUN (RG g = channel g), P = 4
// (U = 4), 6 blocks, GC 60/60: thres = high = (int)(0.4 x 6) = 2. Start-up
// units 0, 6, 12, 18, each RG free 5. Nothing is ever queued (no slot is
// overwritten), so every forced pass finds no victim and ends the loop.
//  1. W(0,12) named RG 1: units 6, 7, 8 full, unit 9 opens: RG 1 free 2.
//  2. W(12) named RG 1: at the threshold; RG 2 above and RG 0 below are
//     both 1 away: the lower, RG 0: unit 0, n = 0: slot 0.
//  3. W(13,12) named RG 2: units 12..14 full, unit 15 opens: free 2.
//  4. W(25) named RG 2: RG 3 above (1 away); below, RG 1 is at the
//     threshold, RG 0 2 away: RG 3, unit 18, n = 0: 72.
//  5. W(26) named RG 1: above, RG 2 is at it, RG 3 2 away; RG 0 1 away:
//     RG 0, unit 0, n = 1: slot 1.
// `write-spill` stay: lpn 12 to unit 9 (36), 25 to unit 15 (60), 26 to
// unit 9, n = 1 (37). 27 host slots, no GC, free 5 + 2 + 2 + 5 = 14 either way.
TEST_CASE("confdp write spill: to the nearer RG not at its high threshold, the lower on a tie, 4 RGs", "[validation]") {
  const ftl::FtlConfig c = rg_device(4, 1, 4, 6, 44, 60, 60);
  const std::vector<trace::Record> recs = {W(0, 12, 0x100), W(12, 1, 0x100), W(13, 12, 0x200), W(25, 1, 0x200),
                                           W(26, 1, 0x100)};
  for (const bool spill : {true, false}) {
    INFO("write-spill " << (spill ? "nearest" : "stay"));
    fdp::PlacementSetup setup = rg_setup(4);
    setup.fdp.spill_writes = spill;
    const sim::SimResult r = run(c, recs, setup);
    CHECK(r.ftl.host_slots == 27);
    CHECK(r.ftl.gc_passes == 0);
    CHECK(r.ftl.gc_slots == 0);
    CHECK(r.ftl.gc_background_declined == 0);
    CHECK(r.free_units_end == 14);
    CHECK(r.mapped_slots_end == 27);
    CHECK(r.l2p[12] == (spill ? 0u : 36u));
    CHECK(r.l2p[25] == (spill ? 72u : 60u));
    CHECK(r.l2p[26] == (spill ? 1u : 37u));
    CHECK(r.handles[0].host_bytes == 27 * 4096);
  }
}

// (c) GC copies moved, 2 RGs. 2 channels x 1 LUN (RG g = channel g), P =
// 20 (U = 20: U/8 = 2, U/10 = 2), 6 blocks, GC 60/60: thres = high = 2.
// Start-up: unit 0 (RG 0), unit 6 (RG 1), free 5 each.
//  1. W(0,60): units 0..2 full, unit 3 opens: RG 0 free 2.
//  2. W(0) named RG 1: lpn 0 to unit 6, n = 0 (slot 120); unit 0 queued
//     with 1 invalid; background in RG 0 declines it (1 < U/8).
//  3. W(60): RG 0 at its threshold: a forced pass takes unit 0, 1 invalid
//     < U/10:
//       `gc-spill` nearest: RG 1 (free 5) takes every copy: lpn 1..19 to
//         unit 6, n = 1..19 (slots 121..139); unit 6 fills and unit 7
//         opens (RG 1 free 4, still the nearest). Unit 0 erased: RG 0 free
//         3: no more passes; lpn 60 to unit 3, n = 0: 60.
//       stay: lpn 1..19 to unit 3, n = 0..18 (slots 60..78); unit 0
//         erased (free 3); lpn 60 at n = 19 (79): unit 3 fills, unit 4
//         opens: free 2; background finds nothing queued.
// 62 host slots, 19 GC, 1 forced pass, 1 declined, 1 erase, free 3 + 4 or
// 2 + 5 = 7 either way.
TEST_CASE("confdp gc spill: a nearly full forced victim's copies go to the nearest RG, 2 RGs", "[validation]") {
  const ftl::FtlConfig c = rg_device(2, 1, 20, 6, 100, 60, 60);
  const std::vector<trace::Record> recs = {W(0, 60), W(0, 1, 0x100), W(60)};
  for (const bool spill : {true, false}) {
    INFO("gc-spill " << (spill ? "nearest" : "stay"));
    fdp::PlacementSetup setup = rg_setup(2);
    setup.fdp.spill_gc = spill;
    const sim::SimResult r = run(c, recs, setup);
    CHECK(r.ftl.host_slots == 62);
    CHECK(r.ftl.gc_slots == 19);
    CHECK(r.ftl.gc_forced_passes == 1);
    CHECK(r.ftl.gc_background_passes == 0);
    CHECK(r.ftl.gc_background_declined == 1);
    CHECK(r.ftl.unit_erases == 1);
    CHECK(r.free_units_end == 7);
    CHECK(r.l2p[0] == 120);
    CHECK(r.l2p[1] == (spill ? 121u : 60u));
    CHECK(r.l2p[19] == (spill ? 139u : 78u));
    CHECK(r.l2p[60] == (spill ? 60u : 79u));
    CHECK(r.handles[0].gc_in_bytes == 19 * 4096);
  }
}

// (c) Forced or not, the same device and writes under `gc-trigger`
// watermark (no U/8 rule for background passes): ConfFDP's do_gc decides
// to_other_rg from the victim's invalid count alone.
//  1. W(0,60): units 0..2 full (none queued: nothing invalid), unit 3
//     opens: RG 0 free 2, at its threshold; background finds no victim.
//  2. W(0) named RG 1: lpn 0 to unit 6, n = 0 (slot 120); unit 0 queued
//     with 1 invalid; background in RG 0 (free 2 <= 2) takes it, 1 invalid
//     < U/10:
//       `gc-spill` nearest: lpn 1..19 to unit 6, n = 1..19 (slots
//         121..139); unit 6 fills, unit 7 opens: RG 1 free 4. Unit 0
//         erased: RG 0 free 3, above: no more passes.
//       stay: lpn 1..19 to unit 3, n = 0..18 (slots 60..78); free 3.
//  3. W(60): no forced pass (free 3); lpn 60 to unit 3, n = 0 (60), or
//     stay: n = 19 (79), unit 3 fills, unit 4 opens: free 2; background
//     finds nothing queued.
// 62 host slots, 19 GC, 1 background pass, none forced or declined, 1
// erase, free 7 either way.
TEST_CASE("confdp gc spill: a background victim's copies move too, under the watermark trigger, 2 RGs",
          "[validation]") {
  ftl::FtlConfig c = rg_device(2, 1, 20, 6, 100, 60, 60);
  c.gc.watermark = true;
  const std::vector<trace::Record> recs = {W(0, 60), W(0, 1, 0x100), W(60)};
  for (const bool spill : {true, false}) {
    INFO("gc-spill " << (spill ? "nearest" : "stay"));
    fdp::PlacementSetup setup = rg_setup(2);
    setup.fdp.spill_gc = spill;
    const sim::SimResult r = run(c, recs, setup);
    CHECK(r.ftl.host_slots == 62);
    CHECK(r.ftl.gc_slots == 19);
    CHECK(r.ftl.gc_forced_passes == 0);
    CHECK(r.ftl.gc_background_passes == 1);
    CHECK(r.ftl.gc_background_declined == 0);
    CHECK(r.ftl.unit_erases == 1);
    CHECK(r.free_units_end == 7);
    CHECK(r.l2p[0] == 120);
    CHECK(r.l2p[1] == (spill ? 121u : 60u));
    CHECK(r.l2p[19] == (spill ? 139u : 78u));
    CHECK(r.l2p[60] == (spill ? 60u : 79u));
  }
}

// (c) Looked up again per copy, 4 RGs. 4 channels x 1 LUN (RG g = channel
// g), P = 20 (U = 20), 6 blocks, GC 60/60: thres = high = 2. Start-up
// units 0, 6, 12, 18, free 5 each.
//  1. W(0,60) named RG 1: units 6..8 full, unit 9 opens: RG 1 free 2.
//  2. W(60,50): RG 0 units 0, 1 full, unit 2 holds lpn 100..109 (room 10):
//     free 3.
//  3. W(0) named RG 2: lpn 0 to unit 12, n = 0 (slot 240); unit 6 queued
//     with 1 invalid; background in RG 1 declines it.
//  4. W(110) named RG 1: at its threshold: a forced pass takes unit 6 (1
//     invalid < U/10):
//       `gc-spill` nearest: RG 0 and RG 2 are both 1 away: RG 0. lpn 1..10
//         fill unit 2 (n = 10..19: slots 50..59), unit 3 opens: RG 0 free 2,
//         now at its threshold: the rest, lpn 11..19, go to RG 2, unit 12, n
//         = 1..9 (slots 241..249). (Looked up once per pass, they would
//         follow into RG 0's unit 3: lpn 11 at 60.) Unit 6 erased: RG 1
//         free 3; lpn 110 to unit 9, n = 0: 180. Background: nothing queued.
//       stay: lpn 1..19 to unit 9, n = 0..18 (180..198); lpn 110 at 199.
// 112 host slots, 19 GC, 1 forced pass, 1 declined, 1 erase; free 2 + 3 +
// 5 + 5 or 3 + 2 + 5 + 5 = 15 either way.
TEST_CASE("confdp gc spill: the nearest RG is looked up again per copy, 4 RGs", "[validation]") {
  const ftl::FtlConfig c = rg_device(4, 1, 20, 6, 200, 60, 60);
  const std::vector<trace::Record> recs = {W(0, 60, 0x100), W(60, 50), W(0, 1, 0x200), W(110, 1, 0x100)};
  for (const bool spill : {true, false}) {
    INFO("gc-spill " << (spill ? "nearest" : "stay"));
    fdp::PlacementSetup setup = rg_setup(4);
    setup.fdp.spill_gc = spill;
    const sim::SimResult r = run(c, recs, setup);
    CHECK(r.ftl.host_slots == 112);
    CHECK(r.ftl.gc_slots == 19);
    CHECK(r.ftl.gc_forced_passes == 1);
    CHECK(r.ftl.gc_background_passes == 0);
    CHECK(r.ftl.gc_background_declined == 1);
    CHECK(r.ftl.unit_erases == 1);
    CHECK(r.free_units_end == 15);
    CHECK(r.l2p[0] == 240);
    CHECK(r.l2p[1] == (spill ? 50u : 180u));
    CHECK(r.l2p[10] == (spill ? 59u : 189u));
    CHECK(r.l2p[11] == (spill ? 241u : 190u));
    CHECK(r.l2p[19] == (spill ? 249u : 198u));
    CHECK(r.l2p[110] == (spill ? 180u : 199u));
    CHECK(r.handles[0].gc_in_bytes == 19 * 4096);
  }
}
