// `ftlsim replay`: send a trace's requests to a real file or block device
// through io_uring (src/replay/) and report throughput and latency, and on
// FDP hardware the device's own WAF next to the model's prediction.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "cli/flag_text.h"
#include "cli/out_results.h"
#include "cli/path_option.h"
#include "cli/run_key.h"
#include "cli/sim_options.h"
#include "cli/standard_streams.h"
#include "cli/stop_signal.h"
#include "cli/uint_option.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/io_identity.h"
#include "core/memory_budget.h"
#include "core/output_dir.h"
#include "core/progress_line.h"
#include "core/setting.h"
#include "core/units.h"
#include "ftl/ftl_config.h"
#include "replay/data_pattern.h"
#include "replay/nvme_device.h"
#include "replay/placement_plan.h"
#include "replay/replay_config.h"
#include "replay/replay_report.h"
#include "replay/request_stream.h"
#include "replay/space_need.h"
#include "replay/target.h"
#include "replay/uring_engine.h"
#include "replay/verify.h"
#include "sim/memory_estimate.h"
#include "sim/simulate.h"
#include "timing/time_scale.h"
#include "trace/ftr_reader.h"

namespace ftlsim::cli {
namespace {

using replay::PlacementMode;

constexpr const char* kReplayFooter = R"(The target is a regular file or a block device (for --placement nvme, the
NVMe generic character device /dev/ngXnY). Every I/O is O_DIRECT, aligned
to the target's block size (reads and writes are widened to whole blocks,
trims narrowed to the whole blocks inside them), and stays inside the
target: requests beyond its end are refused unless --wrap. A file is
created only with --create SIZE (sparse), after every check passed, and
removed again if the run ends before its first record is done. The target
is never the trace (any name). A block device that is mounted, held by a
device-mapper/md stack, partitioned, or carries a partition-table,
file-system or RAID signature (libblkid), and a file that backs a loop
device, is an active swap file or carries such a signature, is refused
unless --force; every finding is printed. The target's whole stack is
checked the same way: the devices it is built on (device-mapper, md, loop
backing files) and every device built on any of them (other loop devices
over the same file at any offset, holders, partitions); an input found in
it (a backing file, or on a file system mounted from it) is refused, --force
or not. A file target is locked (OFD lock) for the run: a second replay
onto it is refused. A replay whose writes reach more of a file's holes (a
file target's, or a loop device's backing file's) than its file system has
free is refused, --force or not, instead of running out of space.

An I/O waits while an earlier overlapping I/O is in flight (reads may
overlap reads), and a flush waits for all earlier I/Os, so the target ends
holding what the trace wrote last at any queue depth. Written data carries
a header per 512 bytes (magic, offset, record); --verify reads the target
back and checks it. Trims punch holes in files and are BLKDISCARD on block
devices (synchronous). Flushes are sent only when --ops lists flush.

Ctrl-C (or SIGTERM) stops submitting, drains the I/Os in flight, and prints
and writes the report marked partial (exit status 1); a second Ctrl-C ends
the program at once.

Placement: none counts bytes per placement ID; stream sends ID p as Linux
6.16+ write stream p+1 (needs queue/max_write_streams > p on the device);
nvme sends writes as NVMe passthrough commands with DTYPE=2 and DSPEC = the
placement identifier of handle p in reclaim group --rg, read from the
device's FDP configuration and reclaim unit handle status, and reports the
device's WAF from its FDP statistics log (delta MBMW / delta HBMW), and
per handle how far its RUAMW moved against the bytes sent to it (reclaim
unit handle status before and after) and the FDP events logged meanwhile.
--predict "OPTIONS" also runs the model on the trace with those simulate
options and prints its per-handle bytes and WAF in the same table. Its
memory is checked against --mem-limit, replay's or one given inside
OPTIONS (which then applies to the model run).
--placement nvme holds the namespace's block device /dev/nvmeXnY with
O_EXCL during the replay (refused when busy), unless --force.

