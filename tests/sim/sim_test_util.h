#pragma once
// Builders for in-memory traces used by the simulation tests.
#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "trace/record.h"

namespace ftlsim::test {

inline trace::Record rec(trace::Op op, uint64_t lba, uint32_t sectors, uint16_t pid = 0, uint64_t t = 0) {
  return trace::Record{t, lba, sectors, pid, static_cast<uint8_t>(op), 0};
}

// One 4 KiB write per slot, in order.
inline void append_sequential(std::vector<trace::Record>& out, uint64_t first_slot, uint64_t slots) {
  for (uint64_t s = first_slot; s < first_slot + slots; ++s) {
    out.push_back(rec(trace::Op::kWrite, s * 8, 8, 0, out.size()));
  }
}

// `count` 4 KiB writes to uniformly random slots in [0, slots).
inline void append_uniform(std::vector<trace::Record>& out, uint64_t slots, uint64_t count, uint64_t seed) {
  Rng rng(seed);
  for (uint64_t i = 0; i < count; ++i) {
    out.push_back(rec(trace::Op::kWrite, rng.below(slots) * 8, 8, 0, out.size()));
  }
}

}  // namespace ftlsim::test
