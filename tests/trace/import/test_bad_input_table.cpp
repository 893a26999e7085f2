// The bad-input table of docs/bad_input.md, row by row, for every text
// importer: each kind of damage has one defined result, either imported
// (with the damage counted in the summary the CLI prints) or refused with
// "<file>: line N: <why>" -- and with --skip-bad, skipped and counted
// instead. The .ftr reader's rows are in test_ftr_errors.cpp; the CLI's
// (exit codes, simulate) in tests/cli/test_cli_bad_input.cpp.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

#include "guarded_text.h"
#include "test_util.h"
#include "trace/import/disksim_import.h"
#include "trace/import/marker_sidecar.h"
#include "trace/import/placement_id_source.h"

using namespace ftlsim::trace;
using namespace ftlsim::trace::test;
using Catch::Contains;
using Catch::StartsWith;

namespace {

// One format's lines for the table. Every `good*` line is a request; the
// damaged lines are each one defect away from a good line.
struct Format {
  const char* name;
  TextFormat format;
  std::string header;      // first line of every text ("" = none)
  std::string good;        // a write of 8 sectors at sector 0, time 10 us
  std::string later;       // a read of 8 sectors at sector 8, time 20 us
  std::string earlier;     // a write at time 5 us (after `good`: backwards)
  std::string truncated;   // `later` cut off mid-line (an unfinished last line)
  std::string extra;       // one column too many
  std::string missing;     // one column too few
  std::string negative;    // a negative offset / sector
  std::string overflow;    // an offset / sector past 64 bits
  std::string zero;        // a zero length
  std::string unknown_op;  // an operation the format does not know
  std::string wraps;       // LBA + length past 2^64 sectors
  // Expected "why" of each refusal (a substring).
  const char* truncated_why;
  const char* extra_why;  // nullptr: extra columns are ignored (imported)
  const char* missing_why;
  const char* unknown_why;
  bool zero_skipped;  // blk formats: no data moved, counted in no_data
  bool rebased;       // times start at 0
};

std::vector<Format> formats() {
  std::vector<Format> v;
  v.push_back({"disksim",
               TextFormat::kDiskSim,
               "",
               "10000 0 0 8 0",
               "20000 0 8 8 1",
               "5000 0 16 8 0",
               "20000 0 8",
               "10000 0 0 8 0 7",
               "10000 0 0 8",
               "10000 0 -8 8 0",
               "10000 0 18446744073709551616 8 0",
               "10000 0 0 0 0",
               "10000 0 0 8 2",
               "10000 0 18446744073709551615 8 0",
               "expected 5 columns",
               "expected 5 columns",
               "expected 5 columns",
               "type '2' is neither 0 (write) nor 1 (read)",
               false,
               false});
  v.push_back({"blkparse",
               TextFormat::kBlkparse,
               "",
               "8,16 0 1 0.000010000 42 D W 0 + 8 [app]",
               "8,16 0 2 0.000020000 42 D R 8 + 8 [app]",
               "8,16 0 3 0.000005000 42 D W 16 + 8 [app]",
               "8,16 0 2 0.000020000 42 D R 8 + 8 [ap",
               "8,16 0 1 0.000010000 42 D W 0 + 8 9 [app]",
               "8,16 0 1 0.000010000 42 D W 0 + [app]",
               "8,16 0 1 0.000010000 42 D W -8 + 8 [app]",
               "8,16 0 1 0.000010000 42 D W 18446744073709551616 + 8 [app]",
               "8,16 0 1 0.000010000 42 D W 0 + 0 [app]",
               "8,16 0 1 0.000010000 42 D Z 0 + 8 [app]",
               "8,16 0 1 0.000010000 42 D W 18446744073709551615 + 8 [app]",
               "does not end in ']'",
               "unexpected '9' after SECTOR + N",
               "length is missing",
               "RWBS 'Z' has no operation letter",
               true,
               false});
  v.push_back({"ftrace-blk",
               TextFormat::kFtraceBlk,
               "",
               "  app-42 [000] ..... 1.000010: 8,16 D W 0 + 8 [app]",
               "  app-42 [000] ..... 1.000020: 8,16 D R 8 + 8 [app]",
               "  app-42 [000] ..... 1.000005: 8,16 D W 16 + 8 [app]",
               "  app-42 [000] ..... 1.000020: 8,16 D R 8 +",
               "  app-42 [000] ..... 1.000010: 8,16 D W 0 + 8 9 [app]",
               "  app-42 [000] ..... 1.000010: 8,16 D W 0 + [app]",
               "  app-42 [000] ..... 1.000010: 8,16 D W -8 + 8 [app]",
               "  app-42 [000] ..... 1.000010: 8,16 D W 18446744073709551616 + 8 [app]",
               "  app-42 [000] ..... 1.000010: 8,16 D W 0 + 0 [app]",
               "  app-42 [000] ..... 1.000010: 8,16 D Z 0 + 8 [app]",
               "  app-42 [000] ..... 1.000010: 8,16 D W 18446744073709551615 + 8 [app]",
               "does not end in ']'",
               "unexpected '9' after SECTOR + N",
               "length is missing",
               "RWBS 'Z' has no operation letter",
               true,
               true});
  v.push_back({"msr",
               TextFormat::kMsr,
               "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime",
               "100,h,0,Write,0,4096,1",
               "200,h,0,Read,4096,4096,1",
               "50,h,0,Write,8192,4096,1",
               "200,h,0,Read,40",
               "100,h,0,Write,0,4096,1,7",
               "100,h,0,Write,0,4096",
               "100,h,0,Write,-4096,4096,1",
               "100,h,0,Write,18446744073709551616,4096,1",
               "100,h,0,Write,0,0,1",
               "100,h,0,Flush,0,4096,1",
               "100,h,0,Write,18446744073709551615,4096,1",
               "expected 7 fields",
               "expected 7 fields",
               "expected 7 fields",
               "type 'Flush' is neither Read nor Write",
               false,
               true});
  v.push_back({"alibaba",
               TextFormat::kAlibaba,
               "",
               "0,W,0,4096,10",
               "0,R,4096,4096,20",
               "0,W,8192,4096,5",
               "0,R,4096,40",
               "0,W,0,4096,10,7",
               "0,W,0,4096",
               "0,W,-4096,4096,10",
               "0,W,18446744073709551616,4096,10",
               "0,W,0,0,10",
               "0,X,0,4096,10",
               "0,W,18446744073709551615,4096,10",
               "expected 5 fields",
               "expected 5 fields",
               "expected 5 fields",
               "opcode 'X' is neither R nor W",
               false,
               true});
  v.push_back({"tencent",
               TextFormat::kTencent,
               "",
               "0.00001,0,8,1,0",
               "0.00002,8,8,0,0",
               "0.000005,16,8,1,0",
               "0.00002,8,8",
               "0.00001,0,8,1,0,7",
               "0.00001,0,8,1",
               "0.00001,-8,8,1,0",
               "0.00001,18446744073709551616,8,1,0",
               "0.00001,0,0,1,0",
               "0.00001,0,8,2,0",
               "0.00001,18446744073709551615,8,1,0",
               "expected 5 fields",
               "expected 5 fields",
               "expected 5 fields",
               "IOType 2 is neither 0 (read) nor 1 (write)",
               false,
               true});
  v.push_back({"csv",
               TextFormat::kCsv,
               "ts,lba,len,op",
               "10,0,8,W",
               "20,8,8,R",
               "5,16,8,W",
               "20,8",
               "10,0,8,W,7",
               "10,0,8",
               "10,-8,8,W",
               "10,18446744073709551616,8,W",
               "10,0,0,W",
               "10,0,8,Q",
               "10,18446744073709551615,8,W",
               "expected at least 4 fields",
               nullptr,
               "expected at least 4 fields",
               "op 'Q' is not in the op map",
               false,
               true});
  return v;
}

ImportOptions options(const Format& f, uint64_t skip_bad = 0) {
  ImportOptions o = options_for(f.format);
  o.skip_bad = skip_bad;
  if (f.format == TextFormat::kCsv) o.csv.columns = "time=ts:us,lba=lba,length=len,op=op";
  return o;
}

std::string text_of(const Format& f, const std::vector<std::string>& lines) {
  std::string t = f.header.empty() ? "" : f.header + "\n";
  for (const std::string& l : lines) t += l + "\n";
  return t;
}

// The line number of the damaged line in text_of(f, {good, damaged}).
uint64_t damaged_line(const Format& f) { return f.header.empty() ? 2 : 3; }

// The import is refused at `line` with `why`, and with --skip-bad 1 the
// line is skipped and counted instead, the good line imported.
void check_refused(const Format& f, const std::string& text, uint64_t line, const std::string& why) {
  const std::string msg = import_error(text, options(f));
  CHECK_THAT(msg, StartsWith(fmt::format("mem: line {}: ", line)));
  CHECK_THAT(msg, Contains(why));
  CHECK(msg.find('\n') == std::string::npos);
  const ParsedTrace p = parse_text_trace(text, "mem", options(f, 1));
  CHECK(p.summary.bad_lines == 1);
  CHECK(p.summary.first_bad_line == line);
  CHECK_THAT(p.summary.first_bad_reason, Contains(why));
  CHECK(p.records.size() == 1);
}

}  // namespace

