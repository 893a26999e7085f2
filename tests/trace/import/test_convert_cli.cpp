// `ftlsim convert` end to end for the text importers: the report line, exit
// codes, messages, and that a failed conversion leaves no file.
#include <catch2/catch.hpp>

#include <fstream>

#include <filesystem>

#include "blktrace_records.h"
#include "cli/cli_run.h"
#include "test_util.h"
#include "trace/ftr_reader.h"

using namespace ftlsim::trace;
using namespace ftlsim::trace::test;
using Catch::Contains;
using ftlsim::test::run_ftlsim;
namespace fs = std::filesystem;

namespace {

// The records of a .ftr file, as bytes.
std::string record_bytes_of(const std::string& path) {
  const FtrReader r(path);
  const auto recs = r.records();
  return {reinterpret_cast<const char*>(recs.data()), recs.size_bytes()};
}

size_t line_count(const std::string& s) {
  size_t n = 0;
  for (const char c : s) n += c == '\n' ? 1 : 0;
  return n;
}

std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

// Markers are counted in the report line when there are some: the line's
// counts add up to the records written (a marker-only CSV read "1 records
// written (0 writes, 0 reads, 0 trims, 0 flushes)").
TEST_CASE("convert: the report line counts markers", "[trace][cli]") {
  TempDir dir;
  const std::string csv = dir.file("m.csv");
  std::ofstream(csv) << "time,op,lba,length,pid\n0,m,5,0,0\n1,w,0,8,0\n2,m,6,0,0\n";
  const auto r = run_ftlsim("convert --from csv " + csv + " -o " + dir.file("m.ftr") + " --no-progress");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("3 records written (1 writes, 0 reads, 0 trims, 0 flushes, 2 markers)"));
}

TEST_CASE("convert blkparse: the report line and the header", "[trace][cli]") {
  TempDir dir;
  const std::string out = dir.file("b.ftr");
  const auto r = run_ftlsim("convert --from blkparse " + fixture("small.blkparse") + " -o " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(line_count(r.output) == 1);
  CHECK_THAT(r.output, Contains("6 records written (3 writes, 1 reads, 1 trims, 1 flushes), 0 bad lines skipped") &&
                           Contains("19 events of other actions and 1 without data skipped") &&
                           Contains("13 summary lines skipped"));
  const FtrReader reader(out);
  CHECK(reader.size() == 6);
  CHECK(reader.meta().get("source") == "blkparse");
  CHECK(reader.meta().get("convert_options") == "--from blkparse");

  const auto q = run_ftlsim("convert --from blkparse " + fixture("small.blkparse") + " -o " + out +
                            " --action Q --device 8,16 --force");
  INFO(q.output);
  REQUIRE(q.exit_code == 0);
  CHECK_THAT(q.output, Contains("5 records written") && Contains("0 requests for other devices dropped"));
  CHECK(FtrReader(out).meta().get("convert_options") == "--from blkparse --device 8,16 --action Q");
}

TEST_CASE("convert: a malformed line exits 2 naming file and line, leaving nothing", "[trace][cli]") {
  TempDir dir;
  const std::string in = dir.file("bad.blk");
  write_bytes(in,
              "  8,0    0        1     0.000000000   100  D   W 0 + 8 [app]\n"
              "  8,0    0        2     0.000000100   100  D   W 8 + 8\n"
              "  8,0    0        3     0.000000200   100  D   R 0 + 8 [app]\n");
  const std::string out = dir.file("bad.ftr");
  const auto r = run_ftlsim("convert --from blkparse " + in + " -o " + out);
  CHECK(r.exit_code == 2);
  CHECK(line_count(r.output) == 1);
  CHECK_THAT(r.output, Contains("ftlsim: error: " + in + ": line 2: the line does not end in ']'"));
  CHECK_FALSE(fs::exists(out));
  CHECK(listing(dir.path()) == std::vector<std::string>{"bad.blk"});

  const auto ok = run_ftlsim("convert --from blkparse " + in + " -o " + out + " --skip-bad 1");
  INFO(ok.output);
  REQUIRE(ok.exit_code == 0);
  CHECK_THAT(ok.output, Contains("2 records written") && Contains("1 bad lines skipped") &&
                            Contains("(first bad line 2: the line does not end in ']'"));
}

TEST_CASE("convert: unknown formats and options that do not apply", "[trace][cli]") {
  TempDir dir;
  const std::string out = dir.file("x.ftr");
  const auto unknown = run_ftlsim("convert --from iostat " + fixture("small.msr") + " -o " + out);
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.output, Contains("--from iostat: unknown input format; supported: disksim, blkparse, "
                                      "ftrace-blk, msr, alibaba, tencent, csv, blktrace"));
  const std::pair<std::string, std::string> cases[] = {
      {"--from msr --action Q", "--action does not apply to --from msr"},
      {"--from msr --device 1", "--device does not apply to --from msr"},
      {"--from blkparse --disk 1", "--disk does not apply to --from blkparse"},
      {"--from tencent --columns lba=a,length=b", "--columns does not apply to --from tencent"},
      {"--from csv", "--from csv needs --columns"},
      {"--from csv", "(a CSV from ftlsim dump, with the header time,op,lba,length,pid, needs none)"},
      {"--from blkparse --action X", "--action X: expected Q (queued), D (issued) or C (completed)"},
      {"--from blkparse --device 8", "--device 8: expected MAJ,MIN or MAJ:MIN"},
      {"--from blkparse --pid 1 --pid-map m", "--pid, --pid-map and --hints are alternatives"},
      {"--from blkparse --hint-map 1=2", "--hint-map applies only with --hints"},
      {"--from blkparse --hints h --hint-tolerance 1h", "--hint-tolerance 1h: expected a duration"},
      {"--from blkparse --hints h --hint-field inode", "--hint-field inode: expected hint or stream"},
      {"--from blkparse --pid-name wal", "--pid-name wal: expected ID=NAME"},
      {"--from csv --columns lba=a,length=b --sep ab", "--sep ab: expected one character"},
  };
  for (const auto& [args, expected] : cases) {
    INFO(args);
    const auto r = run_ftlsim("convert " + args + " " + fixture("small.msr") + " -o " + out);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains(expected));
    CHECK_FALSE(fs::exists(out));
  }
  const auto help = run_ftlsim("convert --help");
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.output, Contains("ftrace-blk") && Contains("alibaba") && Contains("--hint-map") &&
                              Contains("docs/trace_format.md"));
}

