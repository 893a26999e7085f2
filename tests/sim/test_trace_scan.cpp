// The first pass over a trace (sim/trace_scan.h) against hand counts and a
// naive reference: the bytes written, the first malformed record refused,
// and the records' hash equal to a plain word-by-word loop over the lanes.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "core/error.h"
#include "core/fnv1a.h"
#include "sim/simulate.h"
#include "sim/trace_scan.h"
#include "sweep/sweep_resume.h"

using namespace ftlsim;
using trace::Op;
using trace::Record;

namespace {

uint64_t records_hash(const std::vector<Record>& recs) { return sim::scan_records("t.ftr", recs, 512).records_hash; }

Record rec(Op op, uint64_t lba, uint32_t sectors, uint64_t time = 0, uint16_t pid = 0) {
  return Record{time, lba, sectors, pid, static_cast<uint8_t>(op), 0};
}

// The hash as its comment defines it, word by word (no rounds of records).
uint64_t naive_hash(const std::vector<Record>& recs) {
  std::vector<uint64_t> lanes(sim::kHashLanes);
  for (uint32_t j = 0; j < sim::kHashLanes; ++j) lanes[j] = (fnv1a::kOffset ^ j) * fnv1a::kPrime;
  std::vector<uint64_t> words(recs.size() * 3);
  if (!words.empty()) std::memcpy(words.data(), recs.data(), words.size() * 8);  // no null pointer for none
  for (size_t i = 0; i < words.size(); ++i)
    lanes[i % sim::kHashLanes] = (lanes[i % sim::kHashLanes] ^ words[i]) * fnv1a::kPrime;
  uint64_t h = fnv1a::kOffset;
  for (const uint64_t lane : lanes) h = (h ^ lane) * fnv1a::kPrime;
  return h;
}

std::vector<Record> mixed(size_t n) {
  std::vector<Record> recs;
  for (size_t i = 0; i < n; ++i) {
    const Op op = i % 5 == 4 ? Op::kFlush : i % 3 == 0 ? Op::kRead : Op::kWrite;
    recs.push_back(op == Op::kFlush ? rec(op, 0, 0, i) : rec(op, i * 8, static_cast<uint32_t>(8 + i % 7), i * 10, 3));
  }
  return recs;
}

}  // namespace

TEST_CASE("scan_records counts the bytes writes carry, by hand") {
  const std::vector<Record> recs = {rec(Op::kWrite, 0, 8), rec(Op::kRead, 8, 16), rec(Op::kWrite, 100, 1),
                                    rec(Op::kTrim, 0, 64), rec(Op::kFlush, 0, 0), rec(Op::kWrite, 7, 3)};
  CHECK(sim::scan_records("t.ftr", recs, 512).write_bytes == (8 + 1 + 3) * 512);
  CHECK(sim::scan_records("t.ftr", recs, 4096).write_bytes == (8 + 1 + 3) * 4096);
  CHECK(sim::scan_records("t.ftr", {}, 512).write_bytes == 0);
}

TEST_CASE("scan_records hashes as the word-by-word reference, for every length") {
  for (size_t n = 0; n <= 13; ++n) {
    const std::vector<Record> recs = mixed(n);
    INFO("records: " << n);
    CHECK(sim::scan_records("t.ftr", recs, 512).records_hash == naive_hash(recs));
  }
}

TEST_CASE("a change in any word of any record changes the hash") {
  const std::vector<Record> recs = mixed(9);
  const uint64_t base = records_hash(recs);
  for (size_t i = 0; i < recs.size(); ++i) {
    for (const int field : {0, 1, 2}) {
      std::vector<Record> changed = recs;
      if (field == 0) ++changed[i].time_ns;
      if (field == 1) ++changed[i].lba;
      if (field == 2) ++changed[i].pid;
      INFO("record " << i << ", field " << field);
      CHECK(records_hash(changed) != base);
    }
  }
  // Two records swapped: other lanes, another hash.
  std::vector<Record> swapped = recs;
  std::swap(swapped[1], swapped[6]);
  CHECK(records_hash(swapped) != base);
}

TEST_CASE("scan_records refuses the first malformed record, naming it") {
  std::vector<Record> recs = mixed(12);
  recs[7] = rec(Op::kWrite, 0, 0);  // a zero-length write
  recs[10].op = 99;
  CHECK_THROWS_WITH(sim::scan_records("t.ftr", recs, 512), Catch::Contains("t.ftr: record 7: "));
  recs[7] = rec(Op::kWrite, 0, 8);
  CHECK_THROWS_WITH(sim::scan_records("t.ftr", recs, 512), Catch::Contains("t.ftr: record 10: "));
}

TEST_CASE("a view's scan is used as made, and made when missing") {
  const std::vector<Record> recs = mixed(10);
  sim::TraceView view{"t.ftr", recs, 512};
  const sim::TraceScan made = sim::scan(view);
  CHECK(made.write_bytes == sim::scan_records("t.ftr", recs, 512).write_bytes);
  CHECK(sim::trace_write_bytes(view) == made.write_bytes);
  const std::map<trace::PlacementId, std::string> names;
  const uint64_t fingerprint = sim::trace_fingerprint(view, names);
  // A view carrying its scan answers from it without reading the records:
  // a different scan shows through.
  view.scan = sim::TraceScan{12345, made.records_hash + 1};
  CHECK(sim::trace_write_bytes(view) == 12345);
  CHECK(sim::trace_fingerprint(view, names) != fingerprint);
  view.scan = made;
  CHECK(sim::trace_fingerprint(view, names) == fingerprint);
}
