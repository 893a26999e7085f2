// Marker sidecars merged by the importers (`convert --markers`): markers
// land between the requests their times fall between, on the block trace's
// rebased clock, with --hint-offset shifting the clocks; malformed sidecars
// are refused with the line named.
#include <catch2/catch.hpp>

#include "test_util.h"
#include "trace/import/import.h"
#include "trace/import/marker_sidecar.h"

using namespace ftlsim::trace;
using namespace ftlsim::trace::test;
using Catch::Contains;

TEST_CASE("marker sidecar: markers between the requests their times fall between", "[trace][unit][markers]") {
  TempDir dir;
  // small.ftrace's D events are at 1234.5679, 1234.6, 1234.7, 1234.8 and
  // 1235.0 s (CLOCK_MONOTONIC); times are rebased to the first.
  write_bytes(dir.file("m.txt"),
              "# ethstate markers v1: <t_ns CLOCK_MONOTONIC> <block>\n"
              "1234500000000 1\n"  // before the first request: time 0
              "1234600000000 2\n"  // equal to the read's time: placed before it
              "\n"
              "1234700000000 3\n"    // before the write at 1234.7
              "1234900000000 4\n"    // between the flush and the trim
              "1300000000000 5\n");  // after the last request: appended
  ImportOptions o = options_for(TextFormat::kFtraceBlk);
  o.markers = dir.file("m.txt");
  const ParsedTrace p = parse_text_trace(read_bytes(fixture("small.ftrace")), "mem", o);
  CHECK_RECORDS(p.records, {rec(0, Op::kMarker, 1, 0), rec(0, Op::kWrite, 2048, 8), rec(32'100'000, Op::kMarker, 2, 0),
                            rec(32'100'000, Op::kRead, 100, 16), rec(132'100'000, Op::kMarker, 3, 0),
                            rec(132'100'000, Op::kWrite, 4096, 64), rec(232'100'000, Op::kFlush, 0, 0),
                            rec(332'100'000, Op::kMarker, 4, 0), rec(432'100'000, Op::kTrim, 5000, 100),
                            rec(65'432'100'000, Op::kMarker, 5, 0)});
  CHECK(p.summary.markers == 5);
  CHECK(p.summary.markers_before_first == 1);
  CHECK(p.summary.markers_after_last == 1);
  CHECK(p.summary.ops[static_cast<size_t>(Op::kMarker)] == 5);
  CHECK(p.summary.records == 10);
  CHECK(p.meta.get("markers_file") == "m.txt");

  // A sidecar on a clock one second ahead of the block trace's.
  write_bytes(dir.file("ahead.txt"), "1235600000000 7\n");
  o.markers = dir.file("ahead.txt");
  o.markers_offset_ns = 1'000'000'000;
  const ParsedTrace a = parse_text_trace(read_bytes(fixture("small.ftrace")), "mem", o);
  REQUIRE(a.records.size() == 6);
  CHECK_RECORDS(std::vector<Record>(a.records.begin() + 1, a.records.begin() + 2),
                {rec(32'100'000, Op::kMarker, 7, 0)});
  CHECK(a.meta.get("markers_offset_ns") == "1000000000");
}

TEST_CASE("marker sidecar: formats without rebasing keep the sidecar's times", "[trace][unit][markers]") {
  TempDir dir;
  write_bytes(dir.file("m.txt"), "2000 7\n5000 8\n");
  ImportOptions o = options_for(TextFormat::kDiskSim);
  o.markers = dir.file("m.txt");
  // DiskSim/MQSim arrival times are in ns: requests at 1000 and 3000 ns.
  const ParsedTrace p = parse_text_trace("1000 0 8 8 0\n3000 0 16 8 0\n", "mem", o);
  REQUIRE(p.records.size() == 4);
  CHECK(p.records[1].op == static_cast<uint8_t>(Op::kMarker));
  CHECK(p.records[1].time_ns == 2000);
  CHECK(p.records[3].time_ns == 5000);
}

TEST_CASE("marker sidecar: malformed or unordered lines are refused with the line", "[trace][unit][markers]") {
  CHECK(parse_marker_sidecar("# header\n10 1\n\n20 2\n", "s").size() == 2);
  const auto error_of = [](const std::string& text) {
    try {
      (void)parse_marker_sidecar(text, "side.txt");
    } catch (const ftlsim::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(error_of("10 1\n20\n"), Contains("side.txt: line 2: expected '<time_ns> <value>'"));
  CHECK_THAT(error_of("10 1 9\n"), Contains("side.txt: line 1: expected"));
  CHECK_THAT(error_of("x 1\n"), Contains("side.txt: line 1: time_ns 'x' is not a decimal integer"));
  CHECK_THAT(error_of("10 -1\n"), Contains("side.txt: line 1: value '-1' is negative"));
  CHECK_THAT(error_of("20 1\n10 2\n"), Contains("side.txt: line 2: time 10 ns is earlier than the line before"));
  CHECK_THROWS_AS(load_marker_sidecar("/nonexistent/ftlsim-markers"), ftlsim::InputError);
}
