#include "ftl/ftl_config.h"

#include <fmt/format.h>

#include <cmath>

#include "core/error.h"

namespace ftlsim::ftl {

std::string_view victim_policy_name(VictimPolicy p) {
  switch (p) {
    case VictimPolicy::kGreedy: return "greedy";
    case VictimPolicy::kCostBenefit: return "cost-benefit";
    case VictimPolicy::kFifo: return "fifo";
    case VictimPolicy::kRandom: return "random";
    case VictimPolicy::kDChoice: return "d-choice";
  }
  return "unknown";
}

VictimPolicy parse_victim_policy(std::string_view name) {
  for (auto p : {VictimPolicy::kGreedy, VictimPolicy::kCostBenefit, VictimPolicy::kFifo,
                 VictimPolicy::kRandom, VictimPolicy::kDChoice}) {
    if (name == victim_policy_name(p)) return p;
  }
  throw InputError(fmt::format(
      "--victim: unknown policy '{}' (known: greedy, cost-benefit, fifo, random, d-choice)", name));
}

static uint32_t femu_threshold(double pcent, uint32_t lines) {
  // ftl.c: gc_thres_lines = (int)((1 - gc_thres_pcent) * tt_lines)
  return static_cast<uint32_t>((1.0 - pcent / 100.0) * static_cast<double>(lines));
}

uint32_t GcConfig::thres_lines(uint32_t lines) const { return femu_threshold(thres_pcent, lines); }
uint32_t GcConfig::thres_lines_high(uint32_t lines) const {
  return femu_threshold(thres_pcent_high, lines);
}

std::vector<std::string> FtlConfig::problems() const {
  std::vector<std::string> p = geometry.problems();
  const auto pct_ok = [](double v) { return std::isfinite(v) && v > 0.0 && v <= 100.0; };
  if (!pct_ok(gc.thres_pcent)) {
    p.push_back(fmt::format("--gc-thres {} must be a percentage in (0, 100]", gc.thres_pcent));
  }
  if (!pct_ok(gc.thres_pcent_high)) {
    p.push_back(fmt::format("--gc-thres-high {} must be a percentage in (0, 100]", gc.thres_pcent_high));
  }
  if (gc.victim == VictimPolicy::kDChoice && gc.d_choices == 0) {
    p.push_back("--d-choices must be at least 1");
  }
  if (!p.empty()) return p;

  const uint32_t lines = geometry.lines();
  const uint32_t high = gc.thres_lines_high(lines);
  if (gc.thres_pcent_high < gc.thres_pcent) {
    p.push_back(fmt::format("--gc-thres-high {} is below --gc-thres {}: forced GC would start before background GC",
                            gc.thres_pcent_high, gc.thres_pcent));
  }
  if (high < 1) {
    p.push_back(fmt::format(
        "--gc-thres-high {} holds back {} free lines of {}; at least 1 is needed as GC destination "
        "(for example --gc-thres-high {:.4g})",
        gc.thres_pcent_high, high, lines, 100.0 * (1.0 - 1.0 / lines)));
  }
  // With free <= high and every closed line fully valid, GC could not make
  // progress; that cannot happen while the data fits in the other lines.
  const uint64_t usable = (uint64_t{lines} - high - 1) * geometry.slots_per_line();
  if (high >= 1 && geometry.logical_slots() >= usable) {
    p.push_back(fmt::format(
        "logical capacity {} slots does not fit in the {} lines left after the {} free lines that "
        "--gc-thres-high holds back plus the open line; lower --logical or --gc-thres-high",
        geometry.logical_slots(), lines - high - 1, high));
  }
  return p;
}

void FtlConfig::validate() const {
  const auto p = problems();
  if (p.empty()) return;
  std::string joined;
  for (const auto& s : p) {
    if (!joined.empty()) joined += "; ";
    joined += s;
  }
  throw InputError("invalid configuration: " + joined);
}

}  // namespace ftlsim::ftl
