#include "fdp/stream_map.h"

namespace ftlsim::fdp {

uint32_t stream_handle(const FdpConfig& c, ftl::StreamId s) {
  if (!c.isolated_gc) return 0;
  const uint32_t hosts = c.handles * c.reclaim_groups;
  if (s < 2 * hosts) return (s % hosts) / c.reclaim_groups;
  return c.handles;
}

bool is_host_stream(const FdpConfig& c, ftl::StreamId s) { return !c.isolated_gc || s < c.handles * c.reclaim_groups; }

}  // namespace ftlsim::fdp
