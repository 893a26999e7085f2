// The free space a replay onto a regular file takes (src/replay/space_need.h):
// hand-counted cases, then random traces against a naive count (a set of
// the units written that held no data), and a sparse file's data read back
// with its file system's free space.
#include <fcntl.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "cli/cli_run.h"
#include "common/records.h"
#include "core/io_identity.h"
#include "replay/request_stream.h"
#include "replay/space_need.h"

using ftlsim::replay::Extents;
using ftlsim::replay::IoRequest;
using ftlsim::replay::OpSet;
using ftlsim::replay::RequestStream;
using ftlsim::replay::space_need;
using ftlsim::replay::space_need_bound;
using ftlsim::replay::StreamGeometry;
using ftlsim::test::rec;
using ftlsim::trace::Op;
using ftlsim::trace::Record;

namespace {

StreamGeometry geometry(uint64_t target, const char* ops = "write,read,trim,flush") {
  StreamGeometry g;
  g.trace_path = "t.ftr";
  g.sector_bytes = 512;
  g.target_bytes = target;
  g.block_bytes = 512;
  g.max_io_bytes = 1u << 20;
  g.ops = OpSet::parse(ops);
  return g;
}

}  // namespace

TEST_CASE("space_need: the units a replay's writes reach in a file's holes, counted by hand", "[replay]") {
  const std::vector<Record> r = {
      rec(Op::kWrite, 0, 8),     // bytes [0, 4096): unit 0
      rec(Op::kWrite, 4, 8),     // [2048, 6144): units 0 and 1, 1 new
      rec(Op::kWrite, 0, 8),     // unit 0 again: nothing new
      rec(Op::kTrim, 0, 64),     // a punched hole gives nothing back (file systems return it late)
      rec(Op::kRead, 100, 8),    // reads allocate nothing
      rec(Op::kWrite, 16, 1),    // [8192, 8704): unit 2
      rec(Op::kWrite, 2040, 16)  // [1044480, 1052672): units 255 and 256, 2 new
  };
  const StreamGeometry g = geometry(2 << 20);
  CHECK(space_need(r, g, 4096, {}) == 5 * 4096);
  // Units that hold data already cost nothing: unit 0 and units 255..256.
  CHECK(space_need(r, g, 4096, Extents{{0, 4096}, {255 * 4096, 257 * 4096}}) == 2 * 4096);
  // An extent that touches a unit in part holds the unit: [4000, 4200) holds units 0 and 1.
  CHECK(space_need(r, g, 4096, Extents{{4000, 4200}}) == 3 * 4096);
  CHECK(space_need(r, g, 4096, Extents{{4000, 4050}}) == 4 * 4096);
  // Extents past the target hold none of its units; an empty one holds nothing; overlapping ones merge.
  CHECK(space_need(r, g, 4096, Extents{{3 << 20, (3 << 20) + 4096}, {8, 8}}) == 5 * 4096);
  CHECK(space_need(r, g, 4096, Extents{{4096, 8192}, {0, 5000}}) == 3 * 4096);
  // A larger unit: 64 KiB units 0 and 15 (1044480 / 65536 = 15.9, 1052672 / 65536 = 16.06): 0, 15, 16.
  CHECK(space_need(r, g, 65536, {}) == 3 * 65536);
  // A loop device at offset 2048 of its backing file: the units are the
  // file's, [2048, 6144) touches units 0 and 1, the last write
  // [1046528, 1054720) units 255 to 257: 0, 1, 2, 255, 256, 257; the data,
  // in the file's bytes, holds unit 0.
  CHECK(space_need(r, g, 4096, {}, 2048) == 6 * 4096);
  CHECK(space_need(r, g, 4096, Extents{{0, 4096}}, 2048) == 5 * 4096);
  // Writes not replayed (--ops) allocate nothing.
  CHECK(space_need(r, geometry(2 << 20, "read,trim"), 4096, {}) == 0);
}

