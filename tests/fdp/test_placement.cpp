#include <catch2/catch.hpp>

#include "common/records.h"
#include "core/error.h"
#include "fdp/placement.h"

using namespace ftlsim;
using test::slot_write;
using trace::Op;

TEST_CASE("placement specs parse and bad ones name the problem", "[fdp][unit]") {
  CHECK(fdp::parse_placement("single").kind == fdp::PlacementKind::kSingle);
  CHECK(fdp::parse_placement("oracle").kind == fdp::PlacementKind::kOracle);
  const auto m = fdp::parse_placement("map:0=0,1=0,2=1,3=1,4=2,5=2");
  REQUIRE(m.map.size() == 6);
  CHECK(m.map[4] == std::pair<uint16_t, uint16_t>{4, 2});
  CHECK_THROWS_WITH(fdp::parse_placement("map:0=x"), Catch::Contains("'x' is not a handle"));
  CHECK_THROWS_WITH(fdp::parse_placement("map:7"), Catch::Contains("PID=HANDLE"));
  // One handle per ID, as a pid map file refuses a duplicate key (the last
  // mapping used to win silently).
  CHECK_THROWS_WITH(fdp::parse_placement("map:0=1,0=2,1=3"),
                    Catch::Contains("map:0=1,0=2,1=3: placement ID 0 is mapped twice (to 1 and to 2)"));
  CHECK_THROWS_WITH(fdp::parse_placement("map:3=1,1=0,3=1"), Catch::Contains("placement ID 3 is mapped twice"));
  // Two specs that place alike read as one text.
  CHECK(fdp::canonical_text(fdp::parse_placement("map:1=2,0=1")) == "map:0=1,1=2");
  CHECK(fdp::canonical_text(fdp::parse_placement("map:00=1")) == "map:0=1");
  CHECK(fdp::canonical_text(fdp::parse_placement("fdp")) == "fdp");
  CHECK_THROWS_WITH(fdp::parse_placement("lifetime"), Catch::Contains("unknown policy 'lifetime'"));
}

TEST_CASE("placement IDs map to handles, unknown IDs are the invalid-PID event", "[fdp][unit]") {
  fdp::PidPlacement fdp_ids(fdp::parse_placement("fdp"), 4);
  CHECK(fdp_ids.begin_request(slot_write(0, 1, 3)).handle == 3);
  CHECK(fdp_ids.begin_request(slot_write(0, 1, 4)).handle == 0);  // no handle 4: default handle
  CHECK(fdp_ids.begin_request(slot_write(0, 1, 9)).handle == 0);
  CHECK(fdp_ids.invalid_pid_requests() == 2);

  fdp::PidPlacement merged(fdp::parse_placement("map:0=0,1=0,2=1"), 2);
  CHECK(merged.begin_request(slot_write(0, 1, 1)).handle == 0);
  CHECK(merged.begin_request(slot_write(0, 1, 2)).handle == 1);
  CHECK(merged.begin_request(slot_write(0, 1, 3)).handle == 0);
  CHECK(merged.invalid_pid_requests() == 1);
  CHECK_THROWS_WITH(fdp::PidPlacement(fdp::parse_placement("map:0=5"), 4), Catch::Contains("handle 5 does not exist"));

  fdp::PidPlacement single(fdp::parse_placement("single"), 1);
  CHECK(single.begin_request(slot_write(0, 1, 77)).handle == 0);
  CHECK(single.invalid_pid_requests() == 0);
}

TEST_CASE("a placement identifier's top bits name the reclaim group (RGIF)", "[fdp][unit]") {
  // 3 RGs: RGIF = 2 bits (FEMU's nvme_calc_rgif, the bit length of 3): PID =
  // rg << 14 | handle, the handle in bits 0-12 (nvme_pid2ph).
  fdp::PidPlacement p(fdp::parse_placement("fdp"), 4, 3, 2, false, 0x1FFF);
  const auto at = [&](uint16_t pid) { return p.begin_request(slot_write(0, 1, pid)); };
  CHECK(at((2u << 14) | 3).handle == 3);
  CHECK(at((2u << 14) | 3).rg == 2);
  CHECK(at(1).rg == 0);
  CHECK(p.invalid_pid_requests() == 0);
  CHECK(at(3u << 14).rg == 0);  // RG 3 does not exist: handle 0 in RG 0, counted
  CHECK(at(3u << 14).handle == 0);
  CHECK(at((1u << 14) | 4).handle == 0);  // handle 4 does not exist
  CHECK(p.invalid_pid_requests() == 3);
}