Examples:
  ftlsim replay --trace traces/demo.ftr --target /tmp/demo.img --create 12G --out r/
  ftlsim replay --trace x.ftr --target /dev/loop0 --qd 64 --verify
  ftlsim replay --trace x.ftr --target /dev/sdb --mode timed --speed 4 --ops write,trim
  ftlsim replay --trace x.ftr --target /dev/ng0n1 --placement nvme \
      --predict "--logical 64G --op 0.07 --placement fdp --ruh 8")";

struct ReplayArgs {
  std::string trace;
  std::string target;
  std::string out;
  uint32_t qd = 32;
  std::string mode = "afap";
  std::string speed = "1";  // parsed by build_config, whose message names the option
  std::string ops = "write,read,trim";
  std::string placement = "none";
  uint32_t rg = 0;
  std::string create;
  bool create_given = false;  // --create was given (an empty SIZE is refused, not taken as none)
  std::string max_io = "1M";
  std::string interval;
  std::string predict;
  std::string mem_limit;  // --mem-limit, for the --predict model run
  bool wrap = false;
  bool force = false;
  bool replace_out = false;  // --replace-out: another replay's report in --out
  bool verify = false;
  bool no_progress = false;
  bool allow_unlisted_pids = false;
  bool ruh_update_at_end = false;
};

replay::ReplayConfig build_config(const ReplayArgs& a) {
  // An empty path names no file (it was "no such file" with no name, or an
  // internal error for the target).
  if (a.trace.empty()) throw InputError("--trace: the path is empty");
  if (a.target.empty()) throw InputError("--target: the path is empty");
  std::vector<Message> problems;
  replay::ReplayConfig c;
  if (const auto m = replay::parse_mode(a.mode)) {
    c.mode = *m;
  } else {
    problems.push_back(fmt::format("--mode: '{}' is not afap or timed", a.mode));
  }
  if (const auto p = replay::parse_placement(a.placement)) {
    c.placement = *p;
  } else {
    problems.push_back(fmt::format("--placement: '{}' is not none, stream or nvme", a.placement));
  }
  try {
    c.ops = replay::OpSet::parse(a.ops);
  } catch (const InputError& e) {
    problems.push_back(e.message());
  }
  c.queue_depth = a.qd;
  try {
    c.speed = parse_real("speed", a.speed);  // the settings' own parser and message
  } catch (const SettingError& e) {
    problems.push_back(e.message());
  }
  c.wrap = a.wrap;
  if (a.rg > 0xffff) {
    problems.push_back(fmt::format("--rg {} is above 65535", a.rg));
  } else {
    c.reclaim_group = static_cast<uint16_t>(a.rg);
  }
  if (const auto v = parse_size(a.max_io); v && *v <= UINT32_MAX) {
    c.max_io_bytes = static_cast<uint32_t>(*v);
  } else {
    problems.push_back(fmt::format("--max-io: '{}' is not a size (examples: 128K, 1M)", a.max_io));
  }
  if (!a.interval.empty()) {
    if (const auto v = parse_size(a.interval); v && *v > 0) {
      c.interval_bytes = *v;
    } else {
      problems.push_back(fmt::format("--interval: '{}' is not a positive size", a.interval));
    }
  }
  if (a.create_given && a.create.empty()) problems.emplace_back("--create: '' is empty; give the SIZE to create");
  if (!a.create.empty() && !parse_size(a.create)) {
    problems.push_back(fmt::format("--create: '{}' is not a size (examples: 1G, 12G)", a.create));
  }
  for (const Problem& p : c.problems()) problems.push_back(p.message());
  if (a.verify && c.placement == PlacementMode::kNvme) {
    problems.emplace_back("--verify is not available with --placement nvme");
  }
  if ((a.allow_unlisted_pids || a.ruh_update_at_end) && c.placement != PlacementMode::kNvme) {
    problems.emplace_back(fmt::format("{} needs --placement nvme",
                                      a.allow_unlisted_pids ? "--allow-unlisted-pids" : "--ruh-update-at-end"));
  }
  if (!problems.empty()) throw InputError(Message("replay: ") + join(problems, "; "));
  return c;
}

