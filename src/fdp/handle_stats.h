#pragma once
// What a run reports per reclaim unit handle, the handles' names, and how
// the engine's per-stream and per-unit counters add up to them.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fdp/fdp_config.h"
#include "ftl/ftl_layout.h"
#include "ftl/page_ftl.h"
#include "ftl/unit_table.h"

namespace ftlsim::fdp {

// One reclaim unit handle (or, with --ii-gc gc-ru, the shared GC handle
// "gc"), as FEMU's RUH usage and FDP statistics logs report it per RUH.
struct HandleStats {
  std::string name;             // handle_name()
  std::optional<uint32_t> ruh;  // its number (the N of ruhN); none for the shared "gc" handle
  uint64_t host_bytes = 0;      // host slots placed through it x 4 KiB (what was programmed)
  uint64_t hbmw_bytes = 0;      // HBMW: the bytes the host sent through it (nlb x sector per write, FEMU's count)
  uint64_t gc_in_bytes = 0;     // GC survivors written into its RUs
  uint64_t gc_out_bytes = 0;    // survivors GC copied out of RUs it filled (the copying it causes)
  uint64_t mbmw_bytes = 0;    // MBMW charged to it: hbmw_bytes + gc_out_bytes (FEMU do_gc_fdp_style's statistics calls)
  uint64_t mbe_bytes = 0;     // MBE charged to it: bytes of its RUs that GC erased
  uint32_t units_in_use = 0;  // RUs it holds (open or closed) at the end (FEMU ru_in_use_cnt)
  uint64_t ru_available_bytes = 0;  // RUAMW: bytes still writable in its open host RUs, all RGs
  double waf_share = 0;             // (host + gc_out) / all host bytes; shares sum to the WAF
};

// Name of handle h for reports: "ruh3", or "gc" for h == handles, the
// shared GC RU of --ii-gc gc-ru.
[[nodiscard]] std::string handle_name(const FdpConfig& c, uint32_t h);

// Report order of handle names, for lists merged from several runs (sweep.csv
// columns, compare rows): ruh0, ruh1, ... by number, then the others (the
// shared "gc" handle) by name.
[[nodiscard]] bool handle_name_before(std::string_view a, std::string_view b);

// The engine's counters at the end of a run, as handle_stats() reads them.
struct EngineCounts {
  std::span<const ftl::StreamStats> streams;   // per stream
  std::span<const uint32_t> open_room;         // per stream: slots still unwritten in its open unit
  std::span<const ftl::StreamId> unit_owner;   // per unit: the stream that filled it
  std::span<const ftl::UnitState> unit_state;  // per unit
  uint64_t host_slots = 0;                     // host slots written, all streams
  std::span<const uint64_t> host_sent_bytes;   // per handle: bytes the host sent through it (empty: host slots x 4 KiB)
  uint64_t unit_bytes = 0;                     // bytes of one erase unit (RU)
};

// Per-handle statistics of a run simulated with configuration `c` (the
// effective one, effective_config()): one entry per handle, in handle order,
// and last the shared "gc" handle when c.has_shared_gc_ru(). Without
// isolation (placement `single`) one entry, ruh0, holds everything.
[[nodiscard]] std::vector<HandleStats> handle_stats(const FdpConfig& c, const EngineCounts& e);

}  // namespace ftlsim::fdp
