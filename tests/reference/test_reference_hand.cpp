// Hand-counted cases for the reference FTL, one per rule of docs/model.md
// that changes a counter. Every expected number is derived in the comment
// above it from the rules, on devices small enough to follow on paper; none
// was copied from the program's output.
//
// Notation: U = slots per unit. With C channels, 1 LUN, 1 plane and P pages,
// the n-th slot written into a unit goes to channel n % C, page n / C, at
// offset channel x P + page ("Where slots live"); GC copies live slots in
// offset order. Free lists are written [a, b, ...], front first; heaps as
// d[1..n] with valid counts in parentheses.
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>

#include "random_case.h"
#include "reference_ftl.h"

using namespace ftlsim::reftest;

namespace {

// A request over whole 4 KiB slots [lpn, lpn + n).
RefRequest W(uint64_t lpn, uint32_t n = 1, uint16_t pid = 0) { return {0, lpn * 8, n * 8, pid, 0}; }
RefRequest T(uint64_t lpn, uint32_t n = 1) { return {2, lpn * 8, n * 8, 0, 0}; }
RefRequest Rd(uint64_t lpn, uint32_t n = 1) { return {1, lpn * 8, n * 8, 0, 0}; }
RefRequest Sectors(uint8_t op, uint64_t lba, uint32_t sectors) { return {op, lba, sectors, 0, 0}; }

RefConfig line_cfg(uint32_t channels, uint32_t pages, uint32_t lines, uint64_t logical, double thres, double high) {
  RefConfig c;
  c.channels = channels;
  c.pages = pages;
  c.blocks = lines;
  c.logical_slots = logical;
  c.gc_thres = thres;
  c.gc_thres_high = high;
  return c;
}

RefConfig fdp_cfg(uint32_t channels, uint32_t pages, uint32_t lines, uint64_t logical, double thres, double high,
                  uint32_t rgs, uint32_t handles) {
  RefConfig c = line_cfg(channels, pages, lines, logical, thres, high);
  c.fdp = true;
  c.rgs = rgs;
  c.handles = handles;
  // The RG cases below were counted for the RU of the RG the identifier
  // names and the fewest RG bits (--rg-of pid --pid-format rgif-min); FEMU's
  // rules (writes in the current RU, nvme_calc_rgif) have their own case.
  c.rg_current = false;
  c.pid_min_rgif = true;
  return c;
}

}  // namespace

// 2 channels x 4 pages, U = 8. Writing lpns 0..7 in one request: the n-th
// slot lands at offset (n % 2) x 4 + n / 2, so lpn 0..7 -> 0,4,1,5,2,6,3,7.
// Line 0 fills, closes full (not queued) and line 1 opens at once: free
// [2,3,4,5] = 4. The next slot (lpn 8) is the first of line 1: slot 8.
TEST_CASE("reference: slots are numbered in block order and written channel fastest", "[reference][validation]") {
  const RefConfig c = line_cfg(2, 4, 6, 16, 75, 95);
  const RefResult r = run_reference(c, {W(0, 8), W(8)});
  CHECK(r.slots_per_unit == 8);
  CHECK(r.l2p[0] == 0);
  CHECK(r.l2p[1] == 4);
  CHECK(r.l2p[2] == 1);
  CHECK(r.l2p[3] == 5);
  CHECK(r.l2p[4] == 2);
  CHECK(r.l2p[5] == 6);
  CHECK(r.l2p[6] == 3);
  CHECK(r.l2p[7] == 7);
  CHECK(r.l2p[8] == 8);
  CHECK(r.l2p[9] == kNone);
  CHECK(r.free_units_end == 4);
  CHECK(r.host_slots == 9);
  CHECK(r.gc_passes == 0);
}

// Rule 14, copy order. U = 8, 6 lines, thres = (int)(0.7 x 6) = 4. Line 0
// holds lpn 0..7 at offsets 0,4,1,5,2,6,3,7 (above), so its offsets 0..7
// hold lpns 0,2,4,6,1,3,5,7. After W(0,8): free [2,3,4,5] = 4 <= 4, the
// background pass finds the heap empty. T(0) queues line 0 with 7 valid;
// the background pass takes it (1 invalid >= U/8 = 1) and copies, in offset
// order, lpns 2,4,6,1,3,5,7 into line 1 (empty, slots 8..15) at write
// offsets 0,4,1,5,2,6,3: lpn 2 -> 8, 4 -> 12, 6 -> 9, 1 -> 13, 3 -> 10,
// 5 -> 14, 7 -> 11. Line 0 is erased and appended: free = 5.
TEST_CASE("reference: GC copies a victim block by block and writes channel fastest", "[reference][validation]") {
  const RefConfig c = line_cfg(2, 4, 6, 16, 30, 95);
  const RefResult r = run_reference(c, {W(0, 8), T(0)});
  CHECK(r.host_slots == 8);
  CHECK(r.gc_slots == 7);
  CHECK(r.unit_erases == 1);
  CHECK(r.gc_passes == 1);
  CHECK(r.gc_background_passes == 1);
  CHECK(r.gc_background_no_victim == 1);
  CHECK(r.gc_background_declined == 0);
  CHECK(r.gc_onset_host_slots == 8);
  CHECK(r.trimmed_slots == 1);
  CHECK(r.free_units_end == 5);
  CHECK(r.mapped_slots_end == 7);
  CHECK(r.l2p[0] == kNone);
  CHECK(r.l2p[2] == 8);
  CHECK(r.l2p[4] == 12);
  CHECK(r.l2p[6] == 9);
  CHECK(r.l2p[1] == 13);
  CHECK(r.l2p[3] == 10);
  CHECK(r.l2p[5] == 14);
  CHECK(r.l2p[7] == 11);
  CHECK(r.erase_count_per_unit == std::vector<uint32_t>{1, 0, 0, 0, 0, 0});
}

