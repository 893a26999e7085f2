// compute_trace_stats on hand-built traces with hand-computed answers, the
// sparse footprint fallback against the bitmap and a brute-force set, and
// record validation.
#include <catch2/catch.hpp>

#include <random>
#include <set>

#include "core/error.h"
#include "test_util.h"
#include "trace/ftr_writer.h"
#include "trace/trace_stats.h"

using namespace ftlsim::trace;
using Catch::Contains;
using ftlsim::InputError;
using test::rec;

namespace {

// 512-byte sectors, 8 per 4 KiB page. Pages noted per record.
const std::vector<Record> kHand = {
    rec(100, Op::kWrite, 0, 8, 1),   // page 0
    rec(200, Op::kWrite, 8, 16, 1),  // pages 1-2
    rec(150, Op::kRead, 0, 1, 0),    // page 0; time goes backwards
    rec(300, Op::kRead, 64, 8, 2),   // page 8
    rec(310, Op::kTrim, 4, 8, 2),    // pages 0-1
    rec(320, Op::kFlush, 0, 0, 0),     rec(330, Op::kMarker, 1000, 0, 0), rec(340, Op::kWrite, 7, 2, 1),  // pages 0-1
    rec(350, Op::kMarker, 1005, 0, 0), rec(50, Op::kWrite, 1000, 1, 3),  // page 125; time goes backwards
};

void check_hand_stats(const TraceStats& s) {
  CHECK(s.records == 10);
  CHECK(s.sector_bytes == 512);
  CHECK(s.op(Op::kWrite).records == 4);
  CHECK(s.op(Op::kWrite).bytes == 27 * 512);
  CHECK(s.op(Op::kRead).records == 2);
  CHECK(s.op(Op::kRead).bytes == 9 * 512);
  CHECK(s.op(Op::kTrim).records == 1);
  CHECK(s.op(Op::kTrim).bytes == 4096);
  CHECK(s.op(Op::kFlush).records == 1);
  CHECK(s.op(Op::kFlush).bytes == 0);
  CHECK(s.op(Op::kMarker).records == 2);
  CHECK(s.op(Op::kMarker).bytes == 0);

  REQUIRE(s.pids.size() == 4);
  const PidStats expected[] = {
      {0, 4, 0, 512, 0},  // read, flush, two markers
      {1, 3, 26 * 512, 0, 0},
      {2, 2, 0, 4096, 4096},
      {3, 1, 512, 0, 0},
  };
  for (size_t i = 0; i < 4; ++i) {
    INFO("pid index " << i);
    CHECK(s.pids[i].pid == expected[i].pid);
    CHECK(s.pids[i].records == expected[i].records);
    CHECK(s.pids[i].write_bytes == expected[i].write_bytes);
    CHECK(s.pids[i].read_bytes == expected[i].read_bytes);
    CHECK(s.pids[i].trim_bytes == expected[i].trim_bytes);
  }

  CHECK(s.written_pages == 4);  // 0, 1, 2, 125
  CHECK(s.touched_pages == 5);  // and 8

  CHECK(s.first_time_ns == 100);
  CHECK(s.last_time_ns == 50);
  CHECK(s.min_time_ns == 50);
  CHECK(s.max_time_ns == 350);
  CHECK(s.backwards_timestamps == 2);

  CHECK(s.markers == 2);
  CHECK(s.first_marker == 1000);
  CHECK(s.last_marker == 1005);

  CHECK(s.has_lba_range());
  CHECK(s.min_lba == 0);
  CHECK(s.end_lba == 1001);
}

// Distinct pages by brute force.
std::pair<uint64_t, uint64_t> brute_footprint(const std::vector<Record>& records, unsigned shift) {
  std::set<uint64_t> written;
  std::set<uint64_t> touched;
  for (const Record& r : records) {
    if (r.op > 2) continue;
    for (uint64_t p = r.lba >> shift; p <= (r.lba + r.sectors - 1) >> shift; ++p) {
      touched.insert(p);
      if (r.op == 0) written.insert(p);
    }
  }
  return {written.size(), touched.size()};
}

}  // namespace

TEST_CASE("stats of a hand-built trace", "[stats]") {
  const TraceStats s = compute_trace_stats(kHand, 512, "hand");
  CHECK(s.footprint_by_bitmap);
  check_hand_stats(s);
}

TEST_CASE("the sparse footprint fallback gives the same numbers", "[stats]") {
  StatsOptions opts;
  opts.max_bitmap_bytes = 0;
  const TraceStats s = compute_trace_stats(kHand, 512, "hand", opts);
  CHECK_FALSE(s.footprint_by_bitmap);
  check_hand_stats(s);
}

