#pragma once
// Importer for DiskSim / MQSim ASCII traces, one request per line:
//
//   arrival_ns  device  lba_sector  size_sectors  type
//
// type 0 is a write, 1 a read; sectors are 512 bytes. This is what MQSim's
// IO_Flow_Trace_Based reads with <Time_Unit>NANOSECOND</Time_Unit>. DiskSim's
// own ASCII traces (time in ms as a decimal, hex flags) are not this form:
// they convert through the csv importer (docs/trace_format.md, disksim).
// Accepted beyond MQSim's own files: any run of spaces/tabs between and
// around the columns, CRLF line ends, a last line without '\n', blank lines,
// and comment lines whose first non-blank character is '#'. Everything else is
// a malformed line: a wrong column count, a column that is not a decimal
// integer in range, a zero size, a type other than 0/1, lba + size beyond
// 64 bits, a line longer than kDiskSimMaxLineBytes (looked for no further).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/import/text_scan.h"
#include "trace/record.h"

namespace ftlsim::trace {

struct DiskSimOptions {
  // Keep only requests for this device number; default: every device.
  std::optional<uint32_t> device;
  // Malformed lines tolerated (skipped and counted) before the next one
  // throws; default 0: the first malformed line throws.
  uint64_t skip_bad = 0;
  // Placement ID given to every record; default 0 (untagged).
  PlacementId pid = 0;
};

// What a parse saw. Counts cover the lines consumed so far.
struct DiskSimSummary {
  uint64_t lines = 0;                 // lines read, blank and comment lines included
  uint64_t records = 0;               // records produced
  uint64_t bad_lines = 0;             // malformed lines skipped (<= skip_bad)
  uint64_t filtered = 0;              // well-formed requests for another device
  uint64_t backwards_timestamps = 0;  // records whose time is below the previous record's
  uint64_t first_bad_line = 0;        // 1-based; 0 when bad_lines == 0
  std::string first_bad_reason;       // why first_bad_line was skipped
};

inline constexpr size_t kDiskSimMaxLineBytes = 4096;  // scan::kMaxLineBytes, every text input's limit

// Classifies one line (without its '\n'): a request (fills `out`, with pid
// 0, and `device`), a line to skip (blank or comment), or a malformed line
// (fills `why`, the only case that allocates). Shared with the generic
// importer driver (trace/import/import.h).
enum class DiskSimLine { kRequest, kSkip, kBad };
DiskSimLine parse_disksim_line(std::string_view line, Record& out, uint32_t& device, std::string& why);

// Streaming parser over text already in memory (a mapped file or a string).
// Records come out in file order, timestamps unchanged (sorted input is not
// required). Malformed lines throw InputError("<source>: line N: <what>"),
// N 1-based, once more than options.skip_bad of them have been seen.
// REQUIRES: `text` outlives the parser.
class DiskSimParser {
 public:
  DiskSimParser(std::string_view text, std::string source_name, const DiskSimOptions& options);

  // Stores the next record in `out` and returns true, or returns false at
  // the end of the text.
  bool next(Record& out);
  [[nodiscard]] const DiskSimSummary& summary() const { return summary_; }

 private:
  scan::LineCursor cursor_;  // over the text
  std::string source_;
  DiskSimOptions options_;
  DiskSimSummary summary_;
  uint64_t last_time_ = 0;
};

struct DiskSimParsed {
  std::vector<Record> records;
  DiskSimSummary summary;
};

// Parses a whole text into memory: for tests and fuzzing. `source_name`
// prefixes error messages.
[[nodiscard]] DiskSimParsed parse_disksim(std::string_view text, const std::string& source_name,
                                          const DiskSimOptions& options = {});

struct ImportResult {
  DiskSimSummary summary;
  uint64_t records_written = 0;
};

// Converts the DiskSim/MQSim file `in` into the .ftr file `out` (written
// atomically; replaced if it exists: refusing is the caller's choice). Header
// metadata: source=disksim, source_file=<basename of in>, converted_by=ftlsim
// convert, and device=<D> when filtering. Throws InputError for malformed
// input, SystemError for I/O failures; on any throw `out` is left untouched.
ImportResult import_disksim(const std::string& in, const std::string& out, const DiskSimOptions& options = {});

}  // namespace ftlsim::trace
