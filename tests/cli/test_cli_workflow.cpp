// The researcher's workflow: `ftlsim dump` (and its exact round
// trip through `convert --from csv`), multi-device inputs, the hint join of a
// write issued long after it was queued, and the consistency checks (info's
// rate warning, options that do not apply, a single run's --out). Expected
// values are worked out by hand from the records the test writes, or by a
// naive loop over the records, never taken from an earlier run.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli_run.h"
#include "common/records.h"
#include "trace/ftr_reader.h"
#include "trace/ftr_writer.h"

using Catch::Contains;
using ftlsim::test::kDevice;
using ftlsim::test::put;
using ftlsim::test::rec;
using ftlsim::test::run_ftlsim;
using ftlsim::test::RunResult;
using ftlsim::test::slurp;
using ftlsim::test::TempDir;
using ftlsim::trace::Op;
using ftlsim::trace::Record;

namespace {

namespace fs = std::filesystem;

void write_ftr(const std::string& path, const std::vector<Record>& records, uint32_t sector_bytes = 512) {
  ftlsim::trace::TraceMeta meta;
  meta.sector_bytes = sector_bytes;
  meta.pid_names = {{1, "hot"}};
  ftlsim::trace::FtrWriter w(path, meta);
  for (const Record& r : records) w.append(r);
  w.finish();
}

// The records of a .ftr file as bytes: everything after header_bytes (a
// 4-byte little-endian field at offset 16, docs/trace_format.md).
std::string record_bytes(const std::string& path) {
  const std::string bytes = slurp(path);
  REQUIRE(bytes.size() >= 48);
  uint64_t h = 0;
  for (int i = 3; i >= 0; --i) h = (h << 8) | static_cast<unsigned char>(bytes[16 + static_cast<size_t>(i)]);
  REQUIRE(h <= bytes.size());
  return bytes.substr(h);
}

const std::string kBackToFtr = " --keep-time --columns time=time,lba=lba,length=length,op=op,pid=pid --no-progress";

// Every op, an ID per byte width, a time that goes back, a flush and a
// marker: the records of the round-trip and filter tests.
const std::vector<Record> kMixed = {
    rec(Op::kWrite, 8, 8, 1, 5000),   rec(Op::kRead, 0, 16, 0, 4000),
    rec(Op::kTrim, 100, 8, 2, 6000),  rec(Op::kFlush, 0, 0, 0, 6000),
    rec(Op::kMarker, 42, 0, 0, 7000), rec(Op::kWrite, uint64_t{1} << 40, 1, 65535, 8000),
};
const std::string kMixedCsv =
    "time,op,lba,length,pid\n"
    "5000,write,8,8,1\n"
    "4000,read,0,16,0\n"
    "6000,trim,100,8,2\n"
    "6000,flush,0,0,0\n"
    "7000,marker,42,0,0\n"
    "8000,write,1099511627776,1,65535\n";

}  // namespace

TEST_CASE("dump prints every record in the columns convert --from csv reads", "[cli][dump]") {
  const TempDir tmp("dump");
  const std::string t = tmp.file("t.ftr");
  write_ftr(t, kMixed);
  const RunResult r = run_ftlsim("dump " + t);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output == kMixedCsv);

  // -o writes the same bytes; an existing file is refused without --force.
  REQUIRE(run_ftlsim("dump " + t + " -o " + tmp.file("t.csv")).exit_code == 0);
  CHECK(slurp(tmp.file("t.csv")) == kMixedCsv);
  const RunResult again = run_ftlsim("dump " + t + " -o " + tmp.file("t.csv"));
  CHECK(again.exit_code == 2);
  CHECK_THAT(again.output, Contains("exists"));
  CHECK(run_ftlsim("dump " + t + " -o " + tmp.file("t.csv") + " --force").exit_code == 0);
  // The output may not be the trace.
  CHECK(run_ftlsim("dump " + t + " -o " + t + " --force").exit_code == 2);
  CHECK(fs::file_size(t) > 48);
}

