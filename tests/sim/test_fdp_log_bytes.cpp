// The FDP statistics log counts what the host sent: HBMW and MBMW grow by
// nlb x sector bytes per write (FEMU 99ce4fb, nvme_do_write_fdp: data_bytes =
// nlb x secsz into the endurance group's and the handle's HBMW and MBMW),
// GC adds its whole 4 KiB slots to MBMW (do_gc_fdp_style's statistics
// calls). The slot counters are unchanged by this: a partly covered slot is
// still programmed whole (docs/model.md rule 15). Every expected number is
// derived by hand in the comment above it.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <string>

#include "ftl/geometry.h"
#include "sim/report.h"
#include "sim/simulate.h"
#include "sim_test_util.h"

using namespace ftlsim;
using trace::Op;

namespace {

// 2 channels x 1 LUN x 1 plane x 4 pages: units of 8 slots.
ftl::FtlConfig log_device(uint32_t lines, uint64_t logical_slots, double thres, double high) {
  return test::two_channel_device(4, lines, logical_slots, thres, high);
}

fdp::PlacementSetup placement(const char* kind, uint32_t handles) {
  fdp::PlacementSetup p;
  p.placement = fdp::parse_placement(kind);
  p.fdp.handles = handles;
  return p;
}

}  // namespace

// Two handles, no GC (8 lines of 8 slots, GC 75/85; 9 slots written, none
// of the open RUs fills). Requests, in
// 512-byte sectors:
//   lba  0, 12 sectors, pid 0: bytes [0, 6144)      slots 0, 1   (slot 1 partial)
//   lba 12, 12 sectors, pid 0: bytes [6144, 12288)  slots 1, 2   (slot 1 partial)
//   lba 24, 12 sectors, pid 0: bytes [12288, 18432) slots 3, 4   (slot 4 partial)
//   lba 40,  2 sectors, pid 1: bytes [20480, 21504) slot 5       (partial)
//   lba 48,  8 sectors, pid 1: bytes [24576, 28672) slot 6
//   lba  0,  1 sector,  pid 5: no handle 5: written through ruh0, slot 0 (partial)
// HBMW: ruh0 3 x 6144 + 512 = 18944, ruh1 1024 + 4096 = 5120, total 24064.
// Slots programmed: ruh0 2 + 2 + 2 + 1 = 7, ruh1 1 + 1 = 2; 5 partly covered.
TEST_CASE("FDP log: HBMW and MBMW in the bytes the host sent, per handle", "[validation]") {
  const auto c = log_device(8, 16, 75, 85);
  const std::vector<trace::Record> recs = {test::rec(Op::kWrite, 0, 12, 0),  test::rec(Op::kWrite, 12, 12, 0),
                                           test::rec(Op::kWrite, 24, 12, 0), test::rec(Op::kWrite, 40, 2, 1),
                                           test::rec(Op::kWrite, 48, 8, 1),  test::rec(Op::kWrite, 0, 1, 5)};
  const auto r = test::simulate_records(c, recs, {}, placement("fdp", 2));
  CHECK(r.host_sent_bytes == 24064);
  CHECK(r.ftl.host_slots == 9);
  CHECK(r.ftl.gc_slots == 0);
  CHECK(r.requests.rmw_slots == 5);
  REQUIRE(r.handles.size() == 2);
  CHECK(r.handles[0].hbmw_bytes == 18944);
  CHECK(r.handles[0].mbmw_bytes == 18944);
  CHECK(r.handles[0].host_bytes == 7 * 4096);
  CHECK(r.handles[1].hbmw_bytes == 5120);
  CHECK(r.handles[1].host_bytes == 2 * 4096);
  CHECK(r.invalid_pid_requests == 1);
  sim::RunDescription d;
  d.trace_path = "t.ftr";
  d.config = c;
  d.placement = placement("fdp", 2);
  const std::string j = sim::summary_json(d, r);
  CHECK_THAT(j, Catch::Contains("\"hbmw\": 24064") && Catch::Contains("\"mbmw\": 24064") &&
                    Catch::Contains("\"hbmw\": 18944") && Catch::Contains("\"hbmw\": 5120"));
}

// A 6 KiB stream on the line path (5 lines of 8 slots, 16 logical slots =
// 128 sectors, GC 75/75). Requests of 12 sectors go up the space and start
// again at LBA 0 when the next would pass its end, so request 10k + j covers
// bytes [6144 j, 6144 (j + 1)), j = 0..9: slots 3j/2 and 3j/2 + 1 for even
// j, (3j - 1)/2 and (3j + 1)/2 for odd j, two slots either way. With n = 48
// requests: host slots = 2n = 96 and HBMW = 6144 n, whatever GC does;
// MBMW = HBMW + 4096 x GC slots. The log's WAF MBMW / HBMW then exceeds the
// slot WAF (2n + G) / 2n whenever G > 0, as 4096 G / 6144 n > G / 2n.
TEST_CASE("FDP log: an unaligned stream gives the log WAF from the bytes sent", "[validation]") {
  const auto c = log_device(5, 16, 75, 75);
  std::vector<trace::Record> recs;
  const uint64_t space = 16 * 8;  // sectors
  uint64_t lba = 0;
  for (int i = 0; i < 48; ++i) {
    if (lba + 12 > space) lba = 0;  // restart at 0 so no request wraps
    recs.push_back(test::rec(Op::kWrite, lba, 12, 0));
    lba += 12;
  }
  const auto r = test::simulate_records(c, recs, {}, placement("single", 1));
  CHECK(r.ftl.host_slots == 96);
  CHECK(r.host_sent_bytes == 48 * 6144);
  REQUIRE(r.ftl.gc_slots > 0);
  sim::RunDescription d;
  d.trace_path = "t.ftr";
  d.config = c;
  const std::string j = sim::summary_json(d, r);
  const uint64_t mbmw = 48 * 6144 + r.ftl.gc_slots * 4096;
  CHECK_THAT(
      j, Catch::Contains(fmt::format("\"hbmw\": {}", 48 * 6144)) && Catch::Contains(fmt::format("\"mbmw\": {}", mbmw)));
  const double log_waf = static_cast<double>(mbmw) / (48 * 6144);
  const double slot_waf = static_cast<double>(96 + r.ftl.gc_slots) / 96;
  CHECK(log_waf > slot_waf);
  CHECK(r.ftl.waf() == Approx(slot_waf));
}
