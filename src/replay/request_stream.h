#pragma once
// Turns trace records into the I/Os a replay sends, in trace order: byte
// ranges of reads and writes widened to the target's block size (O_DIRECT
// needs aligned offsets and lengths), trims narrowed to the whole blocks
// inside them (a discard widened would erase neighbouring sectors the trace
// never trimmed; one with no whole block sends nothing), folded into the
// target with --wrap, split at the target's
// end and into pieces of at most max_io_bytes (reads and writes). Ops not
// selected are skipped; markers are remembered for the events rows.
//
// The same stream drives the replay, the pre-flight scan and --verify, so
// all three see exactly the same I/Os. next() is allocation-free.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/io_units.h"
#include "replay/replay_config.h"
#include "trace/record.h"

namespace ftlsim::replay {

struct IoRequest {
  uint64_t offset = 0;  // bytes into the target, a multiple of the block size
  uint32_t bytes = 0;   // a multiple of the block size; 0 for flush
  uint32_t record = 0;  // index of the trace record it comes from
  trace::PlacementId pid = 0;
  trace::Op op = trace::Op::kWrite;
};

struct StreamGeometry {
  std::string_view trace_path;           // for error messages
  uint32_t sector_bytes = kSectorBytes;  // the trace's sector size
  uint64_t target_bytes = 0;             // usable bytes; a positive multiple of block_bytes
  uint32_t block_bytes = 512;            // offset and length alignment, a power of two
  uint32_t max_io_bytes = 1u << 20;      // a multiple of block_bytes
  OpSet ops;
  bool wrap = false;
};

// Records whose range the stream changed (each counted once, when it starts).
struct RangeCounts {
  uint64_t widened = 0;        // reads and writes widened to whole blocks
  uint64_t narrowed = 0;       // trims narrowed to the whole blocks inside their range
  uint64_t dropped_trims = 0;  // of those, trims with no whole block inside: nothing sent
  uint64_t wrapped = 0;        // folded into the target (--wrap)
};

class RequestStream {
 public:
  // REQUIRES records has fewer than 2^32 entries and `geo` is as documented
  // (the constructor throws InputError otherwise). `records` must outlive it.
  RequestStream(std::span<const trace::Record> records, const StreamGeometry& geo);

  // The next I/O, or false at the end of the trace. Throws InputError
  // "<trace>: record <i>: <reason>" for a malformed record and for a range
  // beyond the target without --wrap (or longer than the target with it).
  bool next(IoRequest& out);

  // Value of the last marker record passed, if any.
  [[nodiscard]] std::optional<uint64_t> last_marker() const { return marker_; }
  // Index of the record the next I/O will come from (records.size() at the end).
  [[nodiscard]] uint64_t position() const { return index_; }
  // How the ranges of the records passed so far were changed.
  [[nodiscard]] const RangeCounts& range_counts() const { return counts_; }

 private:
  // Sets up the range of records_[index_] still to emit; false when the
  // record yields no I/O (a marker, an op not selected).
  bool start_record();

  std::span<const trace::Record> records_;
  StreamGeometry geo_;
  uint64_t index_ = 0;
  std::optional<uint64_t> marker_;
  RangeCounts counts_;
  // The widened (and folded) range of the current record still to emit.
  bool active_ = false;
  uint64_t cur_offset_ = 0;
  uint64_t cur_left_ = 0;
  uint64_t piece_max_ = 0;
};

// What a replay will send, counted by running the stream once; validates the
// whole trace against the target before anything is written. Its
// RangeCounts are the stream's own.
struct StreamScan : RangeCounts {
  uint64_t records = 0;
  std::array<uint64_t, trace::kOpCount> op_records{};  // records of each op in the trace
  std::array<uint64_t, trace::kOpCount> skipped{};     // records of ops not selected
  std::array<uint64_t, trace::kOpCount> ios{};         // I/Os per op
  std::array<uint64_t, trace::kOpCount> bytes{};       // I/O bytes per op (after widening)
  uint64_t split = 0;                                  // records sent as more than one I/O
  uint32_t largest_data_io = 0;                        // bytes of the largest read or write I/O
  std::vector<trace::PlacementId> write_pids;          // distinct pids of the writes sent, ascending
  uint64_t moved_bytes() const;                        // reads + writes + trims
};

[[nodiscard]] StreamScan scan_stream(std::span<const trace::Record> records, const StreamGeometry& geo);

}  // namespace ftlsim::replay