// Victim queue: ties come out in heap order. U = 8, 8 lines, thres =
// (int)(0.4 x 8) = 3, high = (int)(0.2 x 8) = 1. X = line 0 (lpn 0..7),
// A = line 1 (8..15), B = line 2 (16..23); line 3 open, free 4.
// T(8,2): A inserted (7), lowered to 6: [A6].
// T(0,3): X inserted at d[2] (7; parent 6 not > 7), 6 (parent 6 not > 6:
//   stays), 5 (parent 6 > 5: bubbles up): [X5, A6].
// T(16,2): B inserted at d[3] (7), lowered to 6 (parent 5): [X5, A6, B6].
// A reached 6 before B did. W(24,8) fills line 3 (full, not queued), opens
// line 4: free [5,6,7] = 3 <= 3: background pops X (3 invalid >= 1); d[3] = B
// moves to the root and stays (B6 is not > A6): [B6, A6]. X's live lpns
// 3..7 sit at offsets 5,2,6,3,7, copied as 4,6,3,5,7 into line 4 at write
// offsets 0,4,1,5,2: lpn 4 -> 32, 6 -> 36, 3 -> 33, 5 -> 37, 7 -> 34. Free
// [5,6,7,0] = 4. W(32,3) fills line 4 (n = 5,6,7 at offsets 6,3,7: lpn 32 ->
// 38, 33 -> 35, 34 -> 39; 8 valid, full), opens line 5: free 3: background
// takes the heap's top, B (not A, which reached the count first): B's live
// lpns 18..23 at offsets 1,5,2,6,3,7 are copied as 18,20,22,19,21,23 into
// line 5 (40..47) at 0,4,1,5,2,6: 18 -> 40, 20 -> 44, 22 -> 41, 19 -> 45,
// 21 -> 42, 23 -> 46. Free [6,7,0,2] = 4.
TEST_CASE("reference: equal valid counts leave the heap in heap order", "[reference][validation]") {
  const RefConfig c = line_cfg(2, 4, 8, 40, 60, 80);
  const RefResult r = run_reference(c, {W(0, 8), W(8, 8), W(16, 8), T(8, 2), T(0, 3), T(16, 2), W(24, 8), W(32, 3)});
  CHECK(r.host_slots == 35);
  CHECK(r.gc_slots == 11);
  CHECK(r.unit_erases == 2);
  CHECK(r.gc_background_passes == 2);
  CHECK(r.gc_forced_passes == 0);
  CHECK(r.gc_background_declined == 0);
  CHECK(r.gc_onset_host_slots == 32);
  CHECK(r.trimmed_slots == 7);
  CHECK(r.free_units_end == 4);
  CHECK(r.mapped_slots_end == 28);
  CHECK(r.erase_count_per_unit == std::vector<uint32_t>{1, 0, 1, 0, 0, 0, 0, 0});
  CHECK(r.l2p[4] == 32);
  CHECK(r.l2p[6] == 36);
  CHECK(r.l2p[3] == 33);
  CHECK(r.l2p[5] == 37);
  CHECK(r.l2p[7] == 34);
  CHECK(r.l2p[32] == 38);
  CHECK(r.l2p[33] == 35);
  CHECK(r.l2p[34] == 39);
  CHECK(r.l2p[18] == 40);
  CHECK(r.l2p[20] == 44);
  CHECK(r.l2p[22] == 41);
  CHECK(r.l2p[19] == 45);
  CHECK(r.l2p[21] == 42);
  CHECK(r.l2p[23] == 46);
  CHECK(r.l2p[10] == 9);  // A untouched: lpn 10 was its third slot, offset 1
}

// Rule 13 against rule 12: 2 channels x 8 pages, U = 16, U/8 = 2; 8 units;
// thres = high = (int)(0.7 x 8) = 5.
// FDP, 1 RG, 1 PI handle with a GC RU. Start-up: the handle takes unit 0;
// free [1..7]. W(0,16) fills 0 (full), takes 1: free 6. W(16,16) fills 1,
// takes 2: free 5 <= 5: background finds the heap empty.
// T(0): [U0(15)]; background pops U0, 1 invalid < 2: declined, inserted
// again: [U0]. T(16): U1 at d[2]: [U0, U1]; background pops U0 (U1 to the
// root), declines, inserts U0 at d[2]: [U1, U0].
// W(32,16): free 5 <= 5 before the slots: forced pass pops U1 first. Its 15
// survivors (lpn 17..31) need the handle's GC RU, taken now: unit 3 (free
// 4); unit 1 is erased: free [4,5,6,7,1] = 5, still <= 5: second forced
// pass pops U0; its first survivor fills unit 3 (16 valid, full) and unit 4
// is taken (free 4); 14 more go to unit 4; unit 0 erased: free 5; third pass
// finds no victim. The 16 host slots fill unit 2, which takes unit 5: free 4;
// background: empty heap.
// Where survivors land: a unit written n = 0..15 holds lpn base + n at offset
// (n % 2) x 8 + n / 2, so block order is the even n, then the odd n. U1's
// copy order is 18,20,...,30,17,...,31: lpn 18 -> unit 3 offset 0 = 48,
// lpn 20 -> offset 8 = 56. U0's first, lpn 2, is unit 3's 16th slot
// (channel 1, page 7: offset 15) = 63; lpn 4 -> unit 4 offset 0 = 64.
TEST_CASE("reference: FDP reinserts a declined victim, which reorders ties", "[reference][validation]") {
  RefConfig c = fdp_cfg(2, 8, 8, 64, 30, 30, 1, 1);
  const std::vector<RefRequest> reqs{W(0, 16), W(16, 16), T(0), T(16), W(32, 16)};
  const RefResult r = run_reference(c, reqs);
  CHECK(r.host_slots == 48);
  CHECK(r.gc_slots == 30);
  CHECK(r.unit_erases == 2);
  CHECK(r.gc_passes == 2);
  CHECK(r.gc_forced_passes == 2);
  CHECK(r.gc_background_passes == 0);
  CHECK(r.gc_background_declined == 2);
  CHECK(r.gc_background_no_victim == 2);
  CHECK(r.gc_onset_host_slots == 32);
  CHECK(r.free_units_end == 4);
  CHECK(r.mapped_slots_end == 46);
  CHECK(r.l2p[18] == 48);
  CHECK(r.l2p[20] == 56);
  CHECK(r.l2p[2] == 63);
  CHECK(r.l2p[4] == 64);
  REQUIRE(r.handles.size() == 1);
  CHECK(r.handles[0].host_slots == 48);
  CHECK(r.handles[0].gc_out_slots == 30);
  CHECK(r.handles[0].gc_in_slots == 30);
  CHECK(r.handles[0].erased_units == 2);
  CHECK(r.handles[0].units_in_use == 4);  // 2 (full host), 3 (full GC), 4 (GC, 14 slots), 5 (host, empty)

  SECTION("the line path leaves a declined victim in place (rule 12)") {
    // Line 0 opens at start-up: free 7. W(0,16): free 6; W(16,16): free 5,
    // background: empty heap. T(0), T(16): [L0, L1]; each background pass
    // declines L0 (1 invalid < 2) and leaves it at the top. W(32,16): free
    // 5 <= 5: forced pass takes L0, its 15 survivors (2,4,...,14,1,...,15)
    // go to the shared write pointer, line 2 (empty): lpn 2 -> slot 32.
    // Free [3..7,0] = 6: the loop ends. Host slot 1 of W(32,16) fills line 2
    // (15 + 1 = 16 valid, full), line 3 opens: free 5; the background pass
    // declines L1. Declined 3, no victim 1.
    c.fdp = false;
    const RefResult l = run_reference(c, reqs);
    CHECK(l.gc_slots == 15);
    CHECK(l.gc_forced_passes == 1);
    CHECK(l.gc_background_declined == 3);
    CHECK(l.gc_background_no_victim == 1);
    CHECK(l.erase_count_per_unit == std::vector<uint32_t>{1, 0, 0, 0, 0, 0, 0, 0});
    CHECK(l.l2p[2] == 32);
    CHECK(l.free_units_end == 5);
  }
  SECTION("--declined keep (ConfFDP) leaves it in place under FDP too") {
    // As above until W(32,16), but the declined L0 stays on top: the first
    // forced pass takes L0, its survivors (2,4,...,14,1,...,15) open the GC
    // line 3: lpn 2 -> slot 48; free 4 + L0 = 5 <= 5: the second takes L1,
    // whose first survivor (18) fills line 3's last slot, n = 15 (channel
    // 1, page 7, offset 15): 63. The same totals, the two victims swapped.
    c.declined_keep = true;
    const RefResult k = run_reference(c, reqs);
    CHECK(k.gc_slots == 30);
    CHECK(k.gc_forced_passes == 2);
    CHECK(k.gc_background_declined == 2);
    CHECK(k.gc_background_no_victim == 2);
    CHECK(k.l2p[2] == 48);
    CHECK(k.l2p[18] == 63);
  }
}

