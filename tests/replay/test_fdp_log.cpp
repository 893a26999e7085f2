// Decoding of FDP log pages (src/replay/fdp_log.h) from byte fixtures laid
// out by hand from the specification's figures (TP4146 / NVMe 2.1), not from
// libnvme's structs the decoder uses, so the two are checked against each
// other:
//   FDP Configurations log (0x20): 1:0 NUMFDPC (0's based), 2 version,
//     7:4 size; descriptors from byte 16: 1:0 DSZE, 2 FDPA (3:0 RGIF, 4 VWC,
//     7 valid), 3 VSS, 7:4 NRG, 9:8 NRUH, 11:10 MAXPIDS, 15:12 NNSS,
//     23:16 RUNS, 27:24 ERUTL, 63:28 reserved, then NRUH 4-byte RUH
//     descriptors (byte 0 RUHT) and VSS vendor bytes.
//   FDP Statistics log (0x22): 15:0 HBMW, 31:16 MBMW, 47:32 MBE.
//   RUH Status (I/O Management Receive): 15:14 NRUHSD; 32-byte descriptors
//     from byte 16: 1:0 PID, 3:2 RUHID, 7:4 EARUTR, 15:8 RUAMW.
//   FDP Events log (0x23): 3:0 NUMFDPE; 64-byte events from byte 64:
//     0 type, 1 flags, 3:2 PID, 11:4 timestamp, 15:12 NSID, 31:16 type
//     specific, 33:32 RGID, 34 RUHID.
#include <catch2/catch.hpp>

#include <vector>

#include "core/error.h"
#include "replay/fdp_log.h"

namespace nvme_fdp = ftlsim::replay::nvme_fdp;
using Catch::Contains;

namespace {

struct Bytes {
  std::vector<uint8_t> b;
  explicit Bytes(size_t n) : b(n, 0) {}
  void put(size_t off, uint64_t v, int width) {
    for (int i = 0; i < width; ++i) b.at(off + static_cast<size_t>(i)) = static_cast<uint8_t>(v >> (8 * i));
  }
};

// A configurations log with two descriptors:
//  0: valid, RGIF 4, 2 reclaim groups, 4 handles (II, II, PI, PI), RU 1 GiB,
//     8 vendor bytes;
//  1: not valid, RGIF 0, 1 group, 2 handles (PI, PI), RU 64 MiB, no vendor bytes.
Bytes config_log() {
  const size_t d0 = 64 + 4 * 4 + 8;  // 88
  const size_t d1 = 64 + 2 * 4;      // 72
  Bytes x(16 + d0 + d1);
  x.put(0, 1, 2);  // NUMFDPC: 2 configurations, 0's based
  x.put(4, x.b.size(), 4);
  size_t at = 16;
  x.put(at + 0, d0, 2);
  x.put(at + 2, 0x80 | 0x4, 1);          // valid, RGIF 4
  x.put(at + 3, 8, 1);                   // VSS
  x.put(at + 4, 2, 4);                   // NRG
  x.put(at + 8, 4, 2);                   // NRUH
  x.put(at + 10, 127, 2);                // MAXPIDS
  x.put(at + 12, 0, 4);                  // NNSS
  x.put(at + 16, uint64_t{1} << 30, 8);  // RUNS
  x.put(at + 24, 3600, 4);               // ERUTL
  for (size_t h = 0; h < 4; ++h) x.put(at + 64 + 4 * h, h < 2 ? 1 : 2, 1);
  for (size_t v = 0; v < 8; ++v) x.put(at + 64 + 16 + v, 0xee, 1);
  at += d0;
  x.put(at + 0, d1, 2);
  x.put(at + 2, 0x10, 1);  // volatile write cache, not valid, RGIF 0
  x.put(at + 4, 1, 4);
  x.put(at + 8, 2, 2);
  x.put(at + 16, uint64_t{64} << 20, 8);
  x.put(at + 64, 2, 1);
  x.put(at + 68, 2, 1);
  return x;
}

}  // namespace

