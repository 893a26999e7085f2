// `ftlsim gen` workloads, checked against what each pattern promises rather
// than against earlier output of the generator.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/units.h"
#include "trace/record.h"
#include "workload/synth.h"

using ftlsim::InputError;
using ftlsim::Problem;
using ftlsim::trace::Op;
using ftlsim::trace::Record;
using ftlsim::workload::generate;
using ftlsim::workload::generate_records;
using ftlsim::workload::GenerateStats;
using ftlsim::workload::Pattern;
using ftlsim::workload::SynthSpec;

namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kPageSectors = kPage / 512;

SynthSpec spec_of(Pattern p, uint64_t pages, uint64_t writes, uint64_t seed = 1) {
  SynthSpec s;
  s.pattern = p;
  s.logical_bytes = pages * kPage;
  s.io_bytes = kPage;
  s.writes = writes;
  s.seed = seed;
  if (p == Pattern::kStreams) s.streams = {{0.5, 0.05}, {0.3, 0.25}, {0.2, 0.7}};
  return s;
}

bool is_op(const Record& r, Op op) { return r.op == static_cast<uint8_t>(op); }

std::vector<Record> only(const std::vector<Record>& rs, Op op) {
  std::vector<Record> out;
  for (const Record& r : rs) {
    if (is_op(r, op)) out.push_back(r);
  }
  return out;
}

bool same(const Record& a, const Record& b) {
  return a.time_ns == b.time_ns && a.lba == b.lba && a.sectors == b.sectors && a.pid == b.pid && a.op == b.op &&
         a.flags == b.flags;
}

bool same(const std::vector<Record>& a, const std::vector<Record>& b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](const Record& x, const Record& y) { return same(x, y); });
}

// Counts records without storing them.
struct CountingSink {
  uint64_t n = 0;
  uint64_t lba_sum = 0;
  void append(const Record& r) {
    ++n;
    lba_sum += r.lba;
  }
};

}  // namespace

TEST_CASE("same seed and options give identical records and other seeds differ", "[workload][synth]") {
  const Pattern p = GENERATE(Pattern::kSeq, Pattern::kUniform, Pattern::kZipf, Pattern::kHotCold, Pattern::kStreams);
  CAPTURE(ftlsim::workload::pattern_name(p));
  SynthSpec s = spec_of(p, 4096, 5000, 1);
  s.read_ratio = 0.2;
  s.trim_ratio = 0.1;
  s.marker_every = 100;
  s.fill = true;
  const std::vector<Record> a = generate_records(s);
  const std::vector<Record> b = generate_records(s);
  CHECK(same(a, b));
  s.seed = 2;
  const std::vector<Record> c = generate_records(s);
  if (p == Pattern::kSeq) {
    // seq's addresses do not depend on the seed, but the op mix does.
    CHECK_FALSE(same(a, c));
  } else {
    CHECK_FALSE(same(a, c));
    // Not just a shift: the write addresses themselves differ.
    const auto wa = only(a, Op::kWrite);
    const auto wc = only(c, Op::kWrite);
    size_t equal_lbas = 0;
    for (size_t i = 0; i < std::min(wa.size(), wc.size()); ++i) equal_lbas += wa[i].lba == wc[i].lba;
    CHECK(equal_lbas < wa.size() / 2);
  }
}

TEST_CASE("timestamps advance by the inter-arrival time and markers share the time of their write",
          "[workload][synth]") {
  SynthSpec s = spec_of(Pattern::kUniform, 256, 1000);
  s.iat_ns = 2500;
  s.fill = true;
  s.fill_io_bytes = 64 * 1024;
  s.marker_every = 7;
  s.read_ratio = 0.3;
  const std::vector<Record> rs = generate_records(s);
  uint64_t i = 0;
  for (size_t k = 0; k < rs.size(); ++k) {
    if (is_op(rs[k], Op::kMarker)) {
      REQUIRE(k > 0);
      REQUIRE(rs[k].time_ns == rs[k - 1].time_ns);
      continue;
    }
    REQUIRE(rs[k].time_ns == i * 2500);
    ++i;
  }
}