// ConfFDP's rules on the reference, the cases of tests/sim/test_confdp_rules.cpp
// (derived there) checked against the reference too.
TEST_CASE("reference: ConfFDP's copy order, forced-pass limit, trim range, PID format and reset",
          "[reference][validation]") {
  {  // copy order: 2 channels x 4 pages, 6 lines, T(0) after W(0,8)
    RefConfig c = line_cfg(2, 4, 6, 16, 30, 80);
    c.gc_page_order = true;
    const RefResult r = run_reference(c, {W(0, 8), T(0)});
    CHECK(r.gc_slots == 7);
    CHECK(r.l2p[1] == 8);
    CHECK(r.l2p[2] == 12);
    CHECK(r.l2p[3] == 9);
    CHECK(r.l2p[7] == 11);
  }
  {  // forced passes: 16 lines, thres = high = 8, 48 logical slots
    RefConfig c = line_cfg(2, 4, 16, 48, 50, 50);
    const std::vector<RefRequest> reqs{W(0, 48), W(0, 48), W(0, 1)};
    const RefResult femu = run_reference(c, reqs);
    CHECK(femu.gc_forced_passes == 5);
    CHECK(femu.gc_background_passes == 1);
    c.forced_passes = 2;
    const RefResult two = run_reference(c, reqs);
    CHECK(two.gc_forced_passes == 2);
    CHECK(two.gc_background_passes == 2);
    CHECK(two.unit_erases == 4);
  }
  {  // trim range: the slot after each range too, none after the last slot
    RefConfig c = line_cfg(2, 4, 6, 16, 30, 80);
    c.trim_plus_one = true;
    const RefResult r = run_reference(c, {W(0, 4), W(15), T(0, 2), T(15)});
    CHECK(r.trimmed_slots == 4);
    CHECK(r.trim_extra_slots == 1);
    CHECK(r.mapped_slots_end == 1);
    CHECK(r.l2p[2] == kNone);
  }
  {  // PID format: handle = pid & 0xff, RG = pid >> 8, invalid to the last
    RefConfig c = fdp_cfg(2, 4, 12, 16, 50, 80, 1, 4);
    c.pid_confdp = true;
    const RefResult r = run_reference(c, {W(0, 1, 0x0002), W(1, 1, 0x0005), W(2, 1, 0x0102)});
    CHECK(r.invalid_pid_requests == 2);
    CHECK(r.handles[0].host_slots == 0);
    CHECK(r.handles[2].host_slots == 2);
    CHECK(r.handles[3].host_slots == 1);
  }
  {  // single on handle 0 of the FDP device: lpn 8 opens handle 0's next line, 4
    RefConfig c = fdp_cfg(2, 4, 12, 16, 50, 80, 1, 4);
    c.fdp = false;
    c.single_handle0 = true;
    const RefResult r = run_reference(c, {W(0, 9, 3)});
    CHECK(r.l2p[8] == 32);
    CHECK(r.handles.size() == 4);
    CHECK(r.handles[0].host_slots == 9);
  }
  {  // reset at marker 7: the device, or the counters only
    RefConfig c = line_cfg(2, 4, 6, 16, 30, 80);
    c.reset_marker = 7;
    const std::vector<RefRequest> reqs{W(0, 8), W(0, 1), {4, 7, 0, 0, 0}, W(8, 4)};
    c.reset_kind = 1;
    const RefResult dev = run_reference(c, reqs);
    CHECK(dev.host_slots == 4);
    CHECK(dev.gc_slots == 0);
    CHECK(dev.mapped_slots_end == 4);
    CHECK(dev.l2p[8] == 0);
    CHECK(dev.l2p[9] == 4);
    c.reset_kind = 2;
    const RefResult cnt = run_reference(c, reqs);
    CHECK(cnt.host_slots == 4);
    CHECK(cnt.gc_slots == 0);
    CHECK(cnt.mapped_slots_end == 12);
    CHECK(cnt.l2p[0] == 8);
    CHECK(cnt.l2p[8] == 16);
  }
}