TEST_CASE("dump -> convert --keep-time gives the records back byte for byte", "[cli][dump]") {
  const TempDir tmp("dump-rt");
  const auto round_trip = [&](const std::string& trace, const std::string& name) {
    INFO(trace);
    const std::string csv = tmp.file(name + ".csv");
    const std::string back = tmp.file(name + ".back.ftr");
    REQUIRE(run_ftlsim("dump " + trace + " -o " + csv).exit_code == 0);
    const RunResult c = run_ftlsim("convert --from csv " + csv + " -o " + back + kBackToFtr);
    INFO(c.output);
    REQUIRE(c.exit_code == 0);
    CHECK(record_bytes(back) == record_bytes(trace));
    // Without --columns, dump's header gives the columns, and its times are kept.
    const std::string plain = tmp.file(name + ".plain.ftr");
    const RunResult p = run_ftlsim("convert --from csv " + csv + " -o " + plain + " --no-progress");
    INFO(p.output);
    REQUIRE(p.exit_code == 0);
    CHECK_THAT(p.output, Contains("columns and times of ftlsim dump's CSV"));
    CHECK(record_bytes(plain) == record_bytes(trace));
    // And the CSV of the converted trace is the same CSV.
    REQUIRE(run_ftlsim("dump " + back + " -o " + csv + ".2").exit_code == 0);
    CHECK(slurp(csv + ".2") == slurp(csv));
  };
  const std::string mixed = tmp.file("mixed.ftr");
  write_ftr(mixed, kMixed);
  round_trip(mixed, "mixed");
  // Synthetic traces from gen: fill, reads, trims, markers, several IDs.
  const std::string g = tmp.file("g.ftr");
  REQUIRE(run_ftlsim("gen --pattern streams --streams 0.6:0.1,0.3:0.2,0.1:0.7 --logical 8M --fill --writes 3000 "
                     "--read-ratio 0.2 --trim-ratio 0.1 --markers 250 --no-progress -o " +
                     g)
              .exit_code == 0);
  round_trip(g, "gen");
  // Shipped traces: the demo and a real capture (tagged, with markers).
  round_trip(std::string(FTLSIM_SOURCE_DIR) + "/traces/demo.ftr", "demo");
  round_trip(std::string(FTLSIM_SOURCE_DIR) + "/traces/geth-ethstate.ftr", "ethstate");

  // Without --keep-time the times count from the first record: the record
  // earlier than the first is set to 0 and the rest move by 5000 ns.
  const std::string csv = tmp.file("mixed.csv");
  const std::string rebased = tmp.file("rebased.ftr");
  const RunResult c = run_ftlsim("convert --from csv " + csv + " -o " + rebased +
                                 " --columns time=time,lba=lba,length=length,op=op,pid=pid --no-progress");
  REQUIRE(c.exit_code == 0);
  CHECK_THAT(c.output, Contains("1 records before the first set to time 0"));
  const RunResult d = run_ftlsim("dump " + rebased + " --range 0:3");
  CHECK(d.output == "time,op,lba,length,pid\n0,write,8,8,1\n0,read,0,16,0\n1000,trim,100,8,2\n");
  // disksim and blkparse keep their times already: --keep-time is refused there.
  put(tmp.file("one.disksim"), "5 0 0 8 0\n");
  const RunResult k =
      run_ftlsim("convert --from disksim " + tmp.file("one.disksim") + " -o " + tmp.file("k.ftr") + " --keep-time");
  CHECK(k.exit_code == 2);
  CHECK_THAT(k.output, Contains("--keep-time does not apply to --from disksim"));
}

