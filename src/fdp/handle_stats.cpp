#include "fdp/handle_stats.h"

#include <fmt/format.h>

#include <charconv>

#include "fdp/stream_map.h"
#include "ftl/geometry.h"

namespace ftlsim::fdp {

std::string handle_name(const FdpConfig& c, uint32_t h) {
  return h == c.handles ? std::string("gc") : fmt::format("ruh{}", h);
}

bool handle_name_before(std::string_view a, std::string_view b) {
  const auto number = [](std::string_view s) -> std::optional<uint64_t> {
    if (s.size() <= 3 || s.substr(0, 3) != "ruh") return std::nullopt;
    uint64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data() + 3, s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
  };
  const auto na = number(a), nb = number(b);
  if (na && nb) return *na < *nb;
  if (na || nb) return na.has_value();
  return a < b;
}

std::vector<HandleStats> handle_stats(const FdpConfig& c, const EngineCounts& e) {
  constexpr uint64_t kSlot = ftl::kSlotBytes;
  const uint32_t n = c.isolated_gc ? c.handles + 1 : 1;
  std::vector<HandleStats> h(n);
  for (uint32_t i = 0; i < n; ++i) {
    h[i].name = handle_name(c, i);
    if (i != c.handles) h[i].ruh = i;
  }
  for (ftl::StreamId s = 0; s < e.streams.size(); ++s) {
    HandleStats& hs = h[stream_handle(c, s)];
    hs.host_bytes += e.streams[s].host_slots * kSlot;
    hs.gc_in_bytes += e.streams[s].gc_in_slots * kSlot;
    hs.gc_out_bytes += e.streams[s].gc_out_slots * kSlot;
    hs.mbe_bytes += e.streams[s].erased_units * e.unit_bytes;
    if (is_host_stream(c, s)) hs.ru_available_bytes += uint64_t{e.open_room[s]} * kSlot;
  }
  for (ftl::UnitId u = 0; u < e.unit_owner.size(); ++u) {
    if (e.unit_state[u] != ftl::UnitState::kFree) ++h[stream_handle(c, e.unit_owner[u])].units_in_use;
  }
  const double host = static_cast<double>(e.host_slots * kSlot);
  for (uint32_t i = 0; i < n; ++i) {
    HandleStats& hs = h[i];
    // FEMU counts HBMW and MBMW in the bytes the host sent (nvme_do_write_fdp:
    // nlb x secsz per write), not in the slots programmed.
    hs.hbmw_bytes =
        e.host_sent_bytes.empty() ? hs.host_bytes : (i < e.host_sent_bytes.size() ? e.host_sent_bytes[i] : 0);
    hs.mbmw_bytes = hs.hbmw_bytes + hs.gc_out_bytes;
    hs.waf_share = host == 0 ? 0.0 : static_cast<double>(hs.host_bytes + hs.gc_out_bytes) / host;
  }
  if (c.isolated_gc && !c.has_shared_gc_ru()) h.pop_back();
  return h;
}

}  // namespace ftlsim::fdp
