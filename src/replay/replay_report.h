#pragma once
// What a replay reports, in the shape of the simulation's output: a short
// human summary, summary.json (throughput, latency percentiles per op,
// bytes per placement ID, the device's FDP statistics and WAF where it has
// them, the model's prediction when asked) and events.csv (one row per
// interval). Unlike the simulation's files these hold measured times, so
// two runs differ.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "replay/fdp_log.h"
#include "replay/replay_config.h"
#include "replay/request_stream.h"
#include "replay/target.h"
#include "replay/uring_engine.h"
#include "replay/verify.h"
#include "trace/record.h"

namespace ftlsim::replay {

// After the replay: Reclaim Unit Handle Update of every placement
// identifier the replay used (--ruh-update-at-end), and what the device
// reported right after it.
struct RuhUpdateReport {
  std::vector<uint16_t> pids;
  std::vector<nvme_fdp::RuhStatus> ruh_status;  // read after the update
  nvme_fdp::Statistics stats;                   // read after the update
};

struct DeviceFdpReport {
  uint16_t endurance_group = 0;
  uint32_t nsid = 0;
  uint32_t lba_bytes = 512;
  uint8_t config_index = 0;
  unsigned rgif = 0;
  uint32_t reclaim_groups = 0;
  uint16_t handles = 0;
  uint64_t ru_bytes = 0;
  uint32_t reclaim_group_used = 0;
  nvme_fdp::Statistics before;
  std::optional<nvme_fdp::Statistics> after;    // missing when the replay stopped on an error before it was read
  std::vector<nvme_fdp::RuhStatus> ruh_before;  // reclaim unit handle status before the replay
  std::vector<nvme_fdp::RuhStatus> ruh_after;   // ... and after it (empty when not read)
  std::vector<uint16_t> unlisted_pids;          // trace IDs sent without a handle (--allow-unlisted-pids)
  std::vector<nvme_fdp::Event> events;          // host events the device logged during the replay (and the update)
  bool events_read = false;
  std::string events_error;  // why the events log could not be read, if so
  std::optional<RuhUpdateReport> ruh_update;
};

// One handle of the model's run (fdp::HandleStats without the model's headers).
struct ModelHandle {
  std::string name;  // as the model names it: ruh<N>, or gc for the shared GC handle
  uint64_t host_bytes = 0;
  uint64_t gc_out_bytes = 0;
  double waf_share = 0;
  std::optional<uint32_t> ruh;  // the model's handle number N; none for the shared GC handle
};

struct Prediction {
  std::string options;  // the --predict text
  double waf = 0;
  uint64_t host_bytes = 0;
  std::vector<ModelHandle> handles;
};

struct ReplayReport {
  // Identifies the trace and every option of the replay (summary.json's
  // config_key, for the --out rule of cli/out_results.h); "" = not written.
  std::string config_key;
  std::string trace_path;
  uint64_t trace_records = 0;
  std::map<trace::PlacementId, std::string> pid_names;
  TargetInfo target;
  ReplayConfig config;
  uint64_t interval_bytes = 0;  // the interval actually used
  StreamScan scan;
  PlacementPlan plan;
  EngineResult result;
  std::optional<VerifyResult> verify;
  std::optional<DeviceFdpReport> device_fdp;
  std::optional<Prediction> prediction;
  // A file --create made that the run removes again: no record was done
  // (an empty trace, a Ctrl-C before the first).
  bool created_removed = false;
};

// What the device shows per placement handle of the reclaim group used:
// the bytes the replay sent to it, and how far its RUAMW moved (modulo the
// RU size: a device starts a new RU each time one fills).
struct HandleCheck {
  uint32_t handle = 0;
  uint16_t pid = 0;
  uint64_t sent_bytes = 0;
  uint64_t ruamw_before = 0, ruamw_after = 0;  // in logical blocks
  uint64_t moved_bytes = 0;                    // ruamw_consumed * lba_bytes
  bool match = false;                          // sent_bytes / lba mod RU == moved
};
// Per handle of the reclaim group used, from the RUH status before and after
// the replay: writes of trace ID p count for handle p; IDs sent without a
// handle (unlisted) count for handle 0, where the device places an invalid
// placement identifier. Empty without device FDP data.
[[nodiscard]] std::vector<HandleCheck> handle_checks(const ReplayReport& r);

// The settings it names are written by `show` (nullptr: `name`, core/message.h).
[[nodiscard]] std::string summary_text(const ReplayReport& r, SettingShow show = nullptr);
[[nodiscard]] std::string summary_json(const ReplayReport& r);
[[nodiscard]] std::string events_csv(const ReplayReport& r);

// The names write_outputs() writes (an OutputDir's own entries).
inline const std::vector<std::string> kOutputNames = {"summary.json", "events.csv"};

// Creates `dir` if needed and writes summary.json and events.csv into it,
// each new (an existing name is refused): `dir` is meant to be an
// OutputDir's staging folder, published as one set. Throws SystemError.
void write_outputs(const std::string& dir, const ReplayReport& r);

}  // namespace ftlsim::replay
