#pragma once
// Zipf-distributed ranks in O(1) expected time per sample, and a fixed
// pseudo-random permutation that scatters ranks over the page space.
#include <cassert>
#include <cmath>
#include <cstdint>

#include "core/rng.h"

namespace ftlsim::workload {

// Draws k in [1, n] with P(k) = k^-theta / H(n, theta), for any theta > 0
// (theta = 1 included), by rejection-inversion: Hörmann & Derflinger,
// "Rejection-inversion to generate variates from monotone discrete
// distributions", ACM TOMACS 6(3), 1996 (the method behind Apache Commons
// RNG's RejectionInversionZipfSampler). Exact for every rank, no O(n) table
// or zeta sum, and a bounded expected number of iterations for every n and
// theta. Unlike Gray et al.'s approximation (YCSB's ZipfianGenerator),
// it needs no H(n, theta) setup and is exact beyond rank 2.
class ZipfSampler {
 public:
  // REQUIRES: n >= 1, theta > 0 and finite.
  ZipfSampler(uint64_t n, double theta) : n_(n), theta_(theta), nd_(static_cast<double>(n)) {
    assert(n >= 1 && theta > 0);
    h_integral_x1_ = h_integral(1.5) - 1.0;
    h_integral_n_ = h_integral(nd_ + 0.5);
    s_ = 2.0 - h_integral_inverse(h_integral(2.5) - h(2.0));
  }

  [[nodiscard]] uint64_t n() const { return n_; }
  [[nodiscard]] double theta() const { return theta_; }

  // A rank in [1, n]; rank 1 is the most frequent.
  [[nodiscard]] uint64_t operator()(Rng& rng) const {
    for (;;) {
      // u is uniform in (h_integral_x1_, h_integral_n_].
      const double u = h_integral_n_ + rng.uniform01() * (h_integral_x1_ - h_integral_n_);
      const double x = h_integral_inverse(u);
      double kd = std::floor(x + 0.5);
      if (kd < 1.0) kd = 1.0;
      if (kd > nd_) kd = nd_;
      // Accept at once when k lies close to x (the squeeze), else test
      // against the hat exactly.
      if (kd - x <= s_ || u >= h_integral(kd + 0.5) - h(kd)) return static_cast<uint64_t>(kd);
    }
  }

 private:
  // h(x) = x^-theta, the continuous density the hat is built from.
  [[nodiscard]] double h(double x) const { return std::exp(-theta_ * std::log(x)); }
  // H(x) = integral of h = (x^(1-theta) - 1) / (1 - theta), or log(x) when
  // theta = 1; written through helper2 so both cases are one formula.
  [[nodiscard]] double h_integral(double x) const {
    const double log_x = std::log(x);
    return helper2((1.0 - theta_) * log_x) * log_x;
  }
  [[nodiscard]] double h_integral_inverse(double x) const {
    double t = x * (1.0 - theta_);
    if (t < -1.0) t = -1.0;  // rounding guard: the true value is >= -1
    return std::exp(helper1(t) * x);
  }
  // log1p(x) / x, continuous at 0.
  [[nodiscard]] static double helper1(double x) {
    if (std::abs(x) > 1e-8) return std::log1p(x) / x;
    return 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
  }
  // expm1(x) / x, continuous at 0.
  [[nodiscard]] static double helper2(double x) {
    if (std::abs(x) > 1e-8) return std::expm1(x) / x;
    return 1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + 0.25 * x));
  }

  uint64_t n_;
  double theta_;
  double nd_;
  double h_integral_x1_ = 0;
  double h_integral_n_ = 0;
  double s_ = 0;
};

// A fixed bijection on [0, n): a 4-round balanced Feistel network over the
// smallest even number of bits covering n, with cycle walking to stay inside
// [0, n) (Black & Rogaway, "Ciphers with arbitrary finite domains", CT-RSA
// 2002). The domain is at most 4n, so a lookup walks at most 4 times on
// average. Used so that zipf's hot ranks land on scattered pages instead of
// one contiguous run at LBA 0.
class ScatterPermutation {
 public:
  // REQUIRES: 1 <= n <= 2^62. `key` selects the permutation.
  explicit ScatterPermutation(uint64_t n, uint64_t key = 0x5eed'f7a5'1a7e'0001ULL) : n_(n) {
    assert(n >= 1 && n <= (uint64_t{1} << 62));
    unsigned bits = 2;
    while (bits < 64 && (uint64_t{1} << bits) < n) ++bits;
    if (bits % 2 != 0) ++bits;
    half_bits_ = bits / 2;
    half_mask_ = (uint64_t{1} << half_bits_) - 1;
    uint64_t sm = key;
    for (auto& k : keys_) k = splitmix64(sm);
  }

  [[nodiscard]] uint64_t size() const { return n_; }

  // The image of x. REQUIRES: x < size().
  [[nodiscard]] uint64_t operator()(uint64_t x) const {
    assert(x < n_);
    do {
      x = encrypt(x);
    } while (x >= n_);
    return x;
  }

 private:
  [[nodiscard]] uint64_t encrypt(uint64_t x) const {
    uint64_t left = x >> half_bits_;
    uint64_t right = x & half_mask_;
    for (const uint64_t k : keys_) {
      const uint64_t next_right = left ^ (mix64(right ^ k) & half_mask_);
      left = right;
      right = next_right;
    }
    return (left << half_bits_) | right;
  }

  uint64_t n_;
  unsigned half_bits_ = 1;
  uint64_t half_mask_ = 1;
  uint64_t keys_[4] = {};
};

}  // namespace ftlsim::workload
