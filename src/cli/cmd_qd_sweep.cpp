// `ftlsim qd-sweep`: the trace replayed in timed mode, closed loop, once per
// queue depth; one table of QPS and latency percentiles per queue depth and
// the knee where throughput stops scaling.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <thread>

#include "cli/commands.h"
#include "cli/sim_options.h"
#include "cli/timing_options.h"
#include "cli/uint_option.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/io_identity.h"
#include "core/output_dir.h"
#include "sim/simulate.h"
#include "sim/sweep_values.h"
#include "timing/qd_sweep.h"
#include "trace/ftr_reader.h"

namespace ftlsim::cli {
namespace {

struct QdSweepArgs {
  std::string trace;
  std::string qd = "1,2,4,8,16,32,64,128";
  std::string ops = "all";
  std::string out;
  unsigned jobs = 1;
  bool no_progress = false;
  ModelArgs model;
  TimingArgs timing;
};

std::vector<uint32_t> parse_qds(const std::string& text) {
  std::vector<uint32_t> qds;
  for (const std::string& item : sim::expand_values("--qd", sim::ValueKind::kInteger, text)) {
    const uint64_t v = std::stoull(item);  // expand_values checked it is a whole number
    if (v == 0 || v > timing::kMaxQd) {
      throw InputError(fmt::format("--qd: {} is not between 1 and {}", item, timing::kMaxQd));
    }
    qds.push_back(static_cast<uint32_t>(v));
  }
  return qds;
}

void run_qd_sweep(const QdSweepArgs& a) {
  if (a.trace.empty()) throw InputError("qd-sweep: --trace is required");
  const std::vector<uint32_t> qds = parse_qds(a.qd);
  const timing::OpFilter ops = timing::parse_op_filter(a.ops);
  const std::vector<std::vector<std::string>> items = expand_settings(a.model);
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].size() > 1) {
      throw InputError(fmt::format("qd-sweep takes one value per model option; --{} has {}", setting_info(i).name,
                                   items[i].size()));
    }
  }
  sim::RunDescription run = build_run(a.model, first_point(items), a.trace);
  timing::TimingConfig base = build_latencies(a.timing);
  base.mode = timing::HostMode::kClosed;
  base.ops = ops;
  // --out is checked now and written as one set at the end.
  RunInputs inputs;
  inputs.add("--trace", a.trace);
  std::optional<OutputDir> out;
  if (!a.out.empty()) {
    out.emplace("--out", a.out, std::vector<std::string>{"qd_sweep.csv", "qd_sweep.json"}, inputs);
  }
  const trace::FtrReader reader(a.trace);
  const sim::TraceView view{a.trace, reader.records(), reader.meta().sector_bytes};
  if (ops != timing::OpFilter::kAll) {
    const auto want = static_cast<uint8_t>(ops == timing::OpFilter::kRead ? trace::Op::kRead : trace::Op::kWrite);
    const auto recs = reader.records();
    if (std::none_of(recs.begin(), recs.end(), [want](const trace::Record& r) { return r.op == want; })) {
      throw InputError(fmt::format("{}: no {} requests to time (--ops {}): the trace has none", a.trace,
                                   timing::op_filter_name(ops), timing::op_filter_name(ops)));
    }
  }

  // One run per queue depth on up to -j threads; results do not depend on -j.
  std::vector<timing::QdRow> rows(qds.size());
  std::vector<std::exception_ptr> errors(qds.size());
  std::atomic<size_t> next{0};
  const bool progress = !a.no_progress && ::isatty(STDERR_FILENO) == 1;
  std::mutex progress_mutex;
  size_t done = 0;
  auto worker = [&] {
    for (size_t i = next++; i < qds.size(); i = next++) {
      try {
        sim::SimOptions o = run.options;
        o.timing = base;
        o.timing->qd = qds[i];
        const sim::SimResult r = sim::simulate(run.config, view, o, run.placement);
        rows[i] = timing::qd_row(qds[i], *r.timing);
      } catch (...) {
        errors[i] = std::current_exception();
      }
      if (progress) {
        const std::lock_guard lock(progress_mutex);
        std::fprintf(stderr, "\rftlsim: %zu/%zu queue depths done", ++done, qds.size());
      }
    }
  };
  const size_t threads = std::min<size_t>(std::max(a.jobs, 1U), qds.size());
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (progress) std::fprintf(stderr, "\r%60s\r", "");
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }

  if (ops != timing::OpFilter::kAll && std::all_of(rows.begin(), rows.end(), [](const timing::QdRow& r) {
        return r.count == 0;
      })) {
    throw InputError(fmt::format("{}: no {} requests to time (the trace has none, or all were of unmapped LBAs)",
                                 a.trace, timing::op_filter_name(ops)));
  }
  if (out) {
    write_file_atomically(out->staging() + "/qd_sweep.csv", timing::qd_sweep_csv(rows));
    write_file_atomically(out->staging() + "/qd_sweep.json", timing::qd_sweep_json(rows));
    out->publish();
  }
  fmt::print("qd-sweep   {} ({} records), closed loop, {} requests timed\n", escape_for_terminal(a.trace), reader.size(),
             timing::op_filter_name(ops));
  fmt::print("{}", timing::qd_sweep_text(rows));
  if (!a.out.empty()) fmt::print("wrote      {0}/qd_sweep.csv, {0}/qd_sweep.json\n", escape_for_terminal(a.out));
}

}  // namespace

Command add_qd_sweep_command(CLI::App& root) {
  auto a = std::make_shared<QdSweepArgs>();
  a->jobs = std::max(1U, std::thread::hardware_concurrency());
  CLI::App* sub = root.add_subcommand(
      "qd-sweep",
      "Replay a trace in timed mode, closed loop, at each queue depth: QPS, MB/s and latency percentiles per "
      "queue depth, and the knee (the smallest queue depth reaching 90% of the best QPS)");
  sub->add_option("--trace", a->trace, "Trace to replay (.ftr)")->type_name("FILE")->required();
  sub->add_option("--qd", a->qd, "Queue depths: a list or a range START:STOP:STEP")
      ->type_name("LIST")
      ->default_str(a->qd);
  sub->add_option("--ops", a->ops,
                  "Requests to time: all, read or write. The others update the FTL in trace order but take no "
                  "device time (read: reads against the mapping the trace's writes built)")
      ->type_name("all|read|write")
      ->default_str(a->ops);
  sub->add_option("--out", a->out, "Write qd_sweep.csv and qd_sweep.json into DIR")->type_name("DIR");
  add_uint_option(*sub, "-j,--jobs", a->jobs, 1, kMaxJobs,
                  fmt::format("Queue depths run in parallel, 1 to {} (default: all cores, {} here)", kMaxJobs, a->jobs))
      ->type_name("N");
  add_model_options(*sub, a->model);
  add_timing_options(*sub, a->timing, false);
  sub->add_flag("--no-progress", a->no_progress, "No progress line on stderr (shown only on a terminal)");
  return Command{sub, [a] { run_qd_sweep(*a); }};
}

}  // namespace ftlsim::cli