TEST_CASE("seq writes every page exactly once per pass in order", "[workload][synth]") {
  constexpr uint64_t kPages = 64;
  const SynthSpec s = spec_of(Pattern::kSeq, kPages, 3 * kPages + 10);
  const std::vector<Record> rs = generate_records(s);
  REQUIRE(rs.size() == 3 * kPages + 10);
  for (size_t i = 0; i < rs.size(); ++i) {
    REQUIRE(is_op(rs[i], Op::kWrite));
    REQUIRE(rs[i].lba == (i % kPages) * kPageSectors);
    REQUIRE(rs[i].sectors == kPageSectors);
    REQUIRE(rs[i].pid == 0);
  }
  SECTION("mixed-in reads and trims do not break the write sequence") {
    SynthSpec m = s;
    m.read_ratio = 0.25;
    m.trim_ratio = 0.25;
    const std::vector<Record> writes = only(generate_records(m), Op::kWrite);
    REQUIRE(writes.size() == m.writes);
    for (size_t i = 0; i < writes.size(); ++i) REQUIRE(writes[i].lba == (i % kPages) * kPageSectors);
  }
}

TEST_CASE("uniform writes are aligned and in range and evenly spread", "[workload][synth]") {
  constexpr uint64_t kPages = 1024;
  constexpr uint64_t kWrites = 1'000'000;
  SynthSpec s = spec_of(Pattern::kUniform, kPages, kWrites, 123);
  s.io_bytes = 8192;  // two 4K "pages" per request: alignment is to the io size
  const uint64_t slots = s.logical_bytes / s.io_bytes;
  std::vector<double> counts(slots, 0);
  struct Sink {
    std::vector<double>& counts;
    const SynthSpec& s;
    void append(const Record& r) {
      REQUIRE(is_op(r, Op::kWrite));
      REQUIRE(r.sectors == 16);
      REQUIRE(r.lba % 16 == 0);
      REQUIRE(r.lba * 512 + r.sectors * 512 <= s.logical_bytes);
      counts[r.lba / 16] += 1;
    }
  } sink{counts, s};
  generate(s, sink);
  // Chi-square over all slots: df = 511, limit mean + 6 sd.
  const double expected = static_cast<double>(kWrites) / static_cast<double>(slots);
  double stat = 0;
  for (const double c : counts) stat += (c - expected) * (c - expected) / expected;
  const double df = static_cast<double>(slots - 1);
  CHECK(stat < df + 6 * std::sqrt(2 * df));
  CHECK(*std::min_element(counts.begin(), counts.end()) > 0);
}

TEST_CASE("hotcold sends hot-writes of the writes to the first hot-space with tags", "[workload][synth]") {
  constexpr uint64_t kPages = 1000;
  constexpr uint64_t kWrites = 200'000;
  SynthSpec s = spec_of(Pattern::kHotCold, kPages, kWrites, 9);
  s.hot_space = 0.1;
  s.hot_writes = 0.9;
  const uint64_t hot_end = 100 * kPageSectors;
  uint64_t hot = 0;
  std::vector<uint64_t> hot_pages(100, 0);
  for (const Record& r : generate_records(s)) {
    REQUIRE(is_op(r, Op::kWrite));
    REQUIRE(r.lba < kPages * kPageSectors);
    if (r.lba < hot_end) {
      REQUIRE(r.pid == 0);
      ++hot;
      ++hot_pages[r.lba / kPageSectors];
    } else {
      REQUIRE(r.pid == 1);
    }
  }
  // sd of the fraction: sqrt(0.09 / 2e5) ~ 0.00067
  CHECK(static_cast<double>(hot) / kWrites == Approx(0.9).margin(0.004));
  // The hot region is used throughout, not just part of it.
  CHECK(*std::min_element(hot_pages.begin(), hot_pages.end()) > 1000);

  const ftlsim::trace::TraceMeta meta = ftlsim::workload::make_trace_meta(s);
  CHECK(meta.pid_names.at(0) == "hot");
  CHECK(meta.pid_names.at(1) == "cold");
  CHECK(meta.get("region.hot") == "0+800");
  CHECK(meta.get("region.cold") == "800+7200");
}