// The model's WAF and per-handle bytes for the trace under the simulate
// options in `text`. Its memory is estimated first and refused beyond
// `limit` (sim/memory_estimate.h), as simulate's is.
replay::Prediction predict(const std::string& text, const std::string& trace_path, const trace::FtrReader& reader,
                           const std::optional<MemoryBudget>& replay_limit) {
  ModelArgs m;
  std::string own_limit;  // --mem-limit inside --predict: the model run's, instead of replay's
  try {
    CLI::App overlay{"", "--predict"};
    add_model_options(overlay, m);
    overlay.add_option("--mem-limit", own_limit);
    parse_overlay(overlay, text);
  } catch (const CLI::ParseError& e) {
    throw InputError(fmt::format("--predict \"{}\": {}", text, e.what()));
  }
  try {
    const std::vector<std::vector<std::string>> items = expand_settings(m);
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].size() > 1) {
        throw InputError(fmt::format("--{} has {} values; --predict takes one configuration", setting_info(i).name,
                                     items[i].size()));
      }
    }
    const std::optional<MemoryBudget> limit = own_limit.empty() ? replay_limit : memory_limit(own_limit);
    sim::RunDescription run = build_run(m, first_point(items), trace_path);
    sim::TraceView view{trace_path, reader.records(), reader.meta().sector_bytes};
    view.scan = sim::scan(view);  // once, for the estimate and the run
    const uint64_t need = sim::estimate_run_memory(run, sim::trace_size(view, sim::TraceSizeNeeds{}.add(run))).bytes;
    sim::check_memory({&need, 1}, 1, limit, "the --predict model run");
    const sim::SimResult res = sim::simulate(run.config, view, run.options, run.placement);
    replay::Prediction p{text, res.ftl.waf(), 0, {}};
    for (const auto& [pid, bytes] : res.host_bytes_by_pid) p.host_bytes += bytes;
    for (const fdp::HandleStats& h : res.handles) {
      p.handles.push_back({h.name, h.host_bytes, h.gc_out_bytes, h.waf_share, h.ruh});
    }
    return p;
  } catch (const InputError& e) {
    throw InputError(Message(fmt::format("--predict \"{}\": ", text)) + e.message());
  }
}

// The replay's configuration (the trace's records, the target, every
// option that changes what is sent or reported), for summary.json's
// config_key and the --out rule (cli/out_results.h). The target is the
// device node checked (device and inode), or a file's absolute path.
std::string replay_config_key(const ReplayArgs& a, const replay::ReplayConfig& c, const replay::Target& target,
                              const trace::FtrReader& reader) {
  const FileIdentity id = target.identity();
  std::error_code ec;  // no current folder: the path as given
  const std::filesystem::path absolute = std::filesystem::absolute(a.target, ec);
  const std::string where =
      target.info().kind == replay::TargetKind::kFile
          ? "file " + (ec ? a.target : absolute.lexically_normal().string())
          : fmt::format("device {}:{}", static_cast<uint64_t>(id.dev), static_cast<uint64_t>(id.ino));
  const std::string description = fmt::format(
      "replay\ntarget={}\ncreate={}\nmode={}\nspeed={}\nqd={}\nops={}\nplacement={}\nrg={}\nwrap={}\n"
      "max_io={}\ninterval={}\nverify={}\npredict={}\nallow_unlisted_pids={}\nruh_update_at_end={}\n",
      where, a.create, replay::mode_name(c.mode), c.mode == replay::ReplayMode::kTimed ? c.speed : 1.0, c.queue_depth,
      c.ops.text(), replay::placement_name(c.placement), c.reclaim_group, c.wrap, c.max_io_bytes, c.interval_bytes,
      a.verify, a.predict, a.allow_unlisted_pids, a.ruh_update_at_end);
  const sim::TraceView view{reader.path(), reader.records(), reader.meta().sector_bytes};
  return trace_config_key(description, view, reader.meta().pid_names);
}