TEST_CASE("FDP configurations log: every descriptor and its handles", "[replay][unit]") {
  const Bytes x = config_log();
  const std::vector<nvme_fdp::Configuration> c = nvme_fdp::parse_configurations(x.b, "/dev/ng0n1");
  REQUIRE(c.size() == 2);
  CHECK(c[0].valid);
  CHECK_FALSE(c[0].volatile_write_cache);
  CHECK(c[0].rgif == 4);
  CHECK(c[0].reclaim_groups == 2);
  CHECK(c[0].handles == 4);
  CHECK(c[0].max_pids_field == 127);
  CHECK(c[0].ru_bytes == uint64_t{1} << 30);
  CHECK(c[0].ru_time_limit_s == 3600);
  CHECK(c[0].ruh_types == std::vector<uint8_t>{1, 1, 2, 2});
  CHECK_FALSE(c[1].valid);
  CHECK(c[1].volatile_write_cache);
  CHECK(c[1].rgif == 0);
  CHECK(c[1].handles == 2);
  CHECK(c[1].ru_bytes == uint64_t{64} << 20);
  CHECK(c[1].ruh_types == std::vector<uint8_t>{2, 2});
}

TEST_CASE("FDP configurations log: malformed pages are refused with the reason", "[replay][unit]") {
  const Bytes good = config_log();
  {
    const std::vector<uint8_t> short_header(good.b.begin(), good.b.begin() + 10);
    CHECK_THROWS_WITH(nvme_fdp::parse_configurations(short_header, "dev"), Contains("shorter than its 16-byte header"));
  }
  {
    Bytes x = good;
    x.put(4, x.b.size() + 1, 4);  // claims more than was read
    CHECK_THROWS_AS(nvme_fdp::parse_configurations(x.b, "dev"), ftlsim::InputError);
  }
  {
    Bytes x = good;
    x.put(0, 2, 2);  // 3 configurations announced, 2 present
    CHECK_THROWS_WITH(nvme_fdp::parse_configurations(x.b, "dev"), Contains("descriptor 2 of 3"));
  }
  {
    Bytes x = good;
    x.put(16, 70, 2);  // 4 handles + 8 vendor bytes need 88
    CHECK_THROWS_WITH(nvme_fdp::parse_configurations(x.b, "dev"), Contains("need 88"));
  }
  {
    Bytes x = good;
    x.put(16 + 88, 200, 2);  // second descriptor runs past the end
    CHECK_THROWS_WITH(nvme_fdp::parse_configurations(x.b, "dev"), Contains("runs past the end"));
  }
}

TEST_CASE("FDP statistics: 128-bit counters and the device WAF", "[replay][unit]") {
  Bytes before(64), after(64);
  before.put(0, 1000, 8);   // HBMW
  before.put(16, 1500, 8);  // MBMW
  before.put(32, 0, 8);     // MBE
  after.put(0, 1000 + (uint64_t{1} << 32), 8);
  after.put(16, 1500 + 3 * (uint64_t{1} << 31), 8);  // 1.5x the host bytes
  after.put(32, 7, 8);
  after.put(32 + 8, 1, 8);  // MBE = 2^64 + 7: needs the high half
  const nvme_fdp::Statistics b = nvme_fdp::parse_statistics(before.b, "dev");
  const nvme_fdp::Statistics a = nvme_fdp::parse_statistics(after.b, "dev");
  CHECK(b.hbmw == nvme_fdp::U128{1000, 0});
  CHECK(a.mbe == nvme_fdp::U128{7, 1});
  CHECK(nvme_fdp::u128_to_decimal(a.mbe) == "18446744073709551623");
  CHECK(nvme_fdp::u128_to_decimal(nvme_fdp::U128{0, 0}) == "0");
  CHECK(nvme_fdp::device_waf(b, a) == Approx(1.5));
  CHECK(nvme_fdp::device_waf(b, b) == 0.0);  // no host writes: no WAF
  // Subtraction borrows across the halves.
  CHECK(nvme_fdp::u128_sub(nvme_fdp::U128{0, 1}, nvme_fdp::U128{1, 0}) == nvme_fdp::U128{~uint64_t{0}, 0});
  CHECK_THROWS_WITH(nvme_fdp::parse_statistics(std::vector<uint8_t>(63), "dev"), Contains("63 bytes, want 64"));
}

