#pragma once
// The replay loop: io_uring through liburing, O_DIRECT, one aligned buffer
// per queue slot (registered with the ring when the memlock limit allows),
// the target registered as a fixed file.
//
//  - afap: the queue is refilled after every completion batch, so up to
//    queue_depth I/Os are in flight;
//  - timed: record i is submitted no earlier than (t_i - t_0) / speed after
//    the start; how late each submission was is measured.
//
// Order: an I/O waits while an earlier one that overlaps it is in flight
// (unless both are reads), and a flush waits for everything before it, so
// the target ends up holding exactly what the trace wrote last, whatever
// the queue depth.
//
// Trims: hole punching (IORING_OP_FALLOCATE) on files, a synchronous
// BLKDISCARD on block devices, Dataset Management on NVMe passthrough.
//
// A stop request (Ctrl-C) or the first failed I/O stops submission; what is
// in flight is drained and the result is marked partial.
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/log_histogram.h"
#include "replay/replay_config.h"
#include "replay/request_stream.h"
#include "replay/target.h"
#include "trace/record.h"

namespace ftlsim::replay {

// How writes are placed. Chosen once per run.
struct PlacementPlan {
  PlacementMode mode = PlacementMode::kNone;
  std::vector<uint8_t> stream_by_pid;  // kStream: the write stream of each trace pid
  std::vector<uint16_t> dspec_by_pid;  // kNvme: the placement identifier of each trace pid
};

struct OpTotals {
  uint64_t ios = 0;
  uint64_t bytes = 0;
  uint64_t errors = 0;
  LatencyHistogram latency_ns;  // submission to completion
};

// One events.csv row: written each time completed bytes pass a multiple of
// the interval, and once at the end.
struct EventRow {
  uint64_t elapsed_ns = 0;
  uint64_t records = 0;        // trace records whose I/Os have all been submitted
  uint64_t trace_time_ns = 0;  // time stamp of the last of those records
  uint64_t ios = 0;            // completed, all ops
  uint64_t bytes = 0;          // completed, all ops
  uint64_t interval_ios = 0;
  uint64_t interval_bytes = 0;
  uint64_t interval_ns = 0;
  uint64_t interval_p50_ns = 0;
  uint64_t interval_p99_ns = 0;
  uint64_t interval_max_ns = 0;
  uint32_t inflight = 0;
  std::optional<uint64_t> marker;  // last marker passed
};

struct PidBytes {
  uint64_t write = 0, read = 0, trim = 0;
};

struct EngineResult {
  std::array<OpTotals, trace::kOpCount> ops{};  // indexed by Op value (markers stay 0)
  std::vector<PidBytes> bytes_by_pid;           // indexed by trace pid
  uint64_t elapsed_ns = 0;
  uint64_t records_done = 0;  // as EventRow::records, at the end
  bool partial = false;
  std::string stop_reason;   // "" when complete
  bool interrupted = false;  // the stop flag ended it
  bool io_error = false;     // an I/O failed
  bool input_error = false;  // the trace turned bad mid-run (it shrank or changed while mapped)
  // Timed mode: how late submissions were against their trace time.
  LatencyHistogram lag_ns;
  uint64_t late_ios = 0;  // submitted more than 1 ms late
  std::vector<EventRow> events;
  bool registered_buffers = false;
  bool registered_file = false;
  uint32_t max_inflight = 0;
};

struct Progress {
  uint64_t elapsed_ns = 0;
  uint64_t bytes = 0;        // completed
  uint64_t total_bytes = 0;  // the whole replay's
  uint64_t ios = 0;
  uint32_t inflight = 0;
};

struct EngineHooks {
  const std::atomic<bool>* stop = nullptr;        // set (e.g. by a SIGINT handler) to stop early
  std::function<void(const Progress&)> progress;  // called about once per second
};

// Replays the stream's I/Os onto `target`. `scan` is scan_stream() of the
// same records and geometry (it sizes the buffers and the interval).
// Throws SystemError when the ring cannot be set up; I/O errors end the run
// with EngineResult::io_error instead, and a record that turns out bad
// mid-run (the trace file shrank under its mapping: zeros) with
// EngineResult::input_error; both drain what is in flight and end partial.
[[nodiscard]] EngineResult run_replay(const Target& target, std::span<const trace::Record> records,
                                      const StreamGeometry& geo, const StreamScan& scan, const ReplayConfig& cfg,
                                      const PlacementPlan& plan, const EngineHooks& hooks);

}  // namespace ftlsim::replay
