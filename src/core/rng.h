#pragma once
// A small, fast, seeded pseudo-random generator (workloads, victim policies).
// Same seed -> same sequence on every platform and build (no std::
// distributions, whose output is implementation-defined).
#include <cstdint>

namespace ftlsim {

// SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014). Used to expand a 64-bit seed into state.
[[nodiscard]] constexpr uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A stateless 64-bit mixer (the SplitMix64 finaliser): a bijection on uint64.
[[nodiscard]] constexpr uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// xoshiro256** 1.0 (Blackman & Vigna, "Scrambled linear pseudorandom number
// generators", ACM TOMS 2021), state seeded by SplitMix64 as they recommend.
class Rng {
 public:
  explicit constexpr Rng(uint64_t seed) {
    uint64_t sm = seed;
    for (auto& w : s_) w = splitmix64(sm);
  }

  // A generator in the exact state {s0, s1, s2, s3} (not all zero), for
  // checking against the reference implementation's outputs.
  [[nodiscard]] static constexpr Rng from_state(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3) {
    Rng r(0);
    r.s_[0] = s0;
    r.s_[1] = s1;
    r.s_[2] = s2;
    r.s_[3] = s3;
    return r;
  }

  [[nodiscard]] constexpr uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Unbiased integer in [0, n). REQUIRES n > 0. Lemire, "Fast random integer
  // generation in an interval", ACM TOMACS 2019: one multiply, and a division
  // only on the rare path that may need a retry.
  [[nodiscard]] constexpr uint64_t below(uint64_t n) {
    U128 m = static_cast<U128>(next()) * n;
    auto low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = (0 - n) % n;  // 2^64 mod n
      while (low < threshold) {
        m = static_cast<U128>(next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

  // Uniform 53-bit integer in [0, 2^53): compared against thresholds scaled
  // by kUnit53 to draw Bernoulli and categorical choices without floating
  // point on the hot path.
  [[nodiscard]] constexpr uint64_t next53() { return next() >> 11; }
  static constexpr uint64_t kUnit53 = uint64_t{1} << 53;

  // Uniform double in [0, 1) with 53 random bits.
  [[nodiscard]] constexpr double uniform01() { return static_cast<double>(next53()) * 0x1.0p-53; }

 private:
  __extension__ using U128 = unsigned __int128;
  [[nodiscard]] static constexpr uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4] = {};
};

}  // namespace ftlsim
