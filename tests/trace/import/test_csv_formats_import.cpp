// CSV-family importers: msr, alibaba, tencent, and the generic csv with
// --columns / --op-map (including the CloudPhysics trace), plus DiskSim
// through the shared driver.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "test_util.h"
#include "trace/ftr_reader.h"
#include "trace/import/import.h"

using namespace ftlsim::trace;
using namespace ftlsim::trace::test;
using Catch::Contains;

namespace {

ImportOptions csv(const std::string& columns, const std::string& op_map = "") {
  ImportOptions o = options_for(TextFormat::kCsv);
  o.csv.columns = columns;
  o.csv.op_map = op_map;
  return o;
}

const std::string kCsvColumns = "time=ts_us:us,lba=offset:bytes,length=size:bytes,op=type,pid=stream";
const std::string kCsvOps = "W=write,R=read,T=trim,F=flush,X=skip";

// Each case: a line and the message it must produce as line 3 after `prefix`.
void check_bad_lines(const ImportOptions& o, const std::string& prefix,
                     const std::vector<std::pair<std::string, std::string>>& cases) {
  for (const auto& [line, expected] : cases) {
    INFO(format_name(o.format) << " line: " << line.substr(0, 80));
    CHECK_THAT(import_error(prefix + line + "\n" + prefix, o), Contains("mem: line 3: ") && Contains(expected));
    CHECK_THAT(import_error(prefix + line, o), Contains("mem: line 3: ") && Contains(expected));
  }
}

}  // namespace

