#pragma once
// Placement policies: which reclaim unit handle each host write goes to.
//  single    non-FDP: every write to one handle, GC shares its write pointer
//  fdp       the trace's placement IDs as tagged (ID i -> handle i)
//  map:SPEC  remapped IDs, e.g. map:0=0,1=0,2=1 (unlisted IDs are invalid)
//  oracle    future knowledge: writes grouped by the time until their LBA is
//            next written or trimmed (usually better than any tagging)
//  interval  device-side, no host tags: by the overwrite interval the device
//            observed for the LBA (in the spirit of SepBIT, FAST 2022)
// Per-request policies look up a table; per-slot ones keep small arrays.
// Nothing here allocates per write.
// Below them: the policy of one run, chosen once (AnyPlacement,
// make_placement), and the FDP configuration a placement amounts to
// (PlacementSetup, effective_config).
#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/io_units.h"
#include "fdp/fdp_config.h"
#include "trace/record.h"
#include "trace/slot_remap.h"

namespace ftlsim::fdp {

enum class PlacementKind : uint8_t { kSingle, kFdp, kMap, kOracle, kInterval };

struct PlacementSpec {
  PlacementKind kind = PlacementKind::kSingle;
  std::string text = "single";                     // as given, for reports
  std::vector<std::pair<uint16_t, uint16_t>> map;  // kMap: pid -> handle
};

// Parses single | fdp | map:P=H,... | oracle | interval. Throws InputError.
[[nodiscard]] PlacementSpec parse_placement(std::string_view text);
[[nodiscard]] bool isolates(const PlacementSpec& p);  // everything but `single`
// The policy as one text for two specs that place alike: its word, or
// map: with the pairs in ID order (map:1=2,0=1 -> map:0=1,1=2).
[[nodiscard]] std::string canonical_text(const PlacementSpec& p);

inline constexpr uint16_t kInvalidHandle = 0xFFFF;

// Where a request goes: a handle and the reclaim group its placement
// identifier names (0 when the RG comes from the LBA, --rg-of lba).
struct Placed {
  uint16_t handle = 0;
  uint16_t rg = 0;
};

// single / fdp / map: a handle per placement identifier. The identifier is
// TP4146's: its top `rgif` bits name the RG and the rest the placement handle
// (fdp: handle i; map: the listed handles). An identifier naming an RG or
// handle the device lacks counts as the FDP event "invalid placement
// identifier" and is written through handle 0 in RG 0, as FEMU does. With
// FEMU's RGIF (nvme_calc_rgif, nvme_pid2ph) the handle is only the low
// 15 - rgif bits: bit 15 - rgif is read by neither part.
//
// With ConfFDP's parsing (`confdp`, --pid-format confdp; fdpftl.c
// fdpssd_write) the handle is pid & 0xff and the RG pid >> 8 whatever the RG
// count; an invalid handle is written through the last handle and an
// invalid RG through the last RG (still counted here; ConfFDP logs nothing).
class PidPlacement {
 public:
  static constexpr bool kPerSlot = false;  // slot_handle() returns the request's handle
  // Throws InputError for a map to a missing handle.
  // `handle_mask`: the placement handle bits below the RG bits
  // (FdpConfig::handle_mask(); ignored with `confdp`).
  PidPlacement(const PlacementSpec& spec, uint32_t handles, uint32_t rgs = 1, uint32_t rgif = 0, bool confdp = false,
               uint32_t handle_mask = 0xFFFF);
  Placed begin_request(const trace::Record& r) {
    const uint32_t rg = r.pid >> handle_bits_;
    const uint16_t h = table_[r.pid & handle_mask_];
    if (h != kInvalidHandle && rg < rgs_) [[likely]]
      return Placed{h, static_cast<uint16_t>(rg)};
    ++invalid_pid_requests_;
    return invalid(h, rg);
  }
  // Where a write with placement identifier `pid` goes, without counting
  // it (per-handle statistics from the bytes per identifier, after a run).
  [[nodiscard]] Placed placed_of(uint16_t pid) const {
    const uint32_t rg = uint32_t{pid} >> handle_bits_;
    const uint16_t h = table_[pid & handle_mask_];
    if (h != kInvalidHandle && rg < rgs_) return Placed{h, static_cast<uint16_t>(rg)};
    return invalid(h, rg);
  }
  [[nodiscard]] uint16_t slot_handle(uint16_t request_handle, uint32_t /*lpn*/) { return request_handle; }
  [[nodiscard]] uint64_t invalid_pid_requests() const { return invalid_pid_requests_; }
  void reset_counts() { invalid_pid_requests_ = 0; }  // --reset-at

