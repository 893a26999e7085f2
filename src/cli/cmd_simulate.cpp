// The default command: `ftlsim --trace X [options]` replays a trace through
// the FTL model and prints (and with --out, writes) the result.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <memory>

#include "cli/commands.h"
#include "core/error.h"
#include "core/units.h"
#include "fdp/fdp_config.h"
#include "fdp/placement.h"
#include "ftl/geometry.h"
#include "sim/report.h"
#include "sim/simulate.h"
#include "trace/ftr_reader.h"

namespace ftlsim::cli {
namespace {

struct SimulateArgs {
  std::string trace;
  std::string out;
  std::string preset = "femu-default";
  uint32_t channels = 0, luns = 0, planes = 0, blocks = 0, pages = 0;
  std::string page_size, logical, interval;
  double op = -1.0;
  double gc_thres = 75.0, gc_thres_high = 95.0;
  std::string victim = "greedy";
  uint32_t d_choices = 8;
  uint64_t seed = 1;
  bool wrap = false;
  bool no_progress = false;
  bool geometry_overridden = false;  // set by build_config
  std::string placement = "single";
  uint32_t rg = 1;
  std::string ru_size;
  uint32_t ruh = 8;
  std::string ruh_type = "ii";
  CLI::Option *channels_opt = nullptr, *luns_opt = nullptr, *planes_opt = nullptr,
              *blocks_opt = nullptr, *pages_opt = nullptr, *op_opt = nullptr;
};

ftl::FtlConfig build_config(SimulateArgs& a) {
  ftl::FtlConfig cfg;
  ftl::Geometry& g = cfg.geometry;
  g = ftl::preset_geometry(a.preset);
  const double preset_op = g.over_provisioning();
  a.geometry_overridden = a.channels_opt->count() + a.luns_opt->count() + a.planes_opt->count() +
                              a.blocks_opt->count() + a.pages_opt->count() + a.op_opt->count() +
                              (a.page_size.empty() ? 0 : 1) + (a.logical.empty() ? 0 : 1) >
                          0;
  if (a.channels_opt->count() > 0) g.channels = a.channels;
  if (a.luns_opt->count() > 0) g.luns_per_channel = a.luns;
  if (a.planes_opt->count() > 0) g.planes_per_lun = a.planes;
  if (a.blocks_opt->count() > 0) g.blocks_per_plane = a.blocks;
  if (a.pages_opt->count() > 0) g.pages_per_block = a.pages;
  if (!a.page_size.empty()) {
    const uint64_t ps = parse_size_or_throw(a.page_size, "--page-size");
    if (ps > (uint64_t{1} << 24)) throw InputError(fmt::format("--page-size {} is larger than 16 MiB", a.page_size));
    g.page_bytes = static_cast<uint32_t>(ps);
  }
  const bool has_op = a.op_opt->count() > 0;
  if (has_op && !(a.op > 0.0 && a.op < 100.0)) {
    throw InputError(fmt::format("--op {} must be a fraction above 0 (0.25 = 25% spare)", a.op));
  }
  const double op = has_op ? a.op : preset_op;
  if (!a.logical.empty()) {
    g.logical_bytes = parse_size_or_throw(a.logical, "--logical");
    if (has_op) {
      if (a.blocks_opt->count() > 0) throw InputError("--blocks cannot be combined with both --logical and --op");
      g.blocks_per_plane = ftl::blocks_for_capacity(g, g.logical_bytes, op);
    }
  } else {
    const auto slots = static_cast<uint64_t>(static_cast<double>(g.physical_slots()) / (1.0 + op));
    g.logical_bytes = slots * ftl::kSlotBytes;
  }
  cfg.gc.thres_pcent = a.gc_thres;
  cfg.gc.thres_pcent_high = a.gc_thres_high;
  cfg.gc.victim = ftl::parse_victim_policy(a.victim);
  cfg.gc.d_choices = a.d_choices;
  cfg.gc.seed = a.seed;
  cfg.validate();
  return cfg;
}

sim::PlacementSetup build_placement(const SimulateArgs& a) {
  sim::PlacementSetup p;
  p.placement = fdp::parse_placement(a.placement);
  p.fdp.reclaim_groups = a.rg;
  if (!a.ru_size.empty()) {
    p.fdp.ru_bytes = parse_size_or_throw(a.ru_size, "--ru-size");
    if (p.fdp.ru_bytes == 0) throw InputError("--ru-size must be above 0");
  }
  p.fdp.handles = a.ruh;
  if (a.ruh == 0 || a.ruh > 256) throw InputError(fmt::format("--ruh {} must be between 1 and 256", a.ruh));
  p.fdp.ruh_type = fdp::parse_ruh_type(a.ruh_type);
  return p;
}

void run_simulate(SimulateArgs& a) {
  if (a.trace.empty()) {
    throw InputError("--trace is required (ftlsim --trace FILE.ftr [options]; see ftlsim --help)");
  }
  const ftl::FtlConfig cfg = build_config(a);
  const trace::FtrReader reader(a.trace);
  sim::RunDescription run;
  run.trace_path = a.trace;
  run.preset = a.geometry_overridden ? a.preset + "+overrides" : a.preset;
  run.config = cfg;
  run.options.wrap = a.wrap;
  run.options.progress = !a.no_progress && ::isatty(STDERR_FILENO) == 1;
  if (!a.interval.empty()) {
    run.options.interval_bytes = parse_size_or_throw(a.interval, "--interval");
    if (run.options.interval_bytes == 0) throw InputError("--interval must be above 0");
  }
  run.pid_names = reader.meta().pid_names;
  run.placement = build_placement(a);
  const sim::TraceView view{a.trace, reader.records(), reader.meta().sector_bytes};
  const sim::SimResult result = sim::simulate(cfg, view, run.options, run.placement);
  run.interval_bytes = result.interval_bytes;
  if (!a.out.empty()) sim::write_outputs(a.out, run, result);
  fmt::print("{}", sim::summary_text(run, result));
  if (!a.out.empty()) fmt::print("wrote      {}/summary.json, {}/timeseries.csv\n", a.out, a.out);
}

}  // namespace

Command add_simulate_options(CLI::App& root) {
  auto a = std::make_shared<SimulateArgs>();
  root.add_option("--trace", a->trace, "Trace to replay (.ftr; convert other formats with `ftlsim convert`)")
      ->type_name("FILE");
  root.add_option("--out", a->out, "Write summary.json and timeseries.csv into DIR (created if missing)")
      ->type_name("DIR");
  root.add_option("--preset", a->preset,
                  "Device preset: femu-default (16 GiB raw, 8x8 LUNs, 256 blocks x 256 x 4 KiB pages, 12 GiB logical) "
                  "or femu-eth (98 GiB raw, 8x8 LUNs, 98 lines of 16 MiB blocks, 64 GiB logical)")
      ->capture_default_str()
      ->group("Device");
  a->channels_opt = root.add_option("--channels", a->channels, "Channels (overrides the preset)")->group("Device");
  a->luns_opt = root.add_option("--luns", a->luns, "LUNs (dies) per channel")->group("Device");
  a->planes_opt = root.add_option("--planes", a->planes, "Planes per LUN")->group("Device");
  a->blocks_opt = root.add_option("--blocks", a->blocks, "Blocks per plane (= number of lines)")->group("Device");
  a->pages_opt = root.add_option("--pages", a->pages, "Pages per block")->group("Device");
  root.add_option("--page-size", a->page_size, "NAND page size, multiple of 4K (e.g. 4K, 16K)")
      ->type_name("SIZE")
      ->group("Device");
  root.add_option("--logical", a->logical,
                  "Logical capacity the host sees (e.g. 12G); with --op, the number of blocks is derived "
                  "from it. Default: physical / (1 + op)")
      ->type_name("SIZE")
      ->group("Device");
  a->op_opt = root.add_option("--op", a->op,
                              "Over-provisioning as a fraction, physical/logical - 1 (default: the preset's, "
                              "1/3 for femu-default)")
                  ->group("Device");
  root.add_option("--gc-thres", a->gc_thres,
                  "Background GC threshold in percent (FEMU gc_thres_pcent): GC runs while free lines <= "
                  "(1 - pct/100) x lines, taking only victims with >= 1/8 invalid pages")
      ->capture_default_str()
      ->group("GC");
  root.add_option("--gc-thres-high", a->gc_thres_high,
                  "Forced GC threshold in percent (FEMU gc_thres_pcent_high), in the write path")
      ->capture_default_str()
      ->group("GC");
  root.add_option("--victim", a->victim, "Victim policy: greedy, cost-benefit, fifo, random, d-choice")
      ->capture_default_str()
      ->group("GC");
  root.add_option("--d-choices", a->d_choices, "Candidates sampled by --victim d-choice")
      ->capture_default_str()
      ->group("GC");
  root.add_option("--seed", a->seed, "Seed for the random and d-choice victim policies")
      ->capture_default_str()
      ->group("GC");
  root.add_option("--placement", a->placement,
                  "Placement policy: single (non-FDP: one handle, GC shares its write pointer), fdp (the "
                  "trace's placement IDs, ID i -> handle i), map:PID=RUH,... (remap IDs), oracle (by the time "
                  "until each LBA is rewritten: an upper bound), interval (device-side, by the overwrite "
                  "interval it observes; no host tags)")
      ->capture_default_str()
      ->group("FDP");
  root.add_option("--rg", a->rg, "Reclaim groups (must divide the dies); LBAs stripe over them in 1 MiB chunks")
      ->capture_default_str()
      ->group("FDP");
  root.add_option("--ru-size", a->ru_size,
                  "Reclaim unit size (default: one line of a reclaim group); whole lines of the group, or "
                  "one block per plane on fewer dies")
      ->type_name("SIZE")
      ->group("FDP");
  root.add_option("--ruh", a->ruh, "Reclaim unit handles (placement IDs the device accepts)")
      ->capture_default_str()
      ->group("FDP");
  root.add_option("--ruh-type", a->ruh_type,
                  "Handle type: pi (persistently isolated: GC survivors stay with their handle) or ii "
                  "(initially isolated: survivors of all handles share one GC handle)")
      ->capture_default_str()
      ->group("FDP");
  root.add_option("--interval", a->interval,
                  "Host bytes between timeseries rows (default: 1% of the bytes the trace writes)")
      ->type_name("SIZE")
      ->group("Output");
  root.add_flag("--wrap", a->wrap,
                "Fold LBAs beyond the logical capacity into it (modulo) instead of failing")
      ->group("Input");
  root.add_flag("--no-progress", a->no_progress, "No progress line on stderr (shown only on a terminal)")
      ->group("Output");
  return Command{&root, [a] { run_simulate(*a); }};
}

}  // namespace ftlsim::cli
