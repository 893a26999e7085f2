#include "replay/replay_config.h"

#include <fmt/format.h>

#include <cmath>

#include "core/error.h"
#include "timing/time_scale.h"

namespace ftlsim::replay {

std::string_view mode_name(ReplayMode m) { return m == ReplayMode::kAfap ? "afap" : "timed"; }

std::string_view placement_name(PlacementMode p) {
  switch (p) {
    case PlacementMode::kNone: return "none";
    case PlacementMode::kStream: return "stream";
    case PlacementMode::kNvme: return "nvme";
  }
  return "unknown";
}

std::optional<ReplayMode> parse_mode(std::string_view s) {
  if (s == "afap") return ReplayMode::kAfap;
  if (s == "timed") return ReplayMode::kTimed;
  return std::nullopt;
}

std::optional<PlacementMode> parse_placement(std::string_view s) {
  if (s == "none") return PlacementMode::kNone;
  if (s == "stream") return PlacementMode::kStream;
  if (s == "nvme") return PlacementMode::kNvme;
  return std::nullopt;
}

OpSet OpSet::parse(std::string_view list) {
  OpSet set;
  size_t pos = 0;
  while (pos <= list.size()) {
    const size_t comma = list.find(',', pos);
    const std::string_view word = list.substr(pos, comma == std::string_view::npos ? list.npos : comma - pos);
    bool found = false;
    for (const trace::Op op : {trace::Op::kWrite, trace::Op::kRead, trace::Op::kTrim, trace::Op::kFlush}) {
      if (word == trace::op_name(op)) {
        set.on[static_cast<size_t>(op)] = true;
        found = true;
      }
    }
    if (!found) {
      throw SettingError({"ops", std::string(word),
                          "is not an op (use a comma-separated list of write, read, trim, flush)",
                          Problem::Shape::kBadText});
    }
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return set;
}

std::string OpSet::text() const {
  std::string s;
  for (const trace::Op op : {trace::Op::kWrite, trace::Op::kRead, trace::Op::kTrim, trace::Op::kFlush}) {
    if (!has(op)) continue;
    if (!s.empty()) s += ',';
    s += trace::op_name(op);
  }
  return s;
}

std::vector<Problem> ReplayConfig::problems() const {
  std::vector<Problem> p;
  if (queue_depth < 1 || queue_depth > 4096) p.push_back({"qd", fmt::format("{}", queue_depth), "is outside 1..4096"});
  if (!timing::speed_in_range(speed)) p.push_back(timing::speed_problem(speed));
  if (mode == ReplayMode::kAfap && speed != 1.0) p.push_back({"speed", "", say("applies only to `mode` timed")});
  if (max_io_bytes < 4096 || max_io_bytes > (64u << 20) || max_io_bytes % 4096 != 0) {
    p.push_back({"max-io", fmt::format("{}", max_io_bytes), "must be a multiple of 4 KiB from 4 KiB to 64 MiB"});
  }
  if (placement != PlacementMode::kNvme && reclaim_group != 0) {
    p.push_back({"rg", "", say("applies only to `placement` nvme")});
  }
  bool any = false;
  for (const bool b : ops.on) any = any || b;
  if (!any) p.push_back({"ops", "", "selects no op"});
  return p;
}

}  // namespace ftlsim::replay
