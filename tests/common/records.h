#pragma once
// Records written by hand, for the tests that hand requests to a library
// (simulation, FDP placement, replay, the CLI's trace files): one request,
// or a write of whole 4 KiB slots. The trace tests' importer fixtures keep
// their own time-first builder (trace/test_util.h).
#include <cstdint>

#include "core/io_units.h"
#include "trace/record.h"

namespace ftlsim::test {

inline trace::Record rec(trace::Op op, uint64_t lba, uint32_t sectors, uint16_t pid = 0, uint64_t t = 0) {
  return trace::Record{t, lba, sectors, pid, static_cast<uint8_t>(op), 0};
}

// A write of `n` slots from slot `slot`, in 512-byte sectors, at time 0.
inline trace::Record slot_write(uint64_t slot, uint32_t n = 1, uint16_t pid = 0) {
  return rec(trace::Op::kWrite, slot * kSectorsPerSlot, n * kSectorsPerSlot, pid);
}

}  // namespace ftlsim::test