TEST_CASE("space_need: a file exabytes long costs memory only where the trace writes", "[replay]") {
  const uint64_t target = uint64_t{1} << 62;
  const std::vector<Record> r = {rec(Op::kWrite, 0, 8), rec(Op::kWrite, target / 512 - 8, 8),
                                 rec(Op::kWrite, target / 1024, 8)};
  CHECK(space_need(r, geometry(target), 4096, {}) == 3 * 4096);
}

TEST_CASE("space_need equals a naive count of new units, and the scan's bound is never below it", "[replay]") {
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    std::mt19937_64 rng(seed);
    const uint64_t target = uint64_t{64} << 20;
    const uint64_t unit = uint64_t{512} << (rng() % 5);  // 512 B to 8 KiB
    std::vector<Record> r;
    for (int i = 0; i < 1000; ++i) {
      const uint32_t sectors = 1 + static_cast<uint32_t>(rng() % 600);
      const uint64_t lba = rng() % (target / 512 - sectors);
      const uint64_t k = rng() % 10;
      r.push_back(rec(k < 6 ? Op::kWrite : k < 8 ? Op::kRead : Op::kTrim, lba, sectors));
    }
    Extents held;
    for (int i = 0; i < 30; ++i) {
      const uint64_t start = rng() % target;
      held.emplace_back(start, start + rng() % (1 << 20));  // may be empty, overlap, pass the target's end
    }
    const StreamGeometry g = geometry(target);
    // The naive count: units of the data, then each write's units not in it.
    std::set<uint64_t> units;
    for (const auto& [start, end] : held) {
      for (uint64_t u = start / unit; u * unit < std::min(end, target); ++u) units.insert(u);
    }
    uint64_t fresh = 0;
    RequestStream s(r, g);
    IoRequest io;
    while (s.next(io)) {
      if (io.op != Op::kWrite) continue;
      for (uint64_t b = io.offset; b < io.offset + io.bytes; b += 512) fresh += units.insert(b / unit).second ? 1 : 0;
    }
    INFO("seed " << seed << ", unit " << unit);
    const uint64_t need = space_need(r, g, unit, held);
    CHECK(need == fresh * unit);
    CHECK(space_need_bound(ftlsim::replay::scan_stream(r, g), unit) >= space_need(r, g, unit, {}));
  }
}

TEST_CASE("data_extents reads a sparse file's data, fs_space_of its file system's free space", "[replay]") {
  const ftlsim::test::TempDir tmp("space-need");
  const std::string path = tmp.file("sparse.img");
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::ftruncate(fd, 4 << 20) == 0);
  const std::vector<char> data(8192, 'x');
  REQUIRE(::pwrite(fd, data.data(), data.size(), 1 << 20) == 8192);
  REQUIRE(::fsync(fd) == 0);
  const Extents extents = ftlsim::replay::data_extents(fd, path);
  const std::optional<ftlsim::FsSpace> space = ftlsim::fs_space_of(fd);
  ::close(fd);
  REQUIRE(space);
  CHECK(space->unit > 0);
  CHECK(space->free_bytes > 0);
  // The written bytes are data, whether the file system tells holes (ext4,
  // XFS, tmpfs: then [1 MiB, 1 MiB + 8 KiB) and nothing else of 4 MiB) or
  // not (the whole file).
  uint64_t total = 0;
  bool covers = false;
  for (const auto& [start, end] : extents) {
    total += end - start;
    covers = covers || (start <= (1u << 20) && end >= (1u << 20) + 8192);
  }
  CHECK(covers);
  CHECK(total <= (4u << 20));
  // Writing the data's range again needs nothing; where holes are told, a
  // write into one needs its unit.
  const std::vector<Record> over = {rec(Op::kWrite, 2048, 16)};
  CHECK(space_need(over, geometry(4 << 20), space->unit, extents) == 0);
  const std::vector<Record> hole = {rec(Op::kWrite, 0, 8)};
  CHECK(space_need(hole, geometry(4 << 20), space->unit, extents) == (total < (4u << 20) ? space->unit : 0));
}
