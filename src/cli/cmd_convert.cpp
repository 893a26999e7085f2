// `ftlsim convert --from FORMAT IN -o OUT.ftr`: imports a foreign trace.
// Each input format is one row of kImporters, which says which options it
// takes; its name and the parsing itself are trace/import/import.h's.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "cli/path_option.h"
#include "cli/standard_streams.h"
#include "cli/uint_option.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/io_identity.h"
#include "core/io_units.h"
#include "core/progress_line.h"
#include "core/units.h"
#include "trace/import/import.h"
#include "trace/import/text_scan.h"

namespace ftlsim::cli {
namespace {

// Options beyond the common ones (--skip-bad, --pid, --pid-map, --hints, ...)
// that a format honours.
enum Takes : unsigned {
  kDevice = 1u << 0,     // --device
  kDisk = 1u << 1,       // --disk (msr)
  kAction = 1u << 2,     // --action
  kBlkFormat = 1u << 3,  // --blk-format
  kCsv = 1u << 4,        // --columns, --op-map, --sep, --no-header
  kKeepTime = 1u << 5,   // --keep-time: the format writes times relative to the first record
};

struct Importer {
  std::string_view description;  // shown in --help and in errors
  trace::TextFormat format;
  unsigned takes;
  // The --from value: the format's name (trace/import/import.h).
  [[nodiscard]] std::string_view name() const { return trace::format_name(format); }
};

// One row per format, in TextFormat order.
constexpr std::array<Importer, trace::kTextFormatCount> kImporters = {{
    {"MQSim ASCII (DiskSim's columns, time in ns): arrival_ns device lba size type (0 write, 1 read)",
     trace::TextFormat::kDiskSim, kDevice},
    {"blkparse text: MAJ,MIN CPU SEQ TIME PID ACTION RWBS SECTOR + N [COMM] (or --blk-format)",
     trace::TextFormat::kBlkparse, kDevice | kAction | kBlkFormat},
    {"kernel blk tracer (trace_pipe): TASK-PID [CPU] FLAGS TIME: MAJ,MIN ACTION RWBS SECTOR + N [COMM]",
     trace::TextFormat::kFtraceBlk, kDevice | kAction | kKeepTime},
    {"MSR Cambridge CSV: Timestamp(FILETIME),Hostname,DiskNumber,Type,Offset,Size,ResponseTime (bytes)",
     trace::TextFormat::kMsr, kDisk | kKeepTime},
    {"Alibaba CSV: device_id,opcode(R|W),offset,length,timestamp(us) (bytes)", trace::TextFormat::kAlibaba,
     kDevice | kKeepTime},
    {"Tencent CBS CSV: Timestamp(s),Offset,Size,IOType(0 read,1 write),VolumeID (sectors)", trace::TextFormat::kTencent,
     kDevice | kKeepTime},
    {"CSV with a header, mapped by --columns and --op-map", trace::TextFormat::kCsv, kDevice | kCsv | kKeepTime},
    {"blktrace's binary per-CPU files (DEV.blktrace.N, all of them as inputs), as blkparse reads them",
     trace::TextFormat::kBlktrace, kDevice | kAction | kKeepTime},
}};
static_assert(
    [] {
      for (size_t i = 0; i < kImporters.size(); ++i) {
        if (static_cast<size_t>(kImporters[i].format) != i || kImporters[i].description.empty()) return false;
      }
      return true;
    }(),
    "kImporters needs one row per trace::TextFormat, in its order");

struct ConvertRequest {
  std::string from;
  std::vector<std::string> ins;  // one, or blktrace's per-CPU files
  std::string out;
  std::string device;
  uint32_t disk = 0;
  uint64_t skip_bad = 0;
  uint32_t pid = 0;
  std::string pid_map;
  std::string hints;
  std::string hint_map;
  std::string hint_field = "hint";
  std::string hint_tolerance = "1s";
  std::string hint_offset = "0";
  std::vector<std::string> pid_names;
  std::vector<std::string> meta;  // --meta KEY=VALUE
  std::string markers;            // --markers FILE
  std::string action = "D";
  std::string blk_format;
  std::string columns;
  std::string op_map;
  std::string sep = ",";
  bool no_header = false;
  bool keep_time = false;
  bool merge_devices = false;
  bool force = false;
  bool no_progress = false;
  std::string options_text;  // the options as given, for the trace header
};

std::string supported_formats() {
  std::string out;
  for (const Importer& imp : kImporters) out += fmt::format("{}{}", out.empty() ? "" : ", ", imp.name());
  return out;
}

const Importer& find_importer(const std::string& name) {
  for (const Importer& imp : kImporters) {
    if (imp.name() == name) return imp;
  }
  throw InputError(fmt::format("--from {}: unknown input format; supported: {}", name, supported_formats()));
}

// "1s", "500ms", "20us", "1000ns" or a plain number of ns; '-' allowed when
// `is_signed`.
int64_t parse_duration(const std::string& option, const std::string& text, bool is_signed) {
  std::string_view s = trace::scan::trim(text);
  bool negative = false;
  if (is_signed && !s.empty() && s[0] == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  uint64_t scale = 1;
  for (const auto& [suffix, mult] :
       {std::pair<std::string_view, uint64_t>{"ns", 1}, {"us", 1'000}, {"ms", 1'000'000}, {"s", kNsPerSecond}}) {
    if (s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix) {
      scale = mult;
      s.remove_suffix(suffix.size());
      break;
    }
  }
  uint64_t v = 0;
  std::string why;
  if (!trace::scan::parse_scaled(s, option, scale, v, why) || v > static_cast<uint64_t>(INT64_MAX)) {
    throw InputError(fmt::format("{} {}: expected a duration such as 1s, 500ms, 20us or 1000 (ns)", option, text));
  }
  return negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
}

trace::ImportOptions import_options(const ConvertRequest& req, const Importer& imp, CLI::App& app) {
  const auto given = [&app](const char* name) { return app.count(name) > 0; };
  const auto refuse = [&](const char* option, unsigned flag) {
    if (given(option) && (imp.takes & flag) == 0) {
      throw InputError(fmt::format("{} does not apply to --from {}", option, imp.name()));
    }
  };
  refuse("--device", kDevice);
  refuse("--disk", kDisk);
  refuse("--action", kAction);
  refuse("--blk-format", kBlkFormat);
  for (const char* o : {"--columns", "--op-map", "--sep", "--no-header"}) refuse(o, kCsv);
  if (given("--keep-time") && (imp.takes & kKeepTime) == 0) {
    throw InputError(
        fmt::format("--keep-time does not apply to --from {}: its times are kept as they are", imp.name()));
  }
  if (given("--merge-devices") && (given("--device") || given("--disk"))) {
    throw InputError("--merge-devices and --device/--disk are alternatives: give one");
  }
  if (given("--pid") + given("--pid-map") + given("--hints") > 1) {
    throw InputError("--pid, --pid-map and --hints are alternatives: give one");
  }
  if (!given("--hints")) {
    for (const char* o : {"--hint-map", "--hint-field", "--hint-tolerance"}) {
      if (given(o)) throw InputError(fmt::format("{} applies only with --hints", o));
    }
    if (given("--hint-offset") && !given("--markers")) {
      throw InputError("--hint-offset applies only with --hints or --markers");
    }
  }

  trace::ImportOptions o;
  o.format = imp.format;
  o.skip_bad = req.skip_bad;
  o.device = given("--disk") ? std::to_string(req.disk) : req.device;
  o.merge_devices = req.merge_devices;
  o.keep_time = req.keep_time;
  if (req.action != "Q" && req.action != "D" && req.action != "C") {
    throw InputError(fmt::format("--action {}: expected Q (queued), D (issued) or C (completed)", req.action));
  }
  o.action = static_cast<trace::BlkAction>(req.action[0]);
  o.blk_format = req.blk_format;
  o.csv.columns = req.columns;
  o.csv.op_map = req.op_map;
  o.csv.header = !req.no_header;
  if (req.sep == "tab" || req.sep == "\\t" || req.sep == "\t") {
    o.csv.separator = '\t';
  } else if (req.sep.size() == 1) {
    o.csv.separator = req.sep[0];
  } else {
    throw InputError(fmt::format("--sep {}: expected one character or 'tab'", req.sep));
  }

  trace::PlacementOptions& p = o.placement;
  p.pid = static_cast<trace::PlacementId>(req.pid);
  p.pid_map = req.pid_map;
  p.hints = req.hints;
  p.hint_map = req.hint_map;
  if (req.hint_field == "hint") {
    p.hint_field = trace::HintField::kHint;
  } else if (req.hint_field == "stream") {
    p.hint_field = trace::HintField::kStream;
  } else {
    throw InputError(fmt::format("--hint-field {}: expected hint or stream", req.hint_field));
  }
  p.hint_tolerance_ns = static_cast<uint64_t>(parse_duration("--hint-tolerance", req.hint_tolerance, false));
  p.hint_offset_ns = parse_duration("--hint-offset", req.hint_offset, true);
  o.markers = req.markers;
  o.markers_offset_ns = p.hint_offset_ns;
  for (const std::string& n : req.pid_names) {
    const size_t eq = n.find('=');
    uint16_t id = 0;
    std::string why;
    if (eq == std::string::npos || eq + 1 == n.size() ||
        !trace::scan::parse_uint(std::string_view(n).substr(0, eq), "ID", id, why)) {
      throw InputError(fmt::format("--pid-name {}: expected ID=NAME with ID in 0..65535", n));
    }
    p.names[id] = n.substr(eq + 1);
  }
  if (!req.options_text.empty()) o.meta.emplace_back("convert_options", req.options_text);
  for (const std::string& kv : req.meta) {
    const size_t eq = kv.find('=');
    if (eq == 0 || eq == std::string::npos) {
      throw InputError(fmt::format("--meta {}: expected KEY=VALUE", kv));
    }
    o.meta.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return o;
}

// blktrace's per-CPU files named as `blkparse -i NAME` names them: NAME, when
// no such file exists, stands for every NAME.blktrace.<cpu> beside it (in
// CPU order). Any other input list is returned as given.
std::vector<std::string> blktrace_inputs(const std::vector<std::string>& ins) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (ins.size() != 1 || fs::symlink_status(ins[0], ec).type() != fs::file_type::not_found) return ins;
  const fs::path name(ins[0]);
  const fs::path dir = name.has_parent_path() ? name.parent_path() : fs::path(".");
  const std::string prefix = name.filename().string() + ".blktrace.";
  std::vector<std::pair<uint64_t, std::string>> found;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string file = it->path().filename().string();
    if (file.size() <= prefix.size() || file.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string_view cpu = std::string_view(file).substr(prefix.size());
    uint64_t n = 0;
    std::string why;
    if (!trace::scan::parse_uint(cpu, "cpu", n, why)) continue;
    found.emplace_back(n, (name.has_parent_path() ? (dir / file).string() : file));
  }
  if (found.empty()) return ins;  // the import names the missing file
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& [cpu, path] : found) out.push_back(std::move(path));
  return out;
}

void run_convert(const ConvertRequest& given, CLI::App& app) {
  const Importer& importer = find_importer(given.from);
  ConvertRequest req = given;
  if (importer.format == trace::TextFormat::kBlktrace) req.ins = blktrace_inputs(req.ins);
  const trace::ImportOptions options = import_options(req, importer, app);
  // No output may be an input (by device and inode), or anything but a
  // regular file; published without replacing unless --force.
  RunInputs inputs;
  for (const std::string& in : req.ins) inputs.add("input", in);
  inputs.add("--pid-map", req.pid_map);
  inputs.add("--hints", req.hints);
  inputs.add("--markers", req.markers);
  check_not_standard_stream(inputs);
  // Its folder is opened once: the checks and the write look at it.
  OutputFile out = open_output_file("-o", req.out, req.force, inputs);

  std::error_code size_error;
  uint64_t input_bytes = 0;
  for (const std::string& in : req.ins) {
    if (!size_error) input_bytes += std::filesystem::file_size(in, size_error);
  }
  ProgressLine progress("convert", size_error ? 0 : input_bytes, ProgressUnit::kBytes,
                        progress_wanted(req.no_progress));
  trace::ImportOptions with_progress = options;
  with_progress.progress = &progress;
  const trace::ImportSummary r = trace::import_text_trace(req.ins, std::move(out), with_progress);
  const std::string_view unit = importer.format == trace::TextFormat::kBlktrace ? "record" : "line";
  const std::string in_text = req.ins.size() == 1 ? req.ins[0]
                                                  : fmt::format("{} and {} more file{}", req.ins[0], req.ins.size() - 1,
                                                                req.ins.size() > 2 ? "s" : "");
  progress.finish();
  const auto op = [&r](trace::Op o) { return r.ops[static_cast<size_t>(o)]; };
  // Markers are named only when there are some (every record is counted).
  const uint64_t markers = op(trace::Op::kMarker);
  std::string line = fmt::format(
      "ftlsim convert: {} -> {}: {} records written ({} writes, {} reads, {} trims, {} flushes{}), "
      "{} bad {}s skipped, {} backwards timestamps",
      in_text, req.out, r.records, op(trace::Op::kWrite), op(trace::Op::kRead), op(trace::Op::kTrim),
      op(trace::Op::kFlush), markers > 0 ? fmt::format(", {} markers", markers) : std::string(), r.bad_lines, unit,
      r.backwards_timestamps);
  if (!options.device.empty()) line += fmt::format(", {} requests for other devices dropped", r.filtered);
  if (options.merge_devices) {
    line += fmt::format(", {} devices merged into one address space", r.devices.size());
  }
  if ((importer.takes & kAction) != 0) {
    line += fmt::format(", {} events of other actions and {} without data skipped", r.other_actions, r.no_data);
  }
  if (r.summary_lines > 0) line += fmt::format(", {} summary lines skipped", r.summary_lines);
  if (r.lost_events > 0) {
    line += r.lost_events == UINT64_MAX ? std::string(", WARNING: the kernel lost at least 2^64-1 events")
                                        : fmt::format(", WARNING: the kernel lost {} events", r.lost_events);
  }
  if (r.dump_columns) line += ", columns and times of ftlsim dump's CSV";
  if (r.skipped_ops > 0) line += fmt::format(", {} requests of skipped ops", r.skipped_ops);
  if (r.unaligned > 0) line += fmt::format(", {} unaligned requests widened to whole sectors", r.unaligned);
  if (r.before_first > 0) line += fmt::format(", {} records before the first set to time 0", r.before_first);
  if (!options.markers.empty()) {
    line += fmt::format(", {} markers merged ({} before the first request, {} after the last)", r.markers,
                        r.markers_before_first, r.markers_after_last);
  }
  if (!options.placement.pid_map.empty()) {
    line += fmt::format(", pid map: {} matched, {} default", r.map_matched, r.map_unmatched);
  }
  if (!options.placement.hints.empty()) {
    line += fmt::format(", hints: {} writes matched, {} unmatched ({}; {} hint rows", r.hint_matched, r.hint_unmatched,
                        format_bytes(r.hint_unmatched_bytes), r.hint_rows);
    line += r.hint_bad_lines > 0 ? fmt::format(", {} bad hint lines skipped)", r.hint_bad_lines) : ")";
  }
  if (r.bad_lines > 0) line += fmt::format(" (first bad {} {}: {})", unit, r.first_bad_line, r.first_bad_reason);
  fmt::print(stderr, "{}\n", escape_for_terminal(line));
  // Times in a smaller unit than the format assumes (or --columns says):
  // said here, where the unit is chosen, as `info` says it of the trace.
  const std::string warning = trace::implausible_rate_warning(req.out, r.span);
  if (!warning.empty()) fmt::print(stderr, "ftlsim convert: warning: {}\n", escape_for_terminal(warning));
}

// The options as given (not input, output, --force or --no-progress), for the header.
std::string options_text(const CLI::App& app) {
  std::string out;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->count() == 0 || opt->get_positional() || opt->check_name("--out") || opt->check_name("--force") ||
        opt->check_name("--no-progress") || opt->check_name("--help")) {
      continue;
    }
    const std::string name = opt->get_name(false, true);
    const std::vector<std::string> results = opt->results();
    if (results.empty() || opt->get_expected_min() == 0) {
      out += fmt::format("{}{}", out.empty() ? "" : " ", name);
      continue;
    }
    for (const std::string& v : results) {
      const bool plain = !v.empty() && v.find_first_of(" \t'\"\\$") == std::string::npos;
      out += fmt::format("{}{} {}", out.empty() ? "" : " ", name, plain ? v : fmt::format("'{}'", v));
    }
  }
  return out;
}

}  // namespace

Command add_convert_command(CLI::App& root) {
  auto req = std::make_shared<ConvertRequest>();
  CLI::App* app = root.add_subcommand("convert", "Convert a foreign block trace into a .ftr trace");
  app->footer("Formats (--from):\n" + [] {
    std::string s;
    for (const Importer& imp : kImporters) s += fmt::format("  {:10} {}\n", imp.name(), imp.description);
    return s + "\nEvery format, option and placement source is described in docs/trace_format.md.";
  }());
  app->add_option("--from", req->from, "Input format (see below)")->required();
  app->add_option("input", req->ins,
                  "Input trace file (blktrace: every per-CPU file of the capture, or DEV for every DEV.blktrace.N)")
      ->required();
  add_output_path_option(*app, "-o,--out,--output", req->out, "Output .ftr file", "-o", "file")
      ->required()
      ->type_name("FILE");
  app->add_option("--device", req->device,
                  "Keep only this device: MAJ,MIN (blkparse, ftrace-blk, blktrace) or a number (disksim, alibaba, "
                  "tencent volume, csv device column)");
  app->add_flag("--merge-devices", req->merge_devices,
                "Put the requests of every device in one address space (an input with several devices is "
                "refused without this or --device/--disk)");
  app->add_flag("--keep-time", req->keep_time,
                "Write the times as they are, not relative to the first record (all but disksim and "
                "blkparse; a CSV from `ftlsim dump` converts back exactly with it)");
  add_uint_option(*app, "--disk", req->disk, 0, UINT32_MAX, "msr: keep only this DiskNumber");
  add_uint_option(*app, "--skip-bad", req->skip_bad, 0, UINT64_MAX,
                  "Tolerate and skip up to N malformed lines (default 0)");
  app->add_option("--action", req->action, "blkparse, ftrace-blk, blktrace: import Q, D or C events (default D)");
  app->add_option("--blk-format", req->blk_format, "blkparse: the -f format the text was printed with");
  app->add_option(
      "--columns", req->columns,
      "csv: FIELD=COLUMN[:UNIT],... (time, lba, length, op, pid, device); not needed for ftlsim dump's CSV");
  app->add_option("--op-map", req->op_map, "csv: VALUE=OP,... with OP write|read|trim|flush|marker|skip");
  app->add_option("--sep", req->sep, "csv: field separator (default ',', 'tab' for tabs)");
  app->add_flag("--no-header", req->no_header, "csv: the first line is data (columns as #N)");
  add_uint_option(*app, "--pid", req->pid, 0, 65535, "Placement ID given to every request (default 0)");
  app->add_option("--pid-map", req->pid_map, "Placement IDs by process name, pid or LBA range (file)");
  app->add_option("--hints", req->hints, "Placement IDs from a write-hint log (CSV from the capture tool)");
  app->add_option("--hint-map", req->hint_map, "Hint value to placement ID, e.g. 2=1,3=2 (others unchanged)");
  app->add_option("--hint-field", req->hint_field, "Hint-log column to use: hint (default) or stream");
  app->add_option("--hint-tolerance", req->hint_tolerance, "Farthest a hint may be in time (default 1s)");
  app->add_option("--hint-offset", req->hint_offset,
                  "Added to the block trace's times before the hint join and the marker merge (default 0; "
                  "e.g. -2.5s)");
  app->add_option("--markers", req->markers,
                  "Merge a marker sidecar ('<time_ns> <value>' lines, e.g. ethstate's block_markers.txt) "
                  "into the trace as marker records");
  app->add_option("--pid-name", req->pid_names, "Name a placement ID in the trace: ID=NAME (repeatable)")
      ->expected(1)
      ->allow_extra_args(false)
      ->take_all();
  app->add_option("--meta", req->meta,
                  "Add KEY=VALUE to the trace header's metadata (repeatable; e.g. capture details)");
  app->add_flag(
      "--force", req->force,
      "Replace the output file if it exists (a regular file only; never an input, a device, FIFO or symlink)");
  app->add_flag("--no-progress", req->no_progress, "No progress line on stderr (shown only on a terminal)");
  return Command{app, [req, app] {
                   req->options_text = options_text(*app);
                   run_convert(*req, *app);
                 }};
}

}  // namespace ftlsim::cli
