#include "replay/fdp_log.h"

#include <fmt/format.h>
#include <nvme/types.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "core/error.h"
#include "replay/nvme_cmd.h"

namespace ftlsim::replay::nvme_fdp {
namespace {

// The layouts come from libnvme's definitions of the spec structures; the
// tests build their fixtures from the specification's byte offsets, so the
// two are checked against each other.
static_assert(sizeof(nvme_fdp_config_log) == 16);
static_assert(sizeof(nvme_fdp_config_desc) == 64);
static_assert(sizeof(nvme_fdp_ruh_desc) == 4);
static_assert(sizeof(nvme_fdp_stats_log) == 64);
static_assert(sizeof(nvme_fdp_ruh_status) == 16);
static_assert(sizeof(nvme_fdp_ruh_status_desc) == 32);
static_assert(sizeof(nvme_fdp_event) == 64);
static_assert(offsetof(nvme_fdp_events_log, events) == 64);

template <typename T>
T load(std::span<const uint8_t> bytes, size_t offset) {
  T v;
  std::memcpy(&v, bytes.data() + offset, sizeof v);
  return v;  // little-endian host (trace/record.h asserts it)
}

}  // namespace

U128 u128_from_le(std::span<const uint8_t, 16> bytes) {
  U128 v;
  std::memcpy(&v.lo, bytes.data(), 8);
  std::memcpy(&v.hi, bytes.data() + 8, 8);
  return v;
}

U128 u128_sub(U128 a, U128 b) {
  U128 r;
  r.lo = a.lo - b.lo;
  r.hi = a.hi - b.hi - (a.lo < b.lo ? 1 : 0);
  return r;
}

double u128_to_double(U128 v) { return static_cast<double>(v.hi) * 18446744073709551616.0 + static_cast<double>(v.lo); }

std::string u128_to_decimal(U128 v) {
  __extension__ using u128 = unsigned __int128;
  u128 x = (static_cast<u128>(v.hi) << 64) | v.lo;
  if (x == 0) return "0";
  std::string digits;
  while (x != 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(x % 10)));
    x /= 10;
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

Statistics parse_statistics(std::span<const uint8_t> page, std::string_view source) {
  if (page.size() < sizeof(nvme_fdp_stats_log)) {
    throw InputError(
        fmt::format("{}: FDP statistics log: {} bytes, want {}", source, page.size(), sizeof(nvme_fdp_stats_log)));
  }
  auto counter = [&](size_t offset) { return u128_from_le(page.subspan(offset).first<16>()); };
  return {counter(offsetof(nvme_fdp_stats_log, hbmw)), counter(offsetof(nvme_fdp_stats_log, mbmw)),
          counter(offsetof(nvme_fdp_stats_log, mbe))};
}

double device_waf(const Statistics& before, const Statistics& after) {
  const double host = u128_to_double(u128_sub(after.hbmw, before.hbmw));
  const double media = u128_to_double(u128_sub(after.mbmw, before.mbmw));
  return host == 0 ? 0.0 : media / host;
}

std::vector<Configuration> parse_configurations(std::span<const uint8_t> page, std::string_view source) {
  const auto fail = [&](const std::string& why) {
    return InputError(fmt::format("{}: FDP configurations log: {}", source, why));
  };
  if (page.size() < sizeof(nvme_fdp_config_log)) {
    throw fail(fmt::format("{} bytes, shorter than its {}-byte header", page.size(), sizeof(nvme_fdp_config_log)));
  }
  const size_t count = size_t{load<uint16_t>(page, offsetof(nvme_fdp_config_log, n))} + 1;  // 0's based
  const uint32_t log_size = load<uint32_t>(page, offsetof(nvme_fdp_config_log, size));
  if (log_size > page.size()) {
    throw fail(fmt::format("log size field says {} bytes but only {} were read", log_size, page.size()));
  }
  const std::span<const uint8_t> log = page.first(log_size);
  std::vector<Configuration> configs;
  size_t pos = sizeof(nvme_fdp_config_log);
  for (size_t i = 0; i < count; ++i) {
    if (pos + sizeof(nvme_fdp_config_desc) > log.size()) {
      throw fail(
          fmt::format("descriptor {} of {} starts at byte {} but the log ends at {}", i, count, pos, log.size()));
    }
    const std::span<const uint8_t> d = log.subspan(pos);
    const uint16_t dsize = load<uint16_t>(d, offsetof(nvme_fdp_config_desc, size));
    Configuration c;
    const uint8_t fdpa = load<uint8_t>(d, offsetof(nvme_fdp_config_desc, fdpa));
    c.rgif = (fdpa >> NVME_FDP_CONFIG_FDPA_RGIF_SHIFT) & NVME_FDP_CONFIG_FDPA_RGIF_MASK;
    c.volatile_write_cache = ((fdpa >> NVME_FDP_CONFIG_FDPA_FDPVWC_SHIFT) & NVME_FDP_CONFIG_FDPA_FDPVWC_MASK) != 0;
    c.valid = ((fdpa >> NVME_FDP_CONFIG_FDPA_VALID_SHIFT) & NVME_FDP_CONFIG_FDPA_VALID_MASK) != 0;
    const uint8_t vss = load<uint8_t>(d, offsetof(nvme_fdp_config_desc, vss));
    c.reclaim_groups = load<uint32_t>(d, offsetof(nvme_fdp_config_desc, nrg));
    c.handles = load<uint16_t>(d, offsetof(nvme_fdp_config_desc, nruh));
    c.max_pids_field = load<uint16_t>(d, offsetof(nvme_fdp_config_desc, maxpids));
    c.namespaces_field = load<uint32_t>(d, offsetof(nvme_fdp_config_desc, nnss));
    c.ru_bytes = load<uint64_t>(d, offsetof(nvme_fdp_config_desc, runs));
    c.ru_time_limit_s = load<uint32_t>(d, offsetof(nvme_fdp_config_desc, erutl));
    const size_t needed = sizeof(nvme_fdp_config_desc) + size_t{c.handles} * sizeof(nvme_fdp_ruh_desc) + vss;
    if (dsize < needed) {
      throw fail(fmt::format("descriptor {} is {} bytes but its {} handles and {} vendor bytes need {}", i, dsize,
                             c.handles, vss, needed));
    }
    if (pos + dsize > log.size()) {
      throw fail(fmt::format("descriptor {} ({} bytes at byte {}) runs past the end of the log ({} bytes)", i, dsize,
                             pos, log.size()));
    }
    for (uint16_t h = 0; h < c.handles; ++h) {
      const size_t at = sizeof(nvme_fdp_config_desc) + size_t{h} * sizeof(nvme_fdp_ruh_desc);
      c.ruh_types.push_back(load<uint8_t>(d, at + offsetof(nvme_fdp_ruh_desc, ruht)));
    }
    configs.push_back(std::move(c));
    pos += dsize;
  }
  return configs;
}

std::vector<RuhStatus> parse_ruh_status(std::span<const uint8_t> data, std::string_view source) {
  if (data.size() < sizeof(nvme_fdp_ruh_status)) {
    throw InputError(fmt::format("{}: reclaim unit handle status: {} bytes, shorter than its {}-byte header", source,
                                 data.size(), sizeof(nvme_fdp_ruh_status)));
  }
  const uint16_t n = load<uint16_t>(data, offsetof(nvme_fdp_ruh_status, nruhsd));
  const size_t needed = sizeof(nvme_fdp_ruh_status) + size_t{n} * sizeof(nvme_fdp_ruh_status_desc);
  if (data.size() < needed) {
    throw InputError(fmt::format("{}: reclaim unit handle status: {} descriptors need {} bytes, got {}", source, n,
                                 needed, data.size()));
  }
  std::vector<RuhStatus> out(n);
  for (uint16_t i = 0; i < n; ++i) {
    const std::span<const uint8_t> d =
        data.subspan(sizeof(nvme_fdp_ruh_status) + size_t{i} * sizeof(nvme_fdp_ruh_status_desc));
    out[i].pid = load<uint16_t>(d, offsetof(nvme_fdp_ruh_status_desc, pid));
    out[i].ruhid = load<uint16_t>(d, offsetof(nvme_fdp_ruh_status_desc, ruhid));
    out[i].earutr_s = load<uint32_t>(d, offsetof(nvme_fdp_ruh_status_desc, earutr));
    out[i].ruamw_lbas = load<uint64_t>(d, offsetof(nvme_fdp_ruh_status_desc, ruamw));
  }
  return out;
}

uint64_t ruamw_consumed(uint64_t before, uint64_t after, uint64_t ru_lbas) {
  return (before + ru_lbas - after) % ru_lbas;
}

std::vector<Event> parse_events(std::span<const uint8_t> page, std::string_view source) {
  constexpr size_t kHeader = offsetof(nvme_fdp_events_log, events);
  if (page.size() < kHeader) {
    throw InputError(
        fmt::format("{}: FDP events log: {} bytes, shorter than its {}-byte header", source, page.size(), kHeader));
  }
  const uint32_t n = load<uint32_t>(page, offsetof(nvme_fdp_events_log, n));
  if (n > (page.size() - kHeader) / sizeof(nvme_fdp_event)) {
    throw InputError(fmt::format("{}: FDP events log: {} events need {} bytes, got {}", source, n,
                                 kHeader + size_t{n} * sizeof(nvme_fdp_event), page.size()));
  }
  std::vector<Event> out(n);
  for (uint32_t i = 0; i < n; ++i) {
    const std::span<const uint8_t> d = page.subspan(kHeader + size_t{i} * sizeof(nvme_fdp_event));
    Event& e = out[i];
    e.type = load<uint8_t>(d, offsetof(nvme_fdp_event, type));
    e.flags = load<uint8_t>(d, offsetof(nvme_fdp_event, flags));
    e.pid = load<uint16_t>(d, offsetof(nvme_fdp_event, pid));
    e.timestamp = load<uint64_t>(d, offsetof(nvme_fdp_event, ts));
    e.nsid = load<uint32_t>(d, offsetof(nvme_fdp_event, nsid));
    e.rgid = load<uint16_t>(d, offsetof(nvme_fdp_event, rgid));
    e.ruhid = load<uint8_t>(d, offsetof(nvme_fdp_event, ruhid));
  }
  return out;
}

std::string event_type_name(uint8_t type) {
  switch (type) {
    case 0x00: return "RU not fully written";
    case 0x01: return "RU active time limit exceeded";
    case 0x02: return "controller-level reset modified RUHs";
    case 0x03: return "invalid placement identifier";
    case 0x80: return "media reallocated";
    case 0x81: return "implicitly modified RUH";
    default: return fmt::format("type {:#04x}", type);
  }
}

std::vector<Event> new_events(std::span<const Event> before, std::span<const Event> after) {
  // The longest tail of `before` that `after` starts with was already seen.
  size_t seen = 0;
  for (size_t k = std::min(before.size(), after.size()); k > 0; --k) {
    if (std::equal(before.end() - static_cast<std::ptrdiff_t>(k), before.end(), after.begin())) {
      seen = k;
      break;
    }
  }
  return {after.begin() + static_cast<std::ptrdiff_t>(seen), after.end()};
}

FdpFeature parse_fdp_feature(uint32_t dword0) {
  return {(dword0 & 1u) != 0, static_cast<uint8_t>((dword0 >> 8) & 0xffu)};
}

Message fdp_refusal(uint32_t ctratt, const FdpFeature& feature, std::span<const Configuration> configs) {
  if ((ctratt & kCtrattFdpSupported) == 0) {
    return "the controller does not support Flexible Data Placement (Identify Controller CTRATT bit 19 is 0)";
  }
  if (!feature.enabled) {
    return say(
        "FDP is not enabled on the namespace's endurance group (Get Features 0x1D: FDPE = 0); enable it with "
        "`nvme set-feature --feature-id=0x1d` on an empty endurance group, or replay with `placement` none");
  }
  if (feature.config_index >= configs.size()) {
    return fmt::format("FDP configuration index {} is beyond the {} configuration(s) in log page 0x20",
                       feature.config_index, configs.size());
  }
  if (!configs[feature.config_index].valid) {
    return fmt::format("FDP configuration {} is not marked valid (FDPA bit 7)", feature.config_index);
  }
  return {};
}

std::vector<uint16_t> map_placement_ids(const Configuration& config, std::span<const RuhStatus> status, uint32_t rg,
                                        std::span<const uint16_t> used, std::string_view source, bool allow_unlisted) {
  if (rg >= config.reclaim_groups) {
    throw InputError(say("`rg` {}: {} has {} reclaim group(s)", rg, source, config.reclaim_groups));
  }
  std::vector<uint32_t> handles;  // placement handles the namespace reports in group rg
  for (const RuhStatus& s : status) {
    if (nvme::pid_reclaim_group(s.pid, config.rgif) == rg) handles.push_back(nvme::pid_handle(s.pid, config.rgif));
  }
  std::sort(handles.begin(), handles.end());
  std::vector<uint16_t> map;
  for (const uint16_t p : used) {
    const std::optional<uint16_t> pid = nvme::placement_identifier(rg, p, config.rgif);
    const bool listed = pid && std::binary_search(handles.begin(), handles.end(), p);
    if (!listed && !(pid && allow_unlisted)) {
      throw InputError(
          say("{}: trace placement ID {} needs placement handle {} in reclaim group {}, but the namespace has {} "
              "handle(s) there ({}); merge IDs in the trace or replay with `placement` none",
              source, p, p, rg, handles.size(),
              handles.empty() ? std::string("none") : fmt::format("handles {}", fmt::join(handles, ","))));
    }
    if (map.size() <= p) map.resize(size_t{p} + 1, 0);
    map[p] = *pid;
  }
  return map;
}

}  // namespace ftlsim::replay::nvme_fdp
