#pragma once
// Importers for text block traces, all behind one entry point:
//
//   disksim     DiskSim/MQSim ASCII (also trace/import/disksim_import.h)
//   blkparse    blkparse's default output, or a documented -f format
//   ftrace-blk  the kernel's blk tracer read from /sys/kernel/tracing/trace_pipe
//   msr         MSR Cambridge CSV (FILETIME timestamps, byte offsets)
//   alibaba     Alibaba block traces (device_id,opcode,offset,length,timestamp_us)
//   tencent     Tencent CBS (timestamp_s,offset,size,iotype,volume; sectors)
//   csv         any CSV with a header, mapped by --columns / --op-map
//   blktrace    blktrace's binary per-CPU files (struct blk_io_trace records)
//
// Placement IDs come from one source per import: a constant, a pid map
// (process name, process id, LBA range), or a write-hint log joined by
// device, sector and time. docs/trace_format.md, "Importing text traces",
// is the reference for every format, option and message.
//
// Text is parsed in place (mapped file, std::string_view, std::from_chars),
// without allocating per line. A malformed line throws
// InputError("<file>: line N: <what>") once more than `skip_bad` lines were
// malformed; converting to a file leaves nothing behind on any throw.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/atomic_file.h"
#include "core/io_units.h"
#include "core/progress_line.h"
#include "trace/record.h"
#include "trace/trace_meta.h"
#include "trace/trace_rate.h"

