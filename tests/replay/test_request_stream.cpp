// Records to I/Os (src/replay/request_stream.h): alignment, splitting,
// wrapping, op selection, and refusal of ranges beyond the target. Expected
// I/Os are worked out by hand below each case.
#include <catch2/catch.hpp>

#include <vector>

#include "common/records.h"
#include "core/error.h"
#include "replay/request_stream.h"

using Catch::Contains;
using ftlsim::replay::IoRequest;
using ftlsim::replay::OpSet;
using ftlsim::replay::RequestStream;
using ftlsim::replay::StreamGeometry;
using ftlsim::test::rec;
using ftlsim::trace::Op;
using ftlsim::trace::Record;

namespace {

StreamGeometry geometry(uint64_t target, uint32_t block, uint32_t max_io) {
  StreamGeometry g;
  g.trace_path = "t.ftr";
  g.sector_bytes = 512;
  g.target_bytes = target;
  g.block_bytes = block;
  g.max_io_bytes = max_io;
  g.ops = OpSet::parse("write,read,trim,flush");
  return g;
}

std::vector<IoRequest> all(const std::vector<Record>& records, const StreamGeometry& g) {
  RequestStream s(records, g);
  std::vector<IoRequest> out;
  IoRequest io;
  while (s.next(io)) out.push_back(io);
  return out;
}

}  // namespace

TEST_CASE("aligned requests pass through unchanged", "[replay][unit]") {
  const std::vector<Record> r = {rec(Op::kWrite, 8, 8, 3), rec(Op::kRead, 0, 16), rec(Op::kTrim, 64, 64)};
  const auto io = all(r, geometry(1 << 20, 4096, 1 << 20));
  REQUIRE(io.size() == 3);
  CHECK(io[0].offset == 4096);
  CHECK(io[0].bytes == 4096);
  CHECK(io[0].pid == 3);
  CHECK(io[0].op == Op::kWrite);
  CHECK(io[1].offset == 0);
  CHECK(io[1].bytes == 8192);
  CHECK(io[2].offset == 32768);
  CHECK(io[2].bytes == 32768);
  CHECK(io[2].record == 2);
}

TEST_CASE("unaligned ranges widen to whole blocks", "[replay][unit]") {
  // Sectors [9, 10) = bytes [4608, 5120) -> block [4096, 8192).
  // Sectors [7, 10) = bytes [3584, 5120) -> blocks [0, 8192).
  const std::vector<Record> r = {rec(Op::kWrite, 9, 1), rec(Op::kWrite, 7, 3)};
  const auto io = all(r, geometry(1 << 20, 4096, 1 << 20));
  REQUIRE(io.size() == 2);
  CHECK(io[0].offset == 4096);
  CHECK(io[0].bytes == 4096);
  CHECK(io[1].offset == 0);
  CHECK(io[1].bytes == 8192);
  const auto scan = ftlsim::replay::scan_stream(r, geometry(1 << 20, 4096, 1 << 20));
  CHECK(scan.widened == 2);
  // With 512-byte blocks nothing widens.
  CHECK(ftlsim::replay::scan_stream(r, geometry(1 << 20, 512, 1 << 20)).widened == 0);
}

// A trim is narrowed to the whole blocks inside it: widened, it discarded
// sectors the trace wrote and never trimmed (a 1-sector trim on a
// 4096-byte-block device erased the 7 sectors beside it).
// Sectors [3, 4) = bytes [1536, 2048): no whole block, nothing sent.
// Sectors [7, 25) = bytes [3584, 12800) -> blocks [4096, 12288).
// Sectors [8, 16) = bytes [4096, 8192): aligned, as is.
TEST_CASE("unaligned trims narrow to the whole blocks inside them", "[replay][unit]") {
  const std::vector<Record> r = {rec(Op::kWrite, 0, 32), rec(Op::kTrim, 3, 1), rec(Op::kTrim, 7, 18),
                                 rec(Op::kTrim, 8, 8)};
  const auto io = all(r, geometry(1 << 20, 4096, 1 << 20));
  REQUIRE(io.size() == 3);
  CHECK(io[0].op == Op::kWrite);
  CHECK(io[1].op == Op::kTrim);
  CHECK(io[1].record == 2);
  CHECK(io[1].offset == 4096);
  CHECK(io[1].bytes == 8192);
  CHECK(io[2].record == 3);
  CHECK(io[2].offset == 4096);
  CHECK(io[2].bytes == 4096);
  const auto scan = ftlsim::replay::scan_stream(r, geometry(1 << 20, 4096, 1 << 20));
  CHECK(scan.narrowed == 2);
  CHECK(scan.dropped_trims == 1);
  CHECK(scan.widened == 0);
  CHECK(scan.ios[static_cast<size_t>(Op::kTrim)] == 2);
  CHECK(scan.bytes[static_cast<size_t>(Op::kTrim)] == 12288);
  // With 512-byte blocks every trim is whole.
  const auto fine = ftlsim::replay::scan_stream(r, geometry(1 << 20, 512, 1 << 20));
  CHECK(fine.narrowed == 0);
  CHECK(fine.ios[static_cast<size_t>(Op::kTrim)] == 3);
}

