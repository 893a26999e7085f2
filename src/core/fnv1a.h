#pragma once
// 64-bit FNV-1a, the hash behind config ids that are too long, the resume
// keys of a sweep (sweep_product.h, sweep_resume.h) and the trace's
// fingerprint (sim/trace_scan.h). Not for anything adversarial: it only
// tells configurations and traces apart.
#include <cstdint>
#include <string_view>

namespace ftlsim::fnv1a {

inline constexpr uint64_t kOffset = 0xcbf29ce484222325ULL;
inline constexpr uint64_t kPrime = 0x100000001b3ULL;

// Hashes `data` into `h`, one byte at a time.
[[nodiscard]] inline uint64_t bytes(uint64_t h, std::string_view data) {
  for (const char c : data) {
    h ^= static_cast<unsigned char>(c);
    h *= kPrime;
  }
  return h;
}

// Hashes a whole 64-bit word into `h` in one step (faster than its 8 bytes,
// and a different hash: use one or the other consistently).
[[nodiscard]] inline uint64_t word(uint64_t h, uint64_t w) {
  h ^= w;
  return h * kPrime;
}

}  // namespace ftlsim::fnv1a
