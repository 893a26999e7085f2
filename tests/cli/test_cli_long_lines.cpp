// A text input whose line never ends (a 64 GiB sparse file: 64 GiB of zero
// bytes and no '\n') is refused at once, having read 4 KiB of it: every
// importer and every sidecar (--markers, --hints, --pid-map). Each used to
// look for the end of the line first: 22-29 s per 100 GB, and the sidecars,
// which had no limit, minutes (--markers was still running at 120 s). The
// library tests (tests/trace/import/test_bad_input_table.cpp) show the bytes
// read; here the binary runs under `timeout 60`, a bound no run that reads
// 4 KiB comes near.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_run.h"
#include "trace/crc32.h"

using ftlsim::test::run_shell;
using ftlsim::test::TempDir;

namespace {

// exit 2, one line naming `file` and line 1 as longer than the limit.
void check_refused_at_once(const std::string& args, const std::string& file) {
  const ftlsim::test::RunResult r = run_shell("timeout 60 " + std::string(FTLSIM_BINARY) + " " + args);
  INFO(args << "\n" << r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output ==
        "ftlsim: error: " + file + ": line 1: line is more than 4096 bytes long (limit 4096); is this a text trace?\n");
}

}  // namespace

TEST_CASE("a line without end is refused at once, whatever the file's size: every format and sidecar", "[cli]") {
  const TempDir tmp("long-lines");
  const std::string sparse = tmp.file("sparse.txt");
  ftlsim::test::put(sparse, "");
  std::filesystem::resize_file(sparse, std::uintmax_t{64} << 30);  // a hole: no disk space used
  const std::string out = tmp.file("o.ftr");
  const std::vector<std::string> formats = {
      "disksim", "blkparse", "ftrace-blk", "msr", "alibaba", "tencent", "csv --columns lba=#1,length=#2 --no-header"};
  for (const std::string& f : formats) {
    DYNAMIC_SECTION("--from " << f) {
      check_refused_at_once("convert --from " + f + " " + sparse + " -o " + out, sparse);
    }
  }
  // Each sidecar beside a good input.
  const std::string blk = tmp.file("in.blk");
  ftlsim::test::put(blk, "8,16 0 1 0.000000010 42 D W 0 + 8 [app]\n");
  const std::string csv = tmp.file("in.csv");
  ftlsim::test::put(csv, "time,op,lba,length,pid\n10,write,0,8,0\n");
  const std::string convert_csv = "convert --from csv " + csv + " -o " + out +
                                  " --keep-time --columns time=time,lba=lba,length=length,op=op,pid=pid";
  SECTION("--markers") { check_refused_at_once(convert_csv + " --markers " + sparse, sparse); }
  SECTION("--hints") {
    check_refused_at_once("convert --from blkparse " + blk + " -o " + out + " --hints " + sparse, sparse);
  }
  SECTION("--pid-map") {
    check_refused_at_once("convert --from blkparse " + blk + " -o " + out + " --pid-map " + sparse, sparse);
  }
  CHECK_FALSE(std::filesystem::exists(out));
}

// The same for a .ftr (hostile rerun 2, N8): a 64 GiB sparse trace whose
// header is valid and whose records are all zero (record 0: a zero-length
// write) is refused at its first record by simulate, compare, qd-sweep and replay,
// whose first pass over the records used to be a sum of the bytes written
// (then the trace's hash for the config_key), reading all 64 GiB first
// (simulate: still running at 30 s for 20 GiB, 11.5 GB resident).
TEST_CASE("a huge trace whose first record is malformed is refused at once by every model command", "[cli]") {
  const TempDir tmp("huge-bad-ftr");
  const std::string good = tmp.file("one.ftr");
  REQUIRE(
      run_shell(std::string(FTLSIM_BINARY) + " gen --pattern uniform --logical 8M --writes 1 -o " + good).exit_code ==
      0);
  std::string bytes = ftlsim::test::slurp(good);
  REQUIRE(bytes.size() >= 48 + 24);
  uint32_t header_bytes = 0;
  std::memcpy(&header_bytes, bytes.data() + 16, 4);
  REQUIRE(bytes.size() == header_bytes + 24);
  const uint64_t count = (uint64_t{64} << 30) / 24;
  std::string header = bytes.substr(0, header_bytes);
  std::memcpy(header.data() + 32, &count, 8);
  std::memset(header.data() + 28, 0, 4);
  const uint32_t crc = ftlsim::trace::crc32(header);
  std::memcpy(header.data() + 28, &crc, 4);
  const std::string huge = tmp.file("huge.ftr");
  ftlsim::test::put(huge, header);
  std::filesystem::resize_file(huge, header_bytes + count * 24);  // zero records: a hole
  const std::string dev = " --preset femu-eth-512m --no-progress";
  for (const std::string& args :
       {"--trace " + huge + dev, "--trace " + huge + dev + " --out " + tmp.file("o"),
        "--trace " + huge + dev + " --gc-thres 60,70 --out " + tmp.file("sw"),
        "compare --trace " + huge + dev + " --b \"--gc-thres 70\"", "qd-sweep --trace " + huge + dev + " --qd 1,2",
        "replay --no-progress --trace " + huge + " --target " + tmp.file("r.img") + " --create 8M"}) {
    const ftlsim::test::RunResult r = run_shell("timeout 60 " + std::string(FTLSIM_BINARY) + " " + args);
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains(huge + ": record 0: zero-length write"));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  }
}