// A replay onto a regular file (or a loop device over one) allocates the
// file's holes as it writes them: one that would need more than its file
// system has free is refused here, not stopped by ENOSPC half-way after
// filling the file system (space_need.h).
void check_free_space(const replay::Target& target, std::span<const trace::Record> records,
                      const replay::StreamGeometry& geo, const replay::StreamScan& scan) {
  const std::optional<replay::Target::StorageFile> file = target.storage_file();
  if (!file) return;
  // With the file system's own metadata for the new extents, taken as 1/32
  // of the data (ext4 took 1.5 MiB more than the 32 MiB of data a replay's
  // writes reached in a file's holes).
  const auto fits = [&file](uint64_t bytes) { return bytes + bytes / 32 <= file->space.free_bytes; };
  if (fits(replay::space_need_bound(scan, file->space.unit))) return;  // the writes' bytes fit: no count
  const replay::Extents data = file->fd >= 0 ? replay::data_extents(file->fd, file->path) : replay::Extents{};
  const uint64_t need = replay::space_need(records, geo, file->space.unit, data, file->origin);
  if (fits(need)) return;
  const std::string whose =
      file->path == target.info().path ? std::string("the file's") : "its backing file " + file->path + "'s";
  throw InputError(fmt::format(
      "--target {}: the replay's writes reach {} ({} bytes) of {} holes, which with their metadata (1/32 "
      "more) is more than the {} ({} bytes) its file system has free: it would run out of space part-way; free "
      "some, or put the target on another file system",
      target.info().path, format_bytes(need), need, whose, format_bytes(file->space.free_bytes),
      file->space.free_bytes));
}

