#pragma once
// NVMe Flexible Data Placement (TP4146, NVMe 2.1) configuration of the
// modelled device and its mapping onto the FTL engine: reclaim groups (RG)
// partition the lines (FEMU) or the dies, reclaim units (RU) are the erase
// units, and each reclaim unit handle (RUH) keeps one open RU per RG. The
// rules are FEMU's (docs/model.md); the vocabulary is in docs/fdp.md.
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/setting.h"
#include "ftl/ftl_layout.h"
#include "ftl/geometry.h"
#include "ftl/unit_shape.h"

namespace ftlsim::fdp {

using RuhId = uint16_t;

// --ruh-type: which handles are persistently isolated (PI: GC survivors stay
// with their handle) and which initially isolated (II: survivors go where
// rule 7 of docs/model.md says).
enum class RuhTypes : uint8_t {
  kAllPi,   // "pi": every handle PI (FEMU's default)
  kLastIi,  // "last-ii": the last handle II, the others PI (FEMU fdp.isolation_mode=1)
  kAllIi,   // "ii": every handle II
};
inline constexpr Choice<RuhTypes> kRuhTypeWords[] = {
    {RuhTypes::kAllPi, "pi", "all persistently isolated: GC survivors stay with their handle; FEMU's default"},
    {RuhTypes::kLastIi, "last-ii", "the last handle initially isolated, FEMU's fdp.isolation_mode=1"},
    {RuhTypes::kAllIi, "ii", "all initially isolated"}};
[[nodiscard]] std::string_view ruh_types_name(RuhTypes t);
// --pi-gc: "gc-ru" -> true (FdpConfig::pi_gc_ru), "host-ru" -> false.
inline constexpr Choice<bool> kPiGcWords[] = {{true, "gc-ru", "a GC reclaim unit of the same handle, FEMU"},
                                              {false, "host-ru", "appended to the handle's open host RU"}};
[[nodiscard]] std::string_view pi_gc_name(bool pi_gc_ru);

// --ii-gc: where survivors of an II handle's RU go.
enum class IiGc : uint8_t {
  kLastRuh,     // "last-ruh": the host RU of the last handle in the victim's RG (FEMU)
  kSharedGcRu,  // "gc-ru": one GC RU per RG shared by every II handle
};
inline constexpr Choice<IiGc> kIiGcWords[] = {
    {IiGc::kLastRuh, "last-ruh", "the host RU of the last handle, FEMU"},
    {IiGc::kSharedGcRu, "gc-ru", "one GC reclaim unit per RG shared by the ii handles"}};
[[nodiscard]] std::string_view ii_gc_name(IiGc g);

// --rg-split: what a reclaim group is made of.
enum class RgSplit : uint8_t {
  kLines,  // "lines": RGs split the lines; every RU spans all dies (FEMU)
  kDies,   // "dies": RGs split the dies in die order; an RU is one line of its RG's dies
  // "channels" (ConfFDP ssd_init_params, rg2physical, get_rg_id): RG g is
  // channels [g x C/R, (g+1) x C/R) with all their LUNs, or with more RGs
  // than channels LUNs [(g mod k) x L/k, ...) of channel g / k, k = R/C.
  kChannels,
};
inline constexpr Choice<RgSplit> kRgSplitWords[] = {
    {RgSplit::kLines, "lines", "a share of the lines; RUs span all dies, FEMU"},
    {RgSplit::kDies, "dies", "a share of the dies in die order (channel fastest); an RU is one line of them"},
    {RgSplit::kChannels, "channels",
     "whole channels, or an equal share of one channel's LUNs when there are more RGs than channels; an RU is "
     "one line of them, ConfFDP"}};
[[nodiscard]] std::string_view rg_split_name(RgSplit s);

// --rg-of: which RG a write goes to.
enum class RgOf : uint8_t {
  // "current" (FEMU 99ce4fb ssd_stream_write): the handle's current RU, which
  // is in RG 0 (taken there at start-up, and each RU that fills is replaced
  // from its own RG); the placement identifier's RG only picks where forced
  // GC runs (do_gc_fdp_style(ssd, rgid, ...)).
  kCurrent,
  kPid,  // "pid": the RU of the RG its placement identifier names (TP4146's intent)
  kLba,  // "lba": its LBA, in 1 MiB stripes over the RGs
};
inline constexpr Choice<RgOf> kRgOfWords[] = {
    {RgOf::kCurrent, "current",
     "the handle's current RU, in RG 0; the placement identifier's RG picks where forced GC runs, FEMU"},
    {RgOf::kPid, "pid", "the RU of the RG the placement identifier names"},
    {RgOf::kLba, "lba", "1 MiB LBA stripes over the RGs"}};
[[nodiscard]] std::string_view rg_of_name(RgOf r);

// The most handles a run may have (--ruh 1..256): the oracle placement
// keeps one handle per written slot in a byte (placement.h), 2^8 values.
inline constexpr uint32_t kMaxHandles = 256;

// The two-word FDP rules: FEMU's word first.
inline constexpr Choice<bool> kRuOpenWords[] = {
    {true, "startup", "every handle in every RG when the device starts, FEMU"},
    {false, "lazy", "on its first write there"}};
inline constexpr Choice<bool> kDeclinedWords[] = {{true, "requeue", "popped and inserted again, FEMU"},
                                                  {false, "keep", "left in place, ConfFDP and FEMU's line path"}};
// --pid-format: how a placement identifier is parsed (FdpConfig::pid_confdp
// and pid_min_rgif).
enum class PidFormat : uint8_t {
  kRgif,     // "rgif": FEMU's nvme_calc_rgif and nvme_pid2ph
  kRgifMin,  // "rgif-min": the fewest RG bits, every other bit the handle
  kConfdp,   // "confdp": handle = ID & 0xff, RG = ID >> 8
};
inline constexpr Choice<PidFormat> kPidFormatWords[] = {
    {PidFormat::kRgif, "rgif", "FEMU: RGIF = the bit length of the RG count, the handle the low 15 - RGIF bits"},
    {PidFormat::kRgifMin, "rgif-min", "the fewest bits that number the RGs, every other bit the handle"},
    {PidFormat::kConfdp, "confdp", "handle = ID & 0xff, RG = ID >> 8"}};
// --write-spill and --gc-spill: ConfFDP's moves to the nearest RG not at its
// high threshold (find_near_rg_id: the nearer of the first such RG above and
// the first below, the lower on a tie; the RG itself when there is none).
inline constexpr Choice<bool> kWriteSpillWords[] = {
    {false, "stay", "written into its RG all the same, FEMU"},
    {true, "nearest", "moved to the nearest RG not at its high threshold, ConfFDP"}};
inline constexpr Choice<bool> kGcSpillWords[] = {
    {false, "stay", "the victim's RG, FEMU"},
    {true, "nearest", "each copy to the nearest RG not at its high threshold, looked up again per copy, ConfFDP"}};
inline constexpr Choice<bool> kSingleWords[] = {
    {false, "line-path", "FEMU's non-FDP line path, one write pointer"},
    {true, "handle0", "ConfFDP, which has no non-FDP mode: every write through handle 0 of the same FDP device"}};

// Each field's setting (name, words, help) is declared in fdp/fdp_settings.h.
struct FdpConfig {
  uint32_t reclaim_groups = 1;  // --rg
  uint64_t ru_bytes = 0;        // --ru-size: 0 = one line (of an RG's dies with --rg-split dies or channels)
  uint32_t handles = 8;         // --ruh
  RuhTypes ruh_types = RuhTypes::kAllPi;
  // false: non-FDP (placement `single`): FEMU's line path, one stream shared
  // by host writes and GC; every other field but the time limit is ignored.
  bool isolated_gc = true;
  // Persistently isolated handles: survivors go to a GC RU of their handle
  // (true, FEMU) or are appended to the handle's host RU (false).
  bool pi_gc_ru = true;
  IiGc ii_gc = IiGc::kLastRuh;
  // --ru-open: every handle takes an RU in every RG at start-up (true, FEMU)
  // or on its first write into that RG (false).
  bool open_at_start = true;
  RgSplit rg_split = RgSplit::kLines;
  RgOf rg_of = RgOf::kCurrent;
  // --declined: a background pass that declines its victim (fewer than 1/8
  // of its slots invalid) pops it and inserts it again (true, FEMU's
  // select_victim_ru) or leaves it in place (false, ConfFDP's
  // select_victim_line; FEMU's line path).
  bool declined_requeue = true;
  // --pid-format: false (FEMU) parses a placement identifier by TP4146's
  // RGIF and writes an invalid one through handle 0 in RG 0 as the event
  // "invalid placement identifier"; true (ConfFDP fdpssd_write): handle =
  // pid & 0xff, RG = pid >> 8, an invalid handle becomes the last handle and
  // an invalid RG the last RG (ConfFDP logs no event; ftlsim still counts them).
  bool pid_confdp = false;
  // --pid-format rgif-min: RGIF = the fewest bits that number the RGs and
  // every other bit the handle (TP4146's layout, ftlsim's earlier rule);
  // false (FEMU): RGIF = the bit length of the RG count (nvme_calc_rgif: 2
  // RGs take 2 bits) and the handle the low 15 - RGIF bits (nvme_pid2ph).
  bool pid_min_rgif = false;
  // --single: false (FEMU) runs placement `single` on FEMU's line path (one
  // stream shared by host writes and GC); true (ConfFDP, which has no
  // separate non-FDP mode) writes everything through handle 0 of the same
  // FDP device, the other handles keeping their open RUs.
  bool single_handle0 = false;
  // --write-spill: false (FEMU) writes a request into its RG even when the
  // forced passes left it at its high threshold; true (ConfFDP fdpssd_write):
  // then into the nearest RG not at it (docs/model.md rule 9).
  bool spill_writes = false;
  // --gc-spill: false (FEMU) copies survivors within the victim's RG; true
  // (ConfFDP do_gc, gc_write_page): a forced victim with fewer than 1/10 of
  // its slots invalid sends each copy to the nearest RG not at its high
  // threshold, looked up again per copy (docs/model.md rule 6).
  bool spill_gc = false;
  // --ru-time-limit: an RU that host writes reach is closed this long (trace
  // time) after its first host write, full or not; 0 = no limit.
  uint64_t ru_time_limit_ns = 0;