TEST_CASE("dump selects a record range, ops and placement IDs", "[cli][dump]") {
  const TempDir tmp("dump-filter");
  const std::string t = tmp.file("t.ftr");
  write_ftr(t, kMixed);
  const std::string head = "time,op,lba,length,pid\n";
  CHECK(run_ftlsim("dump " + t + " --range 1:3").output == head + "4000,read,0,16,0\n6000,trim,100,8,2\n");
  CHECK(run_ftlsim("dump " + t + " --range 4:").output ==
        head + "7000,marker,42,0,0\n8000,write,1099511627776,1,65535\n");
  CHECK(run_ftlsim("dump " + t + " --range :1").output == head + "5000,write,8,8,1\n");
  // END past the last record is the trace's end; START must name a record.
  CHECK(run_ftlsim("dump " + t + " --range 5:99").output == head + "8000,write,1099511627776,1,65535\n");
  CHECK(run_ftlsim("dump " + t + " --op write,marker").output ==
        head + "5000,write,8,8,1\n7000,marker,42,0,0\n8000,write,1099511627776,1,65535\n");
  CHECK(run_ftlsim("dump " + t + " --pid 0").output ==
        head + "4000,read,0,16,0\n6000,flush,0,0,0\n7000,marker,42,0,0\n");
  CHECK(run_ftlsim("dump " + t + " --pid 2,65535 --op trim").output == head + "6000,trim,100,8,2\n");
  CHECK(run_ftlsim("dump " + t + " --range 1:5 --op write").output == head);

  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--range 5:2", "--range 5:2: START is after END"},
           {"--range 7", "--range 7: expected START:END"},
           {"--range x:2", "--range x:2: expected START:END"},
           {"--range 9:20", t + ": --range 9:20: START 9 is past the last record (the trace has 6 records, 0 to 5)"},
           {"--range 6:", t + ": --range 6:: START 6 is past the last record"},
           {"--range 6: -o " + tmp.file("none.csv"), t + ": --range 6:: START 6 is past the last record"},
           {"--op writes", "--op writes: 'writes' is not one of write, read, trim, flush, marker"},
           {"--pid 65536", "--pid 65536: '65536' is not a placement ID 0..65535"},
       }) {
    const RunResult r = run_ftlsim("dump " + t + " " + args);
    INFO(args << ": " << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("ftlsim: error: " + message));
  }
  CHECK_FALSE(std::filesystem::exists(tmp.file("none.csv")));  // refused before the output is opened
  const RunResult missing = run_ftlsim("dump " + tmp.file("none.ftr"));
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.output, Contains("none.ftr: no such file"));
}

TEST_CASE("dump of a real trace matches a naive loop over its records", "[cli][dump]") {
  const TempDir tmp("dump-naive");
  const std::string trace = std::string(FTLSIM_SOURCE_DIR) + "/traces/geth-import.ftr";
  const RunResult r = run_ftlsim("dump " + trace + " --range 1000:400000 --op write,marker --pid 0,3");
  REQUIRE(r.exit_code == 0);
  const ftlsim::trace::FtrReader reader(trace);
  REQUIRE(reader.meta().sector_bytes == 512);
  std::string want = "time,op,lba,length,pid\n";
  uint64_t rows = 0;
  for (uint64_t i = 1000; i < 400000; ++i) {
    const Record& x = reader.records()[i];
    const bool op_ok = x.op == 0 || x.op == 4;
    if (!op_ok || (x.pid != 0 && x.pid != 3)) continue;
    want += std::to_string(x.time_ns) + "," + (x.op == 0 ? "write" : "marker") + "," + std::to_string(x.lba) + "," +
            std::to_string(x.sectors) + "," + std::to_string(x.pid) + "\n";
    ++rows;
  }
  CHECK(rows > 1000);
  CHECK(r.output == want);
}

