#pragma once
// Decoding of the NVMe FDP data a device returns, from raw bytes, and the
// mapping of a trace's placement IDs onto the device's placement
// identifiers. Pure functions over byte spans: unit-tested against fixtures
// laid out by hand from the specification (TP4146 / NVMe 2.1):
//   log page 0x20  FDP configurations (16-byte header, then descriptors of
//                  64 bytes + 4 per reclaim unit handle + vendor bytes)
//   log page 0x22  FDP statistics (HBMW, MBMW, MBE: 128-bit byte counters)
//   I/O Management Receive (0x12), operation 1: reclaim unit handle status
//                  (16-byte header, then 32-byte descriptors)
//   log page 0x23  FDP events (64-byte header, then 64-byte events)
//   Get Features 0x1D (FDP), completion dword 0: bit 0 FDPE, bits 15:8 the
//                  index of the FDP configuration in use
// Malformed data throws InputError starting with `source` (the device path).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/message.h"

namespace ftlsim::replay::nvme_fdp {

// An unsigned 128-bit counter as the statistics log stores it.
struct U128 {
  uint64_t lo = 0;
  uint64_t hi = 0;
  friend bool operator==(const U128&, const U128&) = default;
};
[[nodiscard]] U128 u128_from_le(std::span<const uint8_t, 16> bytes);
// a - b; REQUIRES a >= b (counters only grow). Wraps modulo 2^128 otherwise.
[[nodiscard]] U128 u128_sub(U128 a, U128 b);
[[nodiscard]] double u128_to_double(U128 v);
[[nodiscard]] std::string u128_to_decimal(U128 v);

struct Statistics {
  U128 hbmw;  // host bytes with metadata written
  U128 mbmw;  // media bytes with metadata written
  U128 mbe;   // media bytes erased
};
// The 64-byte statistics log page. Throws when shorter than 64 bytes.
[[nodiscard]] Statistics parse_statistics(std::span<const uint8_t> page, std::string_view source);

// The device's write amplification between two readings: delta MBMW / delta
// HBMW; 0 when the host wrote nothing in between.
[[nodiscard]] double device_waf(const Statistics& before, const Statistics& after);

enum class RuhType : uint8_t { kInitiallyIsolated = 1, kPersistentlyIsolated = 2 };

struct Configuration {
  bool valid = false;                 // FDPA bit 7
  bool volatile_write_cache = false;  // FDPA bit 4
  unsigned rgif = 0;                  // FDPA bits 3:0: PID bits naming the reclaim group
  uint32_t reclaim_groups = 0;        // NRG
  uint16_t handles = 0;               // NRUH (a count, not 0's based)
  uint16_t max_pids_field = 0;        // MAXPIDS as stored
  uint32_t namespaces_field = 0;      // NNSS as stored
  uint64_t ru_bytes = 0;              // RUNS: reclaim unit nominal size
  uint32_t ru_time_limit_s = 0;       // ERUTL, 0 = none reported
  std::vector<uint8_t> ruh_types;     // one RUHT per handle (1 II, 2 PI, else reserved)
};
// Every descriptor of the configurations log page (NUMFDPC is 0's based).
// Checks that the page is at least the header, that the log size field and
// every descriptor size stay within the bytes given, and that each
// descriptor holds its handles and vendor bytes.
[[nodiscard]] std::vector<Configuration> parse_configurations(std::span<const uint8_t> page, std::string_view source);

struct RuhStatus {
  uint16_t pid = 0;         // placement identifier (reclaim group and handle)
  uint16_t ruhid = 0;       // reclaim unit handle it points at
  uint32_t earutr_s = 0;    // estimated active RU time remaining
  uint64_t ruamw_lbas = 0;  // RU available media writes
};
// The reclaim unit handle status data (NRUHSD is a count). Throws when the
// buffer is shorter than the descriptors it announces.
[[nodiscard]] std::vector<RuhStatus> parse_ruh_status(std::span<const uint8_t> data, std::string_view source);

// How many logical blocks were written into a handle's reclaim units
// between two readings of its RUAMW, modulo the RU size: a device starts a
// new RU (RUAMW back to the RU size) each time one fills, so only the
// remainder is visible. Exact when fewer than `ru_lbas` blocks were written.
// REQUIRES ru_lbas > 0, before and after <= ru_lbas.
[[nodiscard]] uint64_t ruamw_consumed(uint64_t before, uint64_t after, uint64_t ru_lbas);

// One entry of the FDP events log (0x23). Event types (TP4146): host
// events 0x00 RU not fully written, 0x01 RU active time limit exceeded,
// 0x02 controller-level reset modified RUHs, 0x03 invalid placement
// identifier; controller events 0x80 media reallocated, 0x81 implicitly
// modified RUH.
struct Event {
  uint8_t type = 0;
  uint8_t flags = 0;  // bit 0 PIV (pid valid), 1 NSIDV, 2 LV (rgid/ruhid valid)
  uint16_t pid = 0;
  uint64_t timestamp = 0;  // bytes 4..11 as stored (the Timestamp feature's format)
  uint32_t nsid = 0;
  uint16_t rgid = 0;
  uint8_t ruhid = 0;
  friend bool operator==(const Event&, const Event&) = default;
};
inline constexpr uint8_t kEventRuNotFullyWritten = 0x00;
inline constexpr uint8_t kEventInvalidPid = 0x03;
// The events the log holds (NUMFDPE, a count). Throws when the page is
// shorter than its header or than the events it announces.
[[nodiscard]] std::vector<Event> parse_events(std::span<const uint8_t> page, std::string_view source);
// "RU not fully written", ..., or "type 0x42" for one the spec does not name.
[[nodiscard]] std::string event_type_name(uint8_t type);
// The events of `after` that are not in `before` (the log is a ring of the
// most recent events: a reading holds the previous one's tail first).
[[nodiscard]] std::vector<Event> new_events(std::span<const Event> before, std::span<const Event> after);

struct FdpFeature {
  bool enabled = false;      // FDPE
  uint8_t config_index = 0;  // FDPCIDX
};
[[nodiscard]] FdpFeature parse_fdp_feature(uint32_t dword0);

// Identify Controller CTRATT bit 19: the controller supports FDP.
inline constexpr uint32_t kCtrattFdpSupported = 1u << 19;

// Why FDP placement cannot be used, or "" when it can: the controller lacks
// FDP, FDP is not enabled on the endurance group, the configuration index is
// beyond the log, or that configuration is not marked valid.
[[nodiscard]] Message fdp_refusal(uint32_t ctratt, const FdpFeature& feature, std::span<const Configuration> configs);

// The placement identifier each trace placement ID is sent with, indexed by
// trace ID (entries of IDs not in `used` are 0): trace ID p uses placement
// handle p of reclaim group `rg`, PID = (rg << (16 - RGIF)) | p
// (nvme_cmd.h). Each such PID must appear in the RUH status the namespace
// reported; otherwise throws InputError naming the first trace ID without a
// handle and the handles that exist, unless `allow_unlisted` (then the PID
// is sent as computed and the device decides: the specification has it
// placed by placement handle 0 and, where enabled, an Invalid Placement
// Identifier event logged). Also throws when rg >= NRG or an ID does not fit
// in the PID's handle bits.
[[nodiscard]] std::vector<uint16_t> map_placement_ids(const Configuration& config, std::span<const RuhStatus> status,
                                                      uint32_t rg, std::span<const uint16_t> used,
                                                      std::string_view source, bool allow_unlisted = false);

}  // namespace ftlsim::replay::nvme_fdp
