#pragma once
// Shared by the fuzz targets: what must hold for ANY input a parser is given.
//
// A parser either refuses the input with an InputError whose message is one
// printable line, or returns records that the .ftr reader would accept and
// whose counts agree with its summary. Anything else (another exception, a
// sanitizer report, a failed check here) is a finding: FUZZ_CHECK prints
// what broke and aborts, which libFuzzer and the replay runner both report.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "trace/ftr_reader.h"
#include "trace/import/import.h"
#include "trace/record.h"

namespace ftlsim::fuzz {

[[noreturn]] inline void fail(const char* file, int line, const char* what, const std::string& detail) {
  std::fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed: %s\n", file, line, what, detail.c_str());
  std::abort();
}

#define FUZZ_CHECK(cond, detail)                                            \
  do {                                                                      \
    if (!(cond)) ::ftlsim::fuzz::fail(__FILE__, __LINE__, #cond, (detail)); \
  } while (false)

// The one-line rule for error messages: non-empty, no line breaks or other
// control characters (a tab is allowed), short enough for a terminal line
// or two. Input bytes reach messages only through scan::quote().
inline void check_message(std::string_view msg) {
  FUZZ_CHECK(!msg.empty(), "empty error message");
  FUZZ_CHECK(msg.size() <= 600,
             "message of " + std::to_string(msg.size()) + " bytes: " + std::string(msg.substr(0, 200)));
  for (const char c : msg) {
    const auto u = static_cast<unsigned char>(c);
    FUZZ_CHECK(u >= 0x20 || c == '\t', "control byte " + std::to_string(u) + " in message: " + std::string(msg));
    FUZZ_CHECK(u != 0x7f, "DEL in message: " + std::string(msg));
  }
}

// The line number in "<source>: line N: ..." (a binary format's "record N"),
// or 0 when the message does not start that way (option errors, whole-file
// errors).
inline uint64_t message_line(std::string_view msg, std::string_view source) {
  std::string prefix = std::string(source) + ": line ";
  if (msg.substr(0, prefix.size()) != prefix) prefix = std::string(source) + ": record ";
  if (msg.substr(0, prefix.size()) != prefix) return 0;
  uint64_t n = 0;
  for (size_t i = prefix.size(); i < msg.size() && msg[i] >= '0' && msg[i] <= '9'; ++i) {
    n = n * 10 + static_cast<uint64_t>(msg[i] - '0');
  }
  return n;
}

inline void check_records(const trace::ParsedTrace& t, const trace::ImportOptions& o, bool rebased) {
  const trace::ImportSummary& s = t.summary;
  FUZZ_CHECK(s.records == t.records.size(),
             "summary.records " + std::to_string(s.records) + " vs " + std::to_string(t.records.size()) + " records");
  uint64_t per_op = 0;
  for (const uint64_t n : s.ops) per_op += n;
  FUZZ_CHECK(per_op == s.records, "per-op counts do not add up to the record count");
  FUZZ_CHECK(s.bad_lines <= o.skip_bad, "more bad lines skipped than --skip-bad allows");
  FUZZ_CHECK(s.lines >= s.records + s.bad_lines, "fewer lines than records + bad lines");
  FUZZ_CHECK((s.bad_lines == 0) == (s.first_bad_line == 0), "first_bad_line disagrees with bad_lines");
  for (size_t i = 0; i < t.records.size(); ++i) {
    const trace::Record& r = t.records[i];
    FUZZ_CHECK(trace::record_ok(r), "record " + std::to_string(i) + ": " + trace::check_record(r));
    FUZZ_CHECK(trace::check_record(r).empty(), "record_ok and check_record disagree");
    // Only csv has a marker op (its `marker` value); the sidecar is not fuzzed here.
    FUZZ_CHECK(r.op != static_cast<uint8_t>(trace::Op::kMarker) || o.format == trace::TextFormat::kCsv,
               "a text importer produced a marker");
    FUZZ_CHECK(r.flags == 0, "reserved flags set");
  }
  if (rebased && !t.records.empty()) {
    FUZZ_CHECK(t.records[0].time_ns == 0, "first record of a rebased format is not at time 0");
  }
}

// Imports `text` skipping every malformed line, then (only where it can
// differ) stopping at the first one, and checks both runs and that they
// agree: a text with no malformed line imports the same either way (the
// lenient run shows there is none), and the strict run refuses exactly the
// first line the lenient run skipped. Returns the lenient result, or
// nothing when the input was refused as a whole.
inline std::optional<trace::ParsedTrace> check_import(std::string_view text, trace::ImportOptions o, bool rebased) {
  static const std::string kSource = "fuzz.txt";
  o.skip_bad = uint64_t{1} << 40;
  std::optional<trace::ParsedTrace> lenient;
  try {
    lenient = trace::parse_text_trace(text, kSource, o);
    check_records(*lenient, o, rebased);
  } catch (const InputError& e) {
    check_message(e.what());
    // Errors no skipping helps (options, a header without a column) refuse
    // the strict run as well.
    o.skip_bad = 0;
    try {
      (void)trace::parse_text_trace(text, kSource, o);
      FUZZ_CHECK(false, std::string("refused only with --skip-bad: ") + e.what());
    } catch (const InputError& strict) {
      check_message(strict.what());
    }
    return std::nullopt;
  }
  if (lenient->summary.bad_lines == 0) return lenient;
  o.skip_bad = 0;
  try {
    (void)trace::parse_text_trace(text, kSource, o);
    FUZZ_CHECK(false, "line " + std::to_string(lenient->summary.first_bad_line) +
                          " was skipped as malformed, but the strict import accepted the text");
  } catch (const InputError& e) {
    check_message(e.what());
    const uint64_t line = message_line(e.what(), kSource);
    FUZZ_CHECK(line == lenient->summary.first_bad_line, "the first skipped line is " +
                                                            std::to_string(lenient->summary.first_bad_line) +
                                                            " but the strict import says: " + e.what());
  }
  return lenient;
}

}  // namespace ftlsim::fuzz
