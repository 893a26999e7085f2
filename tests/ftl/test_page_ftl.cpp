// Hand-computed cases for the page-mapped FTL and its FEMU threshold rules.
#include <catch2/catch.hpp>

#include "core/rng.h"
#include "ftl/any_ftl.h"
#include "ftl_test_util.h"

using namespace ftlsim;
using ftl::PageFtl;

TEST_CASE("writes stripe slots across the line in write order and overwrite invalidates", "[ftl][unit]") {
  auto cfg = test::tiny_config(10, 8, 40, 75, 85);
  PageFtl<ftl::HeapVictims> f(cfg);
  CHECK(f.free_units() == 9);  // one line is open from the start, as in FEMU
  for (uint32_t lpn = 0; lpn < 8; ++lpn) f.write(lpn);
  CHECK(f.free_units() == 8);  // the full line closed at once and the next was opened
  CHECK(f.unit_table().valid[0] == 8);
  f.write(3);
  CHECK(f.unit_table().valid[0] == 7);
  CHECK(f.unit_table().valid[1] == 1);
  f.trim(5);
  f.trim(5);  // trimming an unmapped slot changes nothing
  CHECK(f.unit_table().valid[0] == 6);
  CHECK_FALSE(f.is_mapped(5));
  CHECK(f.stats().trimmed_slots == 1);
  CHECK(f.mapped_slots() == 7);
  CHECK(f.check_invariants().empty());
}

// 10 lines of 8 slots; background threshold (int)(0.25 * 10) = 2 free lines.
// A sequential fill of 40 slots and a sequential overwrite close one line per
// 8 host slots; free lines reach 2 after (10 - 1 - 2) * 8 = 56 slots, when
// lines 0 and 1 are fully invalid, so the first background pass runs after
// host slot 56 and copies nothing.
TEST_CASE("GC onset happens at the hand-computed host slot", "[ftl][validation]") {
  auto cfg = test::tiny_config(10, 8, 40, 75, 85);
  PageFtl<ftl::HeapVictims> f(cfg);
  REQUIRE(f.thres_units() == 2);
  REQUIRE(f.thres_units_high() == 1);
  uint64_t written = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (uint32_t lpn = 0; lpn < 40; ++lpn) {
      f.write(lpn);
      f.after_request();
      ++written;
      if (written < 56) REQUIRE(f.stats().gc_passes == 0);
    }
  }
  CHECK(f.stats().gc_onset_host_slots == 56);
  CHECK(f.stats().gc_slots == 0);  // sequential overwrite: victims are empty
  CHECK(f.check_invariants().empty());
}

// The 20-line case below: fills 768 slots (12 data lines of 64) and returns
// the free lines left.
static uint32_t fill_data_lines(PageFtl<ftl::HeapVictims>& f) {
  for (uint32_t lpn = 0; lpn < 768; ++lpn) {
    f.write(lpn);
    f.after_request();
  }
  return f.free_units();
}

// Overwrites round robin over the 12 data lines (lpn = 64 * i + k in round
// k) until the first GC pass; returns how many overwrites that took.
static uint32_t overwrites_until_gc(PageFtl<ftl::HeapVictims>& f) {
  uint32_t n = 0;
  for (uint32_t k = 0; k < 16 && f.stats().gc_passes == 0; ++k) {
    for (uint32_t i = 0; i < 12 && f.stats().gc_passes == 0; ++i) {
      f.write(64 * i + k);
      ++n;
      f.after_request();
    }
  }
  return n;
}

// 20 lines of 64 slots, 12 lines of data (768 slots). Background threshold
// (int)(0.3 * 20) = 6 free lines; a background victim needs 64 / 8 = 8
// invalid slots. After the fill, free = 20 - 1 - 12 = 7. Overwrites go round
// robin over the 12 data lines (lpn = 64 * i + k in round k), so after n
// overwrites line 0 has ceil(n / 12) invalid slots. Overwrite 64 closes line
// 12 (free = 6), and background GC starts looking; line 0 first reaches 8
// invalid slots with overwrite 7 * 12 + 1 = 85. So 21 passes are declined
// (after overwrites 64..84) and GC starts after host slot 768 + 85 = 853
// instead of 768 + 64 = 832.
TEST_CASE("the 1/8-invalid rule delays a background victim by the hand-computed amount", "[ftl][validation]") {
  auto cfg = test::tiny_config(20, 64, 768, 70, 95);
  PageFtl<ftl::HeapVictims> f(cfg);
  REQUIRE(f.thres_units() == 6);
  REQUIRE(f.thres_units_high() == 1);
  REQUIRE(fill_data_lines(f) == 7);
  const uint32_t n = overwrites_until_gc(f);
  CHECK(n == 85);
  CHECK(f.stats().gc_onset_host_slots == 853);
  CHECK(f.stats().gc_background_declined == 21);
  CHECK(f.stats().gc_background_passes == 1);
  CHECK(f.stats().gc_slots == 56);  // line 0 had 64 - 8 live slots
  CHECK(f.check_invariants().empty());
}

