// blktrace binary import: records built by hand, field by field from
// linux/blktrace_api.h, for the requests of small.blkparse's short-format
// text (test_blkparse_import.cpp), whose records were counted by hand; the
// merge of per-CPU files and of CPUs within one file; byte order; process
// notes; damaged frames. The kernel's own records against blkparse's text
// of them: tests/capture/test_blktrace_binary.sh.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "blktrace_records.h"
#include "test_util.h"
#include "trace/import/import.h"

using namespace ftlsim::trace;
using namespace ftlsim::trace::test;
using Catch::Contains;
using ftlsim::trace::test::blktrace::bytes_of;
using ftlsim::trace::test::blktrace::Ev;
using ftlsim::trace::test::blktrace::file_of;
using ftlsim::trace::test::blktrace::tc;

namespace {

// small.blkparse's short text (test_blkparse_import.cpp) as the kernel
// records it, by CPU.
const std::vector<Ev> kCpu0 = {
    {0, 0, 4242, __BLK_TA_QUEUE | tc(BLK_TC_QUEUE | BLK_TC_WRITE | BLK_TC_SYNC), 2048, 4096},
    {5'000, 0, 4242, __BLK_TA_ISSUE | tc(BLK_TC_ISSUE | BLK_TC_WRITE | BLK_TC_SYNC), 2048, 4096},
    {250'000, 0, 4242, __BLK_TA_ISSUE | tc(BLK_TC_ISSUE | BLK_TC_READ), 4096, 24 * 512},
    {5'000'000, 0, 4242, __BLK_TA_ISSUE | tc(BLK_TC_ISSUE | BLK_TC_WRITE | BLK_TC_SYNC), 16384, 4096},
};
const std::vector<Ev> kCpu1 = {
    {400'000, 1, 0, __BLK_TA_COMPLETE | tc(BLK_TC_COMPLETE | BLK_TC_READ), 4096, 24 * 512},
};
const std::vector<Ev> kCpu2 = {
    {1'001'000, 2, 812, __BLK_TA_ISSUE | tc(BLK_TC_ISSUE | BLK_TC_FLUSH), 0, 0},  // FN
    {2'010'000, 2, 812, __BLK_TA_ISSUE | tc(BLK_TC_ISSUE | BLK_TC_FLUSH | BLK_TC_WRITE | BLK_TC_FUA | BLK_TC_SYNC),
     8192, 16 * 512},  // FWFS
};
const std::vector<Ev> kCpu3 = {
    {3'100'000, 3, 1001, __BLK_TA_ISSUE | tc(BLK_TC_ISSUE | BLK_TC_DISCARD), 100000, 2048 * 512},
    {4'000'000, 3, 1001, __BLK_TA_ISSUE | tc(BLK_TC_ISSUE), 0, 0},  // N: no data
};

// Hand counts: small.blkparse's short text imported with --action D.
const std::vector<Record> kIssued = {
    rec(5'000, Op::kWrite, 2048, 8),      rec(250'000, Op::kRead, 4096, 24),       rec(1'001'000, Op::kFlush, 0, 0),
    rec(2'010'000, Op::kWrite, 8192, 16), rec(3'100'000, Op::kTrim, 100000, 2048), rec(5'000'000, Op::kWrite, 16384, 8),
};

ImportOptions bin(BlkAction action = BlkAction::kIssue) {
  ImportOptions o = options_for(TextFormat::kBlktrace);
  o.action = action;
  o.keep_time = true;  // times as recorded, as the hand counts have them
  return o;
}

ParsedTrace parse_files(const std::vector<std::string>& files, const ImportOptions& o) {
  std::vector<std::string_view> texts(files.begin(), files.end());
  std::vector<std::string> names;
  for (size_t i = 0; i < files.size(); ++i) names.push_back("sdb.blktrace." + std::to_string(i));
  return parse_trace_files(texts, names, o);
}

std::string files_error(const std::vector<std::string>& files, const ImportOptions& o) {
  try {
    (void)parse_files(files, o);
  } catch (const ftlsim::InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<Record> shifted(std::vector<Record> v, uint64_t by) {
  for (Record& r : v) r.time_ns -= by;
  return v;
}

}  // namespace

TEST_CASE("blktrace per-CPU files merge into the records of blkparse's text", "[trace][unit][blktrace]") {
  const std::vector<std::string> files = {file_of(kCpu0), file_of(kCpu1), file_of(kCpu2), file_of(kCpu3)};
  const ParsedTrace p = parse_files(files, bin());
  CHECK_RECORDS(p.records, kIssued);
  CHECK(p.summary.other_actions == 2);  // the Q and the C
  CHECK(p.summary.no_data == 1);        // the N
  CHECK(p.summary.backwards_timestamps == 0);
  CHECK(p.meta.get("source") == "blktrace");
  CHECK(p.meta.get("action") == "D");
  CHECK(p.meta.get("source_files") == "sdb.blktrace.0 sdb.blktrace.1 sdb.blktrace.2 sdb.blktrace.3");

  SECTION("in any order of files, and rebased to the first record without keep_time") {
    ImportOptions o = bin();
    o.keep_time = false;
    const ParsedTrace q = parse_files({files[3], files[1], files[2], files[0]}, o);
    CHECK_RECORDS(q.records, shifted(kIssued, 5'000));
  }
  SECTION("--action Q and C") {
    CHECK_RECORDS(parse_files(files, bin(BlkAction::kQueue)).records, {rec(0, Op::kWrite, 2048, 8)});
    CHECK_RECORDS(parse_files(files, bin(BlkAction::kComplete)).records, {rec(400'000, Op::kRead, 4096, 24)});
  }
  SECTION("--device keeps one device's requests") {
    std::vector<Ev> other = kCpu0;
    for (Ev& e : other) e.device = (8u << 20) | 32u;
    ImportOptions o = bin();
    o.device = "8,16";
    const ParsedTrace q = parse_files({file_of(other), files[1], files[2], files[3]}, o);
    CHECK_RECORDS(q.records, {kIssued[2], kIssued[3], kIssued[4]});
    CHECK(q.summary.filtered == 3);
  }
}

TEST_CASE("blktrace: the CPUs of one file are merged by time", "[trace][unit][blktrace]") {
  // `blktrace -o -` writes the CPUs' buffers as they fill: each CPU in time
  // order, the CPUs interleaved in chunks.
  const std::string one = file_of({kCpu2[0], kCpu2[1], kCpu0[0], kCpu0[1], kCpu3[0]}) + file_of(kCpu1) +
                          file_of({kCpu0[2], kCpu0[3], kCpu3[1]});
  const ParsedTrace p = parse_files({one}, bin());
  CHECK_RECORDS(p.records, kIssued);
  CHECK(p.summary.backwards_timestamps == 0);
  CHECK(p.meta.get("source_files").empty());
}

TEST_CASE("blktrace: a file written in the other byte order reads the same", "[trace][unit][blktrace]") {
  const std::vector<std::string> swapped = {file_of(kCpu0, true), file_of(kCpu1, true), file_of(kCpu2, true),
                                            file_of(kCpu3, true)};
  CHECK_RECORDS(parse_files(swapped, bin()).records, kIssued);
}

TEST_CASE("blktrace: process notes name pids for a pid map's comm rules", "[trace][unit][blktrace]") {
  TempDir dir;
  const std::string map = dir.file("m.pidmap");
  write_bytes(map, "comm:fio=3\ncomm:kworker*=5\n");
  std::vector<Ev> cpu0 = kCpu0;
  // A note before the first request; one with a cgroup id before the name
  // (__BLK_TN_CGROUP), padded with NULs as the kernel pads it.
  cpu0.insert(cpu0.begin(), Ev{0, 0, 4242, __BLK_TN_PROCESS | tc(BLK_TC_NOTIFY), 0, 0, std::string("fio\0\0\0", 6)});
  std::vector<Ev> cpu3 = kCpu3;
  cpu3.insert(cpu3.begin(), Ev{3'000'000, 3, 1001, __BLK_TN_PROCESS | __BLK_TN_CGROUP | tc(BLK_TC_NOTIFY), 0, 0,
                               std::string(8, '\x7') + std::string("kworker/1:2\0", 12)});
  // A time stamp note and a message are skipped.
  cpu3.push_back(Ev{4'500'000, 3, 1001, __BLK_TN_MESSAGE | tc(BLK_TC_NOTIFY), 0, 0, "hello"});
  ImportOptions o = bin();
  o.placement.pid_map = map;
  const ParsedTrace p = parse_files({file_of(cpu0), file_of(kCpu1), file_of(kCpu2), file_of(cpu3)}, o);
  std::vector<Record> want = kIssued;
  for (const size_t i : {0, 1, 5}) want[i].pid = 3;  // pid 4242, fio
  want[4].pid = 5;                                   // pid 1001, kworker/1:2
  CHECK_RECORDS(p.records, want);
  CHECK(p.summary.map_matched == 4);
  CHECK(p.summary.map_unmatched == 2);  // pid 812 has no note
  CHECK(p.summary.other_actions == 2);
}

TEST_CASE("blktrace: passthrough requests move no data, cgroup-tagged requests count", "[trace][unit][blktrace]") {
  const std::vector<Ev> evs = {
      {10, 0, 1, __BLK_TA_ISSUE | tc(BLK_TC_ISSUE | BLK_TC_PC | BLK_TC_WRITE), 0, 512, std::string(16, '\x2a')},
      {20, 0, 1, __BLK_TA_ISSUE | __BLK_TA_CGROUP | tc(BLK_TC_ISSUE | BLK_TC_WRITE), 64, 8192, std::string(8, '\1')},
      {30, 0, 1, __BLK_TA_ISSUE | tc(BLK_TC_ISSUE | BLK_TC_WRITE), 80, 0},  // a write of no data
  };
  const ParsedTrace p = parse_files({file_of(evs)}, bin());
  CHECK_RECORDS(p.records, {rec(20, Op::kWrite, 64, 16)});
  CHECK(p.summary.no_data == 2);
}

TEST_CASE("blktrace: damaged frames stop the import naming file, record and byte", "[trace][unit][blktrace]") {
  const std::string good = file_of(kCpu0);
  SECTION("not blktrace") {
    CHECK_THAT(files_error({good, "this is text, not a blktrace record at all, 48b+"}, bin()),
               Contains("sdb.blktrace.1: record 1 (byte 0): magic 0x73696874 is not blktrace's (0x65617407)"));
  }
  SECTION("a damaged magic in the middle, even with --skip-bad") {
    std::string bad = good;
    bad[2 * 48 + 1] = 'x';
    ImportOptions o = bin();
    o.skip_bad = 100;
    CHECK_THAT(files_error({bad}, o), Contains("sdb.blktrace.0: record 3 (byte 96): magic"));
  }
  SECTION("another version") {
    Ev e = kCpu0[1];
    e.magic = BLK_IO_TRACE_MAGIC | 8;
    CHECK_THAT(files_error({good + bytes_of(e)}, bin()),
               Contains("sdb.blktrace.0: record 5 (byte 192): blktrace version 8 (only version 7 is known)"));
  }
  SECTION("a truncated header or payload") {
    CHECK_THAT(files_error({good.substr(0, 100)}, bin()),
               Contains("record 3 (byte 96): truncated: 4 bytes left, a record header is 48"));
    Ev e = kCpu0[1];
    e.pdu = "0123456789";
    const std::string cut = good + bytes_of(e).substr(0, 52);
    CHECK_THAT(files_error({cut}, bin()), Contains("record 5 (byte 192): truncated: a payload of 10 bytes, 4 left"));
  }
  SECTION("an empty file has no records") { CHECK(parse_files({std::string()}, bin()).records.empty()); }
}

TEST_CASE("blktrace: a range past 2^64 is a malformed record (--skip-bad)", "[trace][unit][blktrace]") {
  std::vector<Ev> evs = kCpu0;
  evs[2].sector = UINT64_MAX - 3;
  CHECK_THAT(files_error({file_of(evs)}, bin()),
             Contains("sdb.blktrace.0: record 3: sector 18446744073709551612 + 24 overflows 64 bits (the record at "
                      "byte 96)"));
  ImportOptions o = bin();
  o.skip_bad = 1;
  const ParsedTrace p = parse_files({file_of(evs)}, o);
  CHECK_RECORDS(p.records, {kIssued[0], kIssued[5]});
  CHECK(p.summary.bad_lines == 1);
  CHECK(p.summary.first_bad_line == 3);
}

TEST_CASE("only blktrace reads several files", "[trace][unit][blktrace]") {
  CHECK_THAT(files_error({"1 0 0 8 0\n", "1 0 0 8 0\n"}, options_for(TextFormat::kDiskSim)),
             Contains("disksim reads one input file, not 2"));
}

TEST_CASE("blktrace: a write-hint log joins on the records' device, sectors and time", "[trace][unit][blktrace]") {
  TempDir dir;
  const std::string log = dir.file("hints.csv");
  // The write at 5 us, sector 2048 on 8,16: hint 3 (and hint 4 on 8,32, which
  // must not match); the FWFS write at 2.01 ms, sector 8192: hint 2, 1 ms late.
  write_bytes(log,
              "time_ns,dev,sector,sectors,hint,stream,ino,pid,comm\n"
              "5000,8:32,2048,8,4,0,1,1,x\n"
              "5100,8:16,2048,8,3,0,1,1,x\n"
              "3010000,8:16,8192,16,2,0,1,1,x\n");
  ImportOptions o = bin();
  o.placement.hints = log;
  o.placement.hint_tolerance_ns = 2'000'000;
  const std::vector<std::string> files = {file_of(kCpu0), file_of(kCpu1), file_of(kCpu2), file_of(kCpu3)};
  const ParsedTrace p = parse_files(files, o);
  std::vector<Record> want = kIssued;
  want[0].pid = 3;
  want[3].pid = 2;
  CHECK_RECORDS(p.records, want);
  CHECK(p.summary.hint_matched == 2);
  CHECK(p.summary.hint_unmatched == 1);  // the write at 5 ms
}

// Records the kernel wrote: loop0.blktrace.{0,1} are the blk tracer's binary
// output (trace_options bin, nocontext-info; the records bare, as blktrace
// writes them) for a 16 MiB loop device while mkfs.ext4, four direct
// synchronous writes, a direct read and a 1 MiB discard ran on two CPUs,
// split by CPU (tests/capture/test_blktrace_binary.sh records the same way);
// loop0.blkparse is `blkparse -i loop0` of those files (blktrace 1.2.0).
TEST_CASE("blktrace: a real capture imports as blkparse's text of it", "[trace][unit][blktrace]") {
  const std::vector<std::string> files = {read_bytes(fixture("loop0.blktrace.0")),
                                          read_bytes(fixture("loop0.blktrace.1"))};
  const std::string text = read_bytes(fixture("loop0.blkparse"));
  REQUIRE(files[0].size() == 20144);
  REQUIRE(files[1].size() == 8464);
  for (const BlkAction action : {BlkAction::kQueue, BlkAction::kIssue, BlkAction::kComplete}) {
    INFO("action " << static_cast<char>(action));
    ImportOptions t = options_for(TextFormat::kBlkparse);
    t.action = action;
    const ParsedTrace want = parse_text_trace(text, "loop0.blkparse", t);
    const ParsedTrace got = parse_files(files, bin(action));
    REQUIRE(want.records.size() == got.records.size());
    REQUIRE(want.records.size() >= 90);
    // blkparse counts from its first event; the binary records carry the
    // kernel's clock: one offset for all.
    const uint64_t offset = got.records[0].time_ns - want.records[0].time_ns;
    CHECK(offset > 0);
    CHECK_RECORDS(shifted(got.records, offset), want.records);
    CHECK(got.summary.other_actions + got.summary.no_data == want.summary.other_actions + want.summary.no_data);
    for (const Op op : {Op::kWrite, Op::kRead, Op::kTrim, Op::kFlush}) {
      CHECK(got.summary.ops[static_cast<size_t>(op)] > 0);
    }
  }
}

TEST_CASE("blktrace: marker sidecars merge on the records' own clock", "[trace][unit][blktrace]") {
  TempDir dir;
  const std::string sidecar = dir.file("markers.txt");
  // Between the read (250 us) and the flush (1.001 ms), and after the last request.
  write_bytes(sidecar, "600000 17\n9000000 18\n");
  ImportOptions o = bin();
  o.keep_time = false;  // times from the first record; the merge still compares source times
  o.markers = sidecar;
  const ParsedTrace p = parse_files({file_of(kCpu0), file_of(kCpu1), file_of(kCpu2), file_of(kCpu3)}, o);
  std::vector<Record> want = shifted(kIssued, 5'000);
  want.insert(want.begin() + 2, rec(600'000 - 5'000, Op::kMarker, 17, 0));
  want.push_back(rec(9'000'000 - 5'000, Op::kMarker, 18, 0));
  CHECK_RECORDS(p.records, want);
  CHECK(p.summary.markers == 2);
  CHECK(p.summary.markers_after_last == 1);
}