TEST_CASE("bad-input table: every text importer", "[trace][unit][bad-input]") {
  for (const Format& f : formats()) {
    const uint64_t t0 = f.rebased ? 0 : 10'000;  // the good line's time as imported
    const Record good = rec(t0, Op::kWrite, 0, 8);
    const Record later = rec(t0 + 10'000, Op::kRead, 8, 8);

    DYNAMIC_SECTION(f.name << ": a clean text imports") {
      const ParsedTrace p = parse_text_trace(text_of(f, {f.good, f.later}), "mem", options(f));
      CHECK_RECORDS(p.records, {good, later});
    }
    DYNAMIC_SECTION(f.name << ": empty file: imported, 0 records") {
      const ParsedTrace p = parse_text_trace("", "mem", options(f));
      CHECK(p.records.empty());
      CHECK(p.summary.bad_lines == 0);
    }
    DYNAMIC_SECTION(f.name << ": only the header or blank lines: imported, 0 records") {
      const ParsedTrace p = parse_text_trace(text_of(f, {"", "  "}), "mem", options(f));
      CHECK(p.records.empty());
    }
    DYNAMIC_SECTION(f.name << ": CRLF line ends: imported as LF") {
      std::string text = text_of(f, {f.good, f.later});
      std::string crlf;
      for (const char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
      CHECK_RECORDS(parse_text_trace(crlf, "mem", options(f)).records, {good, later});
    }
    DYNAMIC_SECTION(f.name << ": no newline after the last line: imported") {
      std::string text = text_of(f, {f.good, f.later});
      text.pop_back();
      CHECK_RECORDS(parse_text_trace(text, "mem", options(f)).records, {good, later});
    }
    DYNAMIC_SECTION(f.name << ": truncated last line: refused at that line") {
      std::string text = text_of(f, {f.good, f.truncated});
      text.pop_back();  // the file ends mid-line
      check_refused(f, text, damaged_line(f), f.truncated_why);
    }
    DYNAMIC_SECTION(f.name << ": binary garbage: refused at line 1 (a CSV header: the missing column)") {
      static constexpr char kGarbage[] = "\x00\xff\x01\x7f garbage \xfe\x80,\x00\n";
      const std::string garbage(kGarbage, sizeof kGarbage - 1);
      const std::string msg = import_error(garbage + text_of(f, {f.good}), options(f));
      if (f.format == TextFormat::kCsv) {
        CHECK_THAT(msg, StartsWith("mem: the header line has no column 'ts'"));
      } else {
        CHECK_THAT(msg, StartsWith("mem: line 1: "));
      }
      for (const char c : msg) CHECK((static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f));
    }
    DYNAMIC_SECTION(f.name << ": an extra column") {
      const std::string text = text_of(f, {f.good, f.extra});
      if (f.extra_why == nullptr) {
        CHECK_RECORDS(parse_text_trace(text, "mem", options(f)).records, {good, good});
      } else {
        check_refused(f, text, damaged_line(f), f.extra_why);
      }
    }
    DYNAMIC_SECTION(f.name << ": a missing column: refused") {
      check_refused(f, text_of(f, {f.good, f.missing}), damaged_line(f), f.missing_why);
    }
    DYNAMIC_SECTION(f.name << ": a negative number: refused") {
      check_refused(f, text_of(f, {f.good, f.negative}), damaged_line(f), "is negative");
    }
    DYNAMIC_SECTION(f.name << ": a number past 64 bits: refused") {
      check_refused(f, text_of(f, {f.good, f.overflow}), damaged_line(f), "does not fit in 64 bits");
    }
    DYNAMIC_SECTION(f.name << ": LBA + length past 2^64: refused") {
      check_refused(f, text_of(f, {f.good, f.wraps}), damaged_line(f), "overflows 64 bits");
    }
    DYNAMIC_SECTION(f.name << ": zero length") {
      const std::string text = text_of(f, {f.good, f.zero});
      if (f.zero_skipped) {
        const ParsedTrace p = parse_text_trace(text, "mem", options(f));
        CHECK_RECORDS(p.records, {good});
        CHECK(p.summary.no_data == 1);
      } else {
        check_refused(f, text, damaged_line(f), "zero-length");
      }
    }
    DYNAMIC_SECTION(f.name << ": an unknown operation: refused") {
      check_refused(f, text_of(f, {f.good, f.unknown_op}), damaged_line(f), f.unknown_why);
    }
    DYNAMIC_SECTION(f.name << ": timestamps going backwards: imported and counted") {
      const ParsedTrace p = parse_text_trace(text_of(f, {f.good, f.earlier}), "mem", options(f));
      REQUIRE(p.records.size() == 2);
      CHECK(p.summary.backwards_timestamps == 1);
      if (f.rebased) {  // earlier than the first record: written at 0 and counted
        CHECK(p.records[1].time_ns == 0);
        CHECK(p.summary.before_first == 1);
      } else {
        CHECK(p.records[1].time_ns == 5'000);
      }
    }
    DYNAMIC_SECTION(f.name << ": a line over 4096 bytes: refused") {
      const std::string text = text_of(f, {f.good, f.good + std::string(5000, ' ')});
      check_refused(f, text, damaged_line(f), "bytes long (limit 4096); is this a text trace?");
    }
    DYNAMIC_SECTION(f.name << ": --skip-bad N: the (N+1)-th bad line is refused, naming the limit") {
      const std::string text = text_of(f, {f.good, f.missing, f.missing, f.later});
      const std::string msg = import_error(text, options(f, 1));
      CHECK_THAT(msg, StartsWith(fmt::format("mem: line {}: ", damaged_line(f) + 1)));
      CHECK_THAT(msg, Contains("(the limit of 1 malformed lines is reached)"));
      const ParsedTrace p = parse_text_trace(text, "mem", options(f, 2));
      CHECK(p.summary.bad_lines == 2);
      CHECK_RECORDS(p.records, {good, later});
    }
  }
}

TEST_CASE("bad-input table: the wide hint-log row that once took gigabytes", "[trace][unit][bad-input]") {
  // Found by fuzz_hint_log: a row of 2^32 - 1 sectors was indexed under
  // 2^24 buckets. Now it is one "wide" entry, and it still matches.
  HintIndex::LoadOptions lo;
  const HintIndex idx = HintIndex::parse("1,8:0,0,4294967295,3,0\n2,8:0,100,8,2,0\n", "h", lo);
  CHECK(idx.rows() == 2);
  const uint32_t dev = make_dev(8, 0);
  CHECK(idx.lookup(dev, 1'000'000'000, 8, 1, 10) == std::optional<uint16_t>(3));  // only the wide row covers it
  CHECK(idx.lookup(dev, 100, 8, 2, 0) == std::optional<uint16_t>(2));             // the nearer in time wins
  CHECK(idx.lookup(dev, 100, 8, 1, 0) == std::optional<uint16_t>(3));
  CHECK(idx.lookup(dev, 4294967295, 8, 1, 10) == std::nullopt);    // just past the wide row
  CHECK(idx.lookup(make_dev(8, 1), 0, 8, 1, 10) == std::nullopt);  // another device
  // A request wider than the index walks the index, not its 2^24 buckets.
  CHECK(idx.lookup(dev, 0, 4294967295u, 2, 0) == std::optional<uint16_t>(2));
}

// A line is looked for within 4 KiB of its start, never further: a text of
// 64 GiB whose second line never ends is refused having read 64 KiB at most
// (the rest of the text faults when read: GuardedText). Every importer and
// sidecar used to scan the whole line first (a 100 GB file without '\n':
// 22-29 s, and --markers over two minutes); the marker, pid-map and hint
// readers had no limit at all.
TEST_CASE("bad-input table: a line without end is refused at 4 KiB, whatever the text's size",
          "[trace][unit][bad-input]") {
  constexpr size_t kReadable = 64 << 10;
  constexpr size_t kSize = size_t{64} << 30;
  const auto refused_within = [&](const std::string& first, const auto& parse) {
    GuardedText text(first, 'x', kReadable, kSize);
    std::string msg;
    const bool within = text.reads_within_prefix([&](std::string_view t) {
      try {
        parse(t);
      } catch (const ftlsim::InputError& e) {
        msg = e.what();
      }
    });
    CHECK(within);
    return msg;
  };
  const std::string why = "line 2: line is more than 4096 bytes long (limit 4096); is this a text trace?";
  for (const Format& f : formats()) {
    DYNAMIC_SECTION(f.name) {
      const std::string first = (f.header.empty() ? f.good : f.header) + "\n";
      const std::string msg =
          refused_within(first, [&](std::string_view t) { (void)parse_text_trace(t, "mem", options(f)); });
      CHECK_THAT(msg, StartsWith("mem: " + why));
    }
  }
  SECTION("disksim, the stand-alone parser") {
    CHECK_THAT(refused_within("1 0 0 8 0\n", [](std::string_view t) { (void)parse_disksim(t, "mem"); }),
               StartsWith("mem: " + why));
  }
  SECTION("marker sidecar") {
    CHECK_THAT(refused_within("1 7\n", [](std::string_view t) { (void)parse_marker_sidecar(t, "m"); }),
               StartsWith("m: " + why));
  }
  SECTION("pid map") {
    CHECK_THAT(refused_within("pid:1=2\n", [](std::string_view t) { (void)PidMap::parse(t, "p"); }),
               StartsWith("p: " + why));
  }
  SECTION("hint log") {
    CHECK_THAT(refused_within("1,8:0,0,8,3,0\n", [](std::string_view t) { (void)HintIndex::parse(t, "h", {}); }),
               StartsWith("h: " + why));
  }
}

TEST_CASE("bad-input table: --skip-bad skips an overlong line to its end", "[trace][unit][bad-input]") {
  for (const Format& f : formats()) {
    DYNAMIC_SECTION(f.name) {
      const std::string text = text_of(f, {f.good, f.good + std::string(100000, ' '), f.later});
      const ParsedTrace p = parse_text_trace(text, "mem", options(f, 1));
      CHECK(p.summary.bad_lines == 1);
      CHECK(p.summary.first_bad_line == damaged_line(f));
      CHECK_THAT(p.summary.first_bad_reason, Contains("more than 4096 bytes long"));
      CHECK(p.records.size() == 2);
    }
  }
  HintIndex::LoadOptions lo;
  lo.skip_bad = 1;
  const HintIndex idx = HintIndex::parse("1,8:0,0,8,3,0\n" + std::string(9000, 'x') + "\n2,8:0,100,8,2,0\n", "h", lo);
  CHECK(idx.rows() == 2);
  CHECK(idx.bad_lines() == 1);
}