TEST_CASE("dump writes a trace of 4096-byte sectors in 512-byte sectors", "[cli][dump]") {
  const TempDir tmp("dump-4k");
  const std::string t = tmp.file("t.ftr");
  write_ftr(t, {rec(Op::kWrite, 3, 2, 0, 0), rec(Op::kMarker, 7, 0, 0, 10)}, 4096);
  // 4096-byte sector 3 is 512-byte sector 24; 2 sectors are 16; a marker's value stays.
  CHECK(run_ftlsim("dump " + t).output == "time,op,lba,length,pid\n0,write,24,16,0\n10,marker,7,0,0\n");
}

TEST_CASE("convert refuses an input with several devices unless one is kept or they are merged", "[cli][devices]") {
  const TempDir tmp("devices");
  // MQSim/DiskSim lines: arrival_ns device lba size type. Devices 0 (1
  // request), 1 (2) and 2 (1).
  const std::string in = tmp.file("multi.trace");
  put(in, "0 0 0 8 0\n100 1 0 8 0\n200 1 8 8 1\n300 2 16 8 0\n");
  const std::string out = tmp.file("m.ftr");
  const RunResult refused = run_ftlsim("convert --from disksim " + in + " -o " + out + " --no-progress");
  INFO(refused.output);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.output,
             Contains("multi.trace: requests for 3 devices: 0 (1 request), 1 (2 requests), 2 (1 request); keep one "
                      "with --device N, or give --merge-devices to put them all in one address space"));
  CHECK_FALSE(fs::exists(out));

  // One device: its 2 requests.
  REQUIRE(run_ftlsim("convert --from disksim " + in + " -o " + out + " --device 1 --no-progress").exit_code == 0);
  CHECK(run_ftlsim("dump " + out).output == "time,op,lba,length,pid\n100,write,0,8,0\n200,read,8,8,0\n");
  const RunResult absent = run_ftlsim("convert --from disksim " + in + " -o " + tmp.file("x.ftr") + " --device 7");
  CHECK(absent.exit_code == 2);
  CHECK_THAT(absent.output, Contains("--device 7: no such device in the input; it has 0 (1 request), 1 (2 requests)"));
  CHECK_FALSE(fs::exists(tmp.file("x.ftr")));

  // Merged: all 4, and info lists the devices with their counts.
  const std::string merged = tmp.file("merged.ftr");
  const RunResult m = run_ftlsim("convert --from disksim " + in + " -o " + merged + " --merge-devices --no-progress");
  INFO(m.output);
  REQUIRE(m.exit_code == 0);
  CHECK_THAT(m.output, Contains("4 records written") && Contains("3 devices merged into one address space"));
  const RunResult info = run_ftlsim("info " + merged);
  CHECK_THAT(info.output, Contains("devices     3 merged into one address space: 0 (1 request), 1 (2 requests), "
                                   "2 (1 request)"));
  const RunResult json = run_ftlsim("info --json " + merged);
  CHECK_THAT(json.output, Contains("\"device\": \"1\",\n      \"requests\": 2"));
  const RunResult both =
      run_ftlsim("convert --from disksim " + in + " -o " + tmp.file("y.ftr") + " --merge-devices --device 1");
  CHECK(both.exit_code == 2);
  CHECK_THAT(both.output, Contains("--merge-devices and --device/--disk are alternatives"));

  // The same for a CSV device column, Alibaba's device_id and MSR's disk.
  const std::string csv = tmp.file("multi.csv");
  put(csv, "t,dev,off,len\n0,5,0,8\n1,6,8,8\n");
  const RunResult c = run_ftlsim("convert --from csv " + csv + " -o " + tmp.file("c.ftr") +
                                 " --columns time=t,device=dev,lba=off,length=len");
  CHECK(c.exit_code == 2);
  CHECK_THAT(c.output, Contains("requests for 2 devices: 5 (1 request), 6 (1 request)"));
  const std::string ali = tmp.file("multi.ali");
  put(ali, "3,W,0,4096,100\n4,W,4096,4096,200\n4,R,0,4096,300\n");
  const RunResult a = run_ftlsim("convert --from alibaba " + ali + " -o " + tmp.file("a.ftr"));
  CHECK(a.exit_code == 2);
  CHECK_THAT(a.output, Contains("requests for 2 devices: 3 (1 request), 4 (2 requests)"));
  const std::string msr = tmp.file("multi.msr");
  put(msr, "128166372003061629,hm,0,Write,0,4096,1\n128166372003061630,hm,1,Write,0,4096,1\n");
  const RunResult s = run_ftlsim("convert --from msr " + msr + " -o " + tmp.file("s.ftr"));
  CHECK(s.exit_code == 2);
  CHECK_THAT(s.output, Contains("keep one with --disk N"));
  CHECK(run_ftlsim("convert --from msr " + msr + " -o " + tmp.file("s.ftr") + " --disk 1").exit_code == 0);
}

