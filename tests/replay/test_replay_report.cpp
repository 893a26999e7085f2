// The per-handle check of a replay onto an FDP device (replay_report.h:
// handle_checks): bytes sent per placement identifier against how far each
// handle's RUAMW moved, modulo the RU size; numbers worked by hand.
#include <catch2/catch.hpp>

#include "replay/replay_report.h"

namespace replay = ftlsim::replay;

TEST_CASE("handle checks: RUAMW moved modulo the RU, unlisted IDs in handle 0", "[replay][unit]") {
  replay::ReplayReport r;
  replay::DeviceFdpReport d;
  d.lba_bytes = 512;
  d.ru_bytes = 16 << 20;  // 32768 blocks
  d.rgif = 0;
  for (uint16_t h = 0; h < 4; ++h) d.ruh_before.push_back({h, h, 0, 32768});
  d.ruh_after = d.ruh_before;
  // trace ID 0: 40 MiB = 81920 blocks = 2 RUs + 16384 -> RUAMW 16384
  // trace ID 1: 4 KiB = 8 blocks; trace ID 9 (unlisted): 512 B into handle 0
  d.ruh_after[0].ruamw_lbas = 32768 - 16384 - 1;
  d.ruh_after[1].ruamw_lbas = 32760;
  d.unlisted_pids = {9};
  r.device_fdp = d;
  r.plan.mode = replay::PlacementMode::kNvme;
  r.plan.dspec_by_pid = {0, 1, 0, 0, 0, 0, 0, 0, 0, 9};
  r.result.bytes_by_pid.resize(10);
  r.result.bytes_by_pid[0].write = 40ull << 20;
  r.result.bytes_by_pid[1].write = 4096;
  r.result.bytes_by_pid[9].write = 512;
  std::vector<replay::HandleCheck> c = replay::handle_checks(r);
  REQUIRE(c.size() == 4);
  CHECK(c[0].sent_bytes == (40ull << 20) + 512);
  CHECK(c[0].moved_bytes == (16384 + 1) * 512);
  CHECK(c[0].match);
  CHECK(c[1].sent_bytes == 4096);
  CHECK(c[1].match);
  CHECK(c[2].sent_bytes == 0);
  CHECK(c[2].match);
  // a write that went to the wrong handle shows on both
  r.device_fdp->ruh_after[1].ruamw_lbas = 32768;
  r.device_fdp->ruh_after[2].ruamw_lbas = 32760;
  c = replay::handle_checks(r);
  CHECK_FALSE(c[1].match);
  CHECK_FALSE(c[2].match);
  // no reading after the replay: no checks
  r.device_fdp->ruh_after.clear();
  CHECK(replay::handle_checks(r).empty());
}

TEST_CASE("the placement table puts the model's handle of the same number beside each device handle",
          "[replay][unit]") {
  replay::ReplayReport r;
  replay::DeviceFdpReport d;
  d.lba_bytes = 512;
  d.ru_bytes = 16 << 20;
  for (uint16_t h = 0; h < 2; ++h) d.ruh_before.push_back({h, h, 0, 32768});
  d.ruh_after = d.ruh_before;
  r.device_fdp = d;
  r.plan.mode = replay::PlacementMode::kNvme;
  r.plan.dspec_by_pid = {0, 1};
  r.result.bytes_by_pid.resize(2);
  replay::Prediction p;
  p.waf = 1.5;
  // Listed out of order, and named differently from "ruh<N>", so that only
  // the handle number can match them.
  p.handles = {{"second", 4096, 0, 0.25, 1U}, {"first", 8192, 0, 0.75, 0U}, {"shared", 0, 0, 0.5, std::nullopt}};
  r.prediction = p;
  const std::string text = replay::summary_text(r);
  const auto line_of = [&](std::string_view start) {
    std::string needle = "\n";
    needle += start;  // (operator+ of two temporaries trips GCC 12's -Wrestrict false positive)
    const size_t at = text.find(needle);
    return at == std::string::npos ? std::string() : text.substr(at + 1, text.find('\n', at + 1) - at - 1);
  };
  CHECK_THAT(line_of("0 "), Catch::Contains("0.7500"));
  CHECK_THAT(line_of("1 "), Catch::Contains("0.2500"));
  CHECK_THAT(line_of("shared"), Catch::Contains("0.5000"));
}
