// End-to-end replay onto temporary files through the library: op and byte
// counts against the trace, the data left in the file against a byte-level
// model of the trace kept by the test itself, nothing written outside the
// trace's ranges, timed mode pacing, and a stop request draining into a
// partial result.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "cli/cli_run.h"
#include "common/records.h"
#include "core/error.h"
#include "core/rng.h"
#include "replay/data_pattern.h"
#include "replay/request_stream.h"
#include "replay/target.h"
#include "replay/uring_engine.h"
#include "replay/verify.h"

using namespace ftlsim::replay;
using Catch::Contains;
using ftlsim::test::rec;
using ftlsim::trace::Op;
using ftlsim::trace::Record;

namespace {

constexpr uint64_t kTarget = 4 << 20;

// A mixed trace on a 4 MiB target, all 4 KiB-aligned: 400 writes of 4-64 KiB
// (many overwriting each other), 100 reads, 10 trims of 64 KiB, markers.
std::vector<Record> mixed_trace() {
  ftlsim::Rng rng(11);
  std::vector<Record> r;
  for (uint64_t i = 0; i < 520; ++i) {
    const uint64_t kind = i % 52;
    if (kind == 51) {
      r.push_back(rec(Op::kMarker, i, 0, 0, i * 1000));
    } else if (kind == 50) {
      r.push_back(rec(Op::kTrim, rng.below(kTarget / 65536) * 128, 128, 0, i * 1000));
    } else if (kind >= 40) {
      r.push_back(rec(Op::kRead, rng.below(kTarget / 4096) * 8, 8, 1, i * 1000));
    } else {
      const auto pages = static_cast<uint32_t>(1 + rng.below(16));
      const uint64_t page = rng.below(kTarget / 4096 - pages + 1);
      r.push_back(rec(Op::kWrite, page * 8, pages * 8, static_cast<uint16_t>(i % 4), i * 1000));
    }
  }
  return r;
}

StreamGeometry geometry_for(const TargetInfo& t) {
  StreamGeometry g;
  g.trace_path = "mixed";
  g.target_bytes = t.bytes;
  g.block_bytes = t.block_bytes;
  g.max_io_bytes = 1 << 20;
  g.ops = OpSet::parse("write,read,trim");
  return g;
}

// Opens a target, or skips the test where the temp dir lacks O_DIRECT.
std::unique_ptr<Target> open_or_skip(const TargetRequest& req) {
  try {
    return std::make_unique<Target>(req);
  } catch (const ftlsim::InputError& e) {
    if (std::string(e.what()).find("O_DIRECT") != std::string::npos) {
      WARN("skipped: " << e.what());
      return nullptr;
    }
    throw;
  }
}

std::vector<uint8_t> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The test's own model: per 512-byte unit, -1 untouched, -2 trimmed, else
// the index of the record that wrote it last.
std::vector<int64_t> model(const std::vector<Record>& r, uint64_t bytes) {
  std::vector<int64_t> last(bytes / 512, -1);
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i].op != static_cast<uint8_t>(Op::kWrite) && r[i].op != static_cast<uint8_t>(Op::kTrim)) continue;
    for (uint64_t s = r[i].lba; s < r[i].lba + r[i].sectors; ++s) {
      last[s] = r[i].op == static_cast<uint8_t>(Op::kWrite) ? static_cast<int64_t>(i) : -2;
    }
  }
  return last;
}

void check_against_model(const std::vector<uint8_t>& file, const std::vector<Record>& r) {
  const std::vector<int64_t> last = model(r, file.size());
  size_t written = 0, trimmed = 0;
  for (size_t u = 0; u < last.size(); ++u) {
    const uint8_t* p = file.data() + u * 512;
    if (last[u] >= 0) {
      ++written;
      uint32_t rec_index = 0;
      uint64_t off = 0;
      std::memcpy(&off, p + 8, 8);
      std::memcpy(&rec_index, p + 16, 4);
      INFO("unit " << u);
      REQUIRE(std::memcmp(p, "FTLSIMRP", 8) == 0);
      REQUIRE(off == u * 512);
      REQUIRE(rec_index == static_cast<uint32_t>(last[u]));
    } else {
      ++trimmed;  // untouched units of a new sparse file and trimmed units read as zeros
      INFO("unit " << u << " state " << last[u]);
      REQUIRE(std::all_of(p, p + 512, [](uint8_t b) { return b == 0; }));
    }
  }
  CHECK(written > 1000);
  CHECK(trimmed > 0);
}