TEST_CASE("RUH status descriptors", "[replay][unit]") {
  Bytes x(16 + 3 * 32);
  x.put(14, 3, 2);
  for (size_t i = 0; i < 3; ++i) {
    x.put(16 + 32 * i + 0, 0x1000 | i, 2);  // PID: group 1 (RGIF 4), handle i
    x.put(16 + 32 * i + 2, 10 + i, 2);      // RUHID
    x.put(16 + 32 * i + 4, 60, 4);          // EARUTR
    x.put(16 + 32 * i + 8, 123456 + i, 8);  // RUAMW
  }
  const std::vector<nvme_fdp::RuhStatus> s = nvme_fdp::parse_ruh_status(x.b, "dev");
  REQUIRE(s.size() == 3);
  CHECK(s[2].pid == 0x1002);
  CHECK(s[2].ruhid == 12);
  CHECK(s[1].earutr_s == 60);
  CHECK(s[0].ruamw_lbas == 123456);
  Bytes truncated = x;
  truncated.b.resize(16 + 2 * 32);
  CHECK_THROWS_WITH(nvme_fdp::parse_ruh_status(truncated.b, "dev"), Contains("3 descriptors need 112 bytes, got 80"));
}

TEST_CASE("FDP feature dword and the refusal reasons", "[replay][unit]") {
  CHECK_FALSE(nvme_fdp::parse_fdp_feature(0).enabled);
  const nvme_fdp::FdpFeature f = nvme_fdp::parse_fdp_feature(0x0301);
  CHECK(f.enabled);
  CHECK(f.config_index == 3);

  const Bytes x = config_log();
  const std::vector<nvme_fdp::Configuration> configs = nvme_fdp::parse_configurations(x.b, "dev");
  const uint32_t fdps = nvme_fdp::kCtrattFdpSupported;
  CHECK(nvme_fdp::fdp_refusal(fdps, {true, 0}, configs).empty());
  CHECK_THAT(nvme_fdp::fdp_refusal(0, {true, 0}, configs).str(), Contains("does not support Flexible Data Placement"));
  CHECK_THAT(nvme_fdp::fdp_refusal(fdps, {false, 0}, configs).str(), Contains("FDP is not enabled"));
  CHECK_THAT(nvme_fdp::fdp_refusal(fdps, {true, 2}, configs).str(), Contains("index 2 is beyond the 2"));
  CHECK_THAT(nvme_fdp::fdp_refusal(fdps, {true, 1}, configs).str(), Contains("not marked valid"));
}

TEST_CASE("trace placement IDs map to placement handles of one reclaim group", "[replay][unit]") {
  const Bytes x = config_log();
  const nvme_fdp::Configuration cfg = nvme_fdp::parse_configurations(x.b, "dev")[0];  // RGIF 4, 2 groups
  std::vector<nvme_fdp::RuhStatus> status;
  for (uint16_t rg = 0; rg < 2; ++rg) {
    for (uint16_t h = 0; h < 4; ++h) status.push_back({static_cast<uint16_t>(rg << 12 | h), h, 0, 0});
  }
  const std::vector<uint16_t> used = {0, 1, 3};
  const std::vector<uint16_t> g1 = nvme_fdp::map_placement_ids(cfg, status, 1, used, "dev");
  REQUIRE(g1.size() == 4);
  CHECK(g1[0] == 0x1000);
  CHECK(g1[1] == 0x1001);
  CHECK(g1[3] == 0x1003);
  CHECK(nvme_fdp::map_placement_ids(cfg, status, 0, used, "dev")[3] == 0x0003);
  const std::vector<uint16_t> too_many = {4};
  CHECK_THROWS_WITH(nvme_fdp::map_placement_ids(cfg, status, 0, too_many, "dev"),
                    Contains("trace placement ID 4 needs placement handle 4") && Contains("handles 0,1,2,3"));
  CHECK_THROWS_WITH(nvme_fdp::map_placement_ids(cfg, status, 2, used, "dev"), Contains("has 2 reclaim group(s)"));
}

