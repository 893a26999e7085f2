// FDP placement against independent numbers: identities with the non-FDP
// model, a hand-derived WAF bound for separated hot and cold data, the order
// oracle <= fdp <= single, and the FDP statistics' accounting.
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <tuple>

#include "common/analytic_waf.h"
#include "sim/sim_test_util.h"
#include "sim/simulate.h"
#include "workload/synth.h"

using namespace ftlsim;

namespace {

// 8 dies x 256 blocks of 64 x 4 KiB pages: lines of 2 MiB, 512 MiB raw. One
// line is held free (the least FEMU's rule allows), so GC runs only when it
// must and a pass is cleaned when the open line has just been taken.
ftl::FtlConfig device(uint64_t logical_bytes) {
  ftl::FtlConfig c;
  c.geometry.channels = 8;
  c.geometry.luns_per_channel = 1;
  c.geometry.planes_per_lun = 1;
  c.geometry.blocks_per_plane = 256;
  c.geometry.pages_per_block = 64;
  c.geometry.page_bytes = 4096;
  c.geometry.logical_bytes = logical_bytes;
  c.gc.thres_pcent = 99.5;
  c.gc.thres_pcent_high = 99.5;
  return c;
}

std::vector<trace::Record> make_trace(workload::Pattern p, uint64_t logical, uint64_t writes, uint64_t seed,
                                      std::vector<workload::StreamShare> streams = {}) {
  workload::SynthSpec s;
  s.pattern = p;
  s.logical_bytes = logical;
  s.fill = true;
  s.writes = writes;
  s.seed = seed;
  s.streams = std::move(streams);
  return workload::generate_records(s);
}

// The two handle kinds these tests compare: persistently isolated handles,
// and initially isolated ones whose survivors share one GC RU per RG
// (--ruh-type ii --ii-gc gc-ru). Handles take their RUs lazily here
// (--ru-open lazy), so that idle handles hold no RU and one placement ID
// reduces to the one-stream model.
enum class Kind { kPi, kIi };
const char* kind_name(Kind k) { return k == Kind::kPi ? "pi" : "ii+gc-ru"; }
void set_kind(fdp::FdpConfig& c, Kind k) {
  c.ruh_types = k == Kind::kPi ? fdp::RuhTypes::kAllPi : fdp::RuhTypes::kAllIi;
  c.ii_gc = fdp::IiGc::kSharedGcRu;
  c.open_at_start = false;
}

sim::SimResult run(const ftl::FtlConfig& c, const std::vector<trace::Record>& recs, const std::string& placement,
                   uint32_t handles = 2, Kind type = Kind::kPi, bool pi_gc_ru = true) {
  fdp::PlacementSetup p;
  p.placement = fdp::parse_placement(placement);
  p.fdp.handles = handles;
  set_kind(p.fdp, type);
  p.fdp.pi_gc_ru = pi_gc_ru;
  return test::simulate_records(c, recs, {}, p);
}

void check_same(const sim::SimResult& a, const sim::SimResult& b) {
  CHECK(a.ftl.host_slots == b.ftl.host_slots);
  CHECK(a.ftl.gc_slots == b.ftl.gc_slots);
  CHECK(a.ftl.unit_erases == b.ftl.unit_erases);
  CHECK(a.ftl.gc_passes == b.ftl.gc_passes);
  CHECK(a.ftl.gc_onset_host_slots == b.ftl.gc_onset_host_slots);
  CHECK(a.erase_max == b.erase_max);
}

}  // namespace

TEST_CASE("with one placement ID, fdp reduces exactly to the non-FDP model", "[fdp][validation]") {
  const uint64_t logical = 400u << 20;
  const auto c = device(logical);
  const auto recs = make_trace(workload::Pattern::kUniform, logical, 400000, 7);
  const auto single = run(c, recs, "single");
  REQUIRE(single.ftl.gc_slots > 0);
  SECTION("persistently isolated, survivors kept in the handle's own RU") {
    check_same(run(c, recs, "fdp", 4, Kind::kPi, false), single);
  }
  SECTION("RU size given explicitly as one line") {
    auto p = fdp::PlacementSetup{};
    p.placement = fdp::parse_placement("fdp");
    p.fdp.ru_bytes = 2u << 20;
    p.fdp.handles = 1;
    set_kind(p.fdp, Kind::kPi);
    p.fdp.pi_gc_ru = false;
    const auto r = test::simulate_records(c, recs, {}, p);
    CHECK(r.units == 256);
    check_same(r, single);
  }
  SECTION("a separate GC RU changes only where survivors go") {
    const auto r = run(c, recs, "fdp", 4, Kind::kPi, true);
    CHECK(r.ftl.host_slots == single.ftl.host_slots);
    CHECK(r.handles.at(0).host_bytes == single.ftl.host_slots * 4096);
    CHECK(r.handles.at(0).gc_out_bytes == r.ftl.gc_slots * 4096);
  }
}

