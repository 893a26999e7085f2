// The CLI rows of the bad-input table (docs/bad_input.md): `ftlsim convert`
// for every importer, and `ftlsim` / `ftlsim info` on damaged .ftr files.
// Each row has one defined result: exit 0 with the damage counted on the
// report line, or exit 2 with one line "ftlsim: error: <file>: line N: ..."
// (text) or "...: record N: ..." (.ftr). A refused convert leaves neither
// the output nor a temporary file.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <algorithm>

#include "cli_run.h"
#include "trace/ftr_writer.h"

using namespace ftlsim;
using test::kDevice;
using test::put;
using test::run_ftlsim;
using test::slurp;

namespace {

// One line of output, and no blank line or second error after it.
void check_one_error_line(const test::RunResult& r, const std::string& starts) {
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.rfind("ftlsim: error: " + starts, 0) == 0);
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

bool only(const std::string& dir, const std::vector<std::string>& names) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    ++n;
    if (std::find(names.begin(), names.end(), e.path().filename().string()) == names.end()) return false;
  }
  return n == names.size();
}

struct Importer {
  const char* from;
  std::string options;  // extra convert options
  std::string good;     // one valid text line (a write)
  std::string bad;      // a malformed line
};

const std::vector<Importer>& importers() {
  static const std::vector<Importer> v = {
      {"disksim", "", "10 0 0 8 0", "10 0 0 8 7"},
      {"blkparse", "", "8,16 0 1 0.000000010 42 D W 0 + 8 [app]", "8,16 0 1 0.000000010 42 D W 0 + 8 [app"},
      {"ftrace-blk", "", "  app-42 [000] ..... 1.000010: 8,16 D W 0 + 8 [app]", "  app-42 [000] 1.0: 8,16 D W"},
      {"msr", "", "100,h,0,Write,0,4096,1", "100,h,0,Write,0,4096"},
      {"alibaba", "", "0,W,0,4096,10", "0,W,0,0,10"},
      {"tencent", "", "0.00001,0,8,1,0", "0.00001,0,8,9,0"},
      {"csv", "--columns lba=#1,length=#2 --no-header", "0,8", "0,-8"},
  };
  return v;
}

}  // namespace

TEST_CASE("convert, every importer: empty file, bad line, --skip-bad, CRLF, garbage", "[cli]") {
  test::TempDir dir("badin");
  for (const Importer& imp : importers()) {
    DYNAMIC_SECTION(imp.from) {
      const std::string in = dir.file(std::string(imp.from) + ".txt");
      const std::string out = dir.file(std::string(imp.from) + ".ftr");
      const std::string convert = fmt::format("convert --from {} {} {} -o {} --force", imp.from, imp.options, in, out);

      // Empty: imported, 0 records, said on the report line.
      put(in, "");
      test::RunResult r = run_ftlsim(convert);
      CHECK(r.exit_code == 0);
      CHECK_THAT(r.output, Catch::Contains(": 0 records written"));

      // A malformed second line: refused naming file and line; nothing written.
      std::filesystem::remove(out);
      put(in, imp.good + "\n" + imp.bad + "\n" + imp.good + "\n");
      check_one_error_line(run_ftlsim(convert), in + ": line 2: ");
      CHECK(only(dir.file(""), {std::string(imp.from) + ".txt"}));

      // --skip-bad 1: imported, the skipped line counted and named.
      r = run_ftlsim(convert + " --skip-bad 1");
      INFO(r.output);
      CHECK(r.exit_code == 0);
      CHECK_THAT(r.output, Catch::Contains(": 2 records written"));
      CHECK_THAT(r.output, Catch::Contains("1 bad lines skipped"));
      CHECK_THAT(r.output, Catch::Contains("(first bad line 2: "));

      // CRLF line ends: imported like LF.
      put(in, imp.good + "\r\n" + imp.good + "\r\n");
      r = run_ftlsim(convert);
      CHECK(r.exit_code == 0);
      CHECK_THAT(r.output, Catch::Contains(": 2 records written"));

      // Binary garbage: refused at line 1 (a CSV header has no such column),
      // the message printable.
      static constexpr char kElf[] =
          "\x7f"
          "ELF\x02\x01\x01\x00\x00\x00\xff\xfe,\x01\n";
      put(in, std::string(kElf, sizeof kElf - 1) + imp.good + "\n");
      std::filesystem::remove(out);
      r = run_ftlsim(convert);
      CHECK(r.exit_code == 2);
      CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
      for (const char c : r.output) CHECK((c == '\n' || (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f)));
      CHECK_FALSE(std::filesystem::exists(out));
    }
  }
}