// Rule 4 and rule 8. 2 channels x 2 pages (U = 4), 10 lines, 2 RGs of
// N = 5 units (RG 0: 0..4, RG 1: 5..9), 3 handles. Start-up, handle by
// handle: h0 takes 0 and 5, h1 1 and 6, h2 2 and 7: free [3,4] and [8,9].
// RGIF = 1: PID = (RG << 15) | handle. 0x8002 = RG 1, h2 -> unit 7, slot
// 28. PID 1 -> unit 1, slot 4. PID 3 (no handle 3) and 0x8005 (no handle 5)
// are invalid: handle 0, RG 0: unit 0 offsets 0 and 2 (n = 1: channel 1,
// page 0), slots 0 and 2. Thresholds (int)(0.05 x 5) = 0: no GC.
TEST_CASE("reference: every handle takes an RU in every RG at start-up, the PID names the RG",
          "[reference][validation]") {
  RefConfig c = fdp_cfg(2, 2, 10, 32, 95, 95, 2, 3);
  const std::vector<RefRequest> reqs{W(0, 1, 0x8002), W(1, 1, 1), W(2, 1, 3), W(3, 1, 0x8005)};
  const RefResult r = run_reference(c, reqs);
  CHECK(r.units_per_pool == 5);
  CHECK(r.free_units_end == 4);
  CHECK(r.invalid_pid_requests == 2);
  CHECK(r.l2p[0] == 28);
  CHECK(r.l2p[1] == 4);
  CHECK(r.l2p[2] == 0);
  CHECK(r.l2p[3] == 2);
  REQUIRE(r.handles.size() == 3);
  CHECK(r.handles[0].units_in_use == 2);
  CHECK(r.handles[1].units_in_use == 2);
  CHECK(r.handles[2].units_in_use == 2);
  CHECK(r.handles[0].host_slots == 2);
  CHECK(r.handles[1].host_slots == 1);
  CHECK(r.handles[2].host_slots == 1);

  SECTION("--ru-open lazy: a handle takes its RU on its first write in the RG") {
    // h2 writes first in RG 1: unit 5 (slot 20). h1 in RG 0: unit 0 (slot
    // 0). The invalid PIDs go to h0 in RG 0: unit 1, slots 4 and 6. Units in
    // use: h0 1, h1 1, h2 1; free 3 + 4 = 7.
    c.open_at_start = false;
    const RefResult l = run_reference(c, reqs);
    CHECK(l.l2p[0] == 20);
    CHECK(l.l2p[1] == 0);
    CHECK(l.l2p[2] == 4);
    CHECK(l.l2p[3] == 6);
    CHECK(l.free_units_end == 7);
    CHECK(l.handles[0].units_in_use == 1);
    CHECK(l.handles[2].units_in_use == 1);
  }
}

// Rule 8 with 3 RGs: RGIF = 2, PID = (RG << 14) | handle. 1 channel x 4
// pages (U = 4, offset = page), 9 lines, N = 3; 2 handles: h0 takes 0, 3, 6
// and h1 1, 4, 7. 0x8001 (RG 2, h1) -> unit 7: slot 28. 0x4000 (RG 1, h0)
// -> unit 3: slot 12. 0xC000 names RG 3, which does not exist: invalid ->
// unit 0, slot 0. PID 2 names handle 2: invalid -> unit 0, slot 1. PID 1
// -> unit 1: slot 4.
TEST_CASE("reference: RG bits of the placement identifier", "[reference][validation]") {
  const RefConfig c = fdp_cfg(1, 4, 9, 32, 95, 95, 3, 2);
  const RefResult r = run_reference(c, {W(0, 1, 0x8001), W(1, 1, 0x4000), W(2, 1, 0xC000), W(3, 1, 2), W(4, 1, 1)});
  CHECK(r.invalid_pid_requests == 2);
  CHECK(r.l2p[0] == 28);
  CHECK(r.l2p[1] == 12);
  CHECK(r.l2p[2] == 0);
  CHECK(r.l2p[3] == 1);
  CHECK(r.l2p[4] == 4);
  CHECK(r.handles[0].host_slots == 3);
  CHECK(r.handles[1].host_slots == 2);
}

// --rg-of lba: RG = (slot / 256) % RGs, the PID is the handle. 1 channel x
// 64 pages (U = 64), 9 lines, 3 RGs of 3 units, 2 handles: h0 0, 3, 6; h1
// 1, 4, 7. W(256, PID 1): RG 1, h1: unit 4 offset 0 = slot 256. W(512, PID
// 0x4000): no such handle: invalid, h0, RG 2: unit 6 = slot 384. W(5): RG 0
// h0: unit 0 = slot 0. W(255, 2 slots, PID 1): lpn 255 in RG 0 (unit 1,
// slot 64), lpn 256 in RG 1 (unit 4 offset 1 = 257, invalidating 256).
TEST_CASE("reference: --rg-of lba stripes slots over RGs in 1 MiB chunks", "[reference][validation]") {
  RefConfig c = fdp_cfg(1, 64, 9, 520, 95, 95, 3, 2);
  c.rg_of_pid = false;
  const RefResult r = run_reference(c, {W(256, 1, 1), W(512, 1, 0x4000), W(5), W(255, 2, 1)});
  CHECK(r.invalid_pid_requests == 1);
  CHECK(r.l2p[256] == 257);
  CHECK(r.l2p[512] == 384);
  CHECK(r.l2p[5] == 0);
  CHECK(r.l2p[255] == 64);
  CHECK(r.handles[1].host_slots == 3);
  CHECK(r.handles[0].host_slots == 2);
}

// Rules 6 and 7. 2 channels x 2 pages (U = 4, U/8 = 0), 8 units, 1 RG,
// thres = (int)(0.7 x 8) = 5. Start-up: h0 unit 0, h1 unit 1; free [2..7].
// W(0,4) via h0 fills unit 0 (full), h0 takes 2: free 5; background: empty.
// W(10) via h1: unit 1 n = 0 (offset 0): slot 4; background: empty.
// T(0): unit 0 queued (3 valid); background takes it. Its lpns 0..3 sit at
// offsets 0,2,1,3, so survivors come as 2, 1, 3.
TEST_CASE("reference: where the survivors of a handle's unit go", "[reference][validation]") {
  RefConfig c = fdp_cfg(2, 2, 8, 32, 30, 30, 1, 2);
  const std::vector<RefRequest> reqs{W(0, 4, 0), W(10, 1, 1), T(0)};

  SECTION("II: into the host RU of the last handle (rule 7)") {
    // Unit 1 (h1's host RU, 1 written): n = 1,2,3 at offsets 2,1,3: lpn 2 ->
    // 6, 1 -> 5, 3 -> 7; unit 1 fills (4 valid, full), h1 takes 3: free 4;
    // unit 0 erased: free 5.
    c.ruh_types = RuhTypes::ii;
    const RefResult r = run_reference(c, reqs);
    CHECK(r.gc_slots == 3);
    CHECK(r.gc_background_passes == 1);
    CHECK(r.gc_background_no_victim == 2);
    CHECK(r.l2p[2] == 6);
    CHECK(r.l2p[1] == 5);
    CHECK(r.l2p[3] == 7);
    CHECK(r.l2p[10] == 4);
    CHECK(r.free_units_end == 5);
    REQUIRE(r.handles.size() == 2);
    CHECK(r.handles[0].gc_out_slots == 3);
    CHECK(r.handles[0].gc_in_slots == 0);
    CHECK(r.handles[0].erased_units == 1);
    CHECK(r.handles[0].units_in_use == 1);  // unit 2, open and empty
    CHECK(r.handles[1].gc_in_slots == 3);
    CHECK(r.handles[1].units_in_use == 2);  // unit 1 (full), unit 3 (open)
  }
  SECTION("--ii-gc gc-ru: one GC RU per RG shared by the II handles") {
    // The shared GC RU is taken at the pass: unit 3 (free 4). lpn 2 -> 12,
    // 1 -> 14, 3 -> 13. Unit 0 erased: free 5. A third handle entry "gc".
    c.ruh_types = RuhTypes::ii;
    c.ii_gc_last_ruh = false;
    const RefResult r = run_reference(c, reqs);
    CHECK(r.l2p[2] == 12);
    CHECK(r.l2p[1] == 14);
    CHECK(r.l2p[3] == 13);
    CHECK(r.free_units_end == 5);
    REQUIRE(r.handles.size() == 3);
    CHECK(r.handles[2].gc_in_slots == 3);
    CHECK(r.handles[2].units_in_use == 1);
    CHECK(r.handles[1].gc_in_slots == 0);
    CHECK(r.handles[1].units_in_use == 1);
  }
  SECTION("last-ii: h0 is PI, its survivors go to its GC RU taken at the pass (rule 6)") {
    // h0's GC RU is unit 3 (free 4): lpn 2 -> 12, 1 -> 14, 3 -> 13; free 5.
    c.ruh_types = RuhTypes::last_ii;
    const RefResult r = run_reference(c, reqs);
    CHECK(r.l2p[2] == 12);
    CHECK(r.l2p[1] == 14);
    CHECK(r.l2p[3] == 13);
    CHECK(r.free_units_end == 5);
    REQUIRE(r.handles.size() == 2);
    CHECK(r.handles[0].gc_in_slots == 3);
    CHECK(r.handles[0].units_in_use == 2);  // host RU 2 and GC RU 3
  }
  SECTION("--pi-gc host-ru: PI survivors are appended to the handle's host RU") {
    // h0's host RU is unit 2 (empty): lpn 2 -> 8, 1 -> 10, 3 -> 9. No unit
    // taken: free 5 + 1 = 6.
    c.pi_gc_ru = false;
    const RefResult r = run_reference(c, reqs);
    CHECK(r.l2p[2] == 8);
    CHECK(r.l2p[1] == 10);
    CHECK(r.l2p[3] == 9);
    CHECK(r.free_units_end == 6);
  }
}