// Hot/cold: 90% of writes to 10% of the space, tagged apart. Hand-derived
// bound for persistently isolated handles: hot and cold data (and their GC
// survivors) never share an RU, so each RU sees uniform random invalidation
// within its stream, and greedy cleaning picks the least valid RU of either;
// it can do no worse than FIFO cleaning of uniform random writes over the
// same space: WA_fifo(alpha), alpha = usable physical / logical. A single
// stream mixes cold pages into every hot RU and does worse than that.
// Initially isolated handles mix survivors of both in one GC RU, so for them
// only the comparison with one stream is checked.
// The hot/cold case both tests below use: 400 MiB logical, 90% of the
// writes to 10% of the space, the FIFO bound for its spare, and one stream's WAF.
struct HotCold {
  uint64_t logical = 400u << 20;
  ftl::FtlConfig c = device(logical);
  std::vector<trace::Record> recs = make_trace(workload::Pattern::kHotCold, logical, 2000000, 2);
  double bound = test::fifo_wa((256.0 - 2.0) * 512.0 / (static_cast<double>(logical) / 4096.0));
  double single = run(c, recs, "single").ftl.waf();
};

TEST_CASE("separating hot from cold data beats one stream and the uniform bound", "[fdp][validation]") {
  const HotCold h;
  const auto& [c, recs, bound, single] = std::tie(h.c, h.recs, h.bound, h.single);
  for (auto type : {Kind::kPi, Kind::kIi}) {
    const double fdp_waf = run(c, recs, "fdp", 2, type).ftl.waf();
    INFO("single " << single << " fdp(" << kind_name(type) << ") " << fdp_waf << " bound " << bound);
    if (type == Kind::kPi) CHECK(fdp_waf <= bound);
    CHECK(fdp_waf < 0.85 * single);
  }
  CHECK(single > bound);
}

// The device-side interval policy sees no tags, only how long ago each LBA
// was last written. On the hot/cold trace (hot LBAs come back after about
// 0.11 x logical slots written, cold ones after about 9 x logical) its two
// handles split at logical/2, so it separates the two regions as the tags
// do, and the same hand-derived bound holds for it.
TEST_CASE("interval placement separates hot from cold without tags", "[fdp][validation]") {
  const HotCold h;
  const auto& [c, recs, bound, single] = std::tie(h.c, h.recs, h.bound, h.single);
  const auto interval = run(c, recs, "interval", 2);
  INFO("single " << single << " interval " << interval.ftl.waf() << " bound " << bound);
  CHECK(interval.ftl.waf() <= bound);
  CHECK(interval.ftl.waf() < 0.85 * single);
  // Handle 0 takes the hot rewrites: about 90% of the writes after the fill.
  const double hot_share =
      static_cast<double>(interval.handles.at(0).host_bytes) / static_cast<double>(interval.ftl.host_slots * 4096);
  CHECK(hot_share > 0.6);
  // With tags stripped the fdp policy puts everything in one handle, the
  // interval policy does not need them.
  std::vector<trace::Record> untagged = recs;
  for (auto& r : untagged) r.pid = 0;
  CHECK(run(c, untagged, "interval", 2).ftl.waf() == interval.ftl.waf());
}

TEST_CASE("on streams with distinct lifetimes oracle <= fdp <= single", "[fdp][validation]") {
  const uint64_t logical = 400u << 20;
  const auto c = device(logical);
  const auto recs = make_trace(workload::Pattern::kStreams, logical, 2000000, 4, {{0.6, 0.1}, {0.3, 0.3}, {0.1, 0.6}});
  for (auto type : {Kind::kPi, Kind::kIi}) {
    const double oracle = run(c, recs, "oracle", 3, type).ftl.waf();
    const double tagged = run(c, recs, "fdp", 3, type).ftl.waf();
    const double single = run(c, recs, "single", 3, type).ftl.waf();
    INFO(kind_name(type) << ": oracle " << oracle << " fdp " << tagged << " single " << single);
    CHECK(oracle <= tagged);
    CHECK(tagged <= single);
  }
}

