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

struct DeviceFdpReport {
  uint16_t endurance_group = 0;
  uint8_t config_index = 0;
  unsigned rgif = 0;
  uint32_t reclaim_groups = 0;
  uint16_t handles = 0;
  uint64_t ru_bytes = 0;
  uint32_t reclaim_group_used = 0;
  fdp::Statistics before;
  std::optional<fdp::Statistics> after;  // missing when the replay stopped on an error before it was read
};

struct Prediction {
  std::string options;  // the --predict text
  double waf = 0;
};

struct ReplayReport {
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
};

[[nodiscard]] std::string summary_text(const ReplayReport& r);
[[nodiscard]] std::string summary_json(const ReplayReport& r);
[[nodiscard]] std::string events_csv(const ReplayReport& r);

// The names write_outputs() writes (an OutputDir's own entries).
inline const std::vector<std::string> kOutputNames = {"summary.json", "events.csv"};

// Creates `dir` if needed and writes summary.json and events.csv into it,
// each new (an existing name is refused): `dir` is meant to be an
// OutputDir's staging folder, published as one set. Throws SystemError.
void write_outputs(const std::string& dir, const ReplayReport& r);

}  // namespace ftlsim::replay