// Rule 9, per request against per slot. Line path, 2 channels x 2 pages
// (U = 4, U/8 = 0), 6 lines, thres = high = (int)(0.2 x 6) = 1. Line 0
// opens: free 5. W(0,4): line 0 full, line 1 opens: free 4. T(0,2): line 0
// queued (2 valid: lpn 2 at offset 1, lpn 3 at offset 3, copied as 2, 3).
// W(4,13) writes lpns 4..16: lpns 4-7, 8-11, 12-15 fill lines 1, 2, 3 and
// lines 2, 3, 4 open: free 1 before lpn 16. Line 4 is slots 16..19, written
// at offsets 0, 2, 1, 3.
TEST_CASE("reference: forced GC is checked once per write request, or per slot", "[reference][validation]") {
  RefConfig c = line_cfg(2, 2, 6, 20, 80, 80);
  const std::vector<RefRequest> reqs{W(0, 4), T(0, 2), W(4, 13)};
  SECTION("per request (FEMU)") {
    // No check inside the request: lpn 16 -> 16. Background after it (free
    // 1 <= 1) takes line 0: lpn 2 -> 18, 3 -> 17. Free [5,0] = 2.
    const RefResult r = run_reference(c, reqs);
    CHECK(r.gc_forced_passes == 0);
    CHECK(r.gc_background_passes == 1);
    CHECK(r.gc_onset_host_slots == 17);
    CHECK(r.l2p[16] == 16);
    CHECK(r.l2p[2] == 18);
    CHECK(r.l2p[3] == 17);
    CHECK(r.free_units_end == 2);
    CHECK(r.host_slots == 17);
    CHECK(r.gc_slots == 2);
  }
  SECTION("--gc-check page") {
    // Before lpn 16, free 1 <= 1: a forced pass takes line 0: lpn 2 -> 16,
    // 3 -> 18; free 2 ends the loop; lpn 16 -> 17. Background: 2 > 1.
    c.forced_check_per_slot = true;
    const RefResult r = run_reference(c, reqs);
    CHECK(r.gc_forced_passes == 1);
    CHECK(r.gc_background_passes == 0);
    CHECK(r.gc_onset_host_slots == 16);
    CHECK(r.l2p[2] == 16);
    CHECK(r.l2p[3] == 18);
    CHECK(r.l2p[16] == 17);
    CHECK(r.free_units_end == 2);
  }
}

// Rule 9 with RGs: 1 channel x 4 pages (U = 4, U/8 = 0), 12 lines, 2 RGs
// of 6, 1 PI handle; thres = high = (int)(0.2 x 6) = 1. Start-up: unit 0
// (RG 0) and 6 (RG 1); free 5 and 5. PID 0x8000 = RG 1.
// W(0,16) into RG 1 fills units 6..9, takes 7..10: RG 1 free [11] = 1;
// background: RG 0 (5) is not over, RG 1 is: empty heap.
// W(20,4) into RG 0: RG 1 is over its high threshold, so a forced pass runs
// in RG 0: empty heap, the loop stops; unit 0 fills, 1 opens (RG 0 free 4);
// background in RG 1: empty. T(20,2): unit 0 queued (2 valid); background in
// RG 1: empty. W(30) into RG 0: RG 1 still over: forced pass in RG 0 takes
// unit 0: survivors 22, 23 into the handle's GC RU in RG 0, unit 2 (free
// 3); unit 0 erased (free 4); RG 1 still over, next pass: empty heap, stop.
// Background in RG 1: empty. No victim in 4 background passes.
TEST_CASE("reference: forced GC collects in the writing RG while any RG is over", "[reference][validation]") {
  RefConfig c = fdp_cfg(1, 4, 12, 40, 80, 80, 2, 1);
  const std::vector<RefRequest> reqs{W(0, 16, 0x8000), W(20, 4, 0), T(20, 2), W(30, 1, 0)};
  const RefResult r = run_reference(c, reqs);
  CHECK(r.gc_forced_passes == 1);
  CHECK(r.gc_background_passes == 0);
  CHECK(r.gc_background_no_victim == 4);
  CHECK(r.gc_slots == 2);
  CHECK(r.gc_onset_host_slots == 20);
  CHECK(r.free_units_end == 5);  // RG 0: [3,4,5,0]; RG 1: [11]
  CHECK(r.l2p[22] == 8);         // unit 2, offset 0
  CHECK(r.l2p[30] == 4);         // unit 1, offset 0

  SECTION("--rg-gc every: forced GC looks at the writing RG only") {
    // RG 0 never falls to 1 free: no forced pass; unit 0 stays queued.
    c.every_pool = true;
    const RefResult e = run_reference(c, reqs);
    CHECK(e.gc_passes == 0);
    CHECK(e.gc_background_no_victim == 4);
    CHECK(e.free_units_end == 4 + 1);
  }
}