TEST_CASE("FDP statistics and per-handle bytes add up", "[fdp][validation]") {
  const uint64_t logical = 400u << 20;
  const auto c = device(logical);
  const auto recs = make_trace(workload::Pattern::kStreams, logical, 500000, 9, {{0.5, 0.2}, {0.3, 0.3}, {0.2, 0.5}});
  for (auto type : {Kind::kPi, Kind::kIi}) {
    const auto r = run(c, recs, "fdp", 4, type);
    uint64_t host = 0, gc_in = 0, gc_out = 0, units = 0, mbe = 0;
    double share = 0;
    for (const auto& h : r.handles) {
      host += h.host_bytes;
      gc_in += h.gc_in_bytes;
      gc_out += h.gc_out_bytes;
      units += h.units_in_use;
      share += h.waf_share;
      mbe += h.mbe_bytes;
      CHECK(h.mbmw_bytes == h.hbmw_bytes + h.gc_out_bytes);  // per handle: MBMW = HBMW + its GC writes
      CHECK(h.hbmw_bytes == h.host_bytes);                   // page-aligned trace: bytes sent = pages x 4 KiB
    }
    REQUIRE(r.ftl.unit_erases > 0);  // the MBE check below means something only with erases
    const uint64_t pid_bytes = std::accumulate(r.host_bytes_by_pid.begin(), r.host_bytes_by_pid.end(), uint64_t{0},
                                               [](uint64_t a, const auto& p) { return a + p.second; });
    CHECK(host == r.ftl.host_slots * 4096);  // HBMW
    CHECK(pid_bytes == host);                // page-aligned trace: request bytes = host bytes
    CHECK(gc_in == r.ftl.gc_slots * 4096);
    CHECK(gc_out == r.ftl.gc_slots * 4096);
    CHECK(host + gc_in == r.ftl.nand_slots() * 4096);  // MBMW = HBMW + GC
    CHECK(units == r.units - r.free_units_end);
    CHECK(share == Approx(r.ftl.waf()).epsilon(1e-12));
    CHECK(r.ru_bytes == uint64_t{64} * 4096 * 8);  // one RU = one line of 8 dies x 64 slots
    CHECK(mbe == r.ftl.unit_erases * r.ru_bytes);  // MBE: the handles' erased RU bytes = RU erases x RU bytes
    CHECK(r.invalid_pid_requests == 0);
  }
  // Four stream IDs but two handles: IDs 2 and 3 are invalid and go to handle 0.
  const auto r = run(c, recs, "fdp", 2, Kind::kIi);
  CHECK(r.invalid_pid_requests > 0);
  CHECK(r.handles.at(0).host_bytes > r.handles.at(1).host_bytes);
}

// WARP (FAST 2026) reports that initially isolated handles beat persistently
// isolated ones when over-provisioning is tight and lose when it is ample.
// The mechanism this model has for it: a persistently isolated handle keeps
// a GC RU open beside its host RU, so with many handles and large RUs the
// partly filled open RUs eat the little spare there is. Eight streams on
// eight handles with 4 MiB RUs (128 RUs) show the direction; three streams
// do not in this model (persistently isolated wins there at every OP tried).
TEST_CASE("initially isolated handles win at tight over-provisioning, persistently isolated at ample",
          "[fdp][validation]") {
  const std::vector<workload::StreamShare> streams = {{0.3, 0.05}, {0.2, 0.1},   {0.15, 0.1},  {0.1, 0.15},
                                                      {0.1, 0.1},  {0.07, 0.15}, {0.05, 0.15}, {0.03, 0.2}};
  auto waf = [&](double op, Kind type) {
    const auto logical = static_cast<uint64_t>((256.0 - 16.0) * 2.0 / (1.0 + op)) * (1u << 20);
    auto c = device(logical);
    c.gc.thres_pcent = 98;
    c.gc.thres_pcent_high = 98;
    const auto recs = make_trace(workload::Pattern::kStreams, logical, 3000000, 4, streams);
    fdp::PlacementSetup p;
    p.placement = fdp::parse_placement("fdp");
    p.fdp.handles = 8;
    p.fdp.ru_bytes = 4u << 20;
    set_kind(p.fdp, type);
    return test::simulate_records(c, recs, {}, p).ftl.waf();
  };
  const double tight_pi = waf(0.15, Kind::kPi);
  const double tight_ii = waf(0.15, Kind::kIi);
  const double ample_pi = waf(1.0, Kind::kPi);
  const double ample_ii = waf(1.0, Kind::kIi);
  INFO("OP 15%: pi " << tight_pi << " ii " << tight_ii << "; OP 100%: pi " << ample_pi << " ii " << ample_ii);
  CHECK(tight_ii < tight_pi);
  CHECK(ample_pi < ample_ii);
}
