// blkparse import: the default output with its statistics block, the -f
// formats, --action, RWBS, malformed lines, and the real wiscsee capture.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "test_util.h"
#include "trace/ftr_reader.h"
#include "trace/import/import.h"

using namespace ftlsim::trace;
using namespace ftlsim::trace::test;
using Catch::Contains;

namespace {

ImportOptions blk(BlkAction action = BlkAction::kIssue) {
  ImportOptions o = options_for(TextFormat::kBlkparse);
  o.action = action;
  return o;
}

std::string crlf(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

// small.blkparse printed with -f "%D %2c %8s %5T.%9t %5p %2a %3d %S %n\n":
// the D events of the fixture, two others, and the statistics.
const std::string kShortFormat = "%D %2c %8s %5T.%9t %5p %2a %3d %S %n\\n";
const std::string kShortText =
    "  8,16   0        1     0.000000000  4242  Q  WS 2048 8\n"
    "  8,16   0        6     0.000005000  4242  D  WS 2048 8\n"
    "  8,16   0        9     0.000250000  4242  D   R 4096 24\n"
    "  8,16   2        2     0.001001000   812  D  FN 0 0\n"
    "  8,16   2        5     0.002010000   812  D FWFS 8192 16\n"
    "  8,16   3        2     0.003100000  1001  D   D 100000 2048\n"
    "  8,16   3        4     0.004000000  1001  D   N 0 0\n"
    "  8,16   1        2     0.000400000     0  C   R 4096 24\n"
    "  8,16   0       10     0.005000000  4242  D  WS 16384 8\n"
    "CPU0 (8,16):\n"
    " Reads Queued:           1,        8KiB\t Writes Queued:           2,        8KiB\n"
    "Total (8,16):\n"
    " Reads Queued:           1,        8KiB\t Writes Queued:           2,        8KiB\n";

const std::vector<Record> kIssued = {
    rec(5'000, Op::kWrite, 2048, 8),      rec(250'000, Op::kRead, 4096, 24),       rec(1'001'000, Op::kFlush, 0, 0),
    rec(2'010'000, Op::kWrite, 8192, 16), rec(3'100'000, Op::kTrim, 100000, 2048), rec(5'000'000, Op::kWrite, 16384, 8),
};

}  // namespace

TEST_CASE("blkparse default output: D events, statistics block skipped", "[trace][unit][blkparse]") {
  const std::string text = read_bytes(fixture("small.blkparse"));
  const ParsedTrace p = parse_text_trace(text, "small.blkparse", blk());
  CHECK_RECORDS(p.records, kIssued);
  CHECK(p.summary.lines == 41);
  CHECK(p.summary.records == 6);
  CHECK(p.summary.other_actions == 19);  // 26 event lines, 7 of them D
  CHECK(p.summary.no_data == 1);         // D N 0 (12 00 ..): SCSI passthrough
  CHECK(p.summary.summary_lines == 13);  // 15 lines after the events, 2 of them blank
  CHECK(p.summary.bad_lines == 0);
  CHECK(p.summary.ops[static_cast<size_t>(Op::kWrite)] == 3);
  CHECK(p.summary.ops[static_cast<size_t>(Op::kFlush)] == 1);
  CHECK(p.meta.get("source") == "blkparse");
  CHECK(p.meta.get("action") == "D");
  CHECK(p.meta.get("source_file") == "small.blkparse");

  // The same text with CRLF line ends.
  CHECK_RECORDS(parse_text_trace(crlf(text), "crlf", blk()).records, kIssued);
}

TEST_CASE("blkparse --action selects Q, D or C events, each request once", "[trace][unit][blkparse]") {
  const std::string text = read_bytes(fixture("small.blkparse"));
  const ParsedTrace q = parse_text_trace(text, "mem", blk(BlkAction::kQueue));
  CHECK_RECORDS(q.records, {rec(0, Op::kWrite, 2048, 8), rec(200'000, Op::kRead, 4096, 16),
                            rec(1'000'000, Op::kFlush, 0, 0),  // Q FWS with no data: a pure flush
                            rec(2'000'000, Op::kWrite, 8192, 16), rec(3'000'000, Op::kTrim, 100000, 2048)});
  CHECK(q.summary.other_actions == 21);
  CHECK(q.meta.get("action") == "Q");

  const ParsedTrace c = parse_text_trace(text, "mem", blk(BlkAction::kComplete));
  CHECK_RECORDS(c.records, {rec(100'000, Op::kWrite, 2048, 8), rec(400'000, Op::kRead, 4096, 24),
                            rec(1'100'000, Op::kFlush, 0, 0),  // C FN 0 [0]
                            rec(2'500'000, Op::kWrite, 8192, 16), rec(3'200'000, Op::kTrim, 100000, 2048)});
  CHECK(c.summary.other_actions == 20);
  CHECK(c.summary.no_data == 1);  // C N (12 00 ..) [0]
}

TEST_CASE("RWBS maps to write, read, trim, flush or nothing", "[trace][unit][blkparse]") {
  struct Case {
    std::string rwbs;
    std::string range;  // "" for a zero-length event
    bool imported;
    Op op;
  };
  const Case cases[] = {
      {"W", "100 + 8", true, Op::kWrite},     {"WS", "100 + 8", true, Op::kWrite},
      {"WM", "100 + 8", true, Op::kWrite},    {"WFS", "100 + 8", true, Op::kWrite},  // FUA write
      {"FWS", "100 + 8", true, Op::kWrite},                                          // preflush + data: a write
      {"FWFSM", "100 + 8", true, Op::kWrite}, {"R", "100 + 8", true, Op::kRead},
      {"RA", "100 + 8", true, Op::kRead},     {"RSM", "100 + 8", true, Op::kRead},
      {"D", "100 + 8", true, Op::kTrim},      {"DS", "100 + 8", true, Op::kTrim},
      {"DE", "100 + 8", true, Op::kTrim},  // secure erase
      {"FWS", "", true, Op::kFlush},          {"FN", "", true, Op::kFlush},
      {"FF", "", true, Op::kFlush},           {"F", "", true, Op::kFlush},
      {"FS", "", true, Op::kFlush},           {"N", "", false, Op::kWrite},
      {"W", "", false, Op::kWrite},           {"R", "", false, Op::kWrite},
  };
  for (const Case& c : cases) {
    INFO("RWBS " << c.rwbs << " range '" << c.range << "'");
    const std::string line = "  8,0    0        1     1.000000000   100  D " + c.rwbs + " " + c.range + " [app]\n";
    const ParsedTrace p = parse_text_trace(line, "mem", blk());
    if (!c.imported) {
      CHECK(p.records.empty());
      CHECK(p.summary.no_data == 1);
      continue;
    }
    REQUIRE(p.records.size() == 1);
    CHECK(p.records[0].op == static_cast<uint8_t>(c.op));
    CHECK(p.records[0].time_ns == 1'000'000'000);
    if (c.op == Op::kFlush) {
      CHECK(p.records[0].lba == 0);
      CHECK(p.records[0].sectors == 0);
    } else {
      CHECK(p.records[0].lba == 100);
      CHECK(p.records[0].sectors == 8);
    }
  }
}

TEST_CASE("blkparse: malformed lines name their line number", "[trace][unit][blkparse]") {
  const std::string prefix =
      "  8,0    0        1     0.000000000   100  D   W 0 + 8 [app]\n"
      "  8,0    0        2     0.000000100   100  Q   W 8 + 8 [app]\n";  // the bad line is line 3
  const std::string head = "  8,0    0        3     0.000000200   100  D ";
  const std::pair<std::string, std::string> cases[] = {
      {"hello world", "mem: line 3: device 'hello' is not MAJ,MIN: not a blkparse event line"},
      {" Reads Queued: 0, 0KiB", "device 'Reads' is not MAJ,MIN"},  // statistics without their heading
      {"8:0 0 3 0.1 100 D W 0 + 8 [app]", "device '8:0' is not MAJ,MIN"},
      {"  8,0    0        3", "mem: line 3: time is missing"},
      {"  8,0    0        3     abc   100  D   W 0 + 8 [app]", "time 'abc' is not a decimal integer"},
      {"  8,0    0        3     0.x   100  D   W 0 + 8 [app]", "time '0.x' is not a decimal number"},
      {"  8,0    0        3     99999999999.5   100  D   W 0 + 8 [app]", "overflows 64 bits once scaled"},
      {"  8,0    0        3     0.1   -100  D   W 0 + 8 [app]", "pid '-100' is negative"},
      {"  8,0    x        3     0.1   100  D   W 0 + 8 [app]", "cpu 'x' is not a decimal integer"},
      {"  8,0    0        3     0.1   100", "the action is missing"},
      {head, "RWBS is missing"},
      {head + "W", "the line ends after RWBS"},
      {head + "Z 0 + 8 [app]", "RWBS 'Z' has no operation letter"},
      {head + "WQ 0 + 8 [app]", "RWBS 'WQ' has an unknown flag 'Q'"},
      {head + "W -5 + 8 [app]", "sector '-5' is negative"},
      {head + "W 99999999999999999999 + 8 [app]", "sector '99999999999999999999' does not fit in 64 bits"},
      {head + "W 18446744073709551615 + 8 [app]", "sector 18446744073709551615 + 8 overflows 64 bits"},
      {head + "W 0 + 4294967296 [app]", "length '4294967296' does not fit in 32 bits"},
      {head + "W 0 + x [app]", "length 'x' is not a decimal integer"},
      {head + "W 0 - 8 [app]", "expected '+' after the sector"},
      {head + "W 0 + 8 [app", "does not end in ']' (truncated?)"},  // a truncated last line
      {head + "W 0 + 8 9 [app]", "unexpected '9' after SECTOR + N"},
      {head + "W 0 + 8 [app]" + std::string(5000, ' '), "mem: line 3: line is more than 4096 bytes long (limit 4096)"},
  };
  for (const auto& [line, expected] : cases) {
    INFO("line: " << line.substr(0, 80));
    CHECK_THAT(import_error(prefix + line + "\n" + prefix, blk()), Contains(expected));
    CHECK_THAT(import_error(prefix + line, blk()), Contains(expected));  // last line, no newline
    CHECK_THAT(import_error(crlf(prefix + line + "\n"), blk()), Contains(expected));
  }
}

TEST_CASE("blkparse: --skip-bad tolerates a limited number of bad lines", "[trace][unit][blkparse]") {
  const std::string text =
      "  8,0    0        1     0.000000000   100  D   W 0 + 8 [app]\n"
      "garbage\n"
      "  8,0    0        2     0.000000100   100  D   R 8 + 8 [app]\n"
      "  8,0    0        3     0.000000200   100  D   W 16 + 8 [app\n"
      "  8,0    0        4     0.000000300   100  D   W 24 + 8 [app]\n";
  ImportOptions o = blk();
  o.skip_bad = 2;
  const ParsedTrace p = parse_text_trace(text, "mem", o);
  CHECK_RECORDS(p.records, {rec(0, Op::kWrite, 0, 8), rec(100, Op::kRead, 8, 8), rec(300, Op::kWrite, 24, 8)});
  CHECK(p.summary.bad_lines == 2);
  CHECK(p.summary.first_bad_line == 2);
  CHECK_THAT(p.summary.first_bad_reason, Contains("device 'garbage'"));
  o.skip_bad = 1;
  CHECK_THAT(import_error(text, o), Contains("mem: line 4: the line does not end in ']'") && Contains("limit of 1"));
}

TEST_CASE("blkparse: device filter and placement by process name", "[trace][unit][blkparse]") {
  const std::string text = read_bytes(fixture("small.blkparse"));
  ImportOptions o = blk();
  o.device = "8,0";
  const ParsedTrace none = parse_text_trace(text, "mem", o);
  CHECK(none.records.empty());
  CHECK(none.summary.filtered == 6);
  o.device = "8:16";
  CHECK(parse_text_trace(text, "mem", o).records.size() == 6);

  TempDir dir;
  write_bytes(dir.file("map"), "comm:geth=1\ncomm:jbd2/*=2\ncomm:my worker-1=3\npid:1001=4\n");
  ImportOptions m = blk();
  m.placement.pid_map = dir.file("map");
  const ParsedTrace p = parse_text_trace(text, "mem", m);
  CHECK_RECORDS(p.records, {rec(5'000, Op::kWrite, 2048, 8, 1), rec(250'000, Op::kRead, 4096, 24, 1),
                            rec(1'001'000, Op::kFlush, 0, 0, 2), rec(2'010'000, Op::kWrite, 8192, 16, 2),
                            rec(3'100'000, Op::kTrim, 100000, 2048, 4), rec(5'000'000, Op::kWrite, 16384, 8, 3)});
  CHECK(p.summary.map_matched == 6);
  CHECK(p.meta.get("placement") == "pid-map");
}

TEST_CASE("blkparse -f formats", "[trace][unit][blkparse]") {
  SECTION("the short format without brackets") {
    ImportOptions o = blk();
    o.blk_format = kShortFormat;
    const ParsedTrace p = parse_text_trace(kShortText, "mem", o);
    CHECK_RECORDS(p.records, kIssued);
    CHECK(p.summary.other_actions == 2);
    CHECK(p.summary.no_data == 1);
    CHECK(p.summary.summary_lines == 4);
    CHECK(p.meta.get("blk_format") == kShortFormat);
    o.device = "8,16";
    CHECK(parse_text_trace(kShortText, "mem", o).records.size() == 6);
  }
  SECTION("the default layout spelled as a format, process names with blanks") {
    ImportOptions o = blk();
    o.blk_format = "%D %2c %8s %5T.%9t %5p %2a %3d %S + %n [%C]\\n";
    const std::string text =
        "  8,16   0        6     0.000005000  4242  D  WS 2048 + 8 [my worker-1]\n"
        "  8,16   0        7     0.000006000  4243  D   R 64 + 8 [geth]\n";
    TempDir dir;
    write_bytes(dir.file("map"), "comm:my worker-1=5\n");
    o.placement.pid_map = dir.file("map");
    CHECK_RECORDS(parse_text_trace(text, "mem", o).records,
                  {rec(5'000, Op::kWrite, 2048, 8, 5), rec(6'000, Op::kRead, 64, 8, 0)});
  }
  SECTION("major and minor apart, bytes instead of sectors, the name last") {
    ImportOptions o = blk();
    o.blk_format = "%M:%m %T.%t %a %d %S %N %p %C";
    const std::string text = "8:16 1.000000500 D W 2048 4096 77 kworker/u8:1 x\n8:16 2.5 D R 8 1000 77 a\n";
    const ParsedTrace p = parse_text_trace(text, "mem", o);
    CHECK_RECORDS(p.records, {rec(1'000'000'500, Op::kWrite, 2048, 8), rec(2'000'000'005, Op::kRead, 8, 2)});
    CHECK(p.summary.unaligned == 1);  // 1000 bytes: two sectors
    o.device = "8,16";
    CHECK(parse_text_trace(text, "mem", o).records.size() == 2);
  }
  SECTION("lines that do not match, and formats that cannot work") {
    ImportOptions o = blk();
    o.blk_format = kShortFormat;
    CHECK_THAT(import_error("  8,16 0 1 0.5 1 D W 2048\n", o), Contains("mem: line 1: length is missing"));
    CHECK_THAT(import_error("  8,16 0 1 0.5 1 D W 2048 8 extra\n", o),
               Contains("mem: line 1: does not match --blk-format: unexpected 'extra' at column"));
    CHECK_THAT(import_error("  8,16 0 1 0;5 1 D W 2048 8\n", o), Contains("expected '.' at column 13"));
    o.blk_format = "%T.%t %a %S %n";
    CHECK_THAT(import_error("", o), Contains("`blk-format`: the format lacks %d"));
    o.blk_format = "%T.%t %a %d %S %n %P";
    CHECK_THAT(import_error("", o), Contains("%P"));
    o.blk_format = "%T.%t %a %d %S %n\\q";
    CHECK_THAT(import_error("", o), Contains("invalid escape"));
    o.blk_format = "%T.%t %a %d %S %n";
    o.device = "8,0";
    CHECK_THAT(import_error("", o), Contains("`device` needs %D"));
  }
}

TEST_CASE("the wiscsee blkparse capture imports every D request", "[trace][unit][blkparse][external]") {
  const std::string in = external_trace("wiscsee-blkparse-output.txt");
  if (in.empty()) return;
  // Independent count with iostreams: lines whose sixth column is D, by the
  // operation letter of their RWBS, and their sectors.
  uint64_t writes = 0, reads = 0, none = 0, write_sectors = 0, read_sectors = 0;
  std::ifstream f(in);
  for (std::string line; std::getline(f, line);) {
    std::istringstream ss(line);
    std::string dev, cpu, seq, time, pid, action, rwbs, sector, plus;
    uint64_t n = 0;
    if (!(ss >> dev >> cpu >> seq >> time >> pid >> action >> rwbs) || action != "D") continue;
    if (rwbs == "N") {
      ++none;
      continue;
    }
    REQUIRE((ss >> sector >> plus >> n));
    (rwbs[0] == 'W' ? writes : reads) += 1;
    (rwbs[0] == 'W' ? write_sectors : read_sectors) += n;
  }
  CHECK(writes == 512);  // the README's numbers
  CHECK(reads == 161);
  CHECK(none == 4);

  TempDir dir;
  const ImportSummary s = import_text_trace(in, dir.file("w.ftr"), blk());
  CHECK(s.records == writes + reads);
  CHECK(s.no_data == none);
  CHECK(s.bad_lines == 0);
  CHECK(s.summary_lines > 0);
  const FtrReader reader(dir.file("w.ftr"));
  REQUIRE(reader.size() == writes + reads);
  uint64_t got_ws = 0, got_rs = 0, got_w = 0;
  for (const Record& r : reader.records()) {
    if (r.op == static_cast<uint8_t>(Op::kWrite)) {
      ++got_w;
      got_ws += r.sectors;
    } else {
      got_rs += r.sectors;
    }
  }
  CHECK(got_w == writes);
  CHECK(got_ws == write_sectors);
  CHECK(got_rs == read_sectors);
  CHECK(reader.meta().get("source") == "blkparse");
}
