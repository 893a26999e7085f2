#pragma once
// Reads a target back after a complete replay and checks every 512-byte unit
// the trace touched: a unit last written by record r must hold the pattern
// data_pattern.h stamps for r at its offset; a unit last trimmed must read
// as zeros on a file (a punched hole) and is not checked on a device (the
// contents after a discard are undefined). The expected last op per unit
// comes from running the same request stream again.
#include <atomic>
#include <cstdint>
#include <span>
#include <string>

#include "core/progress_line.h"
#include "replay/request_stream.h"
#include "replay/target.h"
#include "trace/record.h"

namespace ftlsim::replay {

struct VerifyResult {
  uint64_t written_units = 0;    // units checked against the pattern
  uint64_t trimmed_units = 0;    // units checked for zeros (files)
  uint64_t unchecked_units = 0;  // trimmed units on a device
  uint64_t mismatches = 0;
  std::string first_mismatch;  // "" when none
  uint64_t read_bytes = 0;     // read back from the target (1 MiB chunks holding a touched unit)
  double seconds = 0;          // wall time of the whole check
  bool interrupted = false;    // the stop flag ended it: only [0, checked_bytes) was checked
  uint64_t checked_bytes = 0;  // the target's bytes passed over (all of it unless interrupted)
};

// Largest target --verify accepts: it keeps 4 bytes per 512-byte unit.
inline constexpr uint64_t kMaxVerifyBytes = uint64_t{64} << 30;

// Throws InputError for a target above kMaxVerifyBytes: called with the
// other checks, before anything is written (the replay then verifies).
void check_verify_size(const TargetInfo& info);

// REQUIRES target.info().kind is a file or a block device. Throws InputError
// for a target above kMaxVerifyBytes, SystemError when a read fails. The
// target bytes passed over are set on `progress` (when set) after each chunk.
// `stop` (when set, e.g. by Ctrl-C) ends the check between chunks: the
// result says how far it got (interrupted, checked_bytes).
[[nodiscard]] VerifyResult verify_target(const Target& target, std::span<const trace::Record> records,
                                         const StreamGeometry& geo, ProgressLine* progress = nullptr,
                                         const std::atomic<bool>* stop = nullptr);

}  // namespace ftlsim::replay