namespace ftlsim::trace {

enum class TextFormat : uint8_t { kDiskSim, kBlkparse, kFtraceBlk, kMsr, kAlibaba, kTencent, kCsv, kBlktrace };
inline constexpr size_t kTextFormatCount = 8;

// The --from name of a format ("blkparse", "ftrace-blk", ...).
[[nodiscard]] std::string_view format_name(TextFormat format);

// Which blktrace event becomes a record (blkparse, ftrace-blk, blktrace): a request is
// queued (Q), issued to the driver (D) and completed (C); importing one kind
// counts each request once.
enum class BlkAction : char { kQueue = 'Q', kIssue = 'D', kComplete = 'C' };

// Which hint-log column becomes the placement ID.
enum class HintField : uint8_t { kHint, kStream };

struct CsvOptions {
  // --columns: comma-separated FIELD=COLUMN[:UNIT]. Empty: the input must
  // be `ftlsim dump`'s CSV (its first line trace/dump_csv.h's header), read
  // with dump's columns and its times kept. FIELD is time, lba,
  // length, op, pid or device; COLUMN a header name or #N (1-based). Units:
  // time s|ms|us|ns (default ns, decimals allowed), lba and length
  // sectors|bytes|4k (default sectors). lba and length are required.
  std::string columns;
  // --op-map: comma-separated VALUE=OP, OP one of write, read, trim, flush,
  // skip; VALUE compared case-insensitively. Empty: the default map
  // (W/Write -> write, R/Read -> read, T/Trim/D/Discard -> trim,
  // F/Flush -> flush). Without an op column every request is a write.
  std::string op_map;
  char separator = ',';
  bool header = true;  // false: the first line is data (columns only as #N)
};

struct PlacementOptions {
  // Exactly one source: `pid_map`, `hints`, or else the constant `pid`.
  PlacementId pid = 0;
  std::string pid_map;  // file of comm:/pid:/lba:/name:/default= lines
  std::string hints;    // write-hint log (CSV, time_ns,dev,sector,sectors,hint,stream,...)
  // Hint values to placement IDs, "2=1,3=2"; values not listed map to
  // themselves. Only with `hints`.
  std::string hint_map;
  HintField hint_field = HintField::kHint;
  uint64_t hint_tolerance_ns = kNsPerSecond;  // farthest a matching hint may be in time
  // Added to the block trace's times before the join, for a block trace
  // whose clock starts at 0 (blkparse) while the hint log's is the kernel's.
  int64_t hint_offset_ns = 0;
  // Names for the trace's ID table; override names from the pid map.
  std::map<PlacementId, std::string> names;
};

struct ImportOptions {
  TextFormat format = TextFormat::kDiskSim;
  // Malformed lines tolerated (skipped, counted) before the next one throws.
  uint64_t skip_bad = 0;
  // Keep only this device; "" keeps all. blkparse, ftrace-blk: MAJ,MIN or
  // MAJ:MIN; msr: DiskNumber; alibaba: device_id; tencent: VolumeID;
  // disksim: device; csv: the device column.
  std::string device;
  // An input with requests for several devices is refused unless `device`
  // keeps one or this puts them all in one address space (their LBAs
  // overlap as they are; the header's `devices` key lists them).
  bool merge_devices = false;
  BlkAction action = BlkAction::kIssue;  // blkparse, ftrace-blk
  // blkparse: the -f format the text was printed with; "" = default output.
  std::string blk_format;
  CsvOptions csv;
  PlacementOptions placement;
  // A marker sidecar (trace/import/marker_sidecar.h) merged into the trace as marker
  // records, in time order; "" for none. The block trace's source times plus
  // `markers_offset_ns` are on the sidecar's clock (0 for ftrace-blk with
  // trace_clock=mono and a CLOCK_MONOTONIC sidecar). A marker's record time is
  // rebased like the records' (formats whose times count from boot start at
  // the first record); a marker before the first record gets time 0.
  std::string markers;
  int64_t markers_offset_ns = 0;
  // Formats whose times count from the first record (all but disksim and
  // blkparse): write the source times as they are instead, so a CSV from
  // `ftlsim dump` converts back to the records it came from.
  bool keep_time = false;
  // Appended to the header metadata after the importer's own keys.
  std::vector<std::pair<std::string, std::string>> meta;
  // When set, the input bytes parsed are set on it every kProgressBatch
  // lines and at the end (core/progress_line.h).
  ProgressLine* progress = nullptr;
};

// What an import saw. Every count covers the lines read so far.
struct ImportSummary {
  uint64_t lines = 0;           // lines read, blank and comment lines included
  uint64_t records = 0;         // records produced
  uint64_t ops[kOpCount] = {};  // records per Op
  uint64_t bad_lines = 0;       // malformed lines skipped (<= skip_bad)
  uint64_t first_bad_line = 0;  // 1-based; 0 when bad_lines == 0
  std::string first_bad_reason;
  uint64_t filtered = 0;              // requests for another device
  uint64_t header_lines = 0;          // CSV header lines, ftrace '#' lines
  uint64_t other_actions = 0;         // blk: events of another action than the one imported
  uint64_t no_data = 0;               // blk: RWBS N, passthrough, or zero length and not a flush
  uint64_t skipped_ops = 0;           // csv: values mapped to skip
  bool dump_columns = false;          // csv: read with `ftlsim dump`'s columns and times (no columns given)
  uint64_t summary_lines = 0;         // blkparse: lines of the trailing statistics block
  uint64_t lost_events = 0;           // ftrace-blk: events the kernel reported lost (saturates at 2^64-1)
  uint64_t unaligned = 0;             // byte formats: requests widened to whole 512-byte sectors
  uint64_t backwards_timestamps = 0;  // records whose source time is below the previous one's
  uint64_t before_first = 0;          // rebased formats: records earlier than the first (written at 0)
  uint64_t markers = 0;               // marker records merged from the sidecar (also in ops[kMarker])
  uint64_t markers_before_first = 0;  // of those, earlier than the first request
  uint64_t markers_after_last = 0;    // of those, later than the last request (appended at the end)
  // Placement.
  uint64_t map_matched = 0;  // records a pid-map rule (not the default) placed
  uint64_t map_unmatched = 0;
  uint64_t hint_rows = 0;             // hint-log rows indexed
  uint64_t hint_bad_lines = 0;        // malformed hint-log lines skipped
  uint64_t hint_matched = 0;          // writes that found a hint
  uint64_t hint_unmatched = 0;        // writes that did not (placement ID 0)
  uint64_t hint_unmatched_bytes = 0;  // their bytes
  // Requests per device in the input (before the device filter), by device
  // (device_label names one); a format without devices has one, 0.
  std::vector<std::pair<uint32_t, uint64_t>> devices;
  // The records written (import_text_trace only): their times' span and the
  // requests' bytes, for the rate `convert` checks as `info` does.
  RecordSpan span;
};

// How messages and the `devices` header key name device `dev` of `format`:
// MAJ,MIN for blkparse and ftrace-blk, else the number.
[[nodiscard]] std::string device_label(TextFormat format, uint32_t dev);
// "0 (12 requests), 3 (1 request)", at most `shown` devices then "...".
[[nodiscard]] std::string device_list(TextFormat format, const std::vector<std::pair<uint32_t, uint64_t>>& devices,
                                      size_t shown = 8);

struct ParsedTrace {
  std::vector<Record> records;
  ImportSummary summary;
  TraceMeta meta;  // what import_text_trace would write into the header
};

// Parses `text` in memory (tests, fuzzing). `source_name` stands for the
// file in messages and in the `source_file` metadata (its base name).
// Throws InputError for malformed input or options, SystemError when a
// pid-map or hint file cannot be read.
[[nodiscard]] ParsedTrace parse_text_trace(std::string_view text, const std::string& source_name,
                                           const ImportOptions& options);

// The same for several inputs (blktrace's per-CPU files; every other
// format reads one), named by `source_names`, one per text.
[[nodiscard]] ParsedTrace parse_trace_files(std::span<const std::string_view> texts,
                                            std::span<const std::string> source_names, const ImportOptions& options);

// Converts the file `in` into the .ftr file `out`, written atomically
// (an existing regular file is replaced unless `existing` is kRefuse; see
// core/atomic_file.h). On any throw `out` is left as it was and no
// temporary file remains.
ImportSummary import_text_trace(const std::string& in, const std::string& out, const ImportOptions& options,
                                Existing existing = Existing::kReplace);
// The same into the output file `out`, opened and checked (OutputFile:
// `convert -o`): written into the folder that was checked.
ImportSummary import_text_trace(const std::string& in, OutputFile out, const ImportOptions& options);
// The files `ins` (several only for blktrace's per-CPU files) into `out`.
ImportSummary import_text_trace(std::span<const std::string> ins, OutputFile out, const ImportOptions& options);

}  // namespace ftlsim::trace
