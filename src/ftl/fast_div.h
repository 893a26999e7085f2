#pragma once
// Division of 32-bit values by a run-time constant without a hardware divide
// on the hot path: a shift for powers of two, otherwise Lemire, Kaser & Kurz,
// "Faster remainder by direct computation" (2019), exact for every 32-bit
// numerator and divisor >= 2.
#include <bit>
#include <cassert>
#include <cstdint>

namespace ftlsim::ftl {

class FastDiv {
 public:
  FastDiv() = default;
  explicit FastDiv(uint32_t divisor) : divisor_(divisor) {
    assert(divisor > 0);
    pow2_ = std::has_single_bit(divisor);
    shift_ = static_cast<uint32_t>(std::countr_zero(divisor));
    magic_ = pow2_ ? 0 : UINT64_C(0xFFFFFFFFFFFFFFFF) / divisor + 1;
  }
  [[nodiscard]] uint32_t divide(uint32_t n) const {
    if (pow2_) return n >> shift_;
    return static_cast<uint32_t>((static_cast<__uint128_t>(magic_) * n) >> 64);
  }
  [[nodiscard]] uint32_t divisor() const { return divisor_; }
  [[nodiscard]] bool pow2() const { return pow2_; }
  [[nodiscard]] uint32_t shift() const { return shift_; }  // log2(divisor) when pow2()

 private:
  uint64_t magic_ = 0;
  uint32_t divisor_ = 1;
  uint32_t shift_ = 0;
  bool pow2_ = true;
};

// FastDiv for a divisor known to be a power of two, without the test (a
// loop that divides often picks one of the two once, outside the loop).
class ShiftDiv {
 public:
  explicit ShiftDiv(uint32_t shift) : shift_(shift) {}
  [[nodiscard]] uint32_t divide(uint32_t n) const { return n >> shift_; }

 private:
  uint32_t shift_;
};

}  // namespace ftlsim::ftl
