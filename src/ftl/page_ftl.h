#pragma once
// Page-mapped FTL with FEMU BlackBox line GC (MODEL_REFERENCE.md section 1),
// fast mode: exact bookkeeping, no timing.
//
// Layout: physical slot s lives in line s / slots_per_line at offset
// s % slots_per_line, offsets in the order FEMU's write pointer visits them
// (channel fastest, then LUN, then page), so consecutive slots stripe across
// channels and LUNs. Host writes and GC relocations share one write pointer,
// as in FEMU's bbssd.
//
// A valid bit per physical slot lets GC find live slots by scanning words
// instead of probing l2p at random for every slot of the victim; what a
// relocation then does to l2p is a store, which does not stall the loop.
// Memory: 8.125 bytes per physical slot plus 4 per logical slot.
//
// Thresholds (FEMU ftl.c): forced GC runs while free_lines <= high lines,
// checked before every slot written (FEMU checks at the start of each write
// request; the two differ only for a request that crosses a line boundary,
// by less than that request); background GC runs one pass after a request
// while free_lines <= thres lines and only takes a victim with at least
// slots_per_line / 8 invalid slots.
#include <cassert>
#include <cstdint>
#include <string>
#include <vector>

#include "core/huge_array.h"
#include "ftl/fast_div.h"
#include "ftl/ftl_config.h"
#include "ftl/ftl_stats.h"
#include "ftl/line_table.h"

namespace ftlsim::ftl {

inline constexpr uint32_t kUnmapped = 0xFFFFFFFFu;

// Runs check_invariants() after GC passes in debug/asan builds.
#ifdef FTLSIM_INVARIANTS
inline constexpr bool kCheckInvariants = true;
#else
inline constexpr bool kCheckInvariants = false;
#endif

template <class Victims>
class PageFtl {
 public:
  // REQUIRES: cfg.validate() passes (throws InputError otherwise).
  explicit PageFtl(const FtlConfig& cfg, Victims victims = Victims{});

  // Host writes one 4 KiB logical slot. REQUIRES lpn < logical_slots().
  void write(uint32_t lpn) {
    if (free_count_ <= high_lines_) [[unlikely]] {
      forced_gc();
    }
    const uint32_t old = l2p_[lpn];
    if (old != kUnmapped) {
      invalidate(old);
    } else {
      ++mapped_;
    }
    ++stats_.host_slots;
    program(lpn);
  }

  // Unmaps a logical slot (trim / discard). REQUIRES lpn < logical_slots().
  void trim(uint32_t lpn) {
    const uint32_t old = l2p_[lpn];
    if (old == kUnmapped) return;
    l2p_[lpn] = kUnmapped;
    --mapped_;
    ++stats_.trimmed_slots;
    invalidate(old);
  }

  [[nodiscard]] bool is_mapped(uint32_t lpn) const { return l2p_[lpn] != kUnmapped; }
  // Software pipelining for the host path: prefetch(lpn) a few requests
  // ahead brings the l2p entry in; prefetch_mapped(lpn) closer to the write,
  // once that entry is cached, brings in the old slot's valid-bit word.
  void prefetch(uint32_t lpn) const { __builtin_prefetch(&l2p_[lpn], 1, 3); }
  void prefetch_mapped(uint32_t lpn) const {
    const uint32_t old = l2p_[lpn];
    if (old != kUnmapped) __builtin_prefetch(&valid_bits_[old >> 6], 1, 3);
  }

  // FEMU's per-request background GC: one non-forced pass when free lines
  // are at or below the background threshold.
  void after_request() {
    if (free_count_ <= thres_lines_) gc_pass(false);
  }

  [[nodiscard]] const FtlStats& stats() const { return stats_; }
  [[nodiscard]] const LineTable& lines() const { return table_; }
  [[nodiscard]] uint32_t free_lines() const { return free_count_; }
  [[nodiscard]] uint64_t mapped_slots() const { return mapped_; }
  [[nodiscard]] uint32_t logical_slots() const { return static_cast<uint32_t>(l2p_.size()); }
  [[nodiscard]] uint64_t physical_slots() const { return p2l_.size(); }
  [[nodiscard]] uint32_t thres_lines() const { return thres_lines_; }
  [[nodiscard]] uint32_t thres_lines_high() const { return high_lines_; }

  // Recounts everything from the maps; returns one message per violation
  // (empty when consistent): valid counts equal live slots per line, their
  // sum equals mapped logical slots, valid bits agree with the maps,
  // programmed = host + GC, no physical slot mapped twice, no mapping into a
  // free line, line states add up.
  [[nodiscard]] std::vector<std::string> check_invariants() const;

 private:
  void invalidate(uint32_t slot) {
    valid_bits_[slot >> 6] &= ~(uint64_t{1} << (slot & 63));
    const LineId l = div_.divide(slot);
    --table_.valid[l];
    if (table_.state[l] == LineState::kClosed) victims_.on_invalidate(table_, l);
  }
  // Places lpn at the write pointer.
  void program(uint32_t lpn) {
    const uint32_t s = open_base_ + open_off_;
    l2p_[lpn] = s;
    p2l_[s] = lpn;
    valid_bits_[s >> 6] |= uint64_t{1} << (s & 63);
    ++table_.valid[open_];
    ++stats_.programmed_slots;
    if (++open_off_ == spl_) [[unlikely]] {
      advance_line();
    }
  }
  void forced_gc();
  bool gc_pass(bool force);
  void advance_line();
  void erase_line(LineId l);
  void clear_valid_bits(uint32_t begin, uint32_t end);
  void push_free(LineId l);
  LineId pop_free();
  void maybe_check_invariants() const;

  Victims victims_;
  FastDiv div_;
  uint32_t spl_ = 0;           // slots per line
  uint32_t thres_lines_ = 0;   // background threshold, lines
  uint32_t high_lines_ = 0;    // forced threshold, lines
  uint32_t bg_min_invalid_ = 0;
  HugeArray<uint32_t> l2p_;         // logical slot -> physical slot or kUnmapped
  HugeArray<uint32_t> p2l_;         // physical slot -> logical slot last written there
  HugeArray<uint64_t> valid_bits_;  // physical slot holds live data
  LineTable table_;
  std::vector<LineId> free_ring_;  // FIFO of free lines (FEMU's free_line_list)
  uint32_t free_head_ = 0;
  uint32_t free_count_ = 0;
  LineId open_ = kNoLine;
  uint32_t open_base_ = 0;
  uint32_t open_off_ = 0;
  uint64_t mapped_ = 0;
  FtlStats stats_;
};

}  // namespace ftlsim::ftl

#include "ftl/page_ftl_impl.h"
