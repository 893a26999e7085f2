#pragma once
// Out-of-line parts of PageFtl (GC, line management, invariants). Included by
// page_ftl.h only.
#include <fmt/format.h>

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

  // Copy live slots in physical order (FEMU: channel, LUN, page), looking a
  // few slots ahead so the random l2p reads overlap.
  constexpr uint32_t kAhead = 16;
  const uint32_t base = victim * spl_;
  const uint32_t end = base + spl_;
  for (uint32_t s = base; s < end; ++s) {
    if (s + kAhead < end) {
      const uint32_t ahead = p2l_[s + kAhead];
      if (ahead != kUnmapped) __builtin_prefetch(&l2p_[ahead], 1, 0);
    }
    const uint32_t lpn = p2l_[s];
    if (lpn != kUnmapped && l2p_[lpn] == s) {
      ++stats_.gc_slots;
      program(lpn);
    }
  }
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