TEST_CASE("a write issued long after it was queued keeps its hint when Q is imported", "[cli][hints]") {
  const TempDir tmp("delayed");
  // Two 4 KiB writes queued at 100.000000 s and 100.000010 s, with their
  // hints logged at queue time (tp_btf/block_bio_queue); the second is
  // issued 10 us later, the first 1.06 s later (a loaded machine).
  const std::string raw = tmp.file("run.raw.txt");
  put(raw,
      "fio-55 [001] ..... 100.000000: 7,0 Q W 2048 + 8 [fio]\n"
      "fio-55 [001] ..... 100.000010: 7,0 Q W 4096 + 8 [fio]\n"
      "fio-55 [001] ..... 100.000020: 7,0 D W 4096 + 8 [fio]\n"
      "kworker-9 [000] ..... 101.060000: 7,0 D W 2048 + 8 [kworker]\n");
  const std::string hints = tmp.file("run.hints.csv");
  put(hints,
      "time_ns,dev,sector,sectors,hint,stream,ino,pid,comm\n"
      "100000000000,7:0,2048,8,5,0,12,55,fio\n"
      "100000010000,7:0,4096,8,2,0,13,55,fio\n");
  const auto convert = [&](const std::string& name, const std::string& options) {
    const RunResult r = run_ftlsim("convert --from ftrace-blk " + raw + " -o " + tmp.file(name) + " --hints " + hints +
                                   " --no-progress " + options);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    return r.output;
  };
  // D within the default 1 s: the late piece finds no hint (ID 0).
  CHECK_THAT(convert("d.ftr", "--action D"), Contains("hints: 1 writes matched, 1 unmatched (4.00 KiB; 2 hint rows"));
  CHECK(run_ftlsim("dump " + tmp.file("d.ftr")).output ==
        "time,op,lba,length,pid\n0,write,4096,8,2\n1059980000,write,2048,8,0\n");
  CHECK_THAT(run_ftlsim("info --json " + tmp.file("d.ftr")).output,
             Contains("\"hint_unmatched\": \"1\"") && Contains("\"hint_unmatched_bytes\": \"4096\""));
  // Q: both at their queue times, both tagged.
  CHECK_THAT(convert("q.ftr", "--action Q"), Contains("hints: 2 writes matched, 0 unmatched (0 B; 2 hint rows"));
  CHECK(run_ftlsim("dump " + tmp.file("q.ftr")).output ==
        "time,op,lba,length,pid\n0,write,2048,8,5\n10000,write,4096,8,2\n");
  // D with a tolerance past the delay: both tagged too.
  CHECK_THAT(convert("d2.ftr", "--action D --hint-tolerance 2s"), Contains("2 writes matched, 0 unmatched"));
}

