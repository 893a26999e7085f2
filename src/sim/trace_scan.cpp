#include "sim/trace_scan.h"

#include <fmt/format.h>

#include <array>
#include <cstring>

#include "core/error.h"
#include "core/fnv1a.h"
#include "trace/ftr_reader.h"

namespace ftlsim::sim {
namespace {

static_assert(sizeof(trace::Record) == 3 * sizeof(uint64_t));
static_assert(kHashLanes % 3 == 0);
constexpr size_t kRecordsPerRound = kHashLanes / 3;

// The lanes of TraceScan::records_hash over the records (their words in order).
struct Lanes {
  std::array<uint64_t, kHashLanes> h{};
  Lanes() {
    for (uint32_t j = 0; j < kHashLanes; ++j) h[j] = fnv1a::word(fnv1a::kOffset, j);
  }
  // Record k of a round of kRecordsPerRound: its three words into lanes 3k..3k+2.
  [[gnu::always_inline]] void add(const trace::Record& r, size_t k) {
    std::array<uint64_t, 3> w;
    std::memcpy(w.data(), &r, sizeof r);
    for (size_t i = 0; i < 3; ++i) h[3 * k + i] = fnv1a::word(h[3 * k + i], w[i]);
  }
  [[nodiscard]] uint64_t finish() const {
    uint64_t out = fnv1a::kOffset;
    for (const uint64_t lane : h) out = fnv1a::word(out, lane);
    return out;
  }
};

}  // namespace

TraceScan scan_records(const std::string& path, std::span<const trace::Record> records, uint32_t sector_bytes) {
  Lanes lanes;
  uint64_t write_sectors = 0;
  const size_t n = records.size();
  const auto one = [&](size_t i, size_t k) {
    const trace::Record& r = records[i];
    if (!trace::record_ok(r)) [[unlikely]] {
      throw InputError(Message(fmt::format("{}: record {}: ", path, i)) + Message(trace::check_record(r)));
    }
    write_sectors += r.op == static_cast<uint8_t>(trace::Op::kWrite) ? r.sectors : 0;
    lanes.add(r, k);
  };
  size_t i = 0;
  for (; i + kRecordsPerRound <= n; i += kRecordsPerRound) {
    for (size_t k = 0; k < kRecordsPerRound; ++k) one(i + k, k);
  }
  for (size_t k = 0; i < n; ++i, ++k) one(i, k);
  return {write_sectors * sector_bytes, lanes.finish()};
}

}  // namespace ftlsim::sim