TEST_CASE("zipf trace: the most frequent page gets 1/H of the writes", "[workload][synth]") {
  constexpr uint64_t kPages = 50;
  constexpr uint64_t kWrites = 500'000;
  const double theta = GENERATE(0.99, 1.3);
  CAPTURE(theta);
  SynthSpec s = spec_of(Pattern::kZipf, kPages, kWrites, 77);
  s.theta = theta;
  std::vector<double> counts(kPages, 0);
  for (const Record& r : generate_records(s)) {
    REQUIRE(r.lba % kPageSectors == 0);
    REQUIRE(r.lba < kPages * kPageSectors);
    counts[r.lba / kPageSectors] += 1;
  }
  double h = 0;
  for (uint64_t k = 1; k <= kPages; ++k) h += std::pow(static_cast<double>(k), -theta);
  std::sort(counts.begin(), counts.end(), std::greater<>());
  // Ranks by observed frequency: the top few match k^-theta / H closely.
  for (uint64_t k = 1; k <= 5; ++k) {
    const double p = std::pow(static_cast<double>(k), -theta) / h;
    const double sd = std::sqrt(p * (1 - p) / kWrites);
    CAPTURE(k);
    CHECK(std::abs(counts[k - 1] / kWrites - p) < 6 * sd);
  }
  SECTION("hot pages are scattered, not the first pages of the space") {
    SynthSpec big = spec_of(Pattern::kZipf, 1 << 16, 200'000, 5);
    std::vector<uint32_t> c(1 << 16, 0);
    for (const Record& r : generate_records(big)) ++c[r.lba / kPageSectors];
    std::vector<uint32_t> order(c.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::partial_sort(order.begin(), order.begin() + 16, order.end(),
                      [&](uint32_t a, uint32_t b) { return c[a] > c[b]; });
    uint32_t in_first_sixteenth = 0;
    for (int i = 0; i < 16; ++i) in_first_sixteenth += order[i] < (1 << 12) ? 1 : 0;
    CHECK(in_first_sixteenth < 8);
  }
}

TEST_CASE("streams: each stream stays in its region and gets its share", "[workload][synth]") {
  constexpr uint64_t kPages = 1000;
  constexpr uint64_t kWrites = 300'000;
  const SynthSpec s = spec_of(Pattern::kStreams, kPages, kWrites, 4);
  // Space shares 0.05 / 0.25 / 0.7 of 1000 pages: [0,50) [50,300) [300,1000).
  const uint64_t bounds[] = {0, 50, 300, 1000};
  const double shares[] = {0.5, 0.3, 0.2};
  std::vector<uint64_t> per_stream(3, 0);
  for (const Record& r : generate_records(s)) {
    REQUIRE(r.pid < 3);
    const uint64_t page = r.lba / kPageSectors;
    REQUIRE(page >= bounds[r.pid]);
    REQUIRE(page < bounds[r.pid + 1]);
    ++per_stream[r.pid];
  }
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(static_cast<double>(per_stream[i]) / kWrites == Approx(shares[i]).margin(0.005));
  }
  const ftlsim::trace::TraceMeta meta = ftlsim::workload::make_trace_meta(s);
  CHECK(meta.pid_names.at(0) == "s0");
  CHECK(meta.pid_names.at(2) == "s2");
  CHECK(meta.get("streams") == "0.5:0.05,0.3:0.25,0.2:0.7");
  CHECK(meta.get("region.s1") == "400+2000");

  SECTION("a stream with write share 0 is never written") {
    SynthSpec z = s;
    z.streams = {{0.6, 0.5}, {0.4, 0.25}, {0.0, 0.25}};
    for (const Record& r : generate_records(z)) REQUIRE(r.pid != 2);
  }
}

TEST_CASE("fill covers the space once in order split at region boundaries", "[workload][synth]") {
  constexpr uint64_t kPages = 1000;
  SynthSpec s = spec_of(Pattern::kStreams, kPages, 5000, 3);
  s.fill = true;
  s.fill_io_bytes = 16 * kPage;  // 50, 250 and 700 pages are not multiples of 16
  const std::vector<Record> rs = generate_records(s);
  const uint64_t fill_n = ftlsim::workload::fill_request_count(s);
  // ceil(50/16) + ceil(250/16) + ceil(700/16) = 4 + 16 + 44
  REQUIRE(fill_n == 64);
  REQUIRE(rs.size() >= fill_n);
  const uint64_t bounds[] = {0, 50 * kPageSectors, 300 * kPageSectors, 1000 * kPageSectors};
  uint64_t next_lba = 0;
  for (uint64_t i = 0; i < fill_n; ++i) {
    const Record& r = rs[i];
    REQUIRE(is_op(r, Op::kWrite));
    REQUIRE(r.lba == next_lba);  // contiguous: every sector exactly once
    REQUIRE(r.sectors > 0);
    REQUIRE(r.sectors <= 16 * kPageSectors);
    REQUIRE(r.pid < 3);
    // Inside the region of its tag: never crosses a boundary.
    REQUIRE(r.lba >= bounds[r.pid]);
    REQUIRE(r.lba + r.sectors <= bounds[r.pid + 1]);
    // Shorter than fill-io only at a region's end.
    if (r.sectors < 16 * kPageSectors) REQUIRE(r.lba + r.sectors == bounds[r.pid + 1]);
    next_lba += r.sectors;
  }
  REQUIRE(next_lba == kPages * kPageSectors);

  // The measured part that follows is the same as without fill, shifted in time.
  SynthSpec nofill = s;
  nofill.fill = false;
  const std::vector<Record> measured = generate_records(nofill);
  REQUIRE(rs.size() == fill_n + measured.size());
  for (size_t i = 0; i < measured.size(); ++i) {
    Record shifted = measured[i];
    shifted.time_ns += fill_n * s.iat_ns;
    REQUIRE(same(rs[fill_n + i], shifted));
  }

  SECTION("single-region patterns fill with pid 0 in fill-io requests") {
    SynthSpec u = spec_of(Pattern::kUniform, 256, 0);
    u.fill = true;
    u.fill_io_bytes = 1 << 20;  // 256 pages of 4K = 1M: one request
    const std::vector<Record> f = generate_records(u);
    REQUIRE(f.size() == 1);
    CHECK(f[0].lba == 0);
    CHECK(f[0].sectors == 2048);
    CHECK(f[0].pid == 0);
  }
}

TEST_CASE("read and trim ratios", "[workload][synth]") {
  constexpr uint64_t kWrites = 140'000;
  SynthSpec s = spec_of(Pattern::kHotCold, 1000, kWrites, 21);
  s.read_ratio = 0.2;
  s.trim_ratio = 0.1;
  GenerateStats stats;
  const std::vector<Record> rs = [&] {
    ftlsim::workload::VectorSink sink;
    stats = generate(s, sink);
    return sink.records;
  }();
  const auto reads = only(rs, Op::kRead);
  const auto trims = only(rs, Op::kTrim);
  const auto writes = only(rs, Op::kWrite);
  CHECK(writes.size() == kWrites);  // --writes counts writes only
  CHECK(stats.writes == kWrites);
  CHECK(stats.reads == reads.size());
  CHECK(stats.trims == trims.size());
  const double total = static_cast<double>(rs.size());
  CHECK(static_cast<double>(reads.size()) / total == Approx(0.2).margin(0.005));
  CHECK(static_cast<double>(trims.size()) / total == Approx(0.1).margin(0.005));
  // Same distribution and tags: reads into the hot region ~ 0.9 and tagged.
  uint64_t hot_reads = 0;
  for (const Record& r : reads) {
    const bool hot = r.lba < 100 * kPageSectors;
    REQUIRE(r.pid == (hot ? 0 : 1));
    REQUIRE(r.sectors == kPageSectors);
    hot_reads += hot ? 1 : 0;
  }
  CHECK(static_cast<double>(hot_reads) / static_cast<double>(reads.size()) == Approx(0.9).margin(0.01));
}

TEST_CASE("markers follow every N-th measured write and carry the write count", "[workload][synth]") {
  SynthSpec s = spec_of(Pattern::kUniform, 512, 10'050, 8);
  s.marker_every = 1000;
  s.read_ratio = 0.1;
  s.fill = true;  // fill writes are not counted
  const std::vector<Record> rs = generate_records(s);
  const uint64_t fill_n = ftlsim::workload::fill_request_count(s);
  uint64_t writes = 0;
  uint64_t markers = 0;
  for (size_t i = fill_n; i < rs.size(); ++i) {
    const Record& r = rs[i];
    if (is_op(r, Op::kWrite)) {
      ++writes;
      if (writes % 1000 == 0) {
        REQUIRE(i + 1 < rs.size());
        REQUIRE(is_op(rs[i + 1], Op::kMarker));
      } else if (i + 1 < rs.size()) {
        REQUIRE_FALSE(is_op(rs[i + 1], Op::kMarker));
      }
    } else if (is_op(r, Op::kMarker)) {
      ++markers;
      REQUIRE(r.lba == markers * 1000);
      REQUIRE(r.lba == writes);
      REQUIRE(r.sectors == 0);
    }
  }
  CHECK(writes == 10'050);
  CHECK(markers == 10);
  for (uint64_t i = 0; i < fill_n; ++i) REQUIRE_FALSE(is_op(rs[i], Op::kMarker));
}

TEST_CASE("validation lists every problem", "[workload][synth]") {
  SECTION("a valid spec has none") {
    CHECK(spec_of(Pattern::kStreams, 1000, 10).problems().empty());
    CHECK_NOTHROW(spec_of(Pattern::kZipf, 1000, 10).validate());
  }
  SECTION("several problems at once") {
    SynthSpec s = spec_of(Pattern::kUniform, 10, 10);
    s.logical_bytes = 10 * kPage + 512;
    s.read_ratio = 1.5;
    s.trim_ratio = -0.1;
    s.fill = true;
    s.fill_io_bytes = 6000;
    const std::vector<Problem> p = s.problems();
    REQUIRE(p.size() == 4);
    CHECK(p[0].setting == "logical");
    CHECK(p[0].text() == "`logical` (41472) must be a multiple of `io-size` (4096)");
    try {
      s.validate();
      FAIL("validate() accepted an invalid spec");
    } catch (const InputError& e) {
      const std::string msg = e.what();
      CHECK_THAT(msg, Catch::Contains("`logical`"));
      CHECK_THAT(msg, Catch::Contains("`read-ratio`"));
      CHECK_THAT(msg, Catch::Contains("`trim-ratio`"));
      CHECK_THAT(msg, Catch::Contains("`fill-io`"));
    }
  }
  SECTION("sizes") {
    SynthSpec s = spec_of(Pattern::kUniform, 10, 10);
    s.logical_bytes = 0;
    CHECK(s.problems().size() == 1);
    s = spec_of(Pattern::kUniform, 10, 10);
    s.io_bytes = 1000;
    CHECK_THAT(s.problems().at(0).text(), Catch::Contains("multiple of 512"));
  }
  SECTION("no room for writes") {
    SynthSpec s = spec_of(Pattern::kUniform, 10, 10);
    s.read_ratio = 0.5;
    s.trim_ratio = 0.5;
    CHECK(s.problems().size() == 1);
  }
  SECTION("theta") {
    SynthSpec s = spec_of(Pattern::kZipf, 10, 10);
    s.theta = 0;
    CHECK(s.problems().size() == 1);
    s.theta = std::nan("");
    CHECK(s.problems().size() == 1);
    s.theta = 1.0;  // handled exactly
    CHECK(s.problems().empty());
    s.theta = 2.5;
    CHECK(s.problems().empty());
  }
  SECTION("hotcold") {
    SynthSpec s = spec_of(Pattern::kHotCold, 1000, 10);
    s.hot_space = 1.0;
    s.hot_writes = 1.1;
    CHECK(s.problems().size() == 2);
    s = spec_of(Pattern::kHotCold, 4, 10);
    s.hot_space = 0.01;  // rounds to 0 of 4 pages
    REQUIRE(s.problems().size() == 1);
    CHECK_THAT(s.problems()[0].text(), Catch::Contains("hot region gets no pages"));
  }
  SECTION("streams") {
    SynthSpec s = spec_of(Pattern::kStreams, 1000, 10);
    s.streams = {{0.5, 0.5}, {0.4, 0.5}};
    REQUIRE(s.problems().size() == 1);
    CHECK_THAT(s.problems()[0].text(), Catch::Contains("write shares sum"));
    s.streams = {{0.5, 0.5}, {0.5, 0.4}, {0.0, 0.0}};
    CHECK(s.problems().size() == 2);                       // space share 0, and space sum 0.9
    s.streams = {{0.5, 0.5 + 4e-10}, {0.5, 0.5 - 3e-10}};  // within 1e-9
    CHECK(s.problems().empty());
    s.streams.clear();
    CHECK(s.problems().size() == 1);
    s = spec_of(Pattern::kStreams, 10, 10);  // 5% of 10 pages rounds to 0 or 1
    s.streams = {{0.5, 0.01}, {0.5, 0.99}};
    CHECK_THAT(s.problems().at(0).text(), Catch::Contains("stream 0 gets no pages"));
  }
  SECTION("generate() validates too") {
    SynthSpec s = spec_of(Pattern::kUniform, 10, 10);
    s.io_bytes = 0;
    CHECK_THROWS_AS(generate_records(s), InputError);
  }
}

TEST_CASE("option parsers", "[workload][synth]") {
  using ftlsim::parse_count;
  using ftlsim::workload::parse_streams;
  CHECK(parse_count("250000") == 250000u);
  CHECK(parse_count("1e5") == 100'000u);
  CHECK(parse_count("1E6") == 1'000'000u);
  CHECK(parse_count("2e9") == 2'000'000'000u);
  CHECK(parse_count("400e3") == 400'000u);
  CHECK(parse_count("0") == 0u);
  CHECK(parse_count("0e19") == 0u);
  CHECK(parse_count("18446744073709551615") == UINT64_MAX);
  CHECK_FALSE(parse_count(""));
  CHECK_FALSE(parse_count("1e"));
  CHECK_FALSE(parse_count("e6"));
  CHECK_FALSE(parse_count("1e-3"));
  CHECK_FALSE(parse_count("1.5e6"));
  CHECK_FALSE(parse_count("2e19"));  // 2*10^19 > 2^64
  CHECK_FALSE(parse_count("1e20"));
  CHECK_FALSE(parse_count("-1"));
  // Size suffixes are not counts: "2G" is 2 GiB to every size option.
  CHECK_FALSE(parse_count("100K"));
  CHECK_FALSE(parse_count("1M"));
  CHECK_FALSE(parse_count("2g"));
  CHECK_FALSE(parse_count("1MB"));
  using ftlsim::workload::count_suffix;
  REQUIRE(count_suffix("2G"));
  CHECK(count_suffix("2G")->value == 2);
  CHECK(count_suffix("2G")->decimal_exponent == 9);
  CHECK(count_suffix("100k")->decimal_exponent == 3);
  CHECK(count_suffix("6M")->decimal_exponent == 6);
  CHECK(count_suffix("1t")->decimal_exponent == 12);
  CHECK_FALSE(count_suffix("2"));
  CHECK_FALSE(count_suffix("2GB"));
  CHECK_FALSE(count_suffix("G"));
  CHECK_FALSE(count_suffix("2X"));

  const auto st = parse_streams("0.5:0.05, 0.3:0.25,0.2:0.7");
  REQUIRE(st.size() == 3);
  CHECK(st[1].write_share == 0.3);
  CHECK(st[2].space_share == 0.7);
  CHECK_THROWS_AS(parse_streams("0.5:0.05,0.5"), InputError);
  CHECK_THROWS_AS(parse_streams(""), InputError);
  CHECK_THROWS_AS(parse_streams("a:b"), InputError);
  CHECK_THROWS_WITH(parse_streams("1:1,x"), Catch::Contains("entry 1"));
}

TEST_CASE("trace metadata records the generator and its parameters", "[workload][synth]") {
  SynthSpec s = spec_of(Pattern::kZipf, 262144, 1'000'000, 42);
  s.theta = 1.2;
  s.fill = true;
  s.marker_every = 5000;
  const ftlsim::trace::TraceMeta meta = ftlsim::workload::make_trace_meta(s);
  CHECK(meta.sector_bytes == 512);
  CHECK(meta.get("source") == "ftlsim gen");
  CHECK(meta.get("pattern") == "zipf");
  CHECK(meta.get("seed") == "42");
  CHECK(meta.get("theta") == "1.2");
  CHECK(meta.get("logical_bytes") == "1073741824");
  CHECK(meta.get("writes") == "1000000");
  CHECK(meta.get("markers") == "5000");
  CHECK(meta.get("fill_records") == "1024");
  CHECK(meta.get("generator") ==
        "ftlsim gen --pattern zipf --logical 1G --io-size 4K --writes 1000000 --iat 10us --seed 42"
        " --theta 1.2 --fill --fill-io 1M --markers 5000");
  CHECK(meta.pid_names.empty());
}

TEST_CASE("a counting sink sees the same stream as the vector sink", "[workload][synth]") {
  SynthSpec s = spec_of(Pattern::kStreams, 1000, 20'000, 6);
  s.fill = true;
  s.marker_every = 333;
  CountingSink counter;
  const GenerateStats stats = generate(s, counter);
  const std::vector<Record> rs = generate_records(s);
  uint64_t lba_sum = 0;
  for (const Record& r : rs) lba_sum += r.lba;
  CHECK(counter.n == rs.size());
  CHECK(stats.total() == rs.size());
  CHECK(counter.lba_sum == lba_sum);
  CHECK(stats.markers == 20'000 / 333);
}

TEST_CASE("gen bounds: the expected record count and the writer's record limit", "[workload][unit]") {
  SynthSpec s = spec_of(Pattern::kUniform, 1024, 1000);
  s.fill = true;
  s.fill_io_bytes = 64 * kPage;  // 16 fill requests
  s.read_ratio = 0.5;
  s.trim_ratio = 0.25;
  s.marker_every = 100;
  // 16 fill + 1000 / (1 - 0.75) measured + 10 markers.
  CHECK(ftlsim::workload::expected_record_count(s) == Approx(16 + 4000 + 10));
  s.read_ratio = 0.999999999999;
  s.trim_ratio = 0;
  s.writes = 10;
  CHECK(ftlsim::workload::expected_record_count(s) == Approx(1e13).epsilon(1e-3));

  // write_ftr stops at max_records and leaves no file.
  const std::string path = std::string(FTLSIM_TEST_TMP) + "/bounded-" + std::to_string(::getpid()) + ".ftr";
  std::filesystem::create_directories(FTLSIM_TEST_TMP);
  const SynthSpec small = spec_of(Pattern::kUniform, 1024, 500);
  CHECK_THROWS_WITH(ftlsim::workload::write_ftr(small, path, ftlsim::Existing::kReplace, 499),
                    Catch::Contains("gen stopped after 499 records"));
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK(ftlsim::workload::write_ftr(small, path, ftlsim::Existing::kReplace, 500).total() == 500);
  CHECK(std::filesystem::exists(path));
  std::filesystem::remove(path);
}