// Every check comes first (options, the target is no input, the target's
// safety findings, --out, the trace's range against the target's size,
// trims, the free space, placement, --predict); only then is a --create file created or
// resized and written. A file --create made is kept only when the replay
// ran and did at least one record; otherwise (refused, interrupted before
// the first record, the engine throwing) ~Target removes it again.
void run_replay(const ReplayArgs& a) {
  const replay::ReplayConfig cfg = build_config(a);
  const std::optional<MemoryBudget> mem_limit = memory_limit(a.mem_limit);
  // The trace first: the target is compared with the file the replay reads
  // (its device and inode, from the open file), in Target, which checks the
  // target it has open.
  const trace::FtrReader reader(a.trace);
  RunInputs inputs;
  inputs.add("--trace", a.trace, reader.identity());
  check_not_standard_stream(inputs);
  if (cfg.mode == replay::ReplayMode::kTimed) timing::check_issue_span(reader.records(), cfg.speed, a.trace);

  replay::TargetRequest req;
  req.path = a.target;
  req.create_bytes = a.create.empty() ? 0 : *parse_size(a.create);
  req.force = a.force;
  req.placement = cfg.placement;
  req.inputs = &inputs;
  if (!a.create.empty() && req.create_bytes == 0) throw InputError("--create 0: give the size of the file to create");
  replay::Target target(req, replay::Target::Deferred{});  // checks only: nothing created or resized yet
  const replay::TargetInfo& info = target.info();
  // --out may hold neither the trace nor the target, also one --create is
  // about to make (it is replaced as a set).
  std::optional<OutputDir> out;
  if (!a.out.empty()) {
    RunInputs around = inputs;
    if (target.creates_file()) {
      around.add_planned("--target", a.target, target.identity());
    } else {
      around.add("--target", a.target, target.identity());
    }
    out.emplace("--out", a.out, replay::kOutputNames, around);
    target.check_output_folder(Message::setting("out"), a.out, out->device());
  }
  std::string key;
  if (out) {
    // Another replay's report is refused without --replace-out
    // (cli/out_results.h); the same replay replaces its own.
    key = replay_config_key(a, cfg, target, reader);
    const KeyedEntry keyed[] = {{"summary.json", key}};
    check_out_results(*out, keyed, a.replace_out, "--replace-out");
  }
  if (cfg.placement == PlacementMode::kStream) replay::check_write_streams(info);

  replay::StreamGeometry geo;
  geo.trace_path = a.trace;
  geo.sector_bytes = reader.meta().sector_bytes;
  geo.target_bytes = info.bytes;
  geo.block_bytes = info.block_bytes;
  uint64_t max_io = cfg.max_io_bytes;
  if (info.max_io_bytes != 0) max_io = std::min<uint64_t>(max_io, info.max_io_bytes);
  geo.max_io_bytes = static_cast<uint32_t>(std::max<uint64_t>(max_io / info.block_bytes, 1) * info.block_bytes);
  geo.ops = cfg.ops;
  geo.wrap = cfg.wrap;
  if (a.verify) replay::check_verify_size(info);  // before anything is written, as every check
  const replay::StreamScan scan = replay::scan_stream(reader.records(), geo);
  if (scan.ios[static_cast<size_t>(trace::Op::kTrim)] > 0 && !info.discard) {
    throw InputError(
        fmt::format("{}: the trace has trims but {} does not support discard (queue/discard_max_bytes "
                    "is 0); replay with --ops write,read",
                    a.trace, a.target));
  }

  check_free_space(target, reader.records(), geo, scan);

  replay::ReplayReport report;
  report.config_key = key;
  report.trace_path = a.trace;
  report.trace_records = reader.size();
  report.pid_names = reader.meta().pid_names;
  report.target = info;
  report.config = cfg;
  report.scan = scan;
  report.interval_bytes =
      cfg.interval_bytes != 0 ? cfg.interval_bytes : std::max<uint64_t>(scan.moved_bytes() / 100, 1);

  std::optional<replay::NvmeFdp> fdp;
  if (cfg.placement == PlacementMode::kStream) {
    report.plan = replay::plan_streams(info, scan.write_pids);
  } else if (cfg.placement == PlacementMode::kNvme) {
    fdp = replay::probe_nvme_fdp(target.fd(), info.path, info.nvme);
    report.plan = replay::plan_nvme(info, *fdp, cfg.reclaim_group, scan.write_pids, a.allow_unlisted_pids);
    replay::DeviceFdpReport d;
    for (const uint16_t p : scan.write_pids) {
      const bool listed = std::any_of(fdp->ruh_status.begin(), fdp->ruh_status.end(),
                                      [&](const auto& s) { return s.pid == report.plan.dspec_by_pid[p]; });
      if (!listed) d.unlisted_pids.push_back(p);
    }
    d.nsid = info.nvme.nsid;
    d.lba_bytes = info.nvme.lba_bytes;
    d.ruh_before = fdp->ruh_status;
    d.endurance_group = info.nvme.endurance_group;
    d.config_index = fdp->feature.config_index;
    d.rgif = fdp->config.rgif;
    d.reclaim_groups = fdp->config.reclaim_groups;
    d.handles = fdp->config.handles;
    d.ru_bytes = fdp->config.ru_bytes;
    d.reclaim_group_used = cfg.reclaim_group;
    d.before = replay::read_fdp_statistics(target.fd(), info.path, info.nvme.endurance_group);
    report.device_fdp = d;
  }
  // The host events already in the log, to tell the replay's own apart.
  // A device that cannot return the events log still replays; the report
  // then says why it has no event counts.
  std::vector<replay::nvme_fdp::Event> events_before;
  bool events_ok = false;
  if (report.device_fdp) {
    try {
      events_before = replay::read_fdp_events(target.fd(), info.path, info.nvme.endurance_group, true);
      events_ok = true;
    } catch (const SystemError& e) {
      report.device_fdp->events_error = e.what();
    }
  }
  if (!a.predict.empty()) report.prediction = predict(a.predict, a.trace, reader, mem_limit);

  // Every check passed: from here on the target is created or resized, and written.
  const bool progress = progress_wanted(a.no_progress);
  replay::EngineHooks hooks;
  {
    // Ctrl-C stops submitting; the I/Os in flight drain (cli/stop_signal.h).
    const StopSignalScope signals("interrupted: draining the I/Os in flight");
    hooks.stop = signals.flag();
    target.materialize();
    report.target = target.info();
    ProgressLine line("replay", scan.moved_bytes(), ProgressUnit::kBytes, progress);
    if (progress) {
      hooks.progress = [&line](const replay::Progress& p) {
        const double s = static_cast<double>(p.elapsed_ns) * 1e-9;
        line.set_note(
            fmt::format("{:.0f} IOPS, {} in flight", s > 0 ? static_cast<double>(p.ios) / s : 0.0, p.inflight));
        line.set(p.bytes);
      };
    }
    report.result = replay::run_replay(target, reader.records(), geo, scan, cfg, report.plan, hooks);
  }
  // A file --create made stays once the replay wrote to it.
  if (report.result.records_done > 0) {
    target.keep();
  } else if (report.target.created) {
    report.created_removed = true;  // ~Target removes it
  }
  if (!reader.intact()) {
    // The trace shrank or changed under the replay: what was sent after that
    // is not the trace. The report is written, marked partial, and says so.
    try {
      reader.check_intact();
    } catch (const InputError& e) {
      report.result.partial = true;
      report.result.input_error = true;
      report.result.stop_reason = e.what();
    }
  }
  if (report.device_fdp && !report.result.io_error) {
    replay::DeviceFdpReport& d = *report.device_fdp;
    d.after = replay::read_fdp_statistics(target.fd(), info.path, info.nvme.endurance_group);
    d.ruh_after = replay::read_ruh_status(target.fd(), info.path, info.nvme.nsid);
    if (a.ruh_update_at_end && !report.result.partial) {
      replay::RuhUpdateReport u;
      for (const uint16_t p : scan.write_pids) {
        const uint16_t pid = report.plan.dspec_by_pid[p];
        const bool unlisted = std::find(d.unlisted_pids.begin(), d.unlisted_pids.end(), p) != d.unlisted_pids.end();
        if (!unlisted && std::find(u.pids.begin(), u.pids.end(), pid) == u.pids.end()) u.pids.push_back(pid);
      }
      replay::update_ruhs(target.fd(), info.path, info.nvme.nsid, u.pids);
      u.ruh_status = replay::read_ruh_status(target.fd(), info.path, info.nvme.nsid);
      u.stats = replay::read_fdp_statistics(target.fd(), info.path, info.nvme.endurance_group);
      d.ruh_update = std::move(u);
    }
    if (events_ok) {
      try {
        d.events = replay::nvme_fdp::new_events(
            events_before, replay::read_fdp_events(target.fd(), info.path, info.nvme.endurance_group, true));
        d.events_read = true;
      } catch (const SystemError& e) {
        d.events_error = e.what();
      }
    }
  }
  if (a.verify && !report.result.partial) {
    // Ctrl-C stops the read-back between chunks; the report says how far it got.
    const StopSignalScope signals("interrupted: stopping the read-back");
    ProgressLine line("verify", target.info().bytes, ProgressUnit::kBytes, progress);
    report.verify = replay::verify_target(target, reader.records(), geo, &line, signals.flag());
  }

  if (out) {
    out->write([&](const std::string& dir) { replay::write_outputs(dir, report); });
    out->publish();
  }
  fmt::print("{}", replay::summary_text(report, flag_of));
  if (!a.out.empty()) {
    fmt::print("wrote      {0}/summary.json, {0}/events.csv{1}\n", escape_for_terminal(folder_name_of(a.out)),
               report.result.partial ? " (marked partial)" : "");
  }
  std::fflush(stdout);
  if (report.result.input_error) throw InputError(fmt::format("replay stopped: {}", report.result.stop_reason));
  if (report.result.partial) {
    throw SystemError(report.result.interrupted && !report.result.io_error
                          ? "replay interrupted; the report above is partial"
                          : fmt::format("replay stopped: {}", report.result.stop_reason));
  }
  if (report.verify && report.verify->mismatches > 0) {
    throw SystemError(fmt::format("--verify: {} units of {} B differ from what the trace wrote; first at {}",
                                  report.verify->mismatches, replay::kPatternUnit, report.verify->first_mismatch));
  }
  if (report.verify && report.verify->interrupted) {
    throw SystemError("--verify interrupted; the report above says how much of the target it checked");
  }
}

}  // namespace