TEST_CASE("convert blktrace: per-CPU files in, one trace out, other formats take one file", "[trace][cli]") {
  namespace bt = ftlsim::trace::test::blktrace;
  TempDir dir;
  const std::string cpu0 = dir.file("sdb.blktrace.0");
  const std::string cpu1 = dir.file("sdb.blktrace.1");
  const uint32_t issue_write = __BLK_TA_ISSUE | bt::tc(BLK_TC_ISSUE | BLK_TC_WRITE);
  write_bytes(cpu0, bt::file_of({{1'000, 0, 7, issue_write, 0, 4096}, {3'000, 0, 7, issue_write, 16, 8192}}));
  write_bytes(cpu1, bt::file_of({{2'000, 1, 8, issue_write, 8, 4096}}));
  const std::string out = dir.file("sdb.ftr");
  const auto r = run_ftlsim("convert --from blktrace " + cpu0 + " " + cpu1 + " -o " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains(cpu0 + " and 1 more file -> " + out + ": 3 records written (3 writes") &&
                           Contains("0 bad records skipped"));
  const FtrReader reader(out);
  REQUIRE(reader.size() == 3);
  CHECK(reader.records()[1].lba == 8);  // CPU 1's request between CPU 0's two
  CHECK(reader.records()[1].time_ns == 1'000);
  CHECK(reader.meta().get("source_files") == "sdb.blktrace.0 sdb.blktrace.1");

  // As `blkparse -i sdb`: a name that is no file stands for its per-CPU files.
  const std::string by_name = dir.file("by-name.ftr");
  const auto named = run_ftlsim("convert --from blktrace " + dir.file("sdb") + " -o " + by_name);
  INFO(named.output);
  REQUIRE(named.exit_code == 0);
  CHECK_THAT(named.output, Contains(cpu0 + " and 1 more file -> " + by_name + ": 3 records written"));
  CHECK(record_bytes_of(by_name) == record_bytes_of(out));

  // A file given twice (here by two names) would import its records twice.
  const auto twice = run_ftlsim("convert --from blktrace " + cpu0 + " " + cpu1 + " " + dir.path().string() +
                                "/./sdb.blktrace.0 -o " + dir.file("twice.ftr"));
  CHECK(twice.exit_code == 2);
  CHECK_THAT(twice.output, Contains("/./sdb.blktrace.0: the same file as the input " + cpu0 + "; give each file once"));
  CHECK_FALSE(fs::exists(dir.file("twice.ftr")));

  const std::string bad = dir.file("bad.blktrace.0");
  write_bytes(bad, bt::file_of({{1'000, 0, 7, issue_write, 0, 4096}}) +
                       "not blktrace: more than 48 bytes of text, read as a header\n");
  const auto damaged = run_ftlsim("convert --from blktrace " + bad + " -o " + dir.file("bad.ftr"));
  CHECK(damaged.exit_code == 2);
  CHECK(line_count(damaged.output) == 1);
  CHECK_THAT(damaged.output, Contains(bad + ": record 2 (byte 48): magic 0x20746f6e is not blktrace's"));
  CHECK_FALSE(fs::exists(dir.file("bad.ftr")));

  const auto two = run_ftlsim("convert --from msr " + fixture("small.msr") + " " + fixture("small.msr") + " -o " +
                              dir.file("m.ftr"));
  CHECK(two.exit_code == 2);
  CHECK_THAT(two.output, Contains("--from msr reads one input file, not 2 (only blktrace takes several"));
  CHECK_FALSE(fs::exists(dir.file("m.ftr")));
}

TEST_CASE("convert with --hints reports the match counts", "[trace][cli]") {
  TempDir dir;
  const std::string trace = dir.file("t.ftrace");
  const std::string hints = dir.file("h.csv");
  write_bytes(trace,
              "  w-1 [000] ..... 100.000100: 7,0 D W 1000 + 8 [w]\n"
              "  w-1 [000] ..... 100.000200: 7,0 D W 2000 + 8 [w]\n"
              "  w-1 [000] ..... 100.000300: 7,0 D R 1000 + 8 [w]\n"
              "  w-1 [000] ..... 100.600000: 7,0 D W 1000 + 8 [w]\n");
  write_bytes(hints,
              "time_ns,dev,sector,sectors,hint,stream,ino,pid,comm\n"
              "100000050000,7:0,1000,8,2,0,12,1,w\n"
              "100000150000,7:0,2000,8,3,0,12,1,w\n");
  const std::string out = dir.file("t.ftr");
  const auto r = run_ftlsim("convert --from ftrace-blk " + trace + " -o " + out + " --hints " + hints +
                            " --hint-map 2=1 --pid-name 1=wal --hint-tolerance 500ms");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("hints: 2 writes matched, 1 unmatched (4.00 KiB; 2 hint rows)"));
  const FtrReader reader(out);
  REQUIRE(reader.size() == 4);
  CHECK(reader.records()[0].pid == 1);
  CHECK(reader.records()[1].pid == 3);
  CHECK(reader.records()[2].pid == 0);
  CHECK(reader.records()[3].pid == 0);  // 0.59995 s from the nearest hint > 500 ms
  CHECK(reader.meta().get("hint_matched") == "2");
  CHECK(reader.meta().get("hint_tolerance_ns") == "500000000");
  CHECK(reader.meta().pid_names.at(1) == "wal");
  CHECK_THAT(reader.meta().get("convert_options"), Contains("--hint-map 2=1") && Contains("--hints " + hints));
}

TEST_CASE("convert the CloudPhysics trace with the documented mapping", "[trace][cli][external]") {
  const std::string in = std::string(FTLSIM_SOURCE_DIR) + "/../shared/traces/external/cloudphysics-io.csv";
  if (!fs::exists(in)) {
    WARN("skipped: " << in << " is not present");
    return;
  }
  TempDir dir;
  const std::string mapping = ",lba=lbn,length=size:bytes,op=op --op-map 2a=write,28=read";
  const auto r =
      run_ftlsim("convert --from csv " + in + " -o " + dir.file("cp.ftr") + " --columns time=time:s" + mapping);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("113872 records written (66898 writes, 46974 reads"));
  // Its times are seconds: two hours (5633898 to 5641098 by hand), no rate warning.
  const auto info = run_ftlsim("info " + dir.file("cp.ftr"));
  INFO(info.output);
  CHECK_THAT(info.output, Contains("span 7200.000 s") && !Contains("warning"));
  // Read as microseconds, as docs/cli.md shows: 7.2 ms, and info warns.
  REQUIRE(run_ftlsim("convert --from csv " + in + " -o " + dir.file("cp-us.ftr") + " --columns time=time:us" + mapping)
              .exit_code == 0);
  const auto us = run_ftlsim("info " + dir.file("cp-us.ftr"));
  INFO(us.output);
  CHECK_THAT(us.output, Contains("113872 requests in 7.2 ms is 15.82 M requests/s and 544.04 GiB/s"));
}
