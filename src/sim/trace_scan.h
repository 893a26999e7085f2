#pragma once
// The first pass over a trace's records, made once per trace by the command
// that reads it: refuses the first malformed record, counts the bytes its
// writes carry (the default interval, the memory estimate) and hashes the
// records (the trace's fingerprint in every config_key). Later steps read
// the findings from the TraceView instead of reading every record again.
#include <cstdint>
#include <span>
#include <string>

#include "trace/record.h"

namespace ftlsim::sim {

struct TraceScan {
  uint64_t write_bytes = 0;   // host bytes the write records carry
  uint64_t records_hash = 0;  // the records' bytes hashed (below)
};

// Throws InputError "<path>: record <i>: <reason>" for the first record
// trace::record_ok() refuses. One pass, bound by memory bandwidth: the hash
// runs in independent lanes, so it does not wait on its multiplications.
//
// records_hash: the records' bytes as 64-bit words, word i into FNV-1a lane
// i mod kHashLanes (each started from the offset basis hashed with its lane
// number), the lanes then hashed in order into the offset basis. A changed
// word changes its lane (each FNV-1a step is one-to-one in the word), so
// the trace is told apart as by one FNV-1a chain over the words.
inline constexpr uint32_t kHashLanes = 12;  // four records of three words
[[nodiscard]] TraceScan scan_records(const std::string& path, std::span<const trace::Record> records,
                                     uint32_t sector_bytes);

}  // namespace ftlsim::sim
