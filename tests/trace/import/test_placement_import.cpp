// Placement IDs on import: the write-hint join (exact per-record IDs on a
// hand-made trace, tie-breaks, tolerance, clock offset, remapping, and the
// index against a brute-force join), pid maps, and option conflicts.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <random>
#include <tuple>

#include "test_util.h"
#include "trace/ftr_reader.h"
#include "trace/import/import.h"
#include "trace/import/placement_id_source.h"

using namespace ftlsim::trace;
using namespace ftlsim::trace::test;
using Catch::Contains;
using ftlsim::InputError;

namespace {

// D events on 7,0 (and one on 8,0), kernel trace clock.
//  #  time (s)     op   range           hint-log rows that overlap, on 7:0     -> pid
//  1  100.000100   W    [1000, 1008)    100.000050 h2 (50 us), 100.000790 h4   -> 2
//  2  100.000200   W    [2000, 2016)    100.000150 h3 @2000, 100.000160 h3 @2008 -> 3
//  3  100.000300   W    [3000, 3008)    98.0 h1, 99.0 h4 (1.0003 s > 1 s), 100.5 h5 (0.4997 s) -> 5
//  4  100.000400   R    [1000, 1008)    reads take no hint                      -> 0
//  5  100.000500   W    8,0 [1000, 1008) no rows on 8:0: unmatched               -> 0
//  6  100.000600   W    [5000, 5008)    5008+8 only touches it: unmatched        -> 0
//  7  100.000700   W    [6000, 6256)    6200+8 at 100.000690 h1, another bucket -> 1
//  8  100.000800   W    [1000, 1008)    100.000790 h4 (10 us) beats 100.000050  -> 4
//  9  100.000900   W    [7000, 7008)    100.000850 h1 and 100.000950 h2, both 50 us: the earlier -> 1
const std::string kBlockTrace =
    "# tracer: blk\n"
    "  w-1 [000] ..... 100.000100: 7,0 D W 1000 + 8 [w]\n"
    "  w-1 [000] ..... 100.000200: 7,0 D W 2000 + 16 [w]\n"
    "  w-1 [000] ..... 100.000300: 7,0 D W 3000 + 8 [w]\n"
    "  w-1 [000] ..... 100.000400: 7,0 D R 1000 + 8 [w]\n"
    "  w-1 [000] ..... 100.000500: 8,0 D W 1000 + 8 [w]\n"
    "  w-1 [000] ..... 100.000600: 7,0 D W 5000 + 8 [w]\n"
    "  w-1 [000] ..... 100.000700: 7,0 D W 6000 + 256 [w]\n"
    "  w-1 [000] ..... 100.000800: 7,0 D W 1000 + 8 [w]\n"
    "  w-1 [000] ..... 100.000900: 7,0 D W 7000 + 8 [w]\n";

const std::string kHintLog =
    "time_ns,dev,sector,sectors,hint,stream,ino,pid,comm\n"
    "100000050000,7:0,1000,8,2,9,12,1,w\n"
    "100000150000,7:0,2000,8,3,0,12,1,w\n"
    "100000160000,7:0,2008,8,3,0,12,1,w\n"
    "98000000000,7:0,3000,8,1,0,13,1,w\n"
    "99000000000,7:0,3000,8,4,0,13,1,w\n"
    "100500000000,7:0,3000,8,5,0,13,1,a, comm with a comma\n"
    "100000590000,7:0,5008,8,2,0,13,1,w\n"
    "100000690000,7:0,6200,8,1,0,14,1,w\n"
    "100000790000,7:0,1000,8,4,0,12,1,w\n"
    "100000850000,7:0,7000,8,1,0,15,1,w\n"
    "100000950000,7:0,7000,8,2,0,15,1,w\n"
    "100000000000,7:0,9000,0,3,0,0,1,flush\n";  // no data: not indexed

std::vector<Record> with_pids(const std::vector<PlacementId>& pids) {
  std::vector<Record> out;
  const Op ops[] = {Op::kWrite, Op::kWrite, Op::kWrite, Op::kRead, Op::kWrite,
                    Op::kWrite, Op::kWrite, Op::kWrite, Op::kWrite};
  const uint64_t lbas[] = {1000, 2000, 3000, 1000, 1000, 5000, 6000, 1000, 7000};
  const uint32_t lens[] = {8, 16, 8, 8, 8, 8, 256, 8, 8};
  for (size_t i = 0; i < 9; ++i) out.push_back(rec(i * 100'000, ops[i], lbas[i], lens[i], pids[i]));
  return out;
}

struct HintFixture {
  TempDir dir;
  std::string hints = dir.file("hints.csv");
  HintFixture() { write_bytes(hints, kHintLog); }
  ImportOptions options(TextFormat f = TextFormat::kFtraceBlk) const {
    ImportOptions o = options_for(f);
    o.placement.hints = hints;
    return o;
  }
};

}  // namespace

TEST_CASE("hints: each write takes the nearest overlapping hint on its device", "[trace][unit][hints]") {
  const HintFixture fx;
  const ParsedTrace p = parse_text_trace(kBlockTrace, "mem", fx.options());
  CHECK_RECORDS(p.records, with_pids({2, 3, 5, 0, 0, 0, 1, 4, 1}));
  CHECK(p.summary.hint_rows == 11);
  CHECK(p.summary.hint_matched == 6);
  CHECK(p.summary.hint_unmatched == 2);
  CHECK(p.meta.get("placement") == "hints");
  CHECK(p.meta.get("hint_log") == "hints.csv");
  CHECK(p.meta.get("hint_matched") == "6");
  CHECK(p.meta.get("hint_unmatched") == "2");
  CHECK(p.meta.get("hint_rows") == "11");
  CHECK(p.meta.pid_names.at(2) == "rwh_short");
}

TEST_CASE("hints: --hint-map, the stream column, tolerance and names", "[trace][unit][hints]") {
  const HintFixture fx;
  ImportOptions o = fx.options();
  o.placement.hint_map = "1=7, 5=6";
  o.placement.names = {{7, "wal"}};
  const ParsedTrace m = parse_text_trace(kBlockTrace, "mem", o);
  CHECK_RECORDS(m.records, with_pids({2, 3, 6, 0, 0, 0, 7, 4, 7}));
  CHECK(m.meta.pid_names == std::map<PlacementId, std::string>{{7, "wal"}});  // no rwh_ names once remapped
  CHECK(m.meta.get("hint_map") == "1=7, 5=6");

  ImportOptions s = fx.options();
  s.placement.hint_field = HintField::kStream;
  const ParsedTrace st = parse_text_trace(kBlockTrace, "mem", s);
  CHECK_RECORDS(st.records, with_pids({9, 0, 0, 0, 0, 0, 0, 0, 0}));
  CHECK(st.summary.hint_matched == 6);  // a match whose stream is 0 still matched

  ImportOptions t = fx.options();
  t.placement.hint_tolerance_ns = 400'000'000;  // record 3's nearest row is 0.4997 s away
  const ParsedTrace tt = parse_text_trace(kBlockTrace, "mem", t);
  CHECK_RECORDS(tt.records, with_pids({2, 3, 0, 0, 0, 0, 1, 4, 1}));
  CHECK(tt.summary.hint_unmatched == 3);
}

TEST_CASE("hints: a blkparse trace joins through --hint-offset", "[trace][unit][hints]") {
  // The same D events as blkparse prints them: seconds since tracing began,
  // here 100 s after the hint log's clock origin.
  const std::string blk =
      "  7,0    0        1     0.000100000     1  D   W 1000 + 8 [w]\n"
      "  7,0    0        2     0.000200000     1  D   W 2000 + 16 [w]\n"
      "  7,0    0        3     0.000300000     1  D   W 3000 + 8 [w]\n"
      "  7,0    0        4     0.000400000     1  D   R 1000 + 8 [w]\n"
      "  8,0    0        5     0.000500000     1  D   W 1000 + 8 [w]\n"
      "  7,0    0        6     0.000600000     1  D   W 5000 + 8 [w]\n"
      "  7,0    0        7     0.000700000     1  D   W 6000 + 256 [w]\n"
      "  7,0    0        8     0.000800000     1  D   W 1000 + 8 [w]\n"
      "  7,0    0        9     0.000900000     1  D   W 7000 + 8 [w]\n";
  const HintFixture fx;
  ImportOptions o = fx.options(TextFormat::kBlkparse);
  o.placement.hint_offset_ns = 100'000'000'000;
  const ParsedTrace p = parse_text_trace(blk, "mem", o);
  std::vector<Record> want = with_pids({2, 3, 5, 0, 0, 0, 1, 4, 1});
  for (Record& r : want) r.time_ns += 100'000;  // blkparse times are kept, not rebased
  CHECK_RECORDS(p.records, want);
  CHECK(p.meta.get("hint_offset_ns") == "100000000000");

  o.placement.hint_offset_ns = 0;  // without it nothing is within a second
  const ParsedTrace none = parse_text_trace(blk, "mem", o);
  CHECK(none.summary.hint_matched == 0);
  CHECK(none.summary.hint_unmatched == 8);
}

TEST_CASE("hints: written into the trace file with the match counts", "[trace][unit][hints]") {
  const HintFixture fx;
  const std::string in = fx.dir.file("blk.txt");
  write_bytes(in, kBlockTrace);
  ImportOptions o = fx.options();
  o.meta = {{"convert_options", "--from ftrace-blk --hints hints.csv"}};
  const ImportSummary s = import_text_trace(in, fx.dir.file("out.ftr"), o);
  CHECK(s.hint_matched == 6);
  const FtrReader reader(fx.dir.file("out.ftr"));
  const std::vector<Record> got(reader.records().begin(), reader.records().end());
  CHECK_RECORDS(got, with_pids({2, 3, 5, 0, 0, 0, 1, 4, 1}));
  CHECK(reader.meta().get("hint_matched") == "6");
  CHECK(reader.meta().get("hint_unmatched") == "2");
  CHECK(reader.meta().get("convert_options") == "--from ftrace-blk --hints hints.csv");
  CHECK(reader.meta().pid_names.at(5) == "rwh_extreme");
}

TEST_CASE("hints: header order, raw dev_t, malformed lines", "[trace][unit][hints]") {
  HintIndex::LoadOptions lo;
  // Columns found by name; a dev_t number (MKDEV(7, 0) = 7 << 20) is accepted.
  const HintIndex idx = HintIndex::parse("dev,sectors,sector,time_ns,hint\n7340032,8,100,5000,3\n", "h", lo);
  CHECK(idx.rows() == 1);
  CHECK(idx.lookup(make_dev(7, 0), 104, 1, 5100, 1000) == std::optional<uint16_t>(3));
  CHECK(idx.lookup(make_dev(7, 0), 104, 1, 7000, 1000) == std::nullopt);  // 2 us > 1 us
  CHECK(idx.lookup(make_dev(8, 0), 104, 1, 5000, 1000) == std::nullopt);

  const std::string head = "time_ns,dev,sector,sectors,hint,stream,ino,pid,comm\n1,7:0,0,8,1,0,0,1,a\n";
  const std::pair<std::string, std::string> cases[] = {
      {"100,7:0,1000", "h: line 3: expected at least 5 columns"},
      {"x,7:0,0,8,1,0,0,1,a", "h: line 3: time_ns 'x' is not a decimal integer"},
      {"1,7-0,0,8,1,0,0,1,a", "h: line 3: dev '7-0' is not MAJ:MIN"},
      {"1,7:0,0,8,70000,0,0,1,a", "hint '70000' does not fit in 16 bits"},
      {"1,7:0,18446744073709551615,8,1,0,0,1,a", "overflows 64 bits"},
  };
  for (const auto& [line, expected] : cases) {
    INFO(line);
    CHECK_THROWS_WITH(HintIndex::parse(head + line + "\n", "h", lo), Contains(expected));
  }
  CHECK_THROWS_WITH(HintIndex::parse("time_ns,dev,sector,sectors\n", "h", lo),
                    Contains("h: line 1: the header has no column 'hint'"));
  HintIndex::LoadOptions skip = lo;
  skip.skip_bad = 2;
  const HintIndex tolerant = HintIndex::parse(head + "garbage\n2,7:0,8,8,2,0,0,1,a\n1,2\n", "h", skip);
  CHECK(tolerant.rows() == 2);
  CHECK(tolerant.bad_lines() == 2);

  // Through the importer: the hint file's name and line.
  const HintFixture fx;
  write_bytes(fx.hints, head + "1,7:0,0,8\n");
  CHECK_THAT(import_error(kBlockTrace, fx.options()), Contains(fx.hints + ": line 3: expected at least 5 columns"));
}

TEST_CASE("hints: the bucketed join equals a brute-force join", "[trace][unit][hints]") {
  std::mt19937_64 rng(42);
  const uint32_t devs[] = {make_dev(7, 0), make_dev(259, 1)};
  struct Row {
    uint64_t time, sector, sectors;
    uint32_t dev;
  };
  std::vector<Row> rows;
  std::string log = "time_ns,dev,sector,sectors,hint,stream,ino,pid,comm\n";
  for (uint32_t i = 0; i < 3000; ++i) {
    // Coarse times so that equal distances (ties) happen.
    Row r{(rng() % 2000) * 1000, rng() % 40000, 1 + rng() % 600, devs[rng() % 2]};
    rows.push_back(r);
    log += fmt::format("{},{}:{},{},{},{},0,0,1,x\n", r.time, r.dev >> 20, r.dev & kMaxMinor, r.sector, r.sectors, i);
  }
  const HintIndex idx = HintIndex::parse(log, "h", {});
  const uint64_t tolerance = 150'000;
  uint64_t matched = 0;
  for (int q = 0; q < 3000; ++q) {
    const uint32_t dev = devs[rng() % 2];
    const uint64_t lba = rng() % 41000;
    const auto n = static_cast<uint32_t>(1 + rng() % 700);
    const uint64_t t = (rng() % 2100) * 1000;
    std::optional<std::tuple<uint64_t, uint64_t, uint32_t>> best;  // (dt, time, row)
    for (uint32_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      if (r.dev != dev || r.sector >= lba + n || r.sector + r.sectors <= lba) continue;
      const uint64_t dt = r.time > t ? r.time - t : t - r.time;
      if (dt > tolerance) continue;
      const auto key = std::make_tuple(dt, r.time, i);
      if (!best || key < *best) best = key;
    }
    const std::optional<uint16_t> got = idx.lookup(dev, lba, n, t, tolerance);
    INFO("query " << q << " dev " << dev << " lba " << lba << " n " << n << " t " << t);
    if (best) {
      ++matched;
      CHECK(got == std::optional<uint16_t>(static_cast<uint16_t>(std::get<2>(*best))));
    } else {
      CHECK(got == std::nullopt);
    }
  }
  CHECK(matched > 300);  // the test exercises both outcomes
  CHECK(matched < 2900);
}

TEST_CASE("pid maps: syntax errors name the line", "[trace][unit][pidmap]") {
  const std::pair<std::string, std::string> cases[] = {
      {"comm:x=70000", "map: line 1: placement ID 70000 is above 65535"},
      {"comm:x=1\ncomm:x=2", "map: line 2: comm 'x' appears twice"},
      {"comm:k*=1\ncomm:k*=2", "map: line 2: comm prefix 'k*' appears twice"},
      {"pid:5=1\n# c\npid:5=2", "map: line 3: pid 5 appears twice"},
      {"lba:0-100=1\n\nlba:50-150=2", "map: line 3: LBA range overlaps the range on line 1"},
      {"lba:100-100=1", "map: line 1: range 100-100 is empty (END is exclusive)"},
      {"lba:100=1", "expected lba:START-END=ID"},
      {"lba:a-5=1", "range start 'a' is not a decimal integer"},
      {"foo", "map: line 1: expected comm:NAME=ID, pid:PID=ID, lba:START-END=ID, name:ID=NAME or default=ID"},
      {"inode:5=1", "expected comm:NAME=ID"},
      {"pid:abc=1", "process id 'abc' is not a decimal integer"},
      {"comm:=1", "empty process name"},
      {"name:1=", "placement ID 1 has an empty name"},
      {"name:1=a\nname:1=b", "map: line 2: placement ID 1 is already named on line 1"},
      {"default=1\ndefault=2", "map: line 2: a second default= line"},
      {"default 1", "expected default=ID"},
      {"comm:x=", "placement ID is missing"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    CHECK_THROWS_WITH(PidMap::parse(text, "map"), Contains(expected));
  }
  // Blanks around fields, CRLF, comments: accepted.
  const PidMap m = PidMap::parse("# x\r\n  comm: my app = 3 \r\nlba: 10 - 20 = 4\r\nname:3= the app\r\n", "map");
  bool hit = false;
  CHECK(m.lookup(0, "my app", 0, hit) == 3);
  CHECK(hit);
  CHECK(m.lookup(0, "other", 15, hit) == 4);
  CHECK(m.lookup(0, "other", 20, hit) == 0);
  CHECK_FALSE(hit);
  CHECK(m.names().at(3) == "the app");
}

TEST_CASE("pid maps: LBA rules on any format, process rules only where processes are", "[trace][unit][pidmap]") {
  TempDir dir;
  write_bytes(dir.file("lba"), "lba:0-8=1\nlba:8-16=2\nlba:16-4096=3\n");
  ImportOptions o = options_for(TextFormat::kMsr);
  o.merge_devices = true;  // small.msr has disks 0 and 1
  o.placement.pid_map = dir.file("lba");
  const ParsedTrace p = parse_text_trace(read_bytes(fixture("small.msr")), "mem", o);
  // First sectors 8, 0, 16, 1, 2048.
  CHECK_RECORDS(p.records,
                {rec(0, Op::kWrite, 8, 8, 2), rec(1'000, Op::kRead, 0, 1, 1), rec(100'000, Op::kWrite, 16, 16, 3),
                 rec(50'000, Op::kWrite, 1, 2, 1), rec(200'000, Op::kRead, 2048, 128, 3)});
  CHECK(p.summary.map_matched == 5);

  write_bytes(dir.file("comm"), "comm:postgres=1\n");
  o.placement.pid_map = dir.file("comm");
  CHECK_THAT(import_error(read_bytes(fixture("small.msr")), o),
             Contains("the pid map has comm: or pid: rules, but `from` msr records no processes"));
}

TEST_CASE("placement options: one source at a time", "[trace][unit][pidmap]") {
  TempDir dir;
  write_bytes(dir.file("map"), "default=1\n");
  write_bytes(dir.file("h"), "time_ns,dev,sector,sectors,hint\n");
  ImportOptions o = options_for(TextFormat::kFtraceBlk);
  o.placement.pid = 3;
  o.placement.pid_map = dir.file("map");
  CHECK_THAT(import_error("", o), Contains("`pid`, `pid-map` and `hints` are alternatives"));
  o.placement.pid = 0;
  o.placement.hints = dir.file("h");
  CHECK_THAT(import_error("", o), Contains("alternatives"));
  o.placement.pid_map.clear();
  o.placement.hints.clear();
  o.placement.hint_map = "1=2";
  CHECK_THAT(import_error("", o), Contains("`hint-map` applies only with `hints`"));
  o.placement.hints = dir.file("h");
  o.placement.hint_map = "1=x";
  CHECK_THAT(import_error("", o), Contains("`hint-map`: '1=x' is not VALUE=ID"));
  o.placement.hint_map.clear();
  o.placement.pid_map.clear();
  o.placement.hints = dir.file("missing");
  CHECK_THAT(import_error("", o), Contains("missing: no such file"));

  // A constant: every record, and the ID's name from PlacementOptions.
  ImportOptions c = options_for(TextFormat::kFtraceBlk);
  c.placement.pid = 4;
  c.placement.names = {{4, "all"}};
  const ParsedTrace p = parse_text_trace(read_bytes(fixture("small.ftrace")), "mem", c);
  for (const Record& r : p.records) CHECK(r.pid == 4);
  CHECK(p.meta.get("pid") == "4");
  CHECK(p.meta.pid_names.at(4) == "all");
}
