#pragma once
// Random small configurations and request streams for the differential test
// (test_differential.cpp): geometry, thresholds, placement, RGs, handles, handle types,
// the rule options, and a few thousand requests (writes of 1-24 sectors at
// uniform, hot/cold or sequential LBAs, aligned or not; trims, some partial;
// reads; flushes; markers; placement IDs with RG bits, some invalid).
// Deterministic given the seed: its own generator, no std distributions.
#include <cstdint>
#include <string>
#include <vector>

#include "reference_ftl.h"

namespace ftlsim::reftest {

struct RandomCase {
  uint64_t seed = 0;
  RefConfig cfg;
  std::vector<RefRequest> requests;
};

// splitmix64: small, fast, the same on every platform.
class CaseRng {
 public:
  explicit CaseRng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi].
  uint64_t range(uint64_t lo, uint64_t hi) { return lo + next() % (hi - lo + 1); }
  // True with probability percent / 100.
  bool chance(uint32_t percent) { return next() % 100 < percent; }

 private:
  uint64_t s_;
};

// A configuration the fast engine accepts (thresholds leave room for every
// open unit and the logical data, as ftl::layout_problems requires) and a
// request stream that stays inside the logical capacity.
[[nodiscard]] RandomCase make_random_case(uint64_t seed);

// Whether seed `seed` draws a case of ConfFDP's rules with several RGs
// (make_random_case draws those from a generator of their own).
[[nodiscard]] bool confdp_rgs_case(uint64_t seed);

// Bits of a PID that name the RG (RGIF): 0 for one RG; FEMU's
// nvme_calc_rgif (the bit length of the RG count), or with `min` the fewest
// bits that number the RGs (--pid-format rgif-min).
[[nodiscard]] uint32_t rgif_bits(uint32_t rgs, bool min = false);

// The ftlsim command line for `cfg` (options named as in docs/model.md).
[[nodiscard]] std::string cli_flags(const RefConfig& cfg);

}  // namespace ftlsim::reftest
