// DiskSim/MQSim ASCII import: accepted whitespace variants, exact records,
// malformed lines with their line numbers, options, and the real MQSim
// traces when they are available.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "test_util.h"
#include "trace/ftr_reader.h"
#include "trace/import/disksim_import.h"

using namespace ftlsim::trace;
using Catch::Contains;
using ftlsim::InputError;
using test::rec;
using test::TempDir;

namespace {

bool same(const std::vector<Record>& a, const std::vector<Record>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Record)) == 0;
}

// The InputError message parse_disksim throws for `text`, or "".
std::string parse_error(const std::string& text, const DiskSimOptions& options = {}) {
  try {
    (void)parse_disksim(text, "mem", options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("spaces, tabs, blank lines, comments and a missing final newline", "[disksim]") {
  TempDir dir;
  const std::string out = dir.file("mixed.ftr");
  const ImportResult result = import_disksim(test::fixture("mixed_whitespace.disksim"), out);
  CHECK(result.records_written == 4);
  CHECK(result.summary.lines == 7);
  CHECK(result.summary.bad_lines == 0);
  CHECK(result.summary.backwards_timestamps == 0);
  const FtrReader reader(out);
  const std::vector<Record> got(reader.records().begin(), reader.records().end());
  CHECK(same(got, {rec(0, Op::kWrite, 0, 8), rec(10, Op::kRead, 8, 16), rec(20, Op::kWrite, 100, 8),
                   rec(30, Op::kRead, 200, 1)}));
  CHECK(reader.meta().sector_bytes == 512);
  CHECK(reader.meta().get("source") == "disksim");
  CHECK(reader.meta().get("source_file") == "mixed_whitespace.disksim");
  CHECK(reader.meta().get("converted_by") == "ftlsim convert");
  CHECK(reader.meta().get("device").empty());
}

TEST_CASE("CRLF line ends", "[disksim]") {
  const DiskSimParsed p = parse_disksim(test::read_bytes(test::fixture("crlf.disksim")), "crlf");
  CHECK(same(p.records, {rec(5, Op::kWrite, 0, 8), rec(6, Op::kRead, 8, 8), rec(7, Op::kWrite, 16, 8)}));
  CHECK(p.summary.lines == 4);
}

TEST_CASE("empty and blank-only input give no records", "[disksim]") {
  CHECK(parse_disksim("", "mem").records.empty());
  CHECK(parse_disksim("\n\n  \t\r\n# only a comment\n", "mem").records.empty());
}

TEST_CASE("malformed lines are reported with their 1-based line number", "[disksim]") {
  const std::string prefix = "1 0 0 8 0\n\n";  // the bad line is line 3
  const std::pair<std::string, std::string> cases[] = {
      {"1 0 0 8", "mem: line 3: expected 5 columns (arrival_ns device lba size type), found 4"},
      {"1", "found 1"},
      {"1 0 0 8 0 7", "found 6"},
      {"abc 0 0 8 0", "mem: line 3: arrival time 'abc' is not a decimal integer"},
      {"1.5 0 0 8 0",
       "arrival time '1.5' is not a decimal integer (MQSim's times are whole nanoseconds; DiskSim's own traces, in "
       "decimal milliseconds, convert with --from csv: docs/trace_format.md, disksim)"},
      {"+1 0 0 8 0", "arrival time '+1' is not a decimal integer"},
      {"1 x 0 8 0", "device 'x' is not a decimal integer"},
      {"1 0 0x10 8 0", "lba '0x10' is not a decimal integer"},
      {"1 0 -5 8 0", "lba '-5' is negative"},
      {"1 0 0 -8 0", "size '-8' is negative"},
      {"1 0 0 0 0", "size is 0 sectors (zero-length request)"},
      {"1 0 0 8 2", "mem: line 3: type '2' is neither 0 (write) nor 1 (read)"},
      {"1 0 0 8 R", "type 'R' is not a decimal integer"},
      {"99999999999999999999 0 0 8 0", "arrival time '99999999999999999999' does not fit in 64 bits"},
      {"1 4294967296 0 8 0", "device '4294967296' does not fit in 32 bits"},
      {"1 0 0 4294967296 0", "size '4294967296' does not fit in 32 bits"},
      {"1 0 18446744073709551615 1 0", "lba 18446744073709551615 + size 1 overflows 64 bits"},
      {std::string("1 0 0\0 8 0", 10), "lba '0?' is not a decimal integer"},
      {"1 0 0 8 0" + std::string(5000, ' '), "mem: line 3: line is more than 4096 bytes long (limit 4096)"},
  };
  for (const auto& [line, expected] : cases) {
    INFO("line: " << line.substr(0, 60));
    CHECK_THAT(parse_error(prefix + line + "\n2 0 0 8 0\n"), Contains(expected));
    CHECK_THAT(parse_error(prefix + line), Contains(expected));  // last line, no newline
  }
}

TEST_CASE("an imported file's error names the file and line, no output is left", "[disksim]") {
  TempDir dir;
  const std::string in = test::fixture("bad_type.disksim");
  const std::string out = dir.file("bad.ftr");
  CHECK_THROWS_WITH(import_disksim(in, out), in + ": line 4: type '2' is neither 0 (write) nor 1 (read)");
  CHECK_FALSE(std::filesystem::exists(out));
  CHECK(std::filesystem::is_empty(dir.path()));
  CHECK_THROWS_WITH(import_disksim(dir.file("missing.trace"), out), Contains("missing.trace: no such file"));
}

TEST_CASE("skip_bad tolerates a limited number of malformed lines", "[disksim]") {
  const std::string text = "1 0 0 8 0\nbad\n2 0 8 8 1\n3 0 0 0 0\n4 0 16 8 0\n";
  DiskSimOptions opts;
  opts.skip_bad = 2;
  const DiskSimParsed p = parse_disksim(text, "mem", opts);
  CHECK(same(p.records, {rec(1, Op::kWrite, 0, 8), rec(2, Op::kRead, 8, 8), rec(4, Op::kWrite, 16, 8)}));
  CHECK(p.summary.bad_lines == 2);
  CHECK(p.summary.first_bad_line == 2);
  CHECK_THAT(p.summary.first_bad_reason, Contains("found 1"));

  opts.skip_bad = 1;
  CHECK_THAT(parse_error(text, opts), Contains("mem: line 4: size is 0 sectors") && Contains("limit of 1"));
}

TEST_CASE("device filter, placement ID and backwards timestamps", "[disksim]") {
  const std::string text = "10 0 0 8 0\n5 1 8 8 0\n7 0 16 8 1\n3 0 24 8 0\n9 1 0 8 1\n";
  DiskSimOptions opts;
  opts.device = 0;
  opts.pid = 3;
  const DiskSimParsed p = parse_disksim(text, "mem", opts);
  CHECK(same(p.records, {rec(10, Op::kWrite, 0, 8, 3), rec(7, Op::kRead, 16, 8, 3), rec(3, Op::kWrite, 24, 8, 3)}));
  CHECK(p.summary.filtered == 2);
  CHECK(p.summary.backwards_timestamps == 2);

  const DiskSimParsed all = parse_disksim(text, "mem");
  CHECK(all.records.size() == 5);
  CHECK(all.summary.backwards_timestamps == 2);  // 10->5, 7->3
  CHECK(all.records[1].pid == 0);

  TempDir dir;
  const std::string in = dir.file("in.trace");
  test::write_bytes(in, text);
  const ImportResult r = import_disksim(in, dir.file("out.ftr"), opts);
  CHECK(r.records_written == 3);
  CHECK(FtrReader(dir.file("out.ftr")).meta().get("device") == "0");
}

TEST_CASE("the real MQSim traces import completely", "[disksim][external]") {
  const std::string dir = std::string(FTLSIM_SOURCE_DIR) + "/../shared/traces/external/";
  for (const std::string name : {"mqsim-tpcc-small.trace", "mqsim-wsrch-small.trace"}) {
    const std::string in = dir + name;
    if (!std::filesystem::exists(in)) {
      WARN("skipped: " << in << " is not present");
      continue;
    }
    // Independent count with iostreams: non-blank lines, and writes (type 0).
    uint64_t lines = 0;
    uint64_t writes = 0;
    uint64_t sectors = 0;
    std::ifstream f(in);
    for (std::string line; std::getline(f, line);) {
      std::istringstream ss(line);
      uint64_t t = 0, dev = 0, lba = 0, size = 0, type = 0;
      if (!(ss >> t >> dev >> lba >> size >> type)) continue;
      ++lines;
      writes += type == 0 ? 1 : 0;
      sectors += size;
    }
    TempDir tmp;
    const ImportResult r = import_disksim(in, tmp.file("out.ftr"));
    INFO(name);
    CHECK(r.records_written == lines);
    CHECK(r.summary.bad_lines == 0);
    const FtrReader reader(tmp.file("out.ftr"));
    REQUIRE(reader.size() == lines);
    uint64_t got_writes = 0;
    uint64_t got_sectors = 0;
    for (const Record& rr : reader.records()) {
      got_writes += rr.op == static_cast<uint8_t>(Op::kWrite) ? 1 : 0;
      got_sectors += rr.sectors;
    }
    CHECK(got_writes == writes);
    CHECK(got_sectors == sectors);
    if (name == "mqsim-tpcc-small.trace") {  // numbers from the traces' README
      CHECK(lines == 6999);
      CHECK(writes == 2618);
    } else {
      CHECK(lines == 24783);
    }
  }
}
