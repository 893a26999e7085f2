// The model against the analytic write amplification of FIFO cleaning under
// uniform random single-page overwrites (common/analytic_waf.h).
#include <catch2/catch.hpp>

#include <cmath>

#include "common/analytic_waf.h"
#include "ftl/ftl_test_util.h"
#include "sim/simulate.h"
#include "sim_test_util.h"

using namespace ftlsim;

namespace {

// WAF over the second half of `writes_factor` x logical random writes after a fill.
double steady_waf(const ftl::FtlConfig& cfg, uint64_t logical, const std::vector<trace::Record>& recs,
                  uint64_t measured_from_slot) {
  sim::SimOptions opts;
  opts.interval_bytes = logical * 4096;
  const sim::SimResult r = sim::simulate(cfg, sim::TraceView{"analytic", recs, 512}, opts);
  const sim::TimeseriesRow* mid = nullptr;
  for (const auto& row : r.timeseries) {
    if (row.host_bytes >= measured_from_slot * 4096) {
      mid = &row;
      break;
    }
  }
  REQUIRE(mid != nullptr);
  const auto& end = r.timeseries.back();
  const double nand_mid = mid->waf * static_cast<double>(mid->host_bytes);
  const double nand_end = end.waf * static_cast<double>(end.host_bytes);
  return (nand_end - nand_mid) / static_cast<double>(end.host_bytes - mid->host_bytes);
}

}  // namespace

TEST_CASE("Lambert-W formula reproduces the reference table", "[validation]") {
  CHECK(test::fifo_wa(1.07) == Approx(7.82).epsilon(0.002));
  CHECK(test::fifo_wa(1.10) == Approx(5.68).epsilon(0.002));
  CHECK(test::fifo_wa(1.30) == Approx(2.36).epsilon(0.002));
  CHECK(test::fifo_wa(1.50) == Approx(1.72).epsilon(0.003));
}

// 1024 lines of 64 slots. The forced threshold holds back one free line (the
// least FEMU's rule allows) and the background threshold is the same, so GC
// runs only when needed. In steady state a victim is cleaned when the open
// line has just been taken and one line is free, so lines - 2 lines hold the
// data and alpha = (lines - 2) * 64 / logical.
TEST_CASE("FIFO WAF matches the analytic value within 3% from 7% to 50% over-provisioning", "[validation]") {
  constexpr uint32_t kLines = 1024, kSlots = 64;
  const double pct = 100.0 * (1.0 - 1.5 / kLines);
  for (const double op : {0.07, 0.10, 0.20, 0.30, 0.50}) {
    const auto logical = static_cast<uint64_t>((kLines - 2) * kSlots / (1.0 + op));
    const auto cfg = test::tiny_config(kLines, kSlots, logical, pct, pct, ftl::VictimPolicy::kFifo);
    REQUIRE(cfg.gc.thres_units_high(kLines) == 1);
    const double alpha = static_cast<double>((kLines - 2) * kSlots) / static_cast<double>(logical);

    std::vector<trace::Record> recs;
    test::append_sequential(recs, 0, logical);
    test::append_uniform(recs, logical, 20 * logical, 11);
    const double measured = steady_waf(cfg, logical, recs, 11 * logical);
    const double expected = test::fifo_wa(alpha);
    INFO("op " << op << " alpha " << alpha << " measured " << measured << " analytic " << expected);
    CHECK(measured == Approx(expected).epsilon(0.03));

    auto greedy = cfg;
    greedy.gc.victim = ftl::VictimPolicy::kGreedy;
    const double g = steady_waf(greedy, logical, recs, 11 * logical);
    INFO("greedy " << g);
    CHECK(g <= measured);
  }
}