struct Run {
  EngineResult result;
  StreamScan scan;
};

Run replay(const Target& t, const std::vector<Record>& r, ReplayConfig cfg, const EngineHooks& hooks = {}) {
  const StreamGeometry g = geometry_for(t.info());
  Run run;
  run.scan = scan_stream(r, g);
  run.result = run_replay(t, r, g, run.scan, cfg, PlacementPlan{}, hooks);
  return run;
}

// A new 1 MiB file at `path` with `trace` replayed onto it (kept), for the
// --verify cases; nullptr when the folder takes no O_DIRECT (skipped).
std::unique_ptr<Target> replayed_file(const std::string& path, const std::vector<Record>& trace) {
  TargetRequest req;
  req.path = path;
  req.create_bytes = 1 << 20;
  auto target = open_or_skip(req);
  if (!target) return nullptr;
  target->keep();
  REQUIRE_FALSE(replay(*target, trace, ReplayConfig{}).result.partial);
  return target;
}

// Writes `n` bytes at `offset` of the file `path`, beside the replay.
void overwrite(const std::string& path, const void* bytes, size_t n, off_t offset) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  REQUIRE(::pwrite(fd, bytes, n, offset) == static_cast<ssize_t>(n));
  ::close(fd);
}

}  // namespace

TEST_CASE("replay onto a new file: counts, data and verify", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("replay-file");
  const std::string path = tmp.file("t.img");
  const std::vector<Record> trace = mixed_trace();
  for (const uint32_t qd : {1u, 32u}) {
    std::filesystem::remove(path);
    TargetRequest req;
    req.path = path;
    req.create_bytes = kTarget;
    auto target = open_or_skip(req);
    if (!target) return;
    target->keep();
    CHECK(target->info().created);
    CHECK(target->info().bytes == kTarget);
    ReplayConfig cfg;
    cfg.queue_depth = qd;
    const Run run = replay(*target, trace, cfg);
    const EngineResult& e = run.result;
    INFO("qd " << qd);
    CHECK_FALSE(e.partial);
    CHECK(e.stop_reason.empty());
    CHECK(e.records_done == trace.size());
    // One I/O per record (all aligned, none over 1 MiB), bytes as in the trace.
    uint64_t want_ios[5] = {}, want_bytes[5] = {};
    for (const Record& x : trace) {
      if (x.op == static_cast<uint8_t>(Op::kMarker)) continue;
      ++want_ios[x.op];
      want_bytes[x.op] += uint64_t{x.sectors} * 512;
    }
    for (const Op op : {Op::kWrite, Op::kRead, Op::kTrim}) {
      const auto o = static_cast<size_t>(op);
      CHECK(e.ops[o].ios == want_ios[o]);
      CHECK(e.ops[o].bytes == want_bytes[o]);
      CHECK(e.ops[o].errors == 0);
      CHECK(e.ops[o].latency_ns.count() == want_ios[o]);
    }
    CHECK(e.max_inflight <= qd);
    if (qd == 32) CHECK(e.max_inflight > 1);
    // Per-pid bytes: writes carry pids 0..3, reads pid 1.
    uint64_t pid_writes = 0;
    for (const PidBytes& b : e.bytes_by_pid) pid_writes += b.write;
    CHECK(pid_writes == want_bytes[0]);
    CHECK(e.bytes_by_pid.at(1).read == want_bytes[1]);
    // Events: about 100 rows, the last at the totals.
    REQUIRE(!e.events.empty());
    CHECK(e.events.size() >= 10);
    CHECK(e.events.back().ios == want_ios[0] + want_ios[1] + want_ios[2]);
    CHECK(e.events.back().records == trace.size());
    CHECK(e.events.back().marker == uint64_t{519});

    const VerifyResult v = verify_target(*target, trace, geometry_for(target->info()));
    CHECK(v.mismatches == 0);
    CHECK(v.first_mismatch.empty());
    CHECK(v.written_units > 1000);
    CHECK(v.trimmed_units > 0);
    target.reset();
    CHECK(std::filesystem::file_size(path) == kTarget);
    check_against_model(read_all(path), trace);
  }
}

