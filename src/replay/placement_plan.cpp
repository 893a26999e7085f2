#include "replay/placement_plan.h"

#include <fmt/format.h>

#include "core/error.h"

namespace ftlsim::replay {

void check_write_streams(const TargetInfo& target) {
  if (target.kind != TargetKind::kBlockDevice) {
    throw InputError(
        say("`placement` stream needs a block device; {} is a {}", target.path, target_kind_name(target.kind)));
  }
  if (!target.write_streams_known) {
    throw InputError(
        say("`placement` stream: this kernel has no write streams ({} has no "
            "queue/max_write_streams in sysfs; Linux 6.16 or later is needed); replay with "
            "`placement` none",
            target.path));
  }
  if (target.max_write_streams == 0) {
    throw InputError(
        say("`placement` stream: {} advertises no write streams (queue/max_write_streams is 0: "
            "only a device whose driver exposes them, such as an FDP-enabled NVMe namespace, "
            "has any); replay with `placement` none",
            target.path));
  }
}

PlacementPlan plan_streams(const TargetInfo& target, std::span<const uint16_t> write_pids) {
  check_write_streams(target);
  PlacementPlan plan;
  plan.mode = PlacementMode::kStream;
  for (const uint16_t p : write_pids) {
    if (uint32_t{p} + 1 > target.max_write_streams || p >= 255) {
      throw InputError(
          say("`placement` stream: trace placement ID {} needs write stream {}, but {} has {} "
              "(queue/max_write_streams); merge IDs in the trace or replay with `placement` none",
              p, uint32_t{p} + 1, target.path, target.max_write_streams));
    }
    if (plan.stream_by_pid.size() <= p) plan.stream_by_pid.resize(size_t{p} + 1, 0);
    plan.stream_by_pid[p] = static_cast<uint8_t>(p + 1);
  }
  return plan;
}

PlacementPlan plan_nvme(const TargetInfo& target, const NvmeFdp& fdp, uint32_t reclaim_group,
                        std::span<const uint16_t> write_pids, bool allow_unlisted) {
  PlacementPlan plan;
  plan.mode = PlacementMode::kNvme;
  plan.dspec_by_pid =
      nvme_fdp::map_placement_ids(fdp.config, fdp.ruh_status, reclaim_group, write_pids, target.path, allow_unlisted);
  return plan;
}

}  // namespace ftlsim::replay