 private:
  [[nodiscard]] Placed invalid(uint16_t h, uint32_t rg) const {
    if (confdp_) {
      return Placed{h != kInvalidHandle ? h : last_handle_, static_cast<uint16_t>(rg < rgs_ ? rg : rgs_ - 1)};
    }
    return Placed{};
  }

  std::vector<uint16_t> table_ = std::vector<uint16_t>(65536, kInvalidHandle);
  uint32_t handle_bits_ = 16;  // 16 - rgif (a shift of 16 leaves RG 0 for any 16-bit identifier)
  uint32_t handle_mask_ = 0xFFFF;
  uint32_t rgs_ = 1;
  bool confdp_ = false;
  uint16_t last_handle_ = 0;
  uint64_t invalid_pid_requests_ = 0;
};

// oracle: the handle of every written slot, computed before the run from the
// whole trace (oracle_handles() below).
class OraclePlacement {
 public:
  static constexpr bool kPerSlot = true;
  explicit OraclePlacement(std::vector<uint8_t> handle_of_write) : handles_(std::move(handle_of_write)) {}
  Placed begin_request(const trace::Record& /*r*/) { return {}; }
  [[nodiscard]] uint16_t slot_handle(uint16_t /*request*/, uint32_t /*lpn*/) { return handles_[next_++]; }
  [[nodiscard]] uint64_t invalid_pid_requests() const { return 0; }
  void reset_counts() {}

 private:
  std::vector<uint8_t> handles_;
  uint64_t next_ = 0;
};

// Handle of every written 4 KiB slot, in write order, for the oracle: the
// slot's lifetime (host slots written until its LBA is written or trimmed
// again; never = infinite) is bucketed by powers of two, and the buckets,
// shortest first, are split over handles 0 .. handles-2 in equal shares of
// write volume; slots never overwritten go to the last handle. Records are
// enumerated exactly as the simulation driver does (a trim ends the life of
// every slot it unmaps: all it touches unless `trim_keeps_partial`, and the
// slot after its range with `trim_plus_one`);
// malformed records are skipped (the driver reports them).
// With a non-empty `fit_map` (--logical fit:) trace slots are remapped
// through it instead of folded into `logical_slots` (the slot after a
// trimmed range that no record touches has no device slot: nothing ends).
[[nodiscard]] std::vector<uint8_t> oracle_handles(std::span<const trace::Record> records, uint32_t sector_bytes,
                                                  uint64_t logical_slots, bool wrap, uint32_t handles,
                                                  bool trim_keeps_partial = false, const trace::SlotRemap& fit_map = {},
                                                  bool trim_plus_one = false);

// interval: the device remembers when it last wrote each LBA (in host slots
// written since the start) and sends a rewrite with interval v to handle
// k = number of doublings of v above logical/2^(handles-1), capped; first
// writes of an LBA go to the last (coldest) handle. Intervals shorter than a
// 2^-(handles-1) fraction of the logical space land in handle 0.
class IntervalPlacement {
 public:
  static constexpr bool kPerSlot = true;
  IntervalPlacement(uint64_t logical_slots, uint32_t handles);
  Placed begin_request(const trace::Record& /*r*/) { return {}; }
  [[nodiscard]] uint16_t slot_handle(uint16_t /*request*/, uint32_t lpn) {
    const uint64_t now = ++clock_;
    const uint64_t last = last_write_[lpn];
    last_write_[lpn] = now;
    if (last == 0) return last_handle_;
    const uint64_t v = now - last;
    if (v < base_) return 0;
    const auto k = static_cast<uint32_t>(63 - __builtin_clzll(v / base_)) + 1;
    return static_cast<uint16_t>(k < last_handle_ ? k : last_handle_);
  }
  [[nodiscard]] uint64_t invalid_pid_requests() const { return 0; }
  void reset_counts() {}