TEST_CASE("convert: missing input, a directory, an existing output", "[cli]") {
  test::TempDir dir("badin2");
  check_one_error_line(run_ftlsim("convert --from disksim " + dir.file("nope") + " -o " + dir.file("o.ftr")),
                       dir.file("nope") + ": no such file");
  std::filesystem::create_directories(dir.file("d"));
  check_one_error_line(run_ftlsim("convert --from disksim " + dir.file("d") + " -o " + dir.file("o.ftr")),
                       dir.file("d") + ": not a regular file");
  put(dir.file("in"), "1 0 0 8 0\n");
  put(dir.file("o.ftr"), "keep me");
  check_one_error_line(run_ftlsim("convert --from disksim " + dir.file("in") + " -o " + dir.file("o.ftr")),
                       dir.file("o.ftr") + ": already exists");
  CHECK(slurp(dir.file("o.ftr")) == "keep me");
}

TEST_CASE("simulate and info on damaged .ftr files: exit 2 naming the file and record", "[cli]") {
  test::TempDir dir("badftr");
  const auto make = [&](const std::string& name, const std::vector<trace::Record>& recs) {
    trace::FtrWriter w(dir.file(name), {});
    for (const trace::Record& r : recs) w.append(r);
    w.finish();
    return dir.file(name);
  };
  constexpr auto W = static_cast<uint8_t>(trace::Op::kWrite);
  const std::string good = make("good.ftr", {{0, 0, 8, 0, W, 0}, {1, 8, 8, 0, W, 0}, {2, 16, 8, 0, W, 0}});
  const std::string sim = " " + kDevice;

  // Damaged files: the reader refuses them before simulating.
  put(dir.file("empty.ftr"), "");
  check_one_error_line(run_ftlsim("--trace " + dir.file("empty.ftr") + sim), dir.file("empty.ftr") + ": empty file");
  put(dir.file("text.ftr"), "10 0 0 8 0\n");
  check_one_error_line(run_ftlsim("--trace " + dir.file("text.ftr") + sim),
                       dir.file("text.ftr") + ": not an ftlsim trace");
  const std::string bytes = slurp(good);
  put(dir.file("cut.ftr"), bytes.substr(0, bytes.size() - 5));  // the last record cut short
  check_one_error_line(run_ftlsim("--trace " + dir.file("cut.ftr") + sim),
                       dir.file("cut.ftr") + ": truncated: header says 3 records but the file ends in record 2");
  check_one_error_line(run_ftlsim("info " + dir.file("cut.ftr")), dir.file("cut.ftr") + ": truncated");
  put(dir.file("long.ftr"), bytes + "xyz");
  check_one_error_line(run_ftlsim("--trace " + dir.file("long.ftr") + sim),
                       dir.file("long.ftr") + ": 3 trailing bytes after the last of 3 records");
  check_one_error_line(run_ftlsim("--trace " + dir.file("missing.ftr") + sim),
                       dir.file("missing.ftr") + ": no such file");

  // Well-formed files with bad records: refused at the record.
  const std::string op = make("op.ftr", {{0, 0, 8, 0, W, 0}, {1, 8, 8, 0, 9, 0}});
  check_one_error_line(run_ftlsim("--trace " + op + sim), op + ": record 1: unknown op 9");
  const std::string zero = make("zero.ftr", {{0, 0, 8, 0, W, 0}, {1, 8, 0, 0, W, 0}});
  check_one_error_line(run_ftlsim("--trace " + zero + sim), zero + ": record 1: zero-length write");
  const std::string past = make("past.ftr", {{0, 0, 8, 0, W, 0}, {1, 104856, 8, 0, W, 0}});
  check_one_error_line(run_ftlsim("--trace " + past + sim), past + ": record 1: write of sectors [104856, 104864)");
  const test::RunResult wrapped = run_ftlsim("--trace " + past + sim + " --wrap");
  CHECK(wrapped.exit_code == 0);

  // Timestamps going backwards are no error: fast mode replays in file order.
  const std::string back = make("back.ftr", {{5, 0, 8, 0, W, 0}, {1, 8, 8, 0, W, 0}});
  const test::RunResult b = run_ftlsim("--trace " + back + sim);
  INFO(b.output);
  CHECK(b.exit_code == 0);
}