TEST_CASE("msr: FILETIME to ns from the first record, bytes to covering sectors", "[trace][unit][msr]") {
  ImportOptions o = options_for(TextFormat::kMsr);
  o.merge_devices = true;  // small.msr has disks 0 and 1
  const ParsedTrace p = parse_text_trace(read_bytes(fixture("small.msr")), "small.msr", o);
  CHECK(p.meta.get("devices") == "0:4 1:1");
  CHECK_RECORDS(p.records, {rec(0, Op::kWrite, 8, 8), rec(1'000, Op::kRead, 0, 1), rec(100'000, Op::kWrite, 16, 16),
                            rec(50'000, Op::kWrite, 1, 2),  // bytes [1000, 1100): sectors 1 and 2
                            rec(200'000, Op::kRead, 2048, 128)});
  CHECK(p.summary.header_lines == 1);
  CHECK(p.summary.unaligned == 1);
  CHECK(p.summary.backwards_timestamps == 1);
  CHECK(p.meta.get("source") == "msr");

  std::string crlf;
  for (const char c : read_bytes(fixture("small.msr"))) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  CHECK(std::memcmp(parse_text_trace(crlf, "mem", o).records.data(), p.records.data(), 5 * sizeof(Record)) == 0);

  ImportOptions disk = options_for(TextFormat::kMsr);
  disk.device = "0";  // --disk 0
  const ParsedTrace d = parse_text_trace(read_bytes(fixture("small.msr")), "mem", disk);
  CHECK(d.records.size() == 4);
  CHECK(d.summary.filtered == 1);
  CHECK(d.meta.get("device") == "0");

  check_bad_lines(
      o, "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n1,hm,0,Read,0,512,1\n",
      {{"1,hm,0,Write,0,512",
        "expected 7 fields (Timestamp,Hostname,DiskNumber,Type,Offset,Size,"
        "ResponseTime), found 6"},
       {"1,hm,0,Write,0,512,1,9", "found 8"},
       {"x,hm,0,Write,0,512,1", "timestamp 'x' is not a decimal integer"},
       {"Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime", "timestamp 'Timestamp'"},
       {"1,hm,0,Erase,0,512,1", "type 'Erase' is neither Read nor Write"},
       {"1,hm,0,Write,-4096,512,1", "offset '-4096' is negative"},
       {"1,hm,0,Write,0,0,1", "size is 0 bytes (zero-length request)"},
       {"99999999999999999999,hm,0,Write,0,512,1", "does not fit in 64 bits"},
       {"184467440737095517,hm,0,Write,0,512,1", "timestamp 184467440737095517 overflows 64-bit nanoseconds"},
       {"1,hm,0,Write,18446744073709551615,512,1", "offset 18446744073709551615 + size 512 overflows"},
       {"1,hm,0,Write,0,512,x", "response time 'x' is not a decimal integer"},
       {"1,hm,0,Write,0,512,1" + std::string(4100, ' '), "line is more than 4096 bytes long (limit 4096)"}});
}

TEST_CASE("alibaba: microseconds and bytes", "[trace][unit][alibaba]") {
  ImportOptions o = options_for(TextFormat::kAlibaba);
  o.merge_devices = true;  // devices 0 and 1
  const ParsedTrace p = parse_text_trace(read_bytes(fixture("small.alibaba")), "mem", o);
  CHECK_RECORDS(p.records, {rec(0, Op::kWrite, 8, 8), rec(10'000, Op::kRead, 0, 1), rec(1'000'000, Op::kWrite, 16, 16),
                            rec(500'000, Op::kRead, 1, 2)});
  CHECK(p.summary.header_lines == 0);
  CHECK(p.summary.unaligned == 1);
  ImportOptions dev = options_for(TextFormat::kAlibaba);
  dev.device = "1";
  CHECK_RECORDS(parse_text_trace(read_bytes(fixture("small.alibaba")), "mem", dev).records,
                {rec(0, Op::kWrite, 16, 16)});
  check_bad_lines(o, "device_id,opcode,offset,length,timestamp\n0,R,0,512,5\n",
                  {{"0,X,0,512,1", "opcode 'X' is neither R nor W"},
                   {"0,W,0,512", "expected 5 fields (device_id,opcode,offset,length,timestamp), found 4"},
                   {"0,W,0,0,1", "size is 0 bytes"},
                   {"0,W,0,512,1.5.2", "timestamp '1.5.2' is not a decimal number"},
                   {"0,W,0,512,99999999999999999", "overflows 64 bits once scaled"},
                   {"-1,W,0,512,1", "device_id '-1' is negative"}});
}

TEST_CASE("tencent: seconds and sectors, volume filter", "[trace][unit][tencent]") {
  ImportOptions o = options_for(TextFormat::kTencent);
  o.merge_devices = true;  // volumes 1063 and 2000
  const ParsedTrace p = parse_text_trace(read_bytes(fixture("small.tencent")), "mem", o);
  CHECK_RECORDS(p.records, {rec(0, Op::kWrite, 100, 8), rec(0, Op::kRead, 200, 16),
                            rec(1'000'000'000, Op::kWrite, 300, 8), rec(3'000'000'000, Op::kWrite, 400, 32)});
  CHECK(p.summary.header_lines == 1);
  ImportOptions vol = options_for(TextFormat::kTencent);
  vol.device = "1063";
  const ParsedTrace v = parse_text_trace(read_bytes(fixture("small.tencent")), "mem", vol);
  CHECK(v.records.size() == 3);
  CHECK(v.summary.filtered == 1);
  check_bad_lines(o, "1,0,8,0,1\n1,8,8,1,1\n",
                  {{"1,0,0,1,1", "size is 0 sectors"},
                   {"1,0,8,2,1", "IOType 2 is neither 0 (read) nor 1 (write)"},
                   {"1,0,8,1", "expected 5 fields (Timestamp,Offset,Size,IOType,VolumeID), found 4"},
                   {"1,18446744073709551615,8,1,1", "offset 18446744073709551615 + size 8 overflows"},
                   {"1,0,4294967296,1,1", "size '4294967296' does not fit in 32 bits"}});
}

TEST_CASE("csv: --columns with units, --op-map with skip, pid column", "[trace][unit][csv]") {
  const ParsedTrace p = parse_text_trace(read_bytes(fixture("small.csv")), "mem", csv(kCsvColumns, kCsvOps));
  CHECK_RECORDS(p.records, {rec(0, Op::kWrite, 8, 8, 1), rec(2'000, Op::kRead, 0, 16, 0),
                            rec(5'000, Op::kTrim, 2, 1, 2),  // bytes [1024, 1124)
                            rec(10'000, Op::kFlush, 0, 0, 0)});
  CHECK(p.summary.skipped_ops == 1);
  CHECK(p.summary.header_lines == 1);
  CHECK(p.summary.unaligned == 1);
  CHECK(p.meta.get("csv_columns") == kCsvColumns);
  CHECK(p.meta.get("csv_op_map") == kCsvOps);

  // Without --op-map the default map knows W/R/T/F but not X.
  CHECK_THAT(import_error(read_bytes(fixture("small.csv")), csv(kCsvColumns)),
             Contains("mem: line 6: op 'X' is not in the op map (the default one: w, write, r, read, t, trim, d, "
                      "discard, f, flush, m, marker)"));
  // With --op-map, its values (at most 12, each cut at 16 characters).
  CHECK_THAT(import_error(read_bytes(fixture("small.csv")), csv(kCsvColumns, "W=write,R=read,T=trim,F=flush")),
             Contains("mem: line 6: op 'X' is not in the op map (W, R, T, F)"));
  CHECK_THAT(import_error("a,b,c\n0,8,x\n",
                          csv("lba=a,length=b,op=c",
                              "1=write,2=write,3=write,4=write,5=write,6=write,7=write,8=write,9=write,10=write,"
                              "11=write,12=write,13=write,averyveryverylongvalue=read")),
             Contains("op 'x' is not in the op map (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, ... (14 values))"));
  CHECK_THAT(import_error("a,b,c\n0,8,x\n", csv("lba=a,length=b,op=c", "averyveryverylongvalue=read")),
             Contains("op 'x' is not in the op map (averyveryverylon...)"));

  // Columns by number, no header, sectors and 4k units, seconds with decimals,
  // tab separator, no op column (all writes).
  ImportOptions n = csv("time=#3:s,lba=#1:4k,length=#2");
  n.csv.header = false;
  n.csv.separator = '\t';
  CHECK_RECORDS(parse_text_trace("10\t8\t1.5\n20\t16\t1.75\n", "mem", n).records,
                {rec(0, Op::kWrite, 80, 8), rec(250'000'000, Op::kWrite, 160, 16)});

  // A device column and the --device filter; ms.
  ImportOptions d = csv("time=t:ms,lba=l,length=n,device=dev");
  d.device = "2";
  CHECK_RECORDS(parse_text_trace("t,dev,l,n\n1,1,0,8\n3,2,8,8\n4,2,16,8\n", "mem", d).records,
                {rec(0, Op::kWrite, 8, 8), rec(1'000'000, Op::kWrite, 16, 8)});
}

TEST_CASE("an SPC trace (UMass Financial, WebSearch) imports with the documented csv mapping", "[trace][unit][csv]") {
  // SPC's fields (docs/trace_format.md): ASU, LBA (read as 512-byte
  // sectors), size in bytes, opcode R or W in either case, seconds with
  // decimals, then any number of optional fields; blanks may follow a
  // comma. Hand-made lines.
  const std::string text =
      "0,2048,8192,W,0.500000,Alpha\n"
      "1,100,512, r,1.250000,0x1,2.5,x\n"
      "0, 2064, 15872, w, 1.500000\n"
      "1,101,4096,R,2.000000\n";
  ImportOptions o = csv("device=#1,lba=#2,length=#3:bytes,op=#4,time=#5:s", "r=read,w=write");
  o.csv.header = false;
  o.device = "0";  // one ASU; times count from its first request
  CHECK_RECORDS(parse_text_trace(text, "mem", o).records,
                {rec(0, Op::kWrite, 2048, 16), rec(1'000'000'000, Op::kWrite, 2064, 31)});
  o.device = "1";
  CHECK_RECORDS(parse_text_trace(text, "mem", o).records,
                {rec(0, Op::kRead, 100, 1), rec(750'000'000, Op::kRead, 101, 8)});
  // Each ASU's LBAs start at 0: without --device the trace is refused.
  o.device.clear();
  CHECK_THAT(import_error(text, o), Contains("mem: requests for 2 devices: 0 (2 requests), 1 (2 requests)"));
}

TEST_CASE("DiskSim's own ASCII trace converts through csv as documented", "[trace][unit][csv][disksim]") {
  // DiskSim's fields (docs/trace_format.md): time in ms as a decimal,
  // device, block, sectors, flags with bit 0 for a read. Hand-made lines.
  const std::string text = "0.551706 0 2048 16 0\n1.5 0 4096 8 1\n2.25 1 100 8 1\n";
  ImportOptions o = csv("time=#1:ms,device=#2,lba=#3,length=#4,op=#5", "0=write,1=read");
  o.csv.header = false;
  o.csv.separator = ' ';
  o.device = "0";
  CHECK_RECORDS(parse_text_trace(text, "mem", o).records,
                {rec(0, Op::kWrite, 2048, 16), rec(948'294, Op::kRead, 4096, 8)});
  // --from disksim (MQSim's nanosecond integers) refuses the decimal time, pointing to csv.
  ImportOptions d = options_for(TextFormat::kDiskSim);
  d.device = "0";
  CHECK_THAT(import_error(text, d), Contains("mem: line 1: arrival time '0.551706' is not a decimal integer"));
}

TEST_CASE("csv: option and data errors", "[trace][unit][csv]") {
  const std::string text = read_bytes(fixture("small.csv"));
  CHECK_THAT(import_error(text, csv("")), Contains("`from` csv needs `columns`"));
  CHECK_THAT(import_error(text, csv("lba=offset")), Contains("`columns`: lba and length are required"));
  CHECK_THAT(import_error(text, csv("lba=offset,length=size,when=ts_us")), Contains("unknown field 'when'"));
  CHECK_THAT(import_error(text, csv("lba=offset:kb,length=size")), Contains("unit 'kb' of lba is not one of"));
  CHECK_THAT(import_error(text, csv("lba=offset,length=size,time=ts_us:h")), Contains("unit 'h' of time"));
  CHECK_THAT(import_error(text, csv("lba=offset,length=size,lba=size")), Contains("field lba is given twice"));
  CHECK_THAT(import_error(text, csv("lba=#0,length=size")), Contains("'#0' is not a column number"));
  CHECK_THAT(import_error(text, csv("lba=offset,length=size,op=type:x")), Contains("op takes no unit"));
  CHECK_THAT(import_error(text, csv("lba=nope,length=size")),
             Contains("mem: the header line has no column 'nope' (it has: ts_us, offset, size, type, stream)"));
  CHECK_THAT(import_error(text, csv(kCsvColumns, "W=write,R=erase")),
             Contains("`op-map`: 'erase' is not one of write, read, trim, flush, marker, skip"));
  CHECK_THAT(import_error(text, csv(kCsvColumns, "W=write,w=read")), Contains("'w' is given twice"));
  ImportOptions nh = csv("lba=offset,length=size");
  nh.csv.header = false;
  CHECK_THAT(import_error(text, nh), Contains("column 'offset' is named, but the file has no header"));

  check_bad_lines(csv("time=a:us,lba=b:bytes,length=c:bytes,op=d,pid=e"), "a,b,c,d,e\n1,0,512,W,0\n",
                  {{"1,2", "expected at least 5 fields, found 2"},
                   {"1,0,512,Q,0", "op 'Q' is not in the op map"},
                   {"x,0,512,W,0", "time 'x' is not a decimal integer"},
                   {"1,-1,512,W,0", "lba '-1' is negative"},
                   {"1,0,0,W,0", "size is 0 bytes"},
                   {"1,0,512,W,70000", "pid '70000' does not fit in 16 bits"},
                   {"1,0,512,W,", "pid is missing"}});
}

TEST_CASE("the CloudPhysics trace imports with a csv mapping", "[trace][unit][csv][external]") {
  const std::string in = external_trace("cloudphysics-io.csv");
  if (in.empty()) return;
  // Independent count: data lines by opcode, the sectors they move, and the
  // first and latest time (whole seconds, docs/trace_format.md).
  uint64_t lines = 0, unparsed = 0, writes = 0, write_sectors = 0, read_sectors = 0;
  uint64_t first_s = 0, last_s = 0;
  std::ifstream f(in);
  std::string line;
  std::getline(f, line);  // header
  REQUIRE(line == "version,time,op,size,lbn");
  while (std::getline(f, line)) {
    std::istringstream ss(line);
    std::string version, time, op, size, lbn;
    if (!std::getline(ss, version, ',') || !std::getline(ss, time, ',') || !std::getline(ss, op, ',') ||
        !std::getline(ss, size, ',')) {
      ++unparsed;
      continue;
    }
    if (lines == 0) first_s = std::stoull(time);
    last_s = std::max<uint64_t>(last_s, std::stoull(time));
    ++lines;
    (op == "2a" ? write_sectors : read_sectors) += (std::stoull(size) + 511) / 512;
    writes += op == "2a" ? 1 : 0;
  }
  REQUIRE(unparsed == 0);
  CHECK(lines == 113872);  // the README's numbers
  CHECK(writes == 66898);

  TempDir dir;
  const ImportSummary s =
      import_text_trace(in, dir.file("cp.ftr"), csv("time=time:s,lba=lbn,length=size:bytes,op=op", "2a=write,28=read"));
  CHECK(s.records == lines);
  CHECK(s.bad_lines == 0);
  const FtrReader reader(dir.file("cp.ftr"));
  uint64_t got_writes = 0, got_ws = 0, got_rs = 0, got_last_ns = 0;
  for (const Record& r : reader.records()) {
    got_last_ns = std::max<uint64_t>(got_last_ns, r.time_ns);
    const bool w = r.op == static_cast<uint8_t>(Op::kWrite);
    got_writes += w ? 1 : 0;
    (w ? got_ws : got_rs) += r.sectors;
  }
  REQUIRE(reader.size() == lines);
  CHECK(got_writes == writes);
  CHECK(got_ws == write_sectors);
  CHECK(got_rs == read_sectors);
  CHECK(reader.records()[0].time_ns == 0);  // times count from the first record
  CHECK(got_last_ns == (last_s - first_s) * 1'000'000'000);
  CHECK(last_s - first_s == 7200);  // two hours (by hand: 5641098 - 5633898)
}

TEST_CASE("disksim through the shared driver: same records, plus LBA placement", "[trace][unit][disksim]") {
  const std::string text = "10 0 0 8 0\n5 1 8 8 0\n7 0 16 8 1\n3 0 4096 8 0\n";
  TempDir dir;
  write_bytes(dir.file("map"), "lba:0-16=1\nlba:4096-8192=2\n");
  ImportOptions o = options_for(TextFormat::kDiskSim);
  o.placement.pid_map = dir.file("map");
  o.device = "0";
  const ParsedTrace p = parse_text_trace(text, "mem", o);
  CHECK_RECORDS(p.records, {rec(10, Op::kWrite, 0, 8, 1), rec(7, Op::kRead, 16, 8, 0), rec(3, Op::kWrite, 4096, 8, 2)});
  CHECK(p.summary.filtered == 1);
  CHECK(p.summary.backwards_timestamps == 2);  // 10 -> 7 -> 3 among the kept records

  for (const std::string name : {"mqsim-tpcc-small.trace", "mqsim-wsrch-small.trace"}) {
    const std::string in = external_trace(name);
    if (in.empty()) continue;
    uint64_t lines = 0;
    std::ifstream f(in);
    for (std::string l; std::getline(f, l);) lines += l.find_first_not_of(" \t\r") != std::string::npos ? 1 : 0;
    ImportOptions merged = options_for(TextFormat::kDiskSim);
    merged.merge_devices = true;  // MQSim's traces hold several devices
    const ImportSummary s = import_text_trace(in, dir.file("m.ftr"), merged);
    INFO(name);
    CHECK(s.records == lines);
    CHECK(FtrReader(dir.file("m.ftr")).size() == lines);
  }
}

TEST_CASE("an MSR Cambridge file imports when one is present", "[trace][unit][msr][external]") {
  // No MSR trace ships in ../shared today; any *.csv there whose name starts
  // with "msr" is checked against an independent line count.
  const std::string dir = std::string(FTLSIM_SOURCE_DIR) + "/../shared/traces/external";
  if (!std::filesystem::exists(dir)) {
    WARN("skipped: " << dir << " is not present");
    return;
  }
  int seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("msr", 0) != 0 || entry.path().extension() != ".csv") continue;
    ++seen;
    uint64_t lines = 0;
    std::ifstream f(entry.path());
    for (std::string l; std::getline(f, l);) lines += !l.empty() && l[0] >= '0' && l[0] <= '9' ? 1 : 0;
    TempDir tmp;
    CHECK(import_text_trace(entry.path().string(), tmp.file("m.ftr"), options_for(TextFormat::kMsr)).records == lines);
  }
  if (seen == 0) WARN("skipped: no msr*.csv in " << dir);
}

TEST_CASE("csv without columns: ftlsim dump's CSV reads with dump's columns, its times kept", "[trace][unit][csv]") {
  const std::string dump =
      "time,op,lba,length,pid\n5000,write,8,8,1\n4000,read,0,16,0\n6000,trim,100,8,2\n7000,marker,42,0,0\n";
  const ParsedTrace p = parse_text_trace(dump, "mem", options_for(TextFormat::kCsv));
  CHECK_RECORDS(p.records, {rec(5'000, Op::kWrite, 8, 8, 1), rec(4'000, Op::kRead, 0, 16, 0),
                            rec(6'000, Op::kTrim, 100, 8, 2), rec(7'000, Op::kMarker, 42, 0, 0)});
  CHECK(p.summary.dump_columns);
  CHECK(p.meta.get("csv_columns") == "time=time,lba=lba,length=length,op=op,pid=pid");
  // Any other header, or dump's with another separator, needs --columns.
  for (const std::string& text : {std::string("time,op,lba,length\n1,write,0,8\n"), dump}) {
    ImportOptions o = options_for(TextFormat::kCsv);
    if (text == dump) o.csv.separator = ';';
    CHECK_THAT(import_error(text, o),
               Contains("needs `columns`") && Contains("(a CSV from ftlsim dump, with the header "
                                                       "time,op,lba,length,pid, needs none)"));
  }
  CHECK_FALSE(parse_text_trace(dump, "mem", csv("time=time,lba=lba,length=length,op=op,pid=pid")).summary.dump_columns);
}
