#pragma once
// Chooses, once per run, how each trace placement ID is sent to the target,
// and refuses placement the target cannot honour:
//  - stream: Linux 6.16+ write streams. Trace ID p is write stream p + 1
//    (stream 0 means "none"; the NVMe driver maps stream s to the s-th
//    placement identifier of the namespace's RUH status). Needs a block
//    device whose queue/max_write_streams exists and is at least the highest
//    ID + 1.
//  - nvme: trace ID p is placement handle p of the chosen reclaim group
//    (fdp_log.h: map_placement_ids).
#include <cstdint>
#include <span>

#include "replay/nvme_device.h"
#include "replay/target.h"
#include "replay/uring_engine.h"

namespace ftlsim::replay {

// Throws InputError with the reason when the target has no write streams
// at all (a file; a kernel before 6.16; a device advertising none).
void check_write_streams(const TargetInfo& target);
// Also throws when a placement ID needs a stream beyond the device's count.
[[nodiscard]] PlacementPlan plan_streams(const TargetInfo& target, std::span<const uint16_t> write_pids);

// allow_unlisted: send IDs without a handle anyway (fdp_log.h: map_placement_ids).
[[nodiscard]] PlacementPlan plan_nvme(const TargetInfo& target, const NvmeFdp& fdp, uint32_t reclaim_group,
                                      std::span<const uint16_t> write_pids, bool allow_unlisted = false);

}  // namespace ftlsim::replay
