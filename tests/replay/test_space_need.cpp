// The free space a replay onto a regular file takes (src/replay/space_need.h):
// hand-counted cases, then random traces against a naive count (a set of
// the units written that held no data), and a sparse file's data read back.
#include <fcntl.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "cli/cli_run.h"
#include "common/records.h"
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
  CHECK(space_need(r, g, 4096, Extents{{0, 4096}, {255 * 4096, 2 * 4096}}) == 2 * 4096);
  // An extent that touches a unit in part holds the unit: [4000, 4200) holds units 0 and 1.
  CHECK(space_need(r, g, 4096, Extents{{4000, 200}}) == 3 * 4096);
  CHECK(space_need(r, g, 4096, Extents{{4000, 50}}) == 4 * 4096);
  // Extents past the target are ignored; an empty one holds nothing.
  CHECK(space_need(r, g, 4096, Extents{{3 << 20, 4096}, {0, 0}}) == 5 * 4096);
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
    for (int i = 0; i < 30; ++i) held.emplace_back(rng() % target, rng() % (1 << 20));
    const StreamGeometry g = geometry(target);
    // The naive count: units of the data, then each write's units not in it.
    std::set<uint64_t> units;
    for (const auto& [off, len] : held) {
      const uint64_t end = std::min(off + len, target);
      for (uint64_t u = off / unit; len != 0 && off < target && u * unit < end; ++u) units.insert(u);
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

TEST_CASE("read_file_space: a sparse file's data and its file system's free space", "[replay]") {
  const ftlsim::test::TempDir tmp("space-need");
  const std::string path = tmp.file("sparse.img");
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::ftruncate(fd, 4 << 20) == 0);
  const std::vector<char> data(8192, 'x');
  REQUIRE(::pwrite(fd, data.data(), data.size(), 1 << 20) == 8192);
  REQUIRE(::fsync(fd) == 0);
  const ftlsim::replay::FileSpace fs = ftlsim::replay::read_file_space(fd, fd, path);
  const int dir = ::open(tmp.file("").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(dir >= 0);
  const ftlsim::replay::FileSpace folder = ftlsim::replay::read_file_space(dir, -1, tmp.file("new.img"));
  ::close(dir);
  ::close(fd);
  CHECK(fs.unit > 0);
  CHECK(fs.free_bytes > 0);
  CHECK(folder.allocated.empty());  // a file still to be created holds nothing
  CHECK(folder.unit == fs.unit);
  // The written bytes are data, whether the file system tells holes (ext4,
  // XFS, tmpfs: then [1 MiB, 1 MiB + 8 KiB) and nothing else of 4 MiB) or
  // not (the whole file).
  uint64_t total = 0;
  bool covers = false;
  for (const auto& [off, len] : fs.allocated) {
    total += len;
    covers = covers || (off <= (1u << 20) && off + len >= (1u << 20) + 8192);
  }
  CHECK(covers);
  CHECK(total <= (4u << 20));
  // Writing the data's range again needs nothing; a write into a hole needs its unit.
  const std::vector<Record> over = {rec(Op::kWrite, 2048, 16)};
  CHECK(space_need(over, geometry(4 << 20), fs.unit, fs.allocated) == 0);
}