// Slot lifetimes by hand (in written slots): slot 0 is written at t=0, 1, 2
// (lifetimes 1, 1, never); slot 1 at t=3 then trimmed after 2 more writes
// (lifetime 3: the trim comes when 6 slots have been written); slot 2 at t=4
// and t=5 (lifetime 1, never); slot 3 at t=6, never again.
TEST_CASE("oracle groups writes by the time until their LBA dies", "[fdp][unit]") {
  std::vector<trace::Record> r = {slot_write(0), slot_write(0), slot_write(0),
                                  slot_write(1), slot_write(2), slot_write(2)};
  r.push_back({0, 8, 8, 0, static_cast<uint8_t>(Op::kTrim), 0});
  r.push_back(slot_write(3));
  const auto h = fdp::oracle_handles(r, 512, 16, false, 3);
  REQUIRE(h.size() == 7);
  // Lifetimes 1,1,_,3,1,_,_ -> buckets log2: 0,0,never,1,0,never,never.
  // Finite volume: bucket 0 has 3 slots, bucket 1 has 1; two finite handles:
  // bucket 0's middle (1.5 of 4) -> handle 0, bucket 1's (3.5 of 4) -> handle 1.
  CHECK(h == std::vector<uint8_t>{0, 0, 2, 1, 0, 2, 2});
  // --trim-range plus-one (ConfFDP): the trim of slot 1 also ends slot 2's
  // second life (written at t=5, dead when 6 slots have been written:
  // lifetime 1). Buckets 0,0,never,1,0,0,never: bucket 0 has 4 of 5 finite
  // slots, its middle (2 of 5) -> handle 0; bucket 1's (4 of 5) -> handle 1.
  const auto plus = fdp::oracle_handles(r, 512, 16, false, 3, false, {}, true);
  CHECK(plus == std::vector<uint8_t>{0, 0, 2, 1, 0, 0, 2});
}

// Under --logical fit: through the remap table. Trace slots 0 and 10 are
// device slots 0 and 1; slot 1, after the trim's range, is touched by no
// record and has no device slot: with --trim-range plus-one the trim ends
// nothing more (the table's 0xFFFFFFFF was used as a device slot, a write
// far past the oracle's table). W(0) dies at the trim, 2 slots written
// (bucket 1), W(10) at its rewrite 1 later (bucket 0), the rewrite never:
// one finite handle takes both finite ones.
TEST_CASE("oracle under fit: the slot after a trimmed range no record touches ends nothing", "[fdp][unit]") {
  const std::vector<uint32_t> dir = {1};
  std::vector<uint32_t> slots(2 * trace::SlotRemap::kBlockSlots, trace::kUntouchedSlot);
  slots[trace::SlotRemap::kBlockSlots + 0] = 0;
  slots[trace::SlotRemap::kBlockSlots + 10] = 1;
  const trace::SlotRemap remap{dir.data(), slots.data(), 11};
  CHECK(remap.at(10) == 1);
  CHECK(remap.at(1) == trace::kUntouchedSlot);
  std::vector<trace::Record> r = {slot_write(0), slot_write(10)};
  r.push_back({0, 0, 8, 0, static_cast<uint8_t>(Op::kTrim), 0});
  r.push_back(slot_write(10));
  CHECK(fdp::oracle_handles(r, 512, 2, false, 2, false, remap, true) == std::vector<uint8_t>{0, 0, 1});
  CHECK(fdp::oracle_handles(r, 512, 2, false, 2, false, remap, false) == std::vector<uint8_t>{0, 0, 1});
}

TEST_CASE("interval placement sends rewrites by observed interval, first writes to the last handle", "[fdp][unit]") {
  fdp::IntervalPlacement p(1024, 4);  // base interval 1024 / 2^3 = 128 slots
  CHECK(p.slot_handle(0, 5) == 3);    // first write
  for (uint32_t i = 0; i < 10; ++i) (void)p.slot_handle(0, 100 + i);
  CHECK(p.slot_handle(0, 5) == 0);  // rewritten after 11 slots
  for (uint32_t i = 0; i < 200; ++i) (void)p.slot_handle(0, 200 + i);
  CHECK(p.slot_handle(0, 5) == 1);  // after 201: [128, 256)
  for (uint32_t i = 0; i < 600; ++i) (void)p.slot_handle(0, (400 + i) % 1024);
  CHECK(p.slot_handle(0, 5) == 3);  // after 601: >= 512, capped at the last handle
}