TEST_CASE("trace IDs without a handle are sent anyway only when allowed", "[replay][unit]") {
  const Bytes x = config_log();
  const nvme_fdp::Configuration cfg = nvme_fdp::parse_configurations(x.b, "dev")[0];  // RGIF 4: 12 handle bits
  std::vector<nvme_fdp::RuhStatus> status;
  for (uint16_t h = 0; h < 4; ++h) status.push_back({h, h, 0, 0});
  const std::vector<uint16_t> used = {1, 9};
  CHECK_THROWS_WITH(nvme_fdp::map_placement_ids(cfg, status, 0, used, "dev"), Contains("trace placement ID 9"));
  const std::vector<uint16_t> m = nvme_fdp::map_placement_ids(cfg, status, 1, used, "dev", true);
  REQUIRE(m.size() == 10);
  CHECK(m[1] == 0x1001);
  CHECK(m[9] == 0x1009);                      // (rg 1 << 12) | 9, though the device lists no handle 9
  const std::vector<uint16_t> wide = {4096};  // does not fit in 12 handle bits: refused even when allowed
  CHECK_THROWS(nvme_fdp::map_placement_ids(cfg, status, 0, wide, "dev", true));
}

TEST_CASE("RUAMW movement modulo the RU size", "[replay][unit]") {
  CHECK(nvme_fdp::ruamw_consumed(32768, 32768, 32768) == 0);
  CHECK(nvme_fdp::ruamw_consumed(32768, 32760, 32768) == 8);
  CHECK(nvme_fdp::ruamw_consumed(100, 32000, 32768) == 868);  // 100 left, a new RU, 768 written in it
  // geth trace ID 0 on a 16 MiB RU of 512-byte blocks: 112136192 B = 219016 blocks = 6 RUs + 22408
  CHECK(nvme_fdp::ruamw_consumed(32768, 10360, 32768) == 219016 % 32768);
}

TEST_CASE("FDP events log: events and the ones new since a reading", "[replay][unit]") {
  Bytes x(64 + 3 * 64);
  x.put(0, 3, 4);  // NUMFDPE
  for (size_t i = 0; i < 3; ++i) {
    const size_t at = 64 + 64 * i;
    x.put(at + 0, i == 2 ? 0x03 : 0x00, 1);  // RU not fully written, twice; then invalid PID
    x.put(at + 1, 0x07, 1);                  // PIV, NSIDV, LV
    x.put(at + 2, 0x1000 + i, 2);            // PID
    x.put(at + 4, 1000 + i, 8);              // timestamp
    x.put(at + 12, 1, 4);                    // NSID
    x.put(at + 32, 1, 2);                    // RGID
    x.put(at + 34, i, 1);                    // RUHID
  }
  const std::vector<nvme_fdp::Event> e = nvme_fdp::parse_events(x.b, "dev");
  REQUIRE(e.size() == 3);
  CHECK(e[1].type == 0x00);
  CHECK(e[2].type == nvme_fdp::kEventInvalidPid);
  CHECK(e[1].pid == 0x1001);
  CHECK(e[1].timestamp == 1001);
  CHECK(e[2].nsid == 1);
  CHECK(e[2].rgid == 1);
  CHECK(e[2].ruhid == 2);
  CHECK(e[1].flags == 0x07);
  CHECK(nvme_fdp::event_type_name(0x03) == "invalid placement identifier");
  CHECK(nvme_fdp::event_type_name(0x42) == "type 0x42");
  // a later reading of the ring: the first event dropped, two new ones
  const std::vector<nvme_fdp::Event> before = e;
  std::vector<nvme_fdp::Event> after = {e[1], e[2], e[0], e[0]};
  after[2].timestamp = 2000;
  after[3].timestamp = 2001;
  const std::vector<nvme_fdp::Event> fresh = nvme_fdp::new_events(before, after);
  REQUIRE(fresh.size() == 2);
  CHECK(fresh[0].timestamp == 2000);
  CHECK(nvme_fdp::new_events({}, after).size() == 4);
  CHECK(nvme_fdp::new_events(before, before).empty());
  x.put(0, 4, 4);  // announces more events than the page holds
  CHECK_THROWS_WITH(nvme_fdp::parse_events(x.b, "dev"), Contains("dev: FDP events log: 4 events need"));
  CHECK_THROWS_WITH(nvme_fdp::parse_events(std::vector<uint8_t>(10), "dev"),
                    Contains("shorter than its 64-byte header"));
}