TEST_CASE("info and convert warn when the timestamps imply more than a device sustains", "[cli][info]") {
  const TempDir tmp("rate");
  // 1000 requests 1 ns apart: 999 ns, 1e9 requests/s (times in us read as ns).
  std::string text = "time,lba,len\n";
  for (int i = 0; i < 1000; ++i) text += fmt::format("{},{},8\n", i, 8 * i);
  put(tmp.file("fast.csv"), text);
  const RunResult converted = run_ftlsim("convert --from csv " + tmp.file("fast.csv") + " -o " + tmp.file("fast.ftr") +
                                         " --columns time=time,lba=lba,length=len --no-progress");
  INFO(converted.output);
  REQUIRE(converted.exit_code == 0);
  // convert says it where the unit is chosen, in the words info uses.
  CHECK_THAT(converted.output,
             Contains("ftlsim convert: warning: " + tmp.file("fast.ftr") +
                      ": 1000 requests in 999 ns is 1001 M requests/s and 3.73 TiB/s"));  // 4 KiB each
  const RunResult fast = run_ftlsim("info " + tmp.file("fast.ftr"));
  INFO(fast.output);
  CHECK(fast.exit_code == 0);
  CHECK_THAT(fast.output, Contains("ftlsim info: warning: ") &&
                              Contains("1000 requests in 999 ns is 1001 M requests/s") &&
                              Contains("are the times in the unit the conversion assumed?"));
  // --json carries it in "warnings", with stderr left clean.
  const RunResult json = run_ftlsim("info --json " + tmp.file("fast.ftr") + " 2>/dev/null");
  CHECK_THAT(json.output, Contains("\"warnings\": [") && Contains("1001 M requests/s"));
  // 10 us apart: 100 000 requests/s, no warning.
  text = "time,lba,len\n";
  for (int i = 0; i < 1000; ++i) text += fmt::format("{},{},8\n", i * 10, 8 * i);
  put(tmp.file("slow.csv"), text);
  const RunResult slow = run_ftlsim("convert --from csv " + tmp.file("slow.csv") + " -o " + tmp.file("slow.ftr") +
                                    " --columns time=time:us,lba=lba,length=len --no-progress");
  REQUIRE(slow.exit_code == 0);
  CHECK_THAT(slow.output, !Contains("warning"));
  CHECK_THAT(run_ftlsim("info " + tmp.file("slow.ftr")).output, !Contains("warning"));
  // The path that parses everything before writing (--merge-devices) spans
  // what it writes too: two devices, 500 requests each, 1 ns apart.
  text = "time,dev,lba,len\n";
  for (int i = 0; i < 1000; ++i) text += fmt::format("{},{},{},8\n", i, i % 2, 8 * i);
  put(tmp.file("two.csv"), text);
  const RunResult merged = run_ftlsim("convert --from csv " + tmp.file("two.csv") + " -o " + tmp.file("two.ftr") +
                                      " --columns time=time,device=dev,lba=lba,length=len --merge-devices "
                                      "--no-progress");
  REQUIRE(merged.exit_code == 0);
  CHECK_THAT(merged.output, Contains("ftlsim convert: warning: " + tmp.file("two.ftr") +
                                     ": 1000 requests in 999 ns is 1001 M requests/s"));
  // A trim moves no data: mkfs discarding 1 TiB at the start of a 2 s
  // capture is no sign of a wrong unit; a 1 TiB write in that time is.
  for (const std::string op : {"trim", "write"}) {
    const std::string csv = tmp.file(op + "-tib.csv");
    put(csv, "time,op,lba,length,pid\n0," + op + ",0,2147483648,0\n1000000000,write,0,8,0\n2000000000,write,8,8,0\n");
    const std::string ftr = tmp.file(op + "-tib.ftr");
    const RunResult c = run_ftlsim("convert --from csv " + csv + " -o " + ftr + " --no-progress");
    INFO(c.output);
    REQUIRE(c.exit_code == 0);
    const RunResult i = run_ftlsim("info --json " + ftr + " 2>/dev/null");
    if (op == "trim") {
      CHECK_THAT(c.output, !Contains("warning"));
      CHECK_THAT(i.output, Contains("\"bytes_per_s\": 4096") && Contains("\"warnings\": []"));  // 8 KiB in 2 s
    } else {
      CHECK_THAT(c.output, Contains(": 3 requests in 2 s is 1.5 requests/s and 512.00 GiB/s, more than a device"));
    }
  }
}