TEST_CASE("stats read through FtrReader", "[stats]") {
  test::TempDir dir;
  const std::string path = dir.file("hand.ftr");
  {
    FtrWriter w(path, TraceMeta{});
    for (const Record& r : kHand) w.append(r);
    w.finish();
  }
  check_hand_stats(compute_trace_stats(FtrReader(path)));
}

TEST_CASE("huge sparse LBAs fall back without a huge bitmap", "[stats]") {
  const std::vector<Record> records = {
      rec(0, Op::kWrite, 0, 8),
      rec(1, Op::kWrite, uint64_t{1} << 62, UINT32_MAX),  // (2^32 - 1) sectors from a page start
      rec(2, Op::kRead, UINT64_MAX - 8, 8),               // the last sectors of the address space
  };
  const TraceStats s = compute_trace_stats(records, 512, "sparse");
  CHECK_FALSE(s.footprint_by_bitmap);
  CHECK(s.written_pages == 1 + (uint64_t{1} << 29));
  CHECK(s.touched_pages == s.written_pages + 2);  // sectors 2^64-9 .. 2^64-2 straddle two pages
  CHECK(s.end_lba == UINT64_MAX);
}

TEST_CASE("bitmap and sparse footprints agree with brute force", "[stats]") {
  std::mt19937_64 rng(12345);
  for (const uint32_t sector_bytes : {512U, 4096U}) {
    const unsigned shift = sector_bytes == 512 ? 3 : 0;
    std::vector<Record> records;
    for (int i = 0; i < 2000; ++i) {
      const auto op = static_cast<Op>(rng() % 3);
      records.push_back(rec(static_cast<uint64_t>(i), op, rng() % 5000, static_cast<uint32_t>(1 + rng() % 300)));
    }
    const auto [written, touched] = brute_footprint(records, shift);
    const TraceStats dense = compute_trace_stats(records, sector_bytes, "random");
    StatsOptions opts;
    opts.max_bitmap_bytes = 0;
    const TraceStats sparse = compute_trace_stats(records, sector_bytes, "random", opts);
    INFO("sector_bytes " << sector_bytes);
    CHECK(dense.footprint_by_bitmap);
    CHECK(dense.written_pages == written);
    CHECK(dense.touched_pages == touched);
    CHECK(sparse.written_pages == written);
    CHECK(sparse.touched_pages == touched);
  }
}

TEST_CASE("4 KiB sectors count one page per sector", "[stats]") {
  const std::vector<Record> records = {rec(0, Op::kWrite, 10, 3), rec(1, Op::kRead, 12, 4)};
  const TraceStats s = compute_trace_stats(records, 4096, "4k");
  CHECK(s.op(Op::kWrite).bytes == 3 * 4096);
  CHECK(s.written_pages == 3);
  CHECK(s.touched_pages == 6);
}

TEST_CASE("an empty trace has zero stats", "[stats]") {
  const TraceStats s = compute_trace_stats(std::span<const Record>(), 512, "empty");
  CHECK(s.records == 0);
  CHECK(s.pids.empty());
  CHECK(s.written_pages == 0);
  CHECK(s.touched_pages == 0);
  CHECK(s.min_time_ns == 0);
  CHECK(s.max_time_ns == 0);
  CHECK_FALSE(s.has_lba_range());
  CHECK(s.markers == 0);
}

TEST_CASE("only flushes and markers: no LBA range, no footprint", "[stats]") {
  const std::vector<Record> records = {rec(0, Op::kFlush, 0, 0), rec(5, Op::kMarker, 77, 0)};
  const TraceStats s = compute_trace_stats(records, 512, "meta-only");
  CHECK_FALSE(s.has_lba_range());
  CHECK(s.touched_pages == 0);
  CHECK(s.markers == 1);
  CHECK(s.first_marker == 77);
  CHECK(s.last_marker == 77);
}

TEST_CASE("the first malformed record is reported with its index", "[stats]") {
  std::vector<Record> records = kHand;
  records[3].op = 9;
  records[6].sectors = 1;
  CHECK_THROWS_AS(compute_trace_stats(records, 512, "bad.ftr"), InputError);
  CHECK_THROWS_WITH(compute_trace_stats(records, 512, "bad.ftr"), "bad.ftr: record 3: unknown op 9");
  records[3].op = 1;
  CHECK_THROWS_WITH(compute_trace_stats(records, 512, "bad.ftr"),
                    "bad.ftr: record 6: marker with non-zero length (1 sectors)");
}