TEST_CASE("verify finds a unit that differs", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("replay-verify");
  const std::string path = tmp.file("t.img");
  const std::vector<Record> trace = {rec(Op::kWrite, 0, 64), rec(Op::kWrite, 64, 64)};
  const auto target = replayed_file(path, trace);
  if (!target) return;
  overwrite(path, "junk", 4, 40000);  // inside record 1's range
  const VerifyResult v = verify_target(*target, trace, geometry_for(target->info()));
  CHECK(v.mismatches == 1);
  CHECK_THAT(v.first_mismatch, Contains("offset 39936"));
  CHECK_FALSE(v.interrupted);
  CHECK(v.checked_bytes == 1 << 20);
  // A stop (Ctrl-C) before the first chunk: nothing checked, and it says so.
  const std::atomic<bool> stop{true};
  const VerifyResult s = verify_target(*target, trace, geometry_for(target->info()), nullptr, &stop);
  CHECK(s.interrupted);
  CHECK(s.checked_bytes == 0);
  CHECK(s.written_units == 0);
  CHECK(s.mismatches == 0);
}

TEST_CASE("verify checks each unit's placement ID", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("replay-verify-pid");
  const std::string path = tmp.file("t.img");
  std::vector<Record> trace = {rec(Op::kWrite, 0, 16)};
  trace[0].pid = 3;
  const auto target = replayed_file(path, trace);
  if (!target) return;
  CHECK(verify_target(*target, trace, geometry_for(target->info())).mismatches == 0);
  const uint16_t other = 4;
  overwrite(path, &other, 2, 512 + 20);  // unit 1's placement ID
  const VerifyResult v = verify_target(*target, trace, geometry_for(target->info()));
  CHECK(v.mismatches == 1);
  CHECK_THAT(v.first_mismatch, Contains("offset 512: placement ID 4 in its header, expected 3"));
}

TEST_CASE("an existing file: used as is, nothing written outside the trace's ranges", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("replay-existing");
  const std::string path = tmp.file("t.img");
  std::vector<uint8_t> fill(1 << 20, 0xAB);
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(fill.data()), 1 << 20);
  // Writes to [8K, 16K) and [512K, 520K), a read elsewhere.
  const std::vector<Record> trace = {rec(Op::kWrite, 16, 16), rec(Op::kRead, 100, 8), rec(Op::kWrite, 1024, 16)};
  TargetRequest req;
  req.path = path;
  auto target = open_or_skip(req);
  if (!target) return;
  CHECK_FALSE(target->info().created);
  REQUIRE_FALSE(replay(*target, trace, ReplayConfig{}).result.partial);
  target.reset();
  const std::vector<uint8_t> after = read_all(path);
  REQUIRE(after.size() == fill.size());
  for (size_t i = 0; i < after.size(); ++i) {
    const bool written = (i >= 8192 && i < 16384) || (i >= 524288 && i < 532480);
    if (!written && after[i] != 0xAB) FAIL("byte " << i << " changed outside the trace's writes");
  }
  CHECK(std::memcmp(after.data() + 8192, "FTLSIMRP", 8) == 0);
}