TEST_CASE("a single run's --out holding another configuration's results is refused without --force", "[cli][out]") {
  const TempDir tmp("out-config");
  const std::string t = tmp.file("t.ftr");
  ftlsim::test::gen_uniform(t, "--logical 8M --writes 4000 --no-progress");
  const std::string out = tmp.file("out");
  const std::string run = "--trace " + t + " " + kDevice + " --out " + out;
  REQUIRE(run_ftlsim(run + " --gc-thres 60").exit_code == 0);
  const std::string first = slurp(out + "/summary.json");
  // The same configuration again: replaced, same results.
  REQUIRE(run_ftlsim(run + " --gc-thres 60").exit_code == 0);
  CHECK(slurp(out + "/summary.json") == first);
  // Another configuration: refused, nothing changed.
  const RunResult other = run_ftlsim(run + " --gc-thres 70");
  INFO(other.output);
  CHECK(other.exit_code == 2);
  CHECK_THAT(other.output, Contains("holds the results of another configuration or trace") && Contains("--force"));
  CHECK(slurp(out + "/summary.json") == first);
  // Another trace with the same options: refused too.
  const std::string t2 = tmp.file("t2.ftr");
  ftlsim::test::gen_uniform(t2, "--logical 8M --writes 4000 --seed 2 --no-progress");
  CHECK(run_ftlsim("--trace " + t2 + " " + kDevice + " --out " + out + " --gc-thres 60").exit_code == 2);
  // With --force: this run's results.
  REQUIRE(run_ftlsim(run + " --gc-thres 70 --force").exit_code == 0);
  CHECK_THAT(slurp(out + "/summary.json"), Contains("\"thres_pcent\": 70"));
  // A summary.json without a config_key (written by hand, or by an older
  // version) is someone else's too.
  const std::string hand = tmp.file("hand");
  fs::create_directories(hand);
  put(hand + "/summary.json", "{}\n");
  CHECK(run_ftlsim("--trace " + t + " " + kDevice + " --out " + hand).exit_code == 2);
  // A sweep's folder.
  const std::string sweep = tmp.file("sweep");
  REQUIRE(run_ftlsim("--trace " + t + " " + kDevice + " --gc-thres 60,70 --out " + sweep).exit_code == 0);
  const RunResult into_sweep = run_ftlsim("--trace " + t + " " + kDevice + " --out " + sweep);
  CHECK(into_sweep.exit_code == 2);
  CHECK_THAT(into_sweep.output, Contains("this run does not write"));
}

TEST_CASE("FDP device options given with single placement get a warning", "[cli][options]") {
  const TempDir tmp("single-opts");
  const std::string t = tmp.file("t.ftr");
  ftlsim::test::gen_uniform(t, "--logical 8M --writes 2000 --no-progress");
  const std::string run = "--trace " + t + " " + kDevice;
  const RunResult plain = run_ftlsim(run);
  REQUIRE(plain.exit_code == 0);
  const std::string waf = plain.output.substr(plain.output.find("WAF"), 20);
  for (const std::string opt : {"--ru-size 256K", "--ruh 4", "--rg 2", "--ruh-type ii", "--pi-gc host-ru",
                                "--ii-gc gc-ru", "--ru-open lazy", "--rg-split dies", "--rg-of lba", "--rg-gc every"}) {
    const RunResult r = run_ftlsim(run + " " + opt);
    INFO(opt << ": " << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output,
               Contains("ftlsim: warning: " + opt.substr(0, opt.find(' ')) + " does not apply to --placement single") &&
                   Contains(waf));  // and indeed the same WAF
    CHECK_THAT(run_ftlsim(run + " " + opt + " --placement fdp").output, !Contains("does not apply"));
  }
  CHECK_THAT(plain.output, !Contains("warning"));
  // A list with another policy keeps it silently; qd-sweep warns too.
  CHECK_THAT(run_ftlsim(run + " --ruh 4 --placement single,fdp --out " + tmp.file("sw")).output, !Contains("warning"));
  CHECK_THAT(run_ftlsim("qd-sweep --trace " + t + " " + kDevice + " --qd 1 --ruh 4").output,
             Contains("--ruh does not apply to --placement single"));
  // compare: a shared option is meant for the FDP side; one given to the single side alone gets the warning.
  CHECK_THAT(
      run_ftlsim("compare --trace " + t + " " + kDevice + " --ruh 4 --a \"--placement single\" --b \"--placement fdp\"")
          .output,
      !Contains("warning"));
  CHECK_THAT(
      run_ftlsim("compare --trace " + t + " " + kDevice + " --a \"--placement single --ruh 4\" --b \"--placement fdp\"")
          .output,
      Contains("--ruh does not apply to --placement single"));
  // --ru-time-limit closes single's line too (it changes results): no warning.
  CHECK_THAT(run_ftlsim(run + " --ru-time-limit 1ms").output, !Contains("warning"));
}

