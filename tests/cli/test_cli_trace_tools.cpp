// `ftlsim gen`, `convert` and `info` end to end. Every expected number is
// worked out by hand from the options or the text the test writes, never
// taken from an earlier run of the tool.
#include <catch2/catch.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli_run.h"

using ftlsim::test::kDevice;
using ftlsim::test::put;
using ftlsim::test::run_ftlsim;
using ftlsim::test::RunResult;
using ftlsim::test::slurp;
using ftlsim::test::TempDir;

namespace {

namespace fs = std::filesystem;

size_t lines_in(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

// Names of the entries of a directory, sorted.
std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// header_bytes of a .ftr file, read straight from the bytes: a 4-byte
// little-endian field at offset 16 (docs/trace_format.md, "Fixed header").
uint64_t ftr_header_bytes(const std::string& bytes) {
  REQUIRE(bytes.size() >= 48);
  uint64_t h = 0;
  for (int i = 3; i >= 0; --i) h = (h << 8) | static_cast<unsigned char>(bytes[16 + static_cast<size_t>(i)]);
  return h;
}

// Just enough JSON to read what `info --json` and summary.json print: a
// value tree with checked accessors that throw (failing the test) when a key
// is missing or a value has the wrong kind.
struct Json {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  std::string text;  // a number's literal, or a string's value
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> fields;

  [[nodiscard]] const Json& operator[](std::string_view key) const {
    if (kind != Kind::kObject) throw std::runtime_error("JSON: not an object, looking for '" + std::string(key) + "'");
    for (const auto& [k, v] : fields) {
      if (k == key) return v;
    }
    throw std::runtime_error("JSON: no key '" + std::string(key) + "'");
  }
  [[nodiscard]] const Json& operator[](size_t i) const {
    if (kind != Kind::kArray || i >= items.size()) throw std::runtime_error("JSON: no item " + std::to_string(i));
    return items[i];
  }
  [[nodiscard]] uint64_t u64() const {
    uint64_t v = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (kind != Kind::kNumber || ec != std::errc() || ptr != end) {
      throw std::runtime_error("JSON: not an unsigned integer: '" + text + "'");
    }
    return v;
  }
  [[nodiscard]] const std::string& str() const {
    if (kind != Kind::kString) throw std::runtime_error("JSON: not a string");
    return text;
  }
  [[nodiscard]] bool is_null() const { return kind == Kind::kNull; }
  [[nodiscard]] size_t size() const { return kind == Kind::kArray ? items.size() : fields.size(); }
};

class JsonParser {
 public:
  explicit JsonParser(std::string_view s) : s_(s) {}

  Json parse_document() {
    Json v = value();
    skip_space();
    if (i_ != s_.size()) fail("trailing text");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(i_));
  }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  void expect(char c) {
    skip_space();
    if (i_ >= s_.size() || s_[i_] != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }
  std::string string_value() {
    expect('"');
    std::string out;
    while (true) {
      if (i_ >= s_.size()) fail("unterminated string");
      const char c = s_[i_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated escape");
      const char e = s_[i_++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u':  // kept verbatim: no test compares such a string
          out += "\\u";
          break;
        default: out += e;
      }
    }
  }
  Json value() {
    skip_space();
    if (i_ >= s_.size()) fail("unexpected end");
    Json v;
    const char c = s_[i_];
    if (c == '{') {
      v.kind = Json::Kind::kObject;
      ++i_;
      skip_space();
      if (i_ < s_.size() && s_[i_] == '}') {
        ++i_;
        return v;
      }
      while (true) {
        std::string k = string_value();
        expect(':');
        v.fields.emplace_back(std::move(k), value());
        skip_space();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          continue;
        }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = Json::Kind::kArray;
      ++i_;
      skip_space();
      if (i_ < s_.size() && s_[i_] == ']') {
        ++i_;
        return v;
      }
      while (true) {
        v.items.push_back(value());
        skip_space();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          continue;
        }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = Json::Kind::kString;
      v.text = string_value();
      return v;
    }
    if (literal("null")) return v;
    if (literal("true") || literal("false")) {
      v.kind = Json::Kind::kBool;
      return v;
    }
    const size_t start = i_;
    while (i_ < s_.size() && std::string_view("+-.eE0123456789").find(s_[i_]) != std::string_view::npos) ++i_;
    if (i_ == start) fail("unexpected character");
    v.kind = Json::Kind::kNumber;
    v.text = std::string(s_.substr(start, i_ - start));
    return v;
  }

  std::string_view s_;
  size_t i_ = 0;
};

Json parse_json(std::string_view text) { return JsonParser(text).parse_document(); }

// `ftlsim info --json PATH`, which must succeed.
Json info_json(const std::string& path) {
  const RunResult r = run_ftlsim("info --json " + path);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  return parse_json(r.output);
}

// A command that must fail cleanly: exit 2, exactly one line of output.
void check_one_line_failure(const RunResult& r) {
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(lines_in(r.output) == 1);
}

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr uint64_t kPage = 4096;     // --io-size default, and the simulator's mapping unit
constexpr uint64_t kIatNs = 10'000;  // --iat default

// The small device of test_cli.cpp: 51.2 MiB logical.

const std::string kHotCold = "--pattern hotcold --logical 64M --writes 20000 --fill --markers 1000";

}  // namespace

TEST_CASE("gen hotcold with fill and markers: info reports the hand-computed counts", "[cli]") {
  TempDir dir("gen-hc");
  const std::string tr = dir.file("hc.ftr");
  const RunResult g = run_ftlsim("gen " + kHotCold + " --seed 3 -o " + tr);
  INFO(g.output);
  REQUIRE(g.exit_code == 0);

  // 64 MiB = 16384 pages of 4 KiB. Hot is the first 10%, rounded to the
  // nearest page: 1638.4 -> 1638 pages; cold the other 14746. The fill goes
  // in 1 MiB = 256-page requests split at that boundary, which is not on a
  // MiB: ceil(1638/256) = 7 hot + ceil(14746/256) = 58 cold = 65 requests,
  // one more than 64 MiB / 1 MiB.
  constexpr uint64_t kPages = 64 * kMiB / kPage;
  constexpr uint64_t kHotPages = 1638;
  constexpr uint64_t kColdPages = kPages - kHotPages;
  constexpr uint64_t kHotFill = 7;
  constexpr uint64_t kColdFill = 58;
  constexpr uint64_t kWrites = 20000;
  constexpr uint64_t kMarkers = kWrites / 1000;  // after write 1000, 2000, ..., 20000
  constexpr uint64_t kRecords = kHotFill + kColdFill + kWrites + kMarkers;
  static_assert(kRecords == 20085);

  const Json j = info_json(tr);
  CHECK(j["format"]["sector_bytes"].u64() == 512);
  CHECK(j["meta"]["source"].str() == "ftlsim gen");
  CHECK(j["meta"]["seed"].str() == "3");
  CHECK(j["pid_names"]["0"].str() == "hot");
  CHECK(j["pid_names"]["1"].str() == "cold");

  CHECK(j["records"].u64() == kRecords);
  CHECK(j["ops"]["write"]["records"].u64() == kHotFill + kColdFill + kWrites);
  CHECK(j["ops"]["write"]["bytes"].u64() == 64 * kMiB + kWrites * kPage);
  CHECK(j["ops"]["read"]["records"].u64() == 0);
  CHECK(j["ops"]["trim"]["records"].u64() == 0);
  CHECK(j["ops"]["flush"]["records"].u64() == 0);
  CHECK(j["ops"]["marker"]["records"].u64() == kMarkers);
  CHECK(j["ops"]["marker"]["bytes"].u64() == 0);

  // Per pid: the fill of each region, then its share of the 20000 writes.
  const Json& pids = j["pids"];
  REQUIRE(pids.size() == 2);
  const Json& hot = pids[0];
  const Json& cold = pids[1];
  CHECK(hot["pid"].u64() == 0);
  CHECK(hot["name"].str() == "hot");
  CHECK(cold["pid"].u64() == 1);
  CHECK(cold["name"].str() == "cold");
  CHECK(hot["records"].u64() + cold["records"].u64() == kRecords);
  CHECK(hot["write_bytes"].u64() + cold["write_bytes"].u64() == 64 * kMiB + kWrites * kPage);
  REQUIRE(hot["write_bytes"].u64() >= kHotPages * kPage);
  REQUIRE(cold["write_bytes"].u64() >= kColdPages * kPage);
  const uint64_t hot_extra = hot["write_bytes"].u64() - kHotPages * kPage;
  const uint64_t cold_extra = cold["write_bytes"].u64() - kColdPages * kPage;
  CHECK(hot_extra % kPage == 0);
  CHECK(cold_extra % kPage == 0);
  const uint64_t hot_writes = hot_extra / kPage;
  const uint64_t cold_writes = cold_extra / kPage;
  CHECK(hot_writes + cold_writes == kWrites);
  CHECK(cold["records"].u64() == kColdFill + cold_writes);
  // 90% of the writes go to hot: binomial sd = sqrt(20000 * 0.9 * 0.1) ~ 42.
  CHECK(hot_writes >= 18000 - 300);
  CHECK(hot_writes <= 18000 + 300);
  CHECK(hot["read_bytes"].u64() + hot["trim_bytes"].u64() + cold["read_bytes"].u64() + cold["trim_bytes"].u64() == 0);

  CHECK(j["footprint"]["written_pages"].u64() == kPages);
  CHECK(j["footprint"]["touched_pages"].u64() == kPages);
  // Record i has time i * 10 us, markers excluded (they share their write's time).
  CHECK(j["time_ns"]["first"].u64() == 0);
  CHECK(j["time_ns"]["min"].u64() == 0);
  CHECK(j["time_ns"]["last"].u64() == (kRecords - kMarkers - 1) * kIatNs);
  CHECK(j["time_ns"]["max"].u64() == (kRecords - kMarkers - 1) * kIatNs);
  CHECK(j["time_ns"]["backwards_steps"].u64() == 0);
  CHECK(j["markers"]["count"].u64() == kMarkers);
  CHECK(j["markers"]["first"].u64() == 1000);
  CHECK(j["markers"]["last"].u64() == kWrites);
  CHECK(j["lba"]["min"].u64() == 0);
  CHECK(j["lba"]["end"].u64() == 64 * kMiB / 512);
}

TEST_CASE("gen uniform with reads and an uneven marker step: info counts add up", "[cli]") {
  TempDir dir("gen-u");
  const std::string tr = dir.file("u.ftr");
  const RunResult g = run_ftlsim(
      "gen --pattern uniform --logical 16M --writes 5000 --fill --fill-io 256K --markers 700 "
      "--read-ratio 0.2 --seed 9 -o " +
      tr);
  INFO(g.output);
  REQUIRE(g.exit_code == 0);

  // One region: 16 MiB / 256 KiB = 64 fill requests. Markers after writes
  // 700, 1400, ..., 4900: floor(5000 / 700) = 7.
  constexpr uint64_t kFill = 16 * kMiB / (256 * kKiB);
  constexpr uint64_t kWrites = 5000;
  constexpr uint64_t kMarkers = 7;
  const Json j = info_json(tr);
  const uint64_t records = j["records"].u64();
  REQUIRE(records > kFill + kWrites + kMarkers);
  const uint64_t reads = records - kFill - kWrites - kMarkers;
  CHECK(j["ops"]["read"]["records"].u64() == reads);
  CHECK(j["ops"]["read"]["bytes"].u64() == reads * kPage);
  CHECK(j["ops"]["write"]["records"].u64() == kFill + kWrites);
  CHECK(j["ops"]["write"]["bytes"].u64() == 16 * kMiB + kWrites * kPage);
  // Reads before the 5000th write at p = 0.2: mean 5000 * 0.2 / 0.8 = 1250,
  // sd = sqrt(5000 * 0.2) / 0.8 ~ 40.
  CHECK(reads >= 1250 - 250);
  CHECK(reads <= 1250 + 250);

  CHECK(j["pid_names"].size() == 0);
  REQUIRE(j["pids"].size() == 1);
  CHECK(j["pids"][0]["pid"].u64() == 0);
  CHECK(j["pids"][0]["name"].str().empty());
  CHECK(j["pids"][0]["records"].u64() == records);
  CHECK(j["pids"][0]["read_bytes"].u64() == reads * kPage);

  CHECK(j["markers"]["count"].u64() == kMarkers);
  CHECK(j["markers"]["first"].u64() == 700);
  CHECK(j["markers"]["last"].u64() == 4900);
  CHECK(j["time_ns"]["last"].u64() == (records - kMarkers - 1) * kIatNs);
  CHECK(j["footprint"]["written_pages"].u64() == 16 * kMiB / kPage);
  CHECK(j["lba"]["end"].u64() == 16 * kMiB / 512);
}

TEST_CASE("gen: same seed gives the same bytes, another seed other records, no overwrite without force", "[cli]") {
  TempDir dir("gen-det");
  const std::string a = dir.file("a.ftr");
  const std::string b = dir.file("b.ftr");
  const std::string c = dir.file("c.ftr");
  REQUIRE(run_ftlsim("gen " + kHotCold + " --seed 3 -o " + a).exit_code == 0);
  REQUIRE(run_ftlsim("gen " + kHotCold + " --seed 3 -o " + b).exit_code == 0);
  REQUIRE(run_ftlsim("gen " + kHotCold + " --seed 4 -o " + c).exit_code == 0);
  const std::string bytes_a = slurp(a);
  const std::string bytes_c = slurp(c);

  // 20085 records of 24 bytes after the header (see the hotcold case above).
  const uint64_t header = ftr_header_bytes(bytes_a);
  CHECK(bytes_a.size() == header + 20085 * 24);
  CHECK(bytes_a == slurp(b));
  // The header names the seed, so compare the records alone: the fill is
  // the same, the measured writes must not be.
  REQUIRE(bytes_c.size() == bytes_a.size());
  REQUIRE(ftr_header_bytes(bytes_c) == header);
  CHECK(bytes_a.compare(header, std::string::npos, bytes_c, header, std::string::npos) != 0);

  // An existing output is refused and left as it was.
  const RunResult refused = run_ftlsim("gen " + kHotCold + " --seed 4 -o " + a);
  check_one_line_failure(refused);
  CHECK_THAT(refused.output, Catch::Contains(a) && Catch::Contains("--force"));
  CHECK(slurp(a) == bytes_a);
  // --force replaces it: now it is the seed-4 trace.
  const RunResult forced = run_ftlsim("gen " + kHotCold + " --seed 4 --force -o " + a);
  INFO(forced.output);
  CHECK(forced.exit_code == 0);
  CHECK(slurp(a) == bytes_c);
}

TEST_CASE("gen: options that cannot go together fail with one line and write nothing", "[cli]") {
  TempDir dir("gen-bad");
  const std::string out = dir.file("x.ftr");
  const std::vector<std::pair<std::string, std::string>> table = {
      {"--pattern uniform --logical 64M --writes 100 --theta 1.2", "--theta applies only to --pattern zipf"},
      {"--pattern hotcold --logical 64M --writes 100 --fill-io 2M", "--fill-io needs --fill"},
      {"--pattern seq --logical 64M --writes 100 --hot-space 0.2", "--hot-space applies only to --pattern hotcold"},
      {"--pattern streams --logical 64M --writes 100", "--pattern streams needs --streams"},
      {"--pattern uniform --logical 64M", "one of --writes or --bytes is required"},
  };
  for (const auto& [args, expect] : table) {
    const RunResult r = run_ftlsim("gen " + args + " -o " + out);
    INFO(args);
    check_one_line_failure(r);
    CHECK_THAT(r.output, Catch::Contains(expect));
    CHECK(listing(dir.file("")).empty());
  }
}

namespace {

// A DiskSim/MQSim file written by hand: tabs, CRLF ends, runs of blanks, a
// blank CRLF line, a blank LF line, a comment, a timestamp that goes back and
// a last line without '\n'. Columns: arrival_ns device lba size type.
//
//  line  time  dev  lba   sectors type  4 KiB pages (8 sectors each)
//   1    1000   0     0     8     W     [0, 8)       -> page 0             1 page
//   2    2000   0     8     1     W     [8, 9)       -> page 1 (partial)   1 page
//   3    (blank, CRLF)
//   4    3000   1    20     4     R     [20, 24)     -> page 2
//   5    (comment)
//   6    4000   0    14     6     W     [14, 20)     -> pages 1, 2 (both partial)  2 pages
//   7    (blank)
//   8    2500   0    64    16     W     [64, 80)     -> pages 8, 9         2 pages
//   9    5000   0   100     3     R     [100, 103)   -> page 12
//  10    6000   0  1001    24     W     [1001, 1025) -> pages 125..128 (first, last partial)  4 pages
constexpr std::string_view kDiskSimText =
    "1000\t0\t0\t8\t0\r\n"
    "2000 0 8 1 0\r\n"
    "\r\n"
    "  3000\t 1  20   4  1  \n"
    "# a comment line\n"
    "4000 0 14 6 0\n"
    "\n"
    "2500 0 64 16 0\r\n"
    "5000 0 100 3 1\n"
    "6000\t0\t1001\t24\t0";

}  // namespace

TEST_CASE("convert disksim: info and the simulator see the hand-computed requests", "[cli]") {
  TempDir dir("conv");
  const std::string in = dir.file("hand.trace");
  const std::string out = dir.file("hand.ftr");
  put(in, kDiskSimText);
  // Device 1 has one request (line 4): merged into device 0's addresses.
  const RunResult c = run_ftlsim("convert --from disksim " + in + " -o " + out + " --merge-devices");
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  CHECK(lines_in(c.output) == 1);
  CHECK_THAT(c.output, Catch::Contains("7 records written") && Catch::Contains("0 bad lines skipped") &&
                           Catch::Contains("1 backwards timestamps"));

  const Json j = info_json(out);
  CHECK(j["format"]["sector_bytes"].u64() == 512);
  CHECK(j["meta"]["source"].str() == "disksim");
  CHECK(j["meta"]["source_file"].str() == "hand.trace");
  CHECK(j["records"].u64() == 7);
  CHECK(j["ops"]["write"]["records"].u64() == 5);
  CHECK(j["ops"]["write"]["bytes"].u64() == (8 + 1 + 6 + 16 + 24) * 512);
  CHECK(j["ops"]["read"]["records"].u64() == 2);
  CHECK(j["ops"]["read"]["bytes"].u64() == (4 + 3) * 512);
  CHECK(j["ops"]["trim"]["records"].u64() == 0);
  CHECK(j["ops"]["marker"]["records"].u64() == 0);
  REQUIRE(j["pids"].size() == 1);
  CHECK(j["pids"][0]["records"].u64() == 7);
  // Written pages {0, 1, 2, 8, 9, 125, 126, 127, 128}; reads add page 12.
  CHECK(j["footprint"]["written_pages"].u64() == 9);
  CHECK(j["footprint"]["touched_pages"].u64() == 10);
  CHECK(j["lba"]["min"].u64() == 0);
  CHECK(j["lba"]["end"].u64() == 1001 + 24);
  CHECK(j["time_ns"]["first"].u64() == 1000);
  CHECK(j["time_ns"]["last"].u64() == 6000);
  CHECK(j["time_ns"]["min"].u64() == 1000);
  CHECK(j["time_ns"]["max"].u64() == 6000);
  CHECK(j["time_ns"]["backwards_steps"].u64() == 1);  // 2500 after 4000
  CHECK(j["markers"]["count"].u64() == 0);
  CHECK(j["markers"]["first"].is_null());

  // Pages programmed: 1 + 1 + 2 + 2 + 4 = 10, a partial page costing a whole
  // one. Partial pages: line 2's page 1, line 6's pages 1 and 2, line 10's
  // pages 125 and 128 = 5; of those only line 6's page 1 (written by line
  // 2) held data to read back.
  const RunResult s = run_ftlsim("--trace " + out + " " + kDevice + " --out " + dir.file("sim"));
  INFO(s.output);
  REQUIRE(s.exit_code == 0);
  const Json sum = parse_json(slurp(dir.file("sim/summary.json")));
  CHECK(sum["records"].u64() == 7);
  CHECK(sum["host_pages"].u64() == 10);
  CHECK(sum["host_bytes"].u64() == 10 * kPage);
  CHECK(sum["requests"]["writes"].u64() == 5);
  CHECK(sum["requests"]["reads"].u64() == 2);
  CHECK(sum["requests"]["rmw_pages"].u64() == 5);
  CHECK(sum["requests"]["rmw_read_pages"].u64() == 1);
  CHECK(sum["requests"]["read_pages"].u64() == 2);  // pages 2 and 12
  // Both reads find nothing: page 2 is read (line 4) before line 6 writes it.
  CHECK(sum["requests"]["unmapped_read_pages"].u64() == 2);
}

TEST_CASE("convert disksim: a malformed line names the file and line and leaves no output", "[cli]") {
  TempDir dir("conv-bad");
  const std::string in = dir.file("bad.trace");
  const std::string out = dir.file("bad.ftr");
  // Line 6 has type 7; lines 3 and 5 are blank and comment, so the count
  // must include them. 100 us apart: a rate a device sustains (no warning).
  const std::string text =
      "100000 0 0 8 0\r\n"
      "200000\t0\t8\t8\t1\r\n"
      "\r\n"
      "300000 0 16 8 0\n"
      "# comment\n"
      "400000 0 24 8 7\n"
      "500000 0 32 16 0\n";
  put(in, text);

  const RunResult r = run_ftlsim("convert --from disksim " + in + " -o " + out);
  check_one_line_failure(r);
  CHECK_THAT(r.output, Catch::Contains(in + ": line 6:") && Catch::Contains("type"));
  CHECK_FALSE(fs::exists(out));
  CHECK(listing(dir.file("")) == std::vector<std::string>{"bad.trace"});  // no temporary left behind

  // One bad line tolerated: the other four requests are written.
  const RunResult ok = run_ftlsim("convert --from disksim " + in + " -o " + out + " --skip-bad 1");
  INFO(ok.output);
  REQUIRE(ok.exit_code == 0);
  CHECK(lines_in(ok.output) == 1);
  CHECK_THAT(ok.output, Catch::Contains("4 records written") && Catch::Contains("1 bad lines skipped") &&
                            Catch::Contains("first bad line 6"));
  const Json j = info_json(out);
  CHECK(j["records"].u64() == 4);
  CHECK(j["ops"]["write"]["bytes"].u64() == (8 + 8 + 16) * 512);
  CHECK(j["ops"]["read"]["bytes"].u64() == 8 * 512);
  const std::string converted = slurp(out);

  // An existing output is refused without --force, and left as it was.
  const RunResult refused = run_ftlsim("convert --from disksim " + in + " -o " + out + " --skip-bad 1");
  check_one_line_failure(refused);
  CHECK_THAT(refused.output, Catch::Contains(out) && Catch::Contains("--force"));
  CHECK(slurp(out) == converted);

  // With --force but a second bad line beyond --skip-bad 1: the conversion
  // fails at that line and the existing output survives untouched.
  put(in, text + "600000 0 48 0 0\n");  // line 8: zero size
  const RunResult over = run_ftlsim("convert --from disksim " + in + " -o " + out + " --skip-bad 1 --force");
  check_one_line_failure(over);
  CHECK_THAT(over.output, Catch::Contains(in + ": line 8:"));
  CHECK(slurp(out) == converted);
  CHECK(listing(dir.file("")) == std::vector<std::string>{"bad.ftr", "bad.trace"});
}

TEST_CASE("convert disksim: MQSim's tpcc-small trace keeps every request", "[cli]") {
  // Kept outside the repository (../shared); a clone without it skips this.
  const std::string in = std::string(FTLSIM_SOURCE_DIR) + "/../shared/traces/external/mqsim-tpcc-small.trace";
  if (!fs::exists(in)) {
    WARN("skipped: " << in << " is not present");
    return;
  }
  // Count the requests here, independently of the importer.
  uint64_t lines = 0;
  uint64_t unparsed = 0;  // lines this reading does not understand; there must be none
  uint64_t writes = 0;
  uint64_t write_bytes = 0;
  uint64_t read_bytes = 0;
  {
    std::ifstream f(in);
    std::string line;
    while (std::getline(f, line)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      ++lines;
      std::istringstream fields(line);
      uint64_t time = 0, device = 0, lba = 0, size = 0, type = 2;
      if (!(fields >> time >> device >> lba >> size >> type) || type > 1) ++unparsed;
      (type == 0 ? write_bytes : read_bytes) += size * 512;
      writes += type == 0 ? 1 : 0;
    }
  }
  REQUIRE(lines > 0);
  REQUIRE(unparsed == 0);
  TempDir dir("mqsim");
  const std::string out = dir.file("tpcc.ftr");
  const RunResult c = run_ftlsim("convert --from disksim " + in + " -o " + out + " --merge-devices");
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  CHECK_THAT(c.output, Catch::Contains(std::to_string(lines) + " records written"));
  const Json j = info_json(out);
  CHECK(j["records"].u64() == lines);
  CHECK(j["ops"]["write"]["records"].u64() == writes);
  CHECK(j["ops"]["read"]["records"].u64() == lines - writes);
  CHECK(j["ops"]["write"]["bytes"].u64() == write_bytes);
  CHECK(j["ops"]["read"]["bytes"].u64() == read_bytes);
  CHECK(j["meta"]["source_file"].str() == "mqsim-tpcc-small.trace");
}

TEST_CASE("info on a truncated trace names the file and the first incomplete record", "[cli]") {
  TempDir dir("trunc");
  const std::string full = dir.file("full.ftr");
  // 100 writes and no fill: exactly 100 records.
  ftlsim::test::gen_uniform(full, "--logical 1M --writes 100");
  const std::string bytes = slurp(full);
  const uint64_t header = ftr_header_bytes(bytes);
  REQUIRE(bytes.size() == header + 100 * 24);
  REQUIRE(info_json(full)["records"].u64() == 100);

  struct Cut {
    std::string name;
    uint64_t size;
    std::string expect;
  };
  const std::vector<Cut> cuts = {
      {"mid.ftr", header + 5 * 24 + 10, "record 5"},     // 10 bytes into record 5
      {"one.ftr", header + 1, "record 0"},               // 1 byte into record 0
      {"last.ftr", header + 99 * 24 + 23, "record 99"},  // 1 byte short of the end
  };
  for (const Cut& cut : cuts) {
    const std::string path = dir.file(cut.name);
    put(path, std::string_view(bytes).substr(0, cut.size));
    for (const char* json : {"", " --json"}) {
      const RunResult r = run_ftlsim("info " + path + json);
      INFO(cut.name << json);
      check_one_line_failure(r);
      CHECK_THAT(r.output, Catch::Contains(path) && Catch::Contains("truncated") && Catch::Contains(cut.expect) &&
                               Catch::Contains("100 records"));
    }
  }
}
