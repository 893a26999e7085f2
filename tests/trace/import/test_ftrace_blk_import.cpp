// ftrace-blk import: the kernel blk tracer's trace_pipe text (task names with
// blanks and dashes, optional flags and tgid columns, headers, lost events),
// the block_* trace events, --action, and malformed lines.
#include <catch2/catch.hpp>

#include "test_util.h"
#include "trace/import/import.h"

using namespace ftlsim::trace;
using namespace ftlsim::trace::test;
using Catch::Contains;

namespace {

ImportOptions ftrace(BlkAction action = BlkAction::kIssue) {
  ImportOptions o = options_for(TextFormat::kFtraceBlk);
  o.action = action;
  return o;
}

}  // namespace

TEST_CASE("ftrace-blk: D events with times from the first record", "[trace][unit][ftrace]") {
  const ParsedTrace p = parse_text_trace(read_bytes(fixture("small.ftrace")), "small.ftrace", ftrace());
  // Times relative to 1234.567900 s, the first D event.
  CHECK_RECORDS(p.records, {rec(0, Op::kWrite, 2048, 8), rec(32'100'000, Op::kRead, 100, 16),
                            rec(132'100'000, Op::kWrite, 4096, 64),  // no flags column
                            rec(232'100'000, Op::kFlush, 0, 0),      // tgid column, "FN"
                            rec(432'100'000, Op::kTrim, 5000, 100)});
  CHECK(p.summary.lines == 21);
  CHECK(p.summary.header_lines == 12);
  CHECK(p.summary.lost_events == 17);
  CHECK(p.summary.other_actions == 3);  // Q, C and the m message
  CHECK(p.summary.bad_lines == 0);
  CHECK(p.summary.before_first == 0);
  CHECK(p.meta.get("source") == "ftrace-blk");
  std::string crlf;
  for (const char c : read_bytes(fixture("small.ftrace"))) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  CHECK(parse_text_trace(crlf, "mem", ftrace()).records.size() == 5);

  ImportOptions dev = ftrace();
  dev.device = "7,0";
  const ParsedTrace d = parse_text_trace(read_bytes(fixture("small.ftrace")), "mem", dev);
  CHECK(d.records.size() == 4);
  CHECK(d.summary.filtered == 1);

  CHECK_RECORDS(parse_text_trace(read_bytes(fixture("small.ftrace")), "mem", ftrace(BlkAction::kQueue)).records,
                {rec(0, Op::kWrite, 2048, 8)});
  CHECK_RECORDS(parse_text_trace(read_bytes(fixture("small.ftrace")), "mem", ftrace(BlkAction::kComplete)).records,
                {rec(0, Op::kWrite, 2048, 8)});
}

TEST_CASE("ftrace-blk: task names split at the last dash, pid map by name, pid and LBA", "[trace][unit][ftrace]") {
  ImportOptions o = ftrace();
  o.placement.pid_map = fixture("small.pidmap");
  const ParsedTrace p = parse_text_trace(read_bytes(fixture("small.ftrace")), "mem", o);
  // kworker/u4:2 by prefix (2), pid 1234 (3), postgres by name over its LBA
  // range (1), jbd2 by default (9), fio's sector 5000 by range (5).
  CHECK_RECORDS(p.records, {rec(0, Op::kWrite, 2048, 8, 2), rec(32'100'000, Op::kRead, 100, 16, 3),
                            rec(132'100'000, Op::kWrite, 4096, 64, 1), rec(232'100'000, Op::kFlush, 0, 0, 9),
                            rec(432'100'000, Op::kTrim, 5000, 100, 5)});
  CHECK(p.summary.map_matched == 4);
  CHECK(p.summary.map_unmatched == 1);
  CHECK(p.meta.pid_names == std::map<PlacementId, std::string>{{1, "wal"}, {3, "browser"}});
  CHECK(p.meta.get("pid_map") == "small.pidmap");

  // The pid in TASK-PID, not the bracketed name, for a rule by pid.
  TempDir dir;
  write_bytes(dir.file("m"), "pid:777=6\npid:55=7\n");
  o.placement.pid_map = dir.file("m");
  const ParsedTrace q = parse_text_trace(read_bytes(fixture("small.ftrace")), "mem", o);
  REQUIRE(q.records.size() == 5);
  CHECK(q.records[0].pid == 7);
  CHECK(q.records[2].pid == 6);
  CHECK(q.records[1].pid == 0);
}