Command add_replay_command(CLI::App& root) {
  auto a = std::make_shared<ReplayArgs>();
  CLI::App* app = root.add_subcommand(
      "replay", "Replay a trace onto a real file or block device through io_uring (O_DIRECT), with FDP placement");
  app->footer(kReplayFooter);
  app->add_option("--trace", a->trace, "The .ftr trace to replay")->required();
  app->add_option("--target", a->target, "File, block device, or /dev/ngXnY (--placement nvme) to write to")
      ->required();
  add_output_path_option(*app, "--out", a->out, "Also write summary.json and events.csv into this directory", "--out",
                         "folder")
      ->type_name("DIR");
  // Parsed as any 32-bit count; the range is checked with the other settings
  // (ReplayConfig::problems), so that every problem is reported at once.
  add_uint_option(*app, "--qd", a->qd, 1, 4096, "I/Os in flight at most, 1..4096 (default 32)");
  app->add_option("--mode", a->mode,
                  "afap: keep the queue full (default); timed: submit each record at its trace time / --speed");
  app->add_option("--speed", a->speed, "Timed mode: replay this many times faster than recorded (default 1)")
      ->type_name("X");
  app->add_option("--ops", a->ops, "Ops to send, comma-separated: write, read, trim, flush (default write,read,trim)");
  app->add_option("--placement", a->placement,
                  "none (default), stream (Linux 6.16+ write streams), nvme (passthrough on /dev/ngXnY, DTYPE=2)");
  add_uint_option(*app, "--rg", a->rg, 0, 65535,
                  "--placement nvme: the reclaim group placement identifiers name (default 0)");
  app->add_option_function<std::string>(
         "--create",
         [a](const std::string& v) {
           a->create = v;
           a->create_given = true;
         },
         "Create the target file (sparse) with this SIZE if it does not exist")
      ->type_name("SIZE");
  app->add_flag("--wrap", a->wrap, "Fold requests beyond the target's end into it (offset modulo its size)");
  app->add_flag("--force", a->force,
                "Write to a block device even if mounted, stacked, partitioned or holding a signature, or to a file "
                "that backs a loop device or holds a signature; resize a file to --create SIZE");
  app->add_flag("--replace-out", a->replace_out,
                "Replace the report of another replay (another trace, target or option) in --out; without it such "
                "a folder is refused, and the same replay replaces its own report. Not --force, which is about the "
                "target");
  app->add_option("--max-io", a->max_io, "Split reads and writes into I/Os of at most SIZE (default 1M)");
  app->add_option("--interval", a->interval,
                  "An events.csv row each time SIZE more bytes completed (default: 1% of the replay's bytes)");
  app->add_flag("--verify", a->verify, "After a complete replay, read the target back and check every unit written");
  app->add_option("--predict", a->predict,
                  "Simulate options (quoted, e.g. \"--preset femu-eth --placement fdp\"): print the model's WAF "
                  "for the trace beside the measurement");
  add_mem_limit_option(*app, a->mem_limit);  // checks the --predict model run (unless it has its own)
  app->add_flag("--allow-unlisted-pids", a->allow_unlisted_pids,
                "--placement nvme: send trace IDs that have no placement handle anyway (the device places them "
                "with handle 0 and may log an Invalid Placement Identifier event) instead of refusing");
  app->add_flag("--ruh-update-at-end", a->ruh_update_at_end,
                "--placement nvme: after the replay, send Reclaim Unit Handle Update for every placement "
                "identifier used, so each handle moves to an empty reclaim unit, and report the device after it");
  app->add_flag("--no-progress", a->no_progress, "No progress line on stderr (shown only when it is a terminal)");
  return Command{app, [a] { run_replay(*a); }};
}

}  // namespace ftlsim::cli