 private:
  std::vector<uint64_t> last_write_;  // 0 = never written
  uint64_t clock_ = 0;
  uint64_t base_ = 1;
  uint16_t last_handle_ = 0;
};

// What the driver (sim/simulate.cpp) calls on a placement policy: once per
// request begin_request, once per slot written slot_handle (the request's
// handle, or the policy's per-slot choice when kPerSlot), reset_counts at
// the --reset-at marker and invalid_pid_requests at the end. A per-request
// policy also answers placed_of(pid), from which the driver adds up each
// handle's host bytes per placement ID after the run.
template <class P>
concept PlacedPerId = P::kPerSlot || requires(const P& cp, uint16_t pid) {
  { cp.placed_of(pid) } -> std::same_as<Placed>;
};
template <class P>
concept PlacementPolicy = PlacedPerId<P> &&
    requires(P p, const P& cp, const trace::Record& r, uint16_t handle, uint32_t lpn) {
  { P::kPerSlot } -> std::convertible_to<bool>;
  { p.begin_request(r) } -> std::same_as<Placed>;
  { p.slot_handle(handle, lpn) } -> std::same_as<uint16_t>;
  { cp.invalid_pid_requests() } -> std::convertible_to<uint64_t>;
  p.reset_counts();
};
static_assert(PlacementPolicy<PidPlacement> && PlacementPolicy<OraclePlacement> && PlacementPolicy<IntervalPlacement>);

// The placement policy of one run, chosen once: a std::variant over the
// policy classes above, so that the driver, dispatching once per run with
// std::visit, calls the policy without a virtual call per write.
using AnyPlacement = std::variant<PidPlacement, OraclePlacement, IntervalPlacement>;

// What make_placement needs to know of the run besides the policy.
struct PlacementInputs {
  std::span<const trace::Record> records;  // the whole trace (oracle reads it first)
  uint32_t sector_bytes = kSectorBytes;
  uint64_t logical_slots = 0;       // of the device
  bool wrap = false;                // --wrap
  bool trim_keeps_partial = false;  // --trim-partial keep
  bool trim_plus_one = false;       // --trim-range plus-one
  trace::SlotRemap fit_map;         // --logical fit: trace slot -> device slot; empty without
};

// The placement of `spec` on a device with FDP configuration `c` (the
// effective one: effective_config()). single, fdp and map: look up the
// write's placement identifier, whose RG bits name its reclaim group when
// the device isolates streams and --rg-of is pid; oracle reads the whole
// trace first; interval keeps a clock per logical slot. Throws InputError
// for a map to a missing handle.
[[nodiscard]] AnyPlacement make_placement(const PlacementSpec& spec, const FdpConfig& c, const PlacementInputs& in);

// How a run places its writes: the FDP device configuration and the policy
// that picks a handle per write, and the configuration they amount to.
// The default is the non-FDP core model (placement `single`).
struct PlacementSetup {
  FdpConfig fdp;
  PlacementSpec placement;
};

// The FDP configuration actually simulated: `single` placement turns
// isolation off (one handle, GC sharing its write pointer).
[[nodiscard]] FdpConfig effective_config(const PlacementSetup& setup);

}  // namespace ftlsim::fdp