TEST_CASE("ftrace-blk: block_* trace events and blk_cgroup columns", "[trace][unit][ftrace]") {
  const std::string events =
      "             fio-900     [001] ..... 100.000000: block_bio_queue: 259,0 WS 4096 + 8 [fio]\n"
      "             fio-900     [001] ..... 100.000010: block_getrq: 259,0 WS 4096 + 8 [fio]\n"
      "             fio-900     [001] ..... 100.000020: block_rq_issue: 259,0 WS 4096 () 4096 + 8 be,0,4 [fio]\n"
      "          <idle>-0       [001] d.h1. 100.000100: block_rq_complete: 259,0 WS () 4096 + 8 be,0,4 [0]\n"
      "             fio-900     [001] ..... 100.000200: block_rq_issue: 259,0 FF 0 () 0 + 0 none,0,0 [fio]\n";
  const ParsedTrace d = parse_text_trace(events, "mem", ftrace());
  CHECK_RECORDS(d.records, {rec(0, Op::kWrite, 4096, 8), rec(180'000, Op::kFlush, 0, 0)});
  CHECK(d.summary.other_actions == 3);
  CHECK(parse_text_trace(events, "mem", ftrace(BlkAction::kQueue)).records.size() == 1);
  CHECK(parse_text_trace(events, "mem", ftrace(BlkAction::kComplete)).records.size() == 1);

  const std::string cgroups =
      "  fio-1 [001] ..... 1.0: 7,0 /user.slice D W 0 + 8 [fio]\n"
      "  fio-1 [001] ..... 2.0: 7,0 1f,0 D R 8 + 8 [fio]\n";
  CHECK_RECORDS(parse_text_trace(cgroups, "mem", ftrace()).records,
                {rec(0, Op::kWrite, 0, 8), rec(1'000'000'000, Op::kRead, 8, 8)});
}

TEST_CASE("ftrace-blk: records before the first one are written at time 0", "[trace][unit][ftrace]") {
  const std::string text =
      "  a-1 [000] ..... 10.000000: 7,0 D W 0 + 8 [a]\n"
      "  a-1 [000] ..... 9.500000: 7,0 D W 8 + 8 [a]\n"
      "  a-1 [000] ..... 10.250000: 7,0 D W 16 + 8 [a]\n";
  const ParsedTrace p = parse_text_trace(text, "mem", ftrace());
  CHECK_RECORDS(p.records, {rec(0, Op::kWrite, 0, 8), rec(0, Op::kWrite, 8, 8), rec(250'000'000, Op::kWrite, 16, 8)});
  CHECK(p.summary.before_first == 1);
  CHECK(p.summary.backwards_timestamps == 1);
}

TEST_CASE("ftrace-blk: malformed lines name their line number", "[trace][unit][ftrace]") {
  const std::string prefix =
      "# tracer: blk\n"
      "  fio-1 [001] ..... 1.0: 7,0 D W 0 + 8 [fio]\n";  // the bad line is line 3
  const std::pair<std::string, std::string> cases[] = {
      {"garbage", "mem: line 3: no [CPU] column"},
      {"  fio [001] ..... 1.0: 7,0 D W 0 + 8 [fio]", "expected TASK-PID before [CPU], found 'fio'"},
      {"  fio-x [001] ..... 1.0: 7,0 D W 0 + 8 [fio]", "pid 'x' is not a decimal integer"},
      {"  fio-1 [001] ..... 1.0 7,0 D W 0 + 8 [fio]", "expected the timestamp followed by ':'"},
      {"  fio-1 [001] ..... abc: 7,0 D W 0 + 8 [fio]", "time 'abc' is not a decimal integer"},
      {"  fio-1 [001] ..... -1.0: 7,0 D W 0 + 8 [fio]", "time '-1' is negative"},
      {"  fio-1 [001] ..... 1.0: 7-0 D W 0 + 8 [fio]", "device '7-0' is not MAJ,MIN"},
      {"  fio-1 [001] ..... 1.0: 7,0", "the action is missing"},
      {"  fio-1 [001] ..... 1.0: 7,0 D", "RWBS is missing"},
      {"  fio-1 [001] ..... 1.0: 7,0 D Y 0 + 8 [fio]", "RWBS 'Y' has no operation letter"},
      {"  fio-1 [001] ..... 1.0: 7,0 D W 0 + 8 [fio", "does not end in ']' (truncated?)"},
      {"  fio-1 [001] ..... 1.0: 7,0 D W 0 + 99999999999 [fio]", "length '99999999999' does not fit in 32 bits"},
      {"  fio-1 [001] ..... 1.0: sched_switch: prev_comm=x", "event 'sched_switch' is neither blk tracer output"},
      {"CPU:1 something", "no [CPU] column"},
      {"CPU:1 [LOST x EVENTS]", "lost event count 'x' is not a decimal integer"},
      {"  fio-1 [001] ..... 1.0: 7,0 D W 0 + 8 [fio]" + std::string(4100, 'x') + "]", "line is"},
  };
  for (const auto& [line, expected] : cases) {
    INFO("line: " << line.substr(0, 80));
    CHECK_THAT(import_error(prefix + line + "\n" + prefix, ftrace()), Contains(expected));
    CHECK_THAT(import_error(prefix + line, ftrace()), Contains(expected) && Contains("mem: line 3: "));
  }
}