TEST_CASE("long reads and writes split at max_io, trims do not", "[replay][unit]") {
  // 1 MiB + 8 KiB write at 0 with 256 KiB I/Os: 4 x 256 KiB + 8 KiB.
  const std::vector<Record> r = {rec(Op::kWrite, 0, 2048 + 16), rec(Op::kTrim, 0, 2048 + 16)};
  const auto io = all(r, geometry(4 << 20, 4096, 256 << 10));
  REQUIRE(io.size() == 6);
  for (int i = 0; i < 4; ++i) {
    CHECK(io[i].offset == uint64_t(i) * (256 << 10));
    CHECK(io[i].bytes == (256u << 10));
    CHECK(io[i].record == 0);
  }
  CHECK(io[4].offset == (1u << 20));
  CHECK(io[4].bytes == 8192);
  CHECK(io[5].op == Op::kTrim);
  CHECK(io[5].bytes == (1u << 20) + 8192);
  const auto scan = ftlsim::replay::scan_stream(r, geometry(4 << 20, 4096, 256 << 10));
  CHECK(scan.split == 1);
  CHECK(scan.ios[0] == 5);
  CHECK(scan.bytes[0] == (1u << 20) + 8192);
  CHECK(scan.largest_data_io == (256u << 10));
}

TEST_CASE("beyond the target: refused, or folded and split with wrap", "[replay][unit]") {
  // Target 64 KiB. A 16 KiB write at 56 KiB ends at 72 KiB.
  const std::vector<Record> r = {rec(Op::kWrite, 112, 32)};
  StreamGeometry g = geometry(64 << 10, 4096, 1 << 20);
  CHECK_THROWS_WITH(all(r, g), Contains("t.ftr: record 0: write of sectors [112, 144)") &&
                                   Contains("ends beyond the target's 65536 bytes") && Contains("use --wrap"));
  g.wrap = true;
  const auto io = all(r, g);
  REQUIRE(io.size() == 2);  // [56K, 64K) then [0, 8K)
  CHECK(io[0].offset == (56u << 10));
  CHECK(io[0].bytes == (8u << 10));
  CHECK(io[1].offset == 0);
  CHECK(io[1].bytes == (8u << 10));
  // A write far beyond: LBA 1000 sectors = 500 KiB -> 500 mod 64 = 52 KiB.
  const std::vector<Record> far = {rec(Op::kWrite, 1000, 8)};
  const auto f = all(far, g);
  REQUIRE(f.size() == 1);
  CHECK(f[0].offset == (52u << 10));
  CHECK(ftlsim::replay::scan_stream(far, g).wrapped == 1);
  // Longer than the whole target: refused even with wrap.
  const std::vector<Record> huge = {rec(Op::kWrite, 0, 256)};
  CHECK_THROWS_WITH(all(huge, g), Contains("is longer than the target's 65536 bytes"));
  // An LBA whose byte offset overflows 64 bits is beyond any target.
  const std::vector<Record> overflow = {rec(Op::kWrite, UINT64_MAX / 256, 8)};
  g.wrap = false;
  CHECK_THROWS_AS(all(overflow, g), ftlsim::InputError);
}

TEST_CASE("ops not selected are skipped, markers are remembered, flush has no range", "[replay][unit]") {
  const std::vector<Record> r = {rec(Op::kWrite, 0, 8), rec(Op::kMarker, 42, 0), rec(Op::kRead, 0, 8),
                                 rec(Op::kFlush, 0, 0), rec(Op::kTrim, 0, 8),    rec(Op::kWrite, 8, 8)};
  StreamGeometry g = geometry(1 << 20, 4096, 1 << 20);
  g.ops = OpSet::parse("write,flush");
  RequestStream s(r, g);
  IoRequest io;
  REQUIRE(s.next(io));
  CHECK(io.op == Op::kWrite);
  CHECK_FALSE(s.last_marker());
  REQUIRE(s.next(io));
  CHECK(io.op == Op::kFlush);
  CHECK(io.bytes == 0);
  CHECK(io.record == 3);
  CHECK(s.last_marker() == uint64_t{42});
  REQUIRE(s.next(io));
  CHECK(io.record == 5);
  CHECK_FALSE(s.next(io));
  CHECK(s.position() == r.size());
  const auto scan = ftlsim::replay::scan_stream(r, g);
  CHECK(scan.skipped[static_cast<size_t>(Op::kRead)] == 1);
  CHECK(scan.skipped[static_cast<size_t>(Op::kTrim)] == 1);
  CHECK(scan.ios[static_cast<size_t>(Op::kWrite)] == 2);
  CHECK(scan.ios[static_cast<size_t>(Op::kFlush)] == 1);
}

TEST_CASE("malformed records are refused with their index", "[replay][unit]") {
  const std::vector<Record> r = {rec(Op::kWrite, 0, 8), rec(Op::kWrite, 0, 0)};
  CHECK_THROWS_WITH(all(r, geometry(1 << 20, 4096, 1 << 20)), Contains("t.ftr: record 1:"));
  std::vector<Record> bad_op = {rec(Op::kWrite, 0, 8)};
  bad_op[0].op = 9;
  CHECK_THROWS_WITH(all(bad_op, geometry(1 << 20, 4096, 1 << 20)), Contains("record 0"));
}

TEST_CASE("write placement IDs are collected", "[replay][unit]") {
  const std::vector<Record> r = {rec(Op::kWrite, 0, 8, 5), rec(Op::kRead, 0, 8, 9), rec(Op::kWrite, 8, 8, 2),
                                 rec(Op::kWrite, 16, 8, 5)};
  const auto scan = ftlsim::replay::scan_stream(r, geometry(1 << 20, 4096, 1 << 20));
  CHECK(scan.write_pids == std::vector<uint16_t>{2, 5});
}

TEST_CASE("op lists parse and bad words are named", "[replay][unit]") {
  const OpSet s = OpSet::parse("trim,write");
  CHECK(s.has(Op::kWrite));
  CHECK(s.has(Op::kTrim));
  CHECK_FALSE(s.has(Op::kRead));
  CHECK(s.text() == "write,trim");
  CHECK_THROWS_WITH(OpSet::parse("write,erase"), Contains("`ops`: 'erase' is not an op"));
  CHECK_THROWS_WITH(OpSet::parse("write,"), Contains("'' is not an op"));
}
