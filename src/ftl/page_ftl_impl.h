#pragma once
// Out-of-line parts of PageFtl (GC, line management, invariants). Included by
// page_ftl.h only.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "ftl/page_ftl.h"
#include "ftl/victim_sampled.h"

namespace ftlsim::ftl {

template <class Victims>
PageFtl<Victims>::PageFtl(const FtlConfig& cfg, Victims victims) : victims_(std::move(victims)) {
  cfg.validate();
  const Geometry& g = cfg.geometry;
  spl_ = static_cast<uint32_t>(g.slots_per_line());
  div_ = FastDiv(spl_);
  const uint32_t lines = g.lines();
  thres_lines_ = cfg.gc.thres_lines(lines);
  high_lines_ = cfg.gc.thres_lines_high(lines);
  bg_min_invalid_ = spl_ / 8;  // FEMU: victim->ipc < pgs_per_line / 8 is refused
  l2p_.assign(g.logical_slots(), kUnmapped);
  p2l_.assign(g.physical_slots(), kUnmapped);
  valid_bits_.assign((g.physical_slots() + 63) / 64, 0);
  table_.resize(lines, spl_);
  victims_.init(table_, cfg.gc.seed);
  free_ring_.assign(lines, kNoLine);
  for (LineId l = 0; l < lines; ++l) push_free(l);
  open_ = pop_free();
  table_.state[open_] = LineState::kOpen;
  open_base_ = open_ * spl_;
}

template <class Victims>
void PageFtl<Victims>::push_free(LineId l) {
  const auto n = static_cast<uint32_t>(free_ring_.size());
  free_ring_[(free_head_ + free_count_) % n] = l;
  ++free_count_;
}

template <class Victims>
LineId PageFtl<Victims>::pop_free() {
  if (free_count_ == 0) {
    // Unreachable for a validated configuration (FtlConfig::problems checks
    // that the data always leaves a line with invalid slots to clean).
    throw std::logic_error("FTL ran out of free lines");
  }
  const LineId l = free_ring_[free_head_];
  free_head_ = (free_head_ + 1) % static_cast<uint32_t>(free_ring_.size());
  --free_count_;
  return l;
}

template <class Victims>
void PageFtl<Victims>::advance_line() {
  table_.state[open_] = LineState::kClosed;
  table_.close_stamp[open_] = stats_.host_slots;
  victims_.on_close(table_, open_);
  open_ = pop_free();
  table_.state[open_] = LineState::kOpen;
  open_base_ = open_ * spl_;
  open_off_ = 0;
}

template <class Victims>
void PageFtl<Victims>::clear_valid_bits(uint32_t begin, uint32_t end) {
  for (uint32_t s = begin; s < end;) {
    const uint32_t span = std::min<uint32_t>(64 - (s & 63), end - s);
    const uint64_t mask = span == 64 ? ~uint64_t{0} : ((uint64_t{1} << span) - 1) << (s & 63);
    valid_bits_[s >> 6] &= ~mask;
    s += span;
  }
}

template <class Victims>
void PageFtl<Victims>::erase_line(LineId l) {
  table_.valid[l] = 0;
  table_.state[l] = LineState::kFree;
  ++table_.erase_count[l];
  ++stats_.line_erases;
  push_free(l);
}

template <class Victims>
void PageFtl<Victims>::forced_gc() {
  while (free_count_ <= high_lines_) {
    if (!gc_pass(true)) break;  // nothing to clean: every closed line fully valid
  }
}

template <class Victims>
bool PageFtl<Victims>::gc_pass(bool force) {
  if constexpr (std::is_same_v<Victims, CostBenefitVictims>) victims_.set_now(stats_.host_slots);
  const LineId victim = victims_.select(table_, force ? 1 : bg_min_invalid_);
  if (victim == kNoLine) {
    if (!force) ++stats_.gc_background_declined;
    return false;
  }
  if (stats_.gc_passes == 0) stats_.gc_onset_host_slots = stats_.host_slots;
  ++stats_.gc_passes;
  ++(force ? stats_.gc_forced_passes : stats_.gc_background_passes);

  // Copy live slots in physical order (FEMU: channel, LUN, page) to the
  // shared write pointer, finding them through the valid bits. The write
  // pointer lives in locals (stores into the maps cannot alias them).
  constexpr uint32_t kAhead = 64;  // slots; hides DRAM latency of the l2p stores
  uint32_t* const l2p = l2p_.data();
  uint32_t* const p2l = p2l_.data();
  uint64_t* const bits = valid_bits_.data();
  const uint32_t base = victim * spl_;
  const uint32_t end = base + spl_;
  uint32_t dest = open_base_ + open_off_;
  uint32_t dest_end = open_base_ + spl_;
  uint32_t dest_count = 0;  // copies into the open line not yet added to its valid count
  uint64_t copied = 0;
  for (uint32_t s = base; s < end;) {
    const uint32_t span = std::min<uint32_t>(64 - (s & 63), end - s);
    uint64_t word = bits[s >> 6] >> (s & 63);
    if (span < 64) word &= (uint64_t{1} << span) - 1;
    while (word != 0) {
      const uint32_t src = s + static_cast<uint32_t>(__builtin_ctzll(word));
      word &= word - 1;
      if (src + kAhead < end) {
        const uint32_t ahead = p2l[src + kAhead];
        if (ahead != kUnmapped) __builtin_prefetch(&l2p[ahead], 1, 3);
      }
      const uint32_t lpn = p2l[src];
      l2p[lpn] = dest;
      p2l[dest] = lpn;
      bits[dest >> 6] |= uint64_t{1} << (dest & 63);
      ++dest;
      ++dest_count;
      ++copied;
      if (dest == dest_end) [[unlikely]] {
        table_.valid[open_] += dest_count;
        dest_count = 0;
        open_off_ = spl_;
        advance_line();
        dest = open_base_;
        dest_end = open_base_ + spl_;
      }
    }
    s += span;
  }
  table_.valid[open_] += dest_count;
  open_off_ = dest - open_base_;
  stats_.gc_slots += copied;
  stats_.programmed_slots += copied;
  clear_valid_bits(base, end);
  erase_line(victim);
  maybe_check_invariants();
  return true;
}

template <class Victims>
void PageFtl<Victims>::maybe_check_invariants() const {
  if constexpr (kCheckInvariants) {
    // A full recount is O(physical slots); on large devices check every
    // 256th pass so debug runs stay usable.
    if (p2l_.size() > (1u << 20) && stats_.gc_passes % 256 != 1) return;
    const auto problems = check_invariants();
    if (!problems.empty()) throw std::logic_error("FTL invariant violated: " + problems.front());
  }
}

template <class Victims>
std::vector<std::string> PageFtl<Victims>::check_invariants() const {
  std::vector<std::string> out;
  std::vector<uint32_t> live(table_.size(), 0);
  uint64_t mapped = 0;
  for (uint32_t lpn = 0; lpn < l2p_.size(); ++lpn) {
    const uint32_t s = l2p_[lpn];
    if (s == kUnmapped) continue;
    ++mapped;
    if (s >= p2l_.size()) {
      out.push_back(fmt::format("lpn {} maps to slot {} beyond the device", lpn, s));
      continue;
    }
    if (p2l_[s] != lpn) {
      out.push_back(fmt::format("lpn {} maps to slot {} whose reverse entry is {} (slot mapped twice?)",
                                lpn, s, p2l_[s]));
    }
    const LineId l = div_.divide(s);
    if (table_.state[l] == LineState::kFree) {
      out.push_back(fmt::format("lpn {} maps into free line {}", lpn, l));
    }
    ++live[l];
  }
  for (uint64_t s = 0; s < p2l_.size(); ++s) {
    const bool bit = (valid_bits_[s >> 6] >> (s & 63)) & 1;
    const bool holds = p2l_[s] != kUnmapped && l2p_[p2l_[s]] == s;
    if (bit != holds) {
      out.push_back(fmt::format("slot {}: valid bit {} but the maps say {}", s, bit, holds ? "live" : "dead"));
      break;
    }
  }
  if (mapped != mapped_) out.push_back(fmt::format("mapped count {} != recount {}", mapped_, mapped));
  uint64_t valid_sum = 0;
  uint32_t free = 0, open = 0;
  for (LineId l = 0; l < table_.size(); ++l) {
    valid_sum += table_.valid[l];
    if (table_.valid[l] != live[l]) {
      out.push_back(fmt::format("line {} valid count {} != live slots {}", l, table_.valid[l], live[l]));
    }
    free += table_.state[l] == LineState::kFree;
    open += table_.state[l] == LineState::kOpen;
  }
  if (valid_sum != mapped) out.push_back(fmt::format("valid slots {} != mapped lpns {}", valid_sum, mapped));
  if (stats_.programmed_slots != stats_.host_slots + stats_.gc_slots) {
    out.push_back(fmt::format("programmed {} != host {} + gc {}", stats_.programmed_slots,
                              stats_.host_slots, stats_.gc_slots));
  }
  if (free != free_count_ || open != 1) {
    out.push_back(fmt::format("line states: {} free (list has {}), {} open", free, free_count_, open));
  }
  return out;
}

}  // namespace ftlsim::ftl