TEST_CASE("targets are created, resized or refused as asked", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("replay-target");
  const std::string path = tmp.file("new.img");
  TargetRequest req;
  req.path = path;
  CHECK_THROWS_WITH(Target(req), Contains("does not exist; add `create` SIZE"));
  CHECK_FALSE(std::filesystem::exists(path));
  req.create_bytes = 1 << 20;
  {
    auto t = open_or_skip(req);
    if (!t) return;
    CHECK(std::filesystem::exists(path));
  }
  CHECK_FALSE(std::filesystem::exists(path));  // not kept: removed again
  {
    auto t = open_or_skip(req);
    t->keep();
  }
  CHECK(std::filesystem::file_size(path) == (1u << 20));
  req.create_bytes = 2 << 20;
  CHECK_THROWS_WITH(Target(req), Contains("exists with 1048576 bytes; `create` 2097152 would resize it"));
  req.force = true;
  CHECK(Target(req).info().bytes == (2u << 20));
  req.create_bytes = 4097;
  CHECK_THROWS_WITH(Target(req), Contains("multiple of 4 KiB"));
  req.path = tmp.file("");
  req.create_bytes = 0;
  CHECK_THROWS_WITH(Target(req), Contains("is a directory"));
  req.path = "/dev/null";
  CHECK_THROWS_WITH(Target(req), Contains("is a character device"));
}

TEST_CASE("timed mode keeps the trace's pace, scaled by speed", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("replay-timed");
  // 41 writes, 5 ms apart: 200 ms of trace time.
  std::vector<Record> trace;
  for (uint64_t i = 0; i <= 40; ++i) trace.push_back(rec(Op::kWrite, i * 8, 8, 0, 1'000'000'000 + i * 5'000'000));
  for (const double speed : {1.0, 4.0}) {
    TargetRequest req;
    req.path = tmp.file(speed == 1.0 ? "a.img" : "b.img");
    req.create_bytes = 1 << 20;
    auto target = open_or_skip(req);
    if (!target) return;
    ReplayConfig cfg;
    cfg.mode = ReplayMode::kTimed;
    cfg.speed = speed;
    const EngineResult e = replay(*target, trace, cfg).result;
    const double span_s = 0.2 / speed;
    INFO("speed " << speed << " elapsed " << static_cast<double>(e.elapsed_ns) * 1e-9);
    CHECK_FALSE(e.partial);
    CHECK(static_cast<double>(e.elapsed_ns) * 1e-9 >= span_s * 0.99);
    CHECK(static_cast<double>(e.elapsed_ns) * 1e-9 < span_s + 2.0);
    CHECK(e.lag_ns.count() == trace.size());
    CHECK(e.ops[0].ios == trace.size());
  }
}

TEST_CASE("a stop request drains what is in flight and marks the result partial", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("replay-stop");
  // 10 s of trace time: one 4 KiB write every 10 ms.
  std::vector<Record> trace;
  for (uint64_t i = 0; i < 1000; ++i) trace.push_back(rec(Op::kWrite, (i % 256) * 8, 8, 0, i * 10'000'000));
  TargetRequest req;
  req.path = tmp.file("s.img");
  req.create_bytes = 1 << 20;
  auto target = open_or_skip(req);
  if (!target) return;
  ReplayConfig cfg;
  cfg.mode = ReplayMode::kTimed;
  std::atomic<bool> stop{false};
  EngineHooks hooks;
  hooks.stop = &stop;
  std::thread stopper([&stop] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop.store(true);
  });
  const EngineResult e = replay(*target, trace, cfg, hooks).result;
  stopper.join();
  CHECK(e.partial);
  CHECK(e.interrupted);
  CHECK(e.stop_reason == "interrupted");
  CHECK(e.records_done > 0);
  CHECK(e.records_done < trace.size());
  CHECK(e.ops[0].ios == e.records_done);  // everything submitted completed
  CHECK(static_cast<double>(e.elapsed_ns) * 1e-9 < 3.0);
  REQUIRE_FALSE(e.events.empty());
  CHECK(e.events.back().ios == e.ops[0].ios);
}
