#pragma once
// Which engine stream a host write goes to: FDP handles and reclaim groups
// numbered as the engine's streams (make_layout in fdp_config.h builds the
// streams in this numbering), and the reclaim group of each written slot.
#include <cstdint>

#include "fdp/fdp_config.h"
#include "ftl/ftl_layout.h"

namespace ftlsim::fdp {

// Index of the host stream for handle h in reclaim group g.
// (The driver passes the RG count it uses: 1 on the line path.)
[[nodiscard]] inline ftl::StreamId host_stream(uint32_t reclaim_groups, RuhId h, uint32_t g) {
  return static_cast<ftl::StreamId>(h) * reclaim_groups + g;
}

// The handle stream s belongs to (its host RU or its GC RU), or `handles`
// for the shared GC stream of --ii-gc gc-ru.
[[nodiscard]] uint32_t stream_handle(const FdpConfig& c, ftl::StreamId s);
// Whether stream s is a handle's host stream (not a GC stream).
[[nodiscard]] bool is_host_stream(const FdpConfig& c, ftl::StreamId s);

// The host stream of each written slot, on the simulation's hot path: two
// comparisons and a multiply, nothing looked up. `c` is the configuration
// simulated (effective_config): without isolation (placement `single`)
// every write goes to stream 0, FEMU's line path.
class StreamMap {
 public:
  explicit StreamMap(const FdpConfig& c)
      : rgs_(c.isolated_gc ? c.reclaim_groups : 1),
        rg_of_lba_(c.isolated_gc && c.rg_of == RgOf::kLba && c.reclaim_groups > 1),
        current_ru_(c.isolated_gc && c.rg_of == RgOf::kCurrent) {}

  // Reclaim group of device slot `lpn` of a request whose placement
  // identifier names RG `request_rg`, where its forced GC runs: that RG
  // (--rg-of current and pid), or with --rg-of lba the slot's 1 MiB LBA
  // stripe (256 slots) modulo the RGs.
  [[nodiscard]] uint32_t rg_of(uint32_t request_rg, uint32_t lpn) const {
    return rg_of_lba_ ? (lpn >> 8) % rgs_ : request_rg;
  }
  // The RG a request's slots are written into, for rg_of() per slot: the
  // named one, but RG 0 with --rg-of current (FEMU: the handle's current RU,
  // which stays in RG 0).
  [[nodiscard]] uint32_t write_rg(uint32_t request_rg) const { return current_ru_ ? 0 : request_rg; }
  // The host stream of handle `handle` in reclaim group `rg`.
  [[nodiscard]] ftl::StreamId stream(RuhId handle, uint32_t rg) const { return host_stream(rgs_, handle, rg); }

 private:
  uint32_t rgs_;
  bool rg_of_lba_;
  bool current_ru_;
};

}  // namespace ftlsim::fdp