TEST_CASE("forced GC keeps the device writable and every counter consistent", "[ftl][unit]") {
  for (auto victim : {ftl::VictimPolicy::kGreedy, ftl::VictimPolicy::kCostBenefit, ftl::VictimPolicy::kFifo,
                      ftl::VictimPolicy::kRandom, ftl::VictimPolicy::kDChoice}) {
    auto cfg = test::tiny_config(32, 16, 400, 75, 95);
    cfg.gc.victim = victim;
    auto any = ftl::make_ftl(cfg);
    std::visit(
        [](auto& f) {
          Rng rng(3);
          for (int i = 0; i < 200000; ++i) {
            const auto lpn = static_cast<uint32_t>(rng.below(400));
            if (rng.below(10) == 0) {
              f.trim(lpn);
            } else {
              f.before_write(0);  // FEMU's forced check, once per write request
              f.write(lpn);
            }
            f.after_request();
            if (i % 5000 == 0) REQUIRE(f.check_invariants().empty());
          }
          CHECK(f.check_invariants().empty());
          CHECK(f.stats().gc_passes > 0);
          CHECK(f.stats().programmed_slots == f.stats().host_slots + f.stats().gc_slots);
          CHECK(f.free_units() >= 1);
        },
        any);
  }
}

// --gc-trigger watermark (ftlsim's, not FEMU's), the case of the 1/8 rule
// above: 20 lines of 64 slots, 12 of data, background threshold 6 free
// lines. Overwrite 64 (round robin over the 12 data lines: lines 0-3 have 6
// invalid slots, lines 4-11 have 5) closes line 12 and leaves 6 free lines.
// FEMU declines every victim until one has 8 invalid slots (overwrite 85);
// the watermark trigger takes the fewest-valid line at once (58 valid, 6
// invalid), copies its 58 live slots into the open line 13 and erases it:
// 7 free lines, above the watermark, so one pass.
TEST_CASE("the watermark trigger takes a victim below 1/8 invalid at the hand-computed slot", "[ftl][validation]") {
  auto cfg = test::tiny_config(20, 64, 768, 70, 95);
  cfg.gc.watermark = true;
  PageFtl<ftl::HeapVictims> f(cfg);
  REQUIRE(f.thres_units() == 6);
  REQUIRE(fill_data_lines(f) == 7);
  const uint32_t n = overwrites_until_gc(f);
  CHECK(n == 64);
  CHECK(f.stats().gc_onset_host_slots == 832);
  CHECK(f.stats().gc_background_declined == 0);
  CHECK(f.stats().gc_background_passes == 1);
  CHECK(f.stats().gc_slots == 58);
  CHECK(f.free_units() == 7);
  CHECK(f.check_invariants().empty());
}

// 10 lines of 8 slots, 40 of data; background threshold (int)(0.25 x 10) = 2
// free lines, forced (int)(0.15 x 10) = 1. After a sequential fill lines 0-4
// are full and line 5 open: 4 free. One request overwriting slots 0-23 closes
// lines 5, 6 and 7 (free 1; forced GC is checked only before a request) and
// leaves lines 0-2 fully invalid. After it FEMU's trigger runs one pass (free
// 2); the watermark trigger runs passes until free > 2: two, copying nothing.
TEST_CASE("the watermark trigger runs passes until free units are above the threshold", "[ftl][validation]") {
  for (const bool watermark : {false, true}) {
    auto cfg = test::tiny_config(10, 8, 40, 75, 85);
    cfg.gc.watermark = watermark;
    PageFtl<ftl::HeapVictims> f(cfg);
    REQUIRE(f.thres_units() == 2);
    REQUIRE(f.thres_units_high() == 1);
    for (uint32_t lpn = 0; lpn < 40; ++lpn) {
      f.before_write(0);
      f.write(lpn);
      f.after_request();
    }
    REQUIRE(f.free_units() == 4);
    f.before_write(0);
    for (uint32_t lpn = 0; lpn < 24; ++lpn) f.write(lpn);
    REQUIRE(f.free_units() == 1);
    f.after_request();
    CHECK(f.stats().gc_background_passes == (watermark ? 2 : 1));
    CHECK(f.free_units() == (watermark ? 3 : 2));
    CHECK(f.stats().gc_slots == 0);
    CHECK(f.check_invariants().empty());
  }
}