TEST_CASE("a --d-choices given without --victim d-choice gets a warning", "[cli][options]") {
  const TempDir tmp("d-choices");
  const std::string t = tmp.file("t.ftr");
  ftlsim::test::gen_uniform(t, "--logical 8M --writes 20000 --no-progress");
  const std::string run = "--trace " + t + " " + kDevice;
  const RunResult plain = run_ftlsim(run);
  REQUIRE(plain.exit_code == 0);
  const std::string waf = plain.output.substr(plain.output.find("WAF"), 20);
  const RunResult greedy = run_ftlsim(run + " --d-choices 2");
  INFO(greedy.output);
  CHECK(greedy.exit_code == 0);
  CHECK_THAT(greedy.output, Contains("ftlsim: warning: --d-choices applies only to --victim d-choice and changes no "
                                     "result here") &&
                                Contains(waf));  // and indeed the same WAF
  // With d-choice it applies (2 candidates choose worse than 8): no warning, another WAF.
  const RunResult two = run_ftlsim(run + " --victim d-choice --d-choices 2");
  const RunResult eight = run_ftlsim(run + " --victim d-choice");
  CHECK_THAT(two.output, !Contains("warning"));
  CHECK(two.output.substr(two.output.find("WAF"), 20) != eight.output.substr(eight.output.find("WAF"), 20));
  // A list holding d-choice keeps it silently.
  CHECK_THAT(run_ftlsim(run + " --victim greedy,d-choice --d-choices 2 --out " + tmp.file("sw")).output,
             !Contains("warning"));
}

TEST_CASE("under --rules confdp, single runs on the FDP device: its settings apply, with no warning", "[cli]") {
  // ConfFDP has no non-FDP mode: `single` handle0 writes through handle 0 of
  // the FDP device, so its reclaim groups split the dies and move WAF.
  const TempDir tmp("confdp-single");
  const std::string t = tmp.file("t.ftr");
  ftlsim::test::gen_uniform(t, "--logical 8M --writes 20000 --no-progress");
  const std::string run = "--trace " + t + " " + kDevice;
  const auto waf_of = [](const RunResult& r) { return r.output.substr(r.output.find("WAF"), 20); };
  const RunResult one = run_ftlsim(run + " --rules confdp");
  const RunResult two = run_ftlsim(run + " --rules confdp --rg 2");
  INFO(one.output << two.output);
  REQUIRE(one.exit_code == 0);
  REQUIRE(two.exit_code == 0);
  CHECK(waf_of(one) != waf_of(two));
  CHECK_THAT(two.output, !Contains("warning"));
  // Given explicitly, line-path is the non-FDP device again: the warning stays.
  CHECK_THAT(run_ftlsim(run + " --rules confdp --single line-path --rg 2").output,
             Contains("--rg does not apply to --placement single"));
}
