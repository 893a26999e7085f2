#pragma once
// A deliberately naive reference FTL written from docs/model.md alone, for
// the differential test against the fast engine. Plain structs
// per unit and per slot, linear scans, a std::deque free list per pool and
// the textbook 1-indexed binary heap of docs/model.md "Victim queue". It
// shares no code with src/: nothing here may be reused by the engine, or the
// check stops being independent. Speed does not matter; being easy to check
// against docs/model.md line by line does.
#include <cstdint>
#include <string>
#include <vector>

namespace ftlsim::reftest {

inline constexpr uint32_t kNone = UINT32_MAX;
inline constexpr uint64_t kNoOnset = UINT64_MAX;

// docs/model.md rule 5 and --ruh-type.
enum class RuhTypes : uint8_t { pi, last_ii, ii };

struct RefConfig {
  uint32_t channels = 2;
  uint32_t luns = 1;    // per channel
  uint32_t planes = 1;  // per LUN
  uint32_t blocks = 6;  // per plane = lines
  uint32_t pages = 4;   // per block; 4 KiB pages only, so a page is a slot
  uint64_t logical_slots = 0;
  double gc_thres = 75.0;       // --gc-thres (percent)
  double gc_thres_high = 95.0;  // --gc-thres-high (percent)
  bool fdp = false;             // false: placement single = FEMU's line path (rule 1)
  uint32_t rgs = 1;             // reclaim groups (ignored without fdp)
  uint32_t handles = 1;         // reclaim unit handles (ignored without fdp)
  RuhTypes ruh_types = RuhTypes::pi;
  bool pi_gc_ru = true;        // rule 6 (false: --pi-gc host-ru)
  bool ii_gc_last_ruh = true;  // rule 7 (false: --ii-gc gc-ru, one shared GC RU per RG)
  bool open_at_start = true;   // rule 4 (false: --ru-open lazy)
  bool rg_split_lines = true;  // rule 3 (false: --rg-split dies, or channels below)
  // Rule 3's ConfFDP column (with rg_split_lines false: --rg-split channels):
  // RG g is whole channels, or an equal share of one channel's LUNs.
  bool rg_split_channels = false;
  bool rg_of_pid = true;  // rule 8 (false: --rg-of lba, RG = (slot / 256) % rgs)
  // Rule 8 with rg_of_pid: every host write into the handle's current RU,
  // in RG 0, the PID's RG naming only the pool of forced GC (false: --rg-of
  // pid, the RU of the PID's RG).
  bool rg_current = true;
  // Rule 8: false: RGIF = the bit length of the RG count and the handle the
  // low 15 - RGIF bits; true: --pid-format rgif-min (the fewest bits that
  // number the RGs, every other bit the handle).
  bool pid_min_rgif = false;
  bool forced_check_per_slot = false;  // rule 9 (true: --gc-check page)
  bool every_pool = false;             // rule 10 (true: --rg-gc every)
  bool trim_keeps_partial = false;     // rule 16 (true: --trim-partial keep)
  uint32_t lines_per_ru = 1;           // RU = this many consecutive lines (rg_split_lines only; must divide blocks)
  // ConfFDP's rules (docs/model.md, the ConfFDP column), each on its own:
  bool gc_page_order = false;   // rule 14 (true: --gc-order page)
  bool declined_keep = false;   // rule 13 (true: --declined keep)
  uint32_t forced_passes = 0;   // rule 9 (N > 0: --forced-passes N)
  bool trim_plus_one = false;   // rule 16 (true: --trim-range plus-one)
  bool pid_confdp = false;      // rule 8 (true: --pid-format confdp)
  bool single_handle0 = false;  // rule 1 (true: --single handle0; placement single on the FDP device)
  // Rules 9 and 6, ConfFDP's moves to the nearest RG not at its high threshold:
  bool write_spill = false;  // a write request still at it after its forced passes (--write-spill nearest)
  bool gc_spill = false;     // each copy of a forced victim with < U/10 invalid (--gc-spill nearest)
  // ftlsim's watermark trigger (docs/model.md, "The watermark trigger"):
  // no U/8 rule, and background passes until the pool is above its threshold.
  bool gc_watermark = false;  // --gc-trigger watermark
  // --reset-at: 0 none, 1 device:reset_marker, 2 counters:reset_marker.
  uint8_t reset_kind = 0;
  uint64_t reset_marker = 0;
};

// op as trace::Op: 0 write, 1 read, 2 trim, 3 flush, 4 marker.
struct RefRequest {
  uint8_t op = 0;
  uint64_t lba = 0;  // 512-byte sectors
  uint32_t sectors = 0;
  uint16_t pid = 0;
  uint64_t time_ns = 0;
};

struct RefHandle {
  uint64_t host_slots = 0;    // host slots written through it
  uint64_t hbmw_bytes = 0;    // bytes the host sent through it (sectors x 512 per write request)
  uint64_t gc_out_slots = 0;  // survivors GC copied out of units it took
  uint64_t gc_in_slots = 0;   // survivors GC wrote into units it took
  uint64_t erased_units = 0;  // its units GC erased
  uint32_t units_in_use = 0;  // units it took that are not free at the end
};

struct RefResult {
  uint64_t host_slots = 0, gc_slots = 0, unit_erases = 0;
  uint64_t hbmw_bytes = 0;  // the FDP log's HBMW: sectors x 512 of every write request
  uint64_t gc_passes = 0, gc_forced_passes = 0, gc_background_passes = 0;
  // A background pass whose victim was refused (rules 12 and 13).
  uint64_t gc_background_declined = 0;
  // A background pass that found the victim heap empty (not counted as
  // declined; reported so a differing reading in the engine is easy to spot).
  uint64_t gc_background_no_victim = 0;
  uint64_t gc_onset_host_slots = kNoOnset;
  uint64_t trimmed_slots = 0, rmw_slots = 0, rmw_read_slots = 0, partial_trim_slots = 0;
  uint64_t trim_extra_slots = 0;  // --trim-range plus-one: mapped slots after a range it unmapped
  uint64_t unmapped_read_slots = 0;
  uint32_t free_units_end = 0;
  uint64_t mapped_slots_end = 0;
  uint64_t invalid_pid_requests = 0;
  // Not compared with the engine (it does not count them); the differential
  // test reports them to show the moves to another RG were exercised.
  uint64_t spilled_writes = 0;  // write requests moved to another RG
  uint64_t spilled_copies = 0;  // GC copies written into another RG than the victim's
  uint32_t slots_per_unit = 0;
  uint32_t units_per_pool = 0;
  std::vector<uint32_t> erase_count_per_unit;  // units of the pools (unused lines left out)
  // Line path: one entry. FDP: one per handle, plus a last "gc" entry for
  // the shared GC RU when --ii-gc gc-ru is set and some handle is II.
  std::vector<RefHandle> handles;
  // Physical slot per logical slot (kNone: unmapped), numbered as in
  // docs/model.md "Where slots live": unit * slots_per_unit + offset.
  std::vector<uint32_t> l2p;
};

// Throws std::runtime_error("device full") when a pool has no free unit
// when one is needed, std::invalid_argument for an unusable configuration or
// a request beyond the logical capacity.
[[nodiscard]] RefResult run_reference(const RefConfig& cfg, const std::vector<RefRequest>& requests);

// One line naming every field, for failure messages.
[[nodiscard]] std::string describe(const RefConfig& cfg);

}  // namespace ftlsim::reftest
