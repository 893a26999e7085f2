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
  return sim::simulate(c, sim::TraceView{"t.ftr", recs, 512}, o, setup);
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
  CHECK(femu.ftl.line_erases == 6);
  c.gc.forced_passes = 2;
  const sim::SimResult two = run(c, recs);
  CHECK(two.ftl.gc_forced_passes == 2);
  CHECK(two.ftl.gc_background_passes == 2);
  CHECK(two.ftl.line_erases == 4);
  c.gc.forced_passes = 3;
  const sim::SimResult three = run(c, recs);
  CHECK(three.ftl.gc_forced_passes == 3);
  CHECK(three.ftl.gc_background_passes == 2);
  CHECK(three.ftl.line_erases == 5);
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

// Reset at marker 7 (record 2). Line path, U = 8, 6 lines, thres 4. Before
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
// Marker 6 never comes: no reset: 13 host slots, 7 GC slots.
TEST_CASE("reset at a marker: the whole device or only its counters", "[validation]") {
  const ftl::FtlConfig c = device(4, 6, 16, 30, 80);
  const std::vector<trace::Record> recs = {W(0, 8), W(0, 1), M(7), W(8, 4)};
  const sim::SimResult dev = run(c, recs, {}, {sim::ResetAt::Kind::kDevice, 7});
  REQUIRE(dev.reset_record == 2u);
  CHECK(dev.ftl.host_slots == 4);
  CHECK(dev.mapped_slots_end == 4);
  CHECK(dev.l2p[0] == ftl::kUnmapped);
  CHECK(dev.l2p[8] == 0);
  CHECK(dev.l2p[9] == 4);
  CHECK(dev.requests.writes == 1);
  CHECK(dev.erase_max == 0);
  CHECK(dev.ftl.gc_slots == 0);
  const sim::SimResult cnt = run(c, recs, {}, {sim::ResetAt::Kind::kCounters, 7});
  REQUIRE(cnt.reset_record == 2u);
  CHECK(cnt.ftl.host_slots == 4);
  CHECK(cnt.mapped_slots_end == 12);
  CHECK(cnt.l2p[0] == 8);
  CHECK(cnt.l2p[8] == 16);
  CHECK(cnt.ftl.gc_slots == 0);
  CHECK(cnt.erase_max == 1);  // erase counts are wear: a counters reset keeps them
  CHECK(cnt.requests.writes == 1);
  const sim::SimResult none = run(c, recs, {}, {sim::ResetAt::Kind::kDevice, 6});
  CHECK_FALSE(none.reset_record.has_value());
  CHECK(none.ftl.host_slots == 13);
  CHECK(none.ftl.gc_slots == 7);
}
