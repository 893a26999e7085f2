// Placement refusals and mappings (src/replay/placement_plan.h) on target
// descriptions as the sysfs and NVMe probes fill them.
#include <catch2/catch.hpp>

#include "core/error.h"
#include "replay/placement_plan.h"

using namespace ftlsim::replay;
using Catch::Contains;

namespace {

TargetInfo block_device(bool known, uint32_t streams) {
  TargetInfo t;
  t.path = "/dev/loop7";
  t.kind = TargetKind::kBlockDevice;
  t.write_streams_known = known;
  t.max_write_streams = streams;
  return t;
}

}  // namespace

TEST_CASE("write streams: refused where the kernel or device lacks them", "[replay][unit]") {
  const std::vector<uint16_t> pids = {0, 1, 2};
  TargetInfo file;
  file.path = "/tmp/x.img";
  CHECK_THROWS_WITH(plan_streams(file, pids), Contains("needs a block device; /tmp/x.img is a file"));
  CHECK_THROWS_WITH(plan_streams(block_device(false, 0), pids),
                    Contains("no queue/max_write_streams") && Contains("Linux 6.16"));
  CHECK_THROWS_WITH(plan_streams(block_device(true, 0), pids), Contains("advertises no write streams"));
  CHECK_THROWS_WITH(plan_streams(block_device(true, 2), pids),
                    Contains("trace placement ID 2 needs write stream 3, but /dev/loop7 has 2"));
}

TEST_CASE("write streams: pid p is stream p + 1", "[replay][unit]") {
  const std::vector<uint16_t> pids = {0, 3};
  const PlacementPlan p = plan_streams(block_device(true, 8), pids);
  CHECK(p.mode == PlacementMode::kStream);
  REQUIRE(p.stream_by_pid.size() == 4);
  CHECK(p.stream_by_pid[0] == 1);
  CHECK(p.stream_by_pid[3] == 4);
}

TEST_CASE("NVMe placement: identifiers from the configuration and RUH status", "[replay][unit]") {
  TargetInfo t;
  t.path = "/dev/ng0n1";
  t.kind = TargetKind::kNvmeGeneric;
  NvmeFdp fdp;
  fdp.config.valid = true;
  fdp.config.rgif = 0;
  fdp.config.reclaim_groups = 1;
  fdp.config.handles = 8;
  for (uint16_t h = 0; h < 8; ++h) fdp.ruh_status.push_back({h, h, 0, 0});
  const std::vector<uint16_t> pids = {0, 7};
  const PlacementPlan p = plan_nvme(t, fdp, 0, pids);
  CHECK(p.mode == PlacementMode::kNvme);
  CHECK(p.dspec_by_pid.at(7) == 7);
  const std::vector<uint16_t> nine = {8};
  CHECK_THROWS_WITH(plan_nvme(t, fdp, 0, nine), Contains("trace placement ID 8 needs placement handle 8"));
}