// Rule 10: 1 channel x 4 pages (U = 4), 12 lines, 2 RGs of 6, 1 PI handle,
// thres = (int)(0.7 x 6) = 4, high = (int)(0.2 x 6) = 1. Start-up: units 0
// and 6. W(0,4) into RG 0: unit 0 full, 1 opens: RG 0 free 4 <= 4:
// background in RG 0: empty. W(4,4, RG 1): unit 6 full, 7 opens: RG 1 free
// 4. Background: RG 0 is the first over its threshold: empty heap (RG 1 is
// not looked at). T(3,2) unmaps lpn 3 (unit 0) and lpn 4 (unit 6): both
// queued with 3 valid. Background: RG 0 only: unit 0, survivors 0,1,2 into
// the GC RU of RG 0 (unit 2), unit 0 erased. Unit 6 stays.
TEST_CASE("reference: background GC runs in the first RG over its threshold", "[reference][validation]") {
  RefConfig c = fdp_cfg(1, 4, 12, 40, 30, 80, 2, 1);
  const std::vector<RefRequest> reqs{W(0, 4, 0), W(4, 4, 0x8000), T(3, 2)};
  const RefResult r = run_reference(c, reqs);
  CHECK(r.gc_background_passes == 1);
  CHECK(r.gc_background_no_victim == 2);
  CHECK(r.gc_slots == 3);
  CHECK(r.erase_count_per_unit == std::vector<uint32_t>{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  CHECK(r.free_units_end == 4 + 4);

  SECTION("--rg-gc every: a pass in every RG over its threshold") {
    // W(0,4): RG 0 empty heap (1). W(4,4): RG 0 empty (2), RG 1 empty (3).
    // T(3,2): RG 0 takes unit 0 (GC RU unit 2), RG 1 takes unit 6 (its GC
    // RU is unit 8): 6 survivors, both units erased; free 4 + 4.
    c.every_pool = true;
    const RefResult e = run_reference(c, reqs);
    CHECK(e.gc_background_passes == 2);
    CHECK(e.gc_background_no_victim == 3);
    CHECK(e.gc_slots == 6);
    CHECK(e.erase_count_per_unit == std::vector<uint32_t>{1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0});
    CHECK(e.free_units_end == 4 + 4);
  }
}

// Rules 15, 16, 17. Line path, 2 channels x 4 pages, 6 lines, no GC
// ((int)(0.05 x 6) = 0). W(0,4) maps lpns 0..3.
// Trim sectors [4, 20): bytes [2048, 10240): slots 0, 1, 2, the first and
// last partly. Read slots 0..3. Write sectors [9, 11): slot 1 only, partial
// at both ends: one RMW slot. Write sectors [30, 34): bytes [15360, 17408):
// slots 3 and 4, both partial: 2 RMW slots, slot 3 mapped (RMW read), 4 not.
// Trim sectors [1, 3): slot 0 only, partly.
TEST_CASE("reference: trims unmap every slot they touch, partial writes are RMW", "[reference][validation]") {
  RefConfig c = line_cfg(2, 4, 6, 16, 95, 95);
  const std::vector<RefRequest> reqs{W(0, 4),          Sectors(2, 4, 16), Rd(0, 4),
                                     Sectors(0, 9, 2), Sectors(0, 30, 4), Sectors(2, 1, 2)};
  SECTION("FEMU: unmap") {
    // The first trim unmaps 0, 1, 2 (3 trimmed); the read finds 0, 1, 2
    // unmapped; RMW 1 + 2, RMW reads 1 (slot 3). The last trim finds slot 0
    // unmapped. Mapped: 1, 3, 4. Host slots 4 + 1 + 2.
    const RefResult r = run_reference(c, reqs);
    CHECK(r.trimmed_slots == 3);
    CHECK(r.partial_trim_slots == 0);
    CHECK(r.unmapped_read_slots == 3);
    CHECK(r.rmw_slots == 3);
    CHECK(r.rmw_read_slots == 1);
    CHECK(r.mapped_slots_end == 3);
    CHECK(r.host_slots == 7);
  }
  SECTION("--trim-partial keep") {
    // The first trim unmaps slot 1 only and keeps 0 and 2 (2 partial); the
    // read finds slot 1 unmapped; the write of slot 1 is RMW of an unmapped
    // slot; slot 3's RMW reads. The last trim keeps slot 0 (partial 3).
    // Mapped: 0, 1, 2, 3, 4.
    c.trim_keeps_partial = true;
    const RefResult r = run_reference(c, reqs);
    CHECK(r.trimmed_slots == 1);
    CHECK(r.partial_trim_slots == 3);
    CHECK(r.unmapped_read_slots == 1);
    CHECK(r.rmw_slots == 3);
    CHECK(r.rmw_read_slots == 1);
    CHECK(r.mapped_slots_end == 5);
  }
}

// Rule 11: thresholds truncate. Line path, 2 channels x 2 pages (U = 4,
// U/8 = 0), 10 lines. W(0,4) fills line 0 (free 8), T(0) queues it; then
// writes of 4 fresh slots close one line each: free 7, 6, 5, ... The first
// background pass runs after the write that leaves free <= thres.
// --gc-thres 75: (int)(0.25 x 10) = 2: after the 6th such write: host
// slots 4 + 24 = 28. 70: (int)(3.0000000000000004) = 3: after the 5th: 24.
// 80: 1 - 0.8 is 0.19999999999999996 in binary, times 10 truncates to 1 (as
// in FEMU's C): after the 7th: 32.
TEST_CASE("reference: thresholds are truncated unit counts", "[reference][validation]") {
  std::vector<RefRequest> reqs{W(0, 4), T(0)};
  for (uint64_t i = 1; i <= 8; ++i) reqs.push_back(W(4 * i, 4));
  const auto onset = [&](double pcent) {
    return run_reference(line_cfg(2, 2, 10, 40, pcent, 99), reqs).gc_onset_host_slots;
  };
  CHECK(onset(75) == 28);
  CHECK(onset(70) == 24);
  CHECK(onset(80) == 32);
}

// A pool with no free unit when one is needed: the handle's host RU fills
// and nothing is free. 1 channel x 2 pages, 3 lines, no GC thresholds
// ((int)(0.01 x 3) = 0): line 0 opens (free 2); 6 slots fill lines 0, 1, 2
// and the third has nothing to follow it.
TEST_CASE("reference: device full", "[reference][validation]") {
  const RefConfig c = line_cfg(1, 2, 3, 8, 99, 99);
  CHECK_NOTHROW(run_reference(c, {W(0, 5)}));
  CHECK_THROWS_WITH(run_reference(c, {W(0, 6)}), "device full");
  CHECK_THROWS_AS(run_reference(c, {W(7, 2)}), std::invalid_argument);  // beyond the logical capacity
}

// Invariants of the reference on the differential test's random cases (the
// reference also recounts its own state at the end of every run): totals
// add up over handles and units, every unit is free or held by a handle,
// and no two logical slots share a physical one. Runs without the engine.
TEST_CASE("reference: invariants on random cases", "[reference][validation]") {
  const uint64_t cases = 300;
  uint64_t full = 0;
  for (uint64_t seed = 1; seed <= cases; ++seed) {
    const RandomCase rc = make_random_case(seed);
    INFO("seed " << seed << ": " << describe(rc.cfg));
    RefResult r;
    try {
      r = run_reference(rc.cfg, rc.requests);
    } catch (const std::runtime_error& e) {
      REQUIRE(std::string(e.what()) == "device full");
      ++full;
      continue;
    }
    uint64_t host = 0, out = 0, in = 0, erased = 0, in_use = 0, erases = 0;
    for (const RefHandle& h : r.handles) {
      host += h.host_slots;
      out += h.gc_out_slots;
      in += h.gc_in_slots;
      erased += h.erased_units;
      in_use += h.units_in_use;
    }
    for (uint32_t e : r.erase_count_per_unit) erases += e;
    CHECK(host == r.host_slots);
    CHECK(out == r.gc_slots);
    CHECK(in == r.gc_slots);
    CHECK(erased == r.unit_erases);
    if (rc.cfg.reset_kind == 2) {
      CHECK(erases >= r.unit_erases);  // a counters reset keeps the erase counts (wear)
    } else {
      CHECK(erases == r.unit_erases);
    }
    CHECK(in_use + r.free_units_end == r.erase_count_per_unit.size());
    std::vector<uint32_t> phys;
    for (uint32_t s : r.l2p) {
      if (s != kNone) phys.push_back(s);
    }
    CHECK(phys.size() == r.mapped_slots_end);
    std::sort(phys.begin(), phys.end());
    CHECK(std::adjacent_find(phys.begin(), phys.end()) == phys.end());
    CHECK((phys.empty() || phys.back() < uint64_t{r.slots_per_unit} * r.erase_count_per_unit.size()));
    if (!rc.cfg.fdp) CHECK(r.invalid_pid_requests == 0);
  }
  // The generator aims at feasible streams: device full must stay the exception.
  CHECK(full * 10 < cases);
}

// --ru-size of 2 lines: an RU is lines {0,1}, {2,3}, {4,5}; U = 2 lines x 2
// channels x 2 pages = 8; offset = line x 4 + channel x 2 + page, and the
// write pointer finishes line 0 (channel fastest) before line 1: lpn 0..7
// land at offsets 0,2,1,3,4,6,5,7. 1 RG of 3 units, 1 PI handle; thres =
// high = (int)(0.4 x 3) = 1. Start-up: unit 0; W(0,8) fills it, unit 1 opens:
// free [2] = 1; background: empty heap. T(0): unit 0 queued (7 valid); the
// background pass pops it (1 invalid >= U/8 = 1) and copies offsets 1..7
// (lpns 2,1,3,4,6,5,7) into the GC RU, unit 2 (free 0), at write offsets
// 0,2,1,3,4,6,5: 2 -> 16, 1 -> 18, 3 -> 17, 4 -> 19, 6 -> 20, 5 -> 22,
// 7 -> 21; unit 0 is erased: free [0].
TEST_CASE("reference: an RU of several lines fills line by line", "[reference][validation]") {
  RefConfig c = fdp_cfg(2, 2, 6, 16, 60, 60, 1, 1);
  c.lines_per_ru = 2;
  const RefResult r = run_reference(c, {W(0, 8), T(0)});
  CHECK(r.slots_per_unit == 8);
  CHECK(r.units_per_pool == 3);
  CHECK(r.gc_slots == 7);
  CHECK(r.free_units_end == 1);
  CHECK(r.erase_count_per_unit == std::vector<uint32_t>{1, 0, 0});
  CHECK(r.l2p[2] == 16);
  CHECK(r.l2p[1] == 18);
  CHECK(r.l2p[3] == 17);
  CHECK(r.l2p[4] == 19);
  CHECK(r.l2p[6] == 20);
  CHECK(r.l2p[5] == 22);
  CHECK(r.l2p[7] == 21);
}

// --rg-split dies, documenting the reading taken where docs/model.md is
// silent: RG g has dies g x D/R .. (g+1) x D/R - 1 (die = LUN x channels +
// channel), its unit for line b is g x blocks + b, and block order sorts
// its dies by (channel, LUN). 4 channels x 3 LUNs x 2 pages, 3 lines, 2
// RGs: RG 0 has dies 0..5 = c0l0 c1l0 c2l0 c3l0 c0l1 c1l1, in block order
// c0l0 c0l1 c1l0 c1l1 c2l0 c3l0 (ranks d0 0, d4 1, d1 2, d5 3, d2 4, d3 5);
// U = 12, offset = rank x 2 + page. RG 1 has dies 6..11 = c2l1 c3l1 c0l2
// c1l2 c2l2 c3l2, in block order c0l2 c1l2 c2l1 c2l2 c3l1 c3l2 (ranks d8 0,
// d9 1, d6 2, d10 3, d7 4, d11 5). Start-up: unit 0 (RG 0), unit 3 (RG 1).
// W(0,3) in RG 0: dies d0, d1, d2 -> offsets 0, 4, 8. W(3,3) in RG 1
// (PID 0x8000): d6, d7, d8 -> 36 + 4, 36 + 8, 36 + 0.
TEST_CASE("reference: --rg-split dies numbers an RU's slots over its own dies", "[reference][validation]") {
  RefConfig c = fdp_cfg(4, 2, 3, 16, 95, 95, 2, 1);
  c.luns = 3;
  c.rg_split_lines = false;
  const RefResult r = run_reference(c, {W(0, 3, 0), W(3, 3, 0x8000)});
  CHECK(r.slots_per_unit == 12);
  CHECK(r.units_per_pool == 3);
  CHECK(r.l2p[0] == 0);
  CHECK(r.l2p[1] == 4);
  CHECK(r.l2p[2] == 8);
  CHECK(r.l2p[3] == 40);
  CHECK(r.l2p[4] == 44);
  CHECK(r.l2p[5] == 36);
}

// The watermark trigger, 1 channel x 8 pages (U = 8), 10 lines, 40 logical
// slots; thresholds (int)(0.25 x 10) = 2 and (int)(0.15 x 10) = 1. The fill
// W(i) for i < 40 leaves lines 0-4 full, line 5 open, free 4. One request
// W(0, 24) fills lines 5, 6 and 7 (line 8 opens: free 1) and leaves lines 0-2
// with no valid slot. FEMU's rule: one background pass after it (free 2);
// the watermark trigger: passes until free > 2, two, copying nothing.
TEST_CASE("reference: the watermark trigger runs passes until the pool is above its threshold",
          "[reference][validation]") {
  for (const bool watermark : {false, true}) {
    RefConfig c = line_cfg(1, 8, 10, 40, 75, 85);
    c.gc_watermark = watermark;
    std::vector<RefRequest> q;
    for (uint64_t i = 0; i < 40; ++i) q.push_back(W(i));
    q.push_back(W(0, 24));
    const RefResult r = run_reference(c, q);
    CHECK(r.gc_background_passes == (watermark ? 2 : 1));
    CHECK(r.gc_slots == 0);
    CHECK(r.unit_erases == (watermark ? 2 : 1));
  }
}

// FEMU's multi-RG rules (docs/model.md rule 8): RGIF = the bit length of the
// RG count (2 RGs: 2 bits, RG = PID >> 14) and every host write into the
// handle's current RU in RG 0; forced GC runs in the RG the PID names.
// 2 channels x 8 pages (U = 16, U/8 = 2), 8 lines, 2 RGs of 4, 1 handle
// whose survivors go to its host RU, GC 75/75: thres = high = 1 free unit.
// Start-up: unit 0 (RG 0; free 1, 2, 3) and unit 4 (RG 1).
// W(0,16) fills unit 0, unit 1 opens (free 2). W(16,16) fills unit 1, unit
// 2 opens (free 1); background: nothing queued. W(0): forced (free 1):
// nothing queued; lpn 0 to unit 2, unit 0 queued with 1 invalid; background
// declines it (1 < 2). W(1) naming RG n:
//   n = 0: forced pass in RG 0 takes unit 0: 15 survivors into unit 2 (full;
//     unit 3 opens), unit 0 erased; the next pass finds nothing queued; lpn 1
//     to unit 3; background declines unit 2 (1 invalid).
//   n = 1 (PID 0x4000): forced pass in RG 1 finds nothing; lpn 1 still to
//     unit 2 in RG 0; background takes unit 0 (2 invalid): 14 survivors.
TEST_CASE("reference: FEMU's RGs: writes in the current RU, forced GC in the named RG", "[reference][validation]") {
  RefConfig c = fdp_cfg(2, 8, 8, 32, 75, 75, 2, 1);
  c.rg_current = true;
  c.pid_min_rgif = false;
  c.pi_gc_ru = false;
  for (const uint32_t named : {0u, 1u}) {
    INFO("W(1) names RG " << named);
    const RefResult r =
        run_reference(c, {W(0, 16, 0), W(16, 16, 0), W(0, 1, 0), W(1, 1, static_cast<uint16_t>(named << 14))});
    CHECK(r.invalid_pid_requests == 0);
    CHECK(r.gc_forced_passes == (named == 0 ? 1u : 0u));
    CHECK(r.gc_background_passes == (named == 0 ? 0u : 1u));
    CHECK(r.gc_background_declined == (named == 0 ? 2u : 1u));
    CHECK(r.gc_slots == (named == 0 ? 15u : 14u));
    CHECK(r.unit_erases == 1);
    CHECK(r.l2p[1] == (named == 0 ? 48u : 40u));  // unit 3 offset 0; unit 2, n = 1: channel 1, page 0 (offset 8)
  }
  // 0x2000 sets bit 13, which FEMU's handle (bits 0-12) ignores: handle 0,
  // RG 0, valid. 0x8000 names RG 2 of 2: invalid.
  const RefResult b = run_reference(c, {W(0, 1, 0x2000), W(1, 1, 0x8000)});
  CHECK(b.invalid_pid_requests == 1);
}

// ConfFDP's rules with several RGs (docs/model.md rules 3, 6, 9), the
// cases of tests/sim/test_confdp_rules.cpp counted there by hand, here on
// the reference. 4 channels x 1 LUN, 4 RGs of one channel each, 1 handle
// appending survivors to its host RU, ConfFDP's identifiers (0xg00 = RG g).
//   P = 4, 6 blocks, GC 60/60 (2 units held): W(0,12) into RG 1 brings it to
//   its threshold; W(12) in RG 1 moves to RG 0 (RG 0 and RG 2 both 1 away:
//   the lower): slot 0. After W(13,12) into RG 2: W(25) in RG 2 goes to RG 3
//   (RG 1 at its threshold, RG 0 2 away): unit 18, slot 72; W(26) in RG 1 to
//   RG 0 (RG 2 at it, RG 3 2 away, RG 0 1 away): slot 1.
//   P = 20: a forced victim of RG 1 with 1 invalid (< U/10 = 2) sends its
//   copies to RG 0 until RG 0 takes a unit and is at its threshold, then to
//   RG 2: lpn 1 at 50, lpn 11 at 241.
TEST_CASE("reference: ConfFDP's RGs of channels, writes and copies moved to the nearest RG",
          "[reference][validation]") {
  RefConfig c = fdp_cfg(4, 4, 6, 44, 60, 60, 4, 1);
  c.rg_split_lines = false;
  c.rg_split_channels = true;
  c.pid_confdp = true;
  c.pid_min_rgif = false;
  c.pi_gc_ru = false;
  c.every_pool = true;
  c.gc_page_order = true;
  c.declined_keep = true;
  c.forced_passes = 5;
  c.write_spill = true;
  c.gc_spill = true;
  const RefResult w =
      run_reference(c, {W(0, 12, 0x100), W(12, 1, 0x100), W(13, 12, 0x200), W(25, 1, 0x200), W(26, 1, 0x100)});
  CHECK(w.spilled_writes == 3);
  CHECK(w.gc_passes == 0);
  CHECK(w.l2p[12] == 0);
  CHECK(w.l2p[25] == 72);
  CHECK(w.l2p[26] == 1);
  c.pages = 20;
  c.logical_slots = 200;
  const RefResult g = run_reference(c, {W(0, 60, 0x100), W(60, 50), W(0, 1, 0x200), W(110, 1, 0x100)});
  CHECK(g.gc_forced_passes == 1);
  CHECK(g.gc_slots == 19);
  CHECK(g.spilled_copies == 19);
  CHECK(g.gc_background_declined == 1);
  CHECK(g.l2p[1] == 50);
  CHECK(g.l2p[11] == 241);
  CHECK(g.l2p[110] == 180);
}