  // Whether handle h is persistently isolated.
  [[nodiscard]] bool is_pi(uint32_t h) const {
    return ruh_types == RuhTypes::kAllPi || (ruh_types == RuhTypes::kLastIi && h + 1 < handles);
  }
  // Bits of a placement identifier that number the RG (TP4146 RGIF): 0 for
  // one RG; otherwise FEMU's nvme_calc_rgif (the bit length of the RG
  // count), or with pid_min_rgif the fewest bits that number the RGs.
  [[nodiscard]] uint32_t rgif() const;
  // Mask of the placement handle bits below the RG bits: FEMU's nvme_pid2ph
  // keeps the low 15 - RGIF bits (the bit just below the RG bits is read by
  // neither), rgif-min the low 16 - RGIF; all 16 bits with one RG.
  [[nodiscard]] uint32_t handle_mask() const;
  // Whether initially isolated handles share one GC RU per RG (--ii-gc gc-ru
  // with at least one II handle): the extra "gc" handle of the reports.
  [[nodiscard]] bool has_shared_gc_ru() const {
    return isolated_gc && ii_gc == IiGc::kSharedGcRu && ruh_types != RuhTypes::kAllPi;
  }
};

// Resolves --ru-size against the geometry. An RU is either `k` blocks per
// plane on every die of its die group (k dividing the blocks per plane;
// k = 1 is one line of the group) or one block per plane on a divisor of the
// group's dies. With --rg-split lines the RUs of all dies are dealt to the
// RGs in order, units / RGs each (the rest unused, as FEMU). With
// --rg-split channels the RGs must be whole channels (RGs dividing the
// channels) or equal shares of one channel's LUNs (RGs a multiple of the
// channels, RGs / channels dividing the LUNs): ConfFDP's rg2physical has no
// die set for any other count. Throws InputError listing the sizes that
// would work, or naming the split that does not.
// (The line path's shape is ftl::line_shape.)
[[nodiscard]] ftl::UnitShape resolve_ru_shape(const ftl::Geometry& g, const FdpConfig& c);

// The engine layout under FDP: ftl::unit_layout of the RU shape, with the
// streams FDP adds on top. Host stream of handle h in RG g: h * RGs + g. A
// PI handle's GC stream: (handles + h) * RGs + g; the shared GC stream of II
// handles (--ii-gc gc-ru): 2 * handles * RGs + g. Streams a configuration
// never uses are marked unused. (stream_map.h maps handles and RGs to these
// streams.) REQUIRES: c.isolated_gc (FDP on; the line path's layout is
// ftl::line_layout). Throws InputError for inconsistent settings.
[[nodiscard]] ftl::FtlLayout make_layout(const ftl::Geometry& g, const FdpConfig& c);

}  // namespace ftlsim::fdp
