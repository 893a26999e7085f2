// The write-hint join's index (HintIndex, placement_id_source.h) against a
// brute-force join on the inputs that made the old time-ordered walk
// quadratic: many rows of one 128 KiB bucket sharing a time stamp, and rows
// of a bucket that never overlap the request. Plus hand cases for the
// tie-breaks. (Speed is measured by bench/bench_hints.py, not asserted.)
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <optional>
#include <random>
#include <tuple>
#include <vector>

#include "trace/import/placement_id_source.h"

using namespace ftlsim::trace;

namespace {

struct Row {
  uint64_t time, sector, sectors;
  uint32_t dev;
};

std::string to_log(const std::vector<Row>& rows) {
  std::string log = "time_ns,dev,sector,sectors,hint,stream,ino,pid,comm\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    log += fmt::format("{},{}:{},{},{},{},0,0,1,x\n", r.time, r.dev >> 20, r.dev & kMaxMinor, r.sector, r.sectors,
                       i % 65536);
  }
  return log;
}

// The definition: among rows on `dev` (any device when !match_dev)
// overlapping [lba, lba + n) within `tol` of `t`, the least (|dt|, time, row).
std::optional<uint16_t> brute(const std::vector<Row>& rows, bool match_dev, uint32_t dev, uint64_t lba, uint32_t n,
                              uint64_t t, uint64_t tol) {
  std::optional<std::tuple<uint64_t, uint64_t, uint32_t>> best;
  const uint64_t end = lba + std::max<uint32_t>(n, 1);
  for (uint32_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    if ((match_dev && r.dev != dev) || r.sector >= end || r.sector + r.sectors <= lba) continue;
    const uint64_t dt = r.time > t ? r.time - t : t - r.time;
    if (dt > tol) continue;
    const auto key = std::make_tuple(dt, r.time, i);
    if (!best || key < *best) best = key;
  }
  if (!best) return std::nullopt;
  return static_cast<uint16_t>(std::get<2>(*best) % 65536);
}

}  // namespace

TEST_CASE("hint join: equal to brute force on one-bucket, same-time and disjoint logs", "[trace][unit][hints]") {
  struct Shape {
    const char* name;
    uint64_t sector_span;  // rows and requests start in [0, span)
    uint64_t times;        // distinct time stamps (1 = all equal)
    uint64_t max_sectors;
    bool aligned;  // 8-sector aligned 4 KiB rows, requests on other pages (disjoint)
  };
  const Shape shapes[] = {
      {"one bucket, one time stamp", 256, 1, 16, false},   {"one bucket, three time stamps", 256, 3, 64, false},
      {"one bucket, disjoint pages", 256, 500, 8, true},   {"many buckets, wide rows", 200000, 50, 40000, false},
      {"small extents, coarse times", 4096, 20, 8, false},
  };
  std::mt19937_64 rng(14);
  const uint32_t devs[] = {make_dev(8, 16), make_dev(259, 1)};
  for (const Shape& s : shapes) {
    for (const bool match_dev : {true, false}) {
      DYNAMIC_SECTION(s.name << (match_dev ? ", devices compared" : ", devices ignored")) {
        std::vector<Row> rows;
        for (int i = 0; i < 2500; ++i) {
          Row r{};
          r.time = 1'000'000 + (rng() % s.times) * 700;
          r.dev = devs[rng() % 2];
          if (s.aligned) {
            r.sector = (rng() % (s.sector_span / 16)) * 16 + 8;  // odd 4 KiB pages
            r.sectors = 8;
          } else {
            r.sector = rng() % s.sector_span;
            r.sectors = 1 + rng() % s.max_sectors;
          }
          rows.push_back(r);
        }
        HintIndex idx = HintIndex::parse(to_log(rows), "h", {});
        idx.set_match_device(match_dev);
        uint64_t found = 0;
        for (int q = 0; q < 2500; ++q) {
          const uint32_t dev = devs[rng() % 2];
          uint64_t lba = rng() % (s.sector_span + 64);
          auto n = static_cast<uint32_t>(1 + rng() % 24);
          if (s.aligned && q % 2 == 0) {  // even pages: no row overlaps
            lba = (rng() % (s.sector_span / 16)) * 16;
            n = 8;
          }
          const uint64_t t = 1'000'000 + (rng() % (s.times + 2)) * 700 - 350 * (rng() % 2);
          const uint64_t tol = q % 3 == 0 ? 700 : 1'000'000'000;
          const auto want = brute(rows, match_dev, dev, lba, n, t, tol);
          INFO("query " << q << " lba " << lba << " n " << n << " t " << t << " tol " << tol);
          REQUIRE(idx.lookup(dev, lba, n, t, tol) == want);
          found += want.has_value();
        }
        CHECK(found > 100);  // the cases exercise matches, not only misses
      }
    }
  }
}

TEST_CASE("hint join: hand cases for ties, tolerance and overlap", "[trace][unit][hints]") {
  const uint32_t d = make_dev(8, 0);
  // rows: 0 and 1 share time 100 and extent; 2 is 10 ns later; 3 covers
  // sectors 100-107 only; 4 is 10 ns earlier than 100.
  const std::string log =
      "time_ns,dev,sector,sectors,hint,stream\n"
      "100,8:0,0,8,11,0\n"
      "100,8:0,0,8,12,0\n"
      "110,8:0,0,8,13,0\n"
      "100,8:0,100,8,14,0\n"
      "90,8:0,4,8,15,0\n";
  const HintIndex idx = HintIndex::parse(log, "h", {});
  CHECK(idx.lookup(d, 0, 8, 100, 1000) == std::optional<uint16_t>(11));    // equal time: the first row
  CHECK(idx.lookup(d, 0, 8, 105, 1000) == std::optional<uint16_t>(11));    // 5 ns either side: earlier wins
  CHECK(idx.lookup(d, 0, 4, 109, 1000) == std::optional<uint16_t>(13));    // row 4 starts at 4: no overlap
  CHECK(idx.lookup(d, 8, 8, 95, 1000) == std::optional<uint16_t>(15));     // only row 4 reaches sector 8
  CHECK(idx.lookup(d, 10, 80, 100, 1000) == std::optional<uint16_t>(15));  // only row 4 overlaps [10, 90)
  CHECK(idx.lookup(d, 104, 1, 100, 0) == std::optional<uint16_t>(14));     // tolerance 0, exact time
  CHECK(idx.lookup(d, 104, 1, 101, 0) == std::nullopt);                    // 1 ns off, tolerance 0
  CHECK(idx.lookup(d, 108, 8, 100, 1000) == std::nullopt);                 // just past row 3's end
  CHECK(idx.lookup(make_dev(8, 1), 0, 8, 100, 1000) == std::nullopt);      // other device
}
