#include "trace/import/import.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/error.h"
#include "core/io_units.h"
#include "trace/dump_csv.h"
#include "trace/ftr_writer.h"
#include "trace/import/disksim_import.h"
#include "trace/import/import_driver.h"
#include "trace/import/mapped_text.h"
#include "trace/import/marker_sidecar.h"
#include "trace/import/placement_id_source.h"

namespace ftlsim::trace {
namespace {

using detail::DriveContext;

struct FormatRow {
  TextFormat format;
  std::string_view name;
  void (*run)(const DriveContext&);
};

// Indexed by TextFormat.
constexpr std::array<FormatRow, kTextFormatCount> kFormats = {{
    {TextFormat::kDiskSim, "disksim", &detail::run_disksim},
    {TextFormat::kBlkparse, "blkparse", &detail::run_blkparse},
    {TextFormat::kFtraceBlk, "ftrace-blk", &detail::run_ftrace_blk},
    {TextFormat::kMsr, "msr", &detail::run_msr},
    {TextFormat::kAlibaba, "alibaba", &detail::run_alibaba},
    {TextFormat::kTencent, "tencent", &detail::run_tencent},
    {TextFormat::kCsv, "csv", &detail::run_csv},
    {TextFormat::kBlktrace, "blktrace", &detail::run_blktrace},
}};
static_assert([] {
  for (size_t i = 0; i < kFormats.size(); ++i) {
    if (static_cast<size_t>(kFormats[i].format) != i) return false;
  }
  return true;
}());

[[nodiscard]] bool is_blk(TextFormat f) {
  return f == TextFormat::kBlkparse || f == TextFormat::kFtraceBlk || f == TextFormat::kBlktrace;
}

std::optional<uint32_t> parse_device_option(const ImportOptions& o) {
  if (o.device.empty()) return std::nullopt;
  if (o.merge_devices) throw InputError(say("`merge-devices` and `device`/`disk` are alternatives: give one"));
  uint32_t dev = 0;
  if (is_blk(o.format)) {
    if (!parse_maj_min(o.device, dev)) {
      throw InputError(say("`device` {}: expected MAJ,MIN or MAJ:MIN for `from` {}", scan::printable(o.device),
                           format_name(o.format)));
    }
    return dev;
  }
  std::string why;
  if (!scan::parse_uint(o.device, "device", dev, why)) {  // `why` unused: the message below says it
    throw InputError(
        say("`device` {}: expected a device number for `from` {}", scan::printable(o.device), format_name(o.format)));
  }
  return dev;
}

// Placement source chosen once per import; owns what the placer points to.
struct Placement {
  std::optional<PidMap> map;
  std::optional<HintIndex> hints;
  std::vector<PlacementId> hint_table;
  detail::Placer placer;
};

void setup_placement(const ImportOptions& o, Placement& p) {
  const PlacementOptions& po = o.placement;
  const int sources = (po.pid != 0 ? 1 : 0) + (po.pid_map.empty() ? 0 : 1) + (po.hints.empty() ? 0 : 1);
  if (sources > 1) throw InputError(say("`pid`, `pid-map` and `hints` are alternatives: give one"));
  if (po.hints.empty() && !po.hint_map.empty()) throw InputError(say("`hint-map` applies only with `hints`"));
  if (!po.pid_map.empty()) {
    p.map = PidMap::load(po.pid_map);
    p.placer = detail::MapPlacer{&*p.map};
  } else if (!po.hints.empty()) {
    HintIndex::LoadOptions lo;
    lo.field = po.hint_field;
    lo.skip_bad = o.skip_bad;
    p.hints = HintIndex::load(po.hints, lo);
    p.hint_table = parse_hint_map(po.hint_map);
    detail::HintPlacer h;
    h.index = &*p.hints;
    h.map = &p.hint_table;
    h.tolerance_ns = po.hint_tolerance_ns;
    h.offset_ns = po.hint_offset_ns;
    p.placer = h;
  } else {
    p.placer = detail::ConstantPlacer{po.pid};
  }
}

std::string base_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// Header metadata known before parsing.
TraceMeta make_meta(const ImportOptions& o, std::span<const std::string> sources, const Placement& p) {
  TraceMeta meta;
  meta.sector_bytes = kSectorBytes;
  meta.kv = {{"source", std::string(format_name(o.format))},
             {"source_file", base_name(sources.front())},
             {"converted_by", "ftlsim convert"}};
  if (sources.size() > 1) {
    std::string names;
    for (const std::string& f : sources) {
      if (!names.empty()) names += ' ';
      names += base_name(f);
    }
    meta.kv.emplace_back("source_files", names);
  }
  if (!o.device.empty()) meta.kv.emplace_back("device", o.device);
  if (is_blk(o.format)) meta.kv.emplace_back("action", std::string(1, static_cast<char>(o.action)));
  if (!o.blk_format.empty()) meta.kv.emplace_back("blk_format", o.blk_format);
  if (o.format == TextFormat::kCsv) {
    meta.kv.emplace_back("csv_columns", o.csv.columns);
    if (!o.csv.op_map.empty()) meta.kv.emplace_back("csv_op_map", o.csv.op_map);
  }
  const PlacementOptions& po = o.placement;
  if (p.map) {
    meta.kv.emplace_back("placement", "pid-map");
    meta.kv.emplace_back("pid_map", base_name(po.pid_map));
    meta.pid_names = p.map->names();
  } else if (p.hints) {
    meta.kv.emplace_back("placement", "hints");
    meta.kv.emplace_back("hint_log", base_name(po.hints));
    meta.kv.emplace_back("hint_field", po.hint_field == HintField::kHint ? "hint" : "stream");
    if (!po.hint_map.empty()) meta.kv.emplace_back("hint_map", po.hint_map);
    meta.kv.emplace_back("hint_tolerance_ns", std::to_string(po.hint_tolerance_ns));
    if (po.hint_offset_ns != 0) meta.kv.emplace_back("hint_offset_ns", std::to_string(po.hint_offset_ns));
    if (po.hint_field == HintField::kHint && po.hint_map.empty()) {
      // F_SET_RW_HINT values (RWH_WRITE_LIFE_*); 0 is also "no hint found".
      meta.pid_names = {{1, "rwh_none"}, {2, "rwh_short"}, {3, "rwh_medium"}, {4, "rwh_long"}, {5, "rwh_extreme"}};
    }
  } else {
    meta.kv.emplace_back("placement", "constant");
    if (po.pid != 0) meta.kv.emplace_back("pid", std::to_string(po.pid));
  }
  if (!o.markers.empty()) {
    meta.kv.emplace_back("markers_file", base_name(o.markers));
    if (o.markers_offset_ns != 0) meta.kv.emplace_back("markers_offset_ns", std::to_string(o.markers_offset_ns));
  }
  for (const auto& [id, name] : po.names) meta.pid_names[id] = name;
  for (const auto& kv : o.meta) meta.kv.push_back(kv);
  return meta;
}

// Keys known only after parsing (the header is written after the parse).
void add_result_meta(const ImportOptions& o, const Placement& p, const ImportSummary& s, TraceMeta& meta) {
  if (o.merge_devices) {
    std::string list;
    for (const auto& [dev, n] : s.devices) {
      list += fmt::format("{}{}:{}", list.empty() ? "" : " ", device_label(o.format, dev), n);
    }
    meta.kv.emplace_back("devices", list);
  }
  if (!p.hints) return;
  meta.kv.emplace_back("hint_rows", std::to_string(s.hint_rows));
  meta.kv.emplace_back("hint_matched", std::to_string(s.hint_matched));
  meta.kv.emplace_back("hint_unmatched", std::to_string(s.hint_unmatched));
  meta.kv.emplace_back("hint_unmatched_bytes", std::to_string(s.hint_unmatched_bytes));
}

// Refuses an input with several devices (a trace format that records
// devices or volumes: disksim, msr, alibaba, tencent, csv with a device
// column) unless one is kept or they are merged, and a kept device the
// input does not have.
void check_devices(const ImportOptions& o, const std::string& source, const std::optional<uint32_t>& device,
                   const ImportSummary& s) {
  // A block trace is a capture of one device; its --device keeps the
  // events of one of several (a partition and its disk) as it always did.
  if (is_blk(o.format)) return;
  const Message option = Message::setting(o.format == TextFormat::kMsr ? "disk" : "device");
  if (device) {
    for (const auto& [dev, n] : s.devices) {
      if (dev == *device) return;
    }
    if (s.devices.empty()) return;  // no requests at all
    throw InputError(Message(fmt::format("{}: ", source)) + option +
                     Message(fmt::format(" {}: no such device in the input; it has {}", device_label(o.format, *device),
                                         device_list(o.format, s.devices))));
  }
  if (s.devices.size() > 1 && !o.merge_devices) {
    throw InputError(Message(fmt::format("{}: requests for {} devices: {}; keep one with ", source, s.devices.size(),
                                         device_list(o.format, s.devices))) +
                     option + say(" N, or give `merge-devices` to put them all in one address space"));
  }
}

// --from csv without columns: a CSV whose first line is `ftlsim dump`'s
// header reads with dump's columns and keeps its times, so a dump converts
// back to its records. Looked up in the text the import parses (its first
// line, within a line's length), before the header metadata is made.
ImportOptions resolve_options(const ImportOptions& o, std::string_view first_text) {
  if (o.format != TextFormat::kCsv || !scan::trim(o.csv.columns).empty() || !o.csv.header || o.csv.separator != ',') {
    return o;
  }
  std::string_view line = first_text.substr(0, std::min(first_text.size(), scan::kMaxLineBytes + 2));
  line = line.substr(0, std::min(line.find('\n'), line.size()));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line != kDumpCsvHeader) return o;  // CsvParser names what to give
  ImportOptions dump = o;
  dump.csv.columns = kDumpCsvColumns;
  dump.keep_time = true;
  return dump;
}

// Every format reads one input; blktrace, its per-CPU files. Checked by
// both entry points, parse_trace_files() and import_with(), before anything
// is read.
void check_input_count(const ImportOptions& o, size_t inputs) {
  if (inputs == 0) throw InputError("no input file");
  if (inputs > 1 && o.format != TextFormat::kBlktrace) {
    throw InputError(say("`from` {} reads one input file, not {} (only blktrace takes several: its per-CPU files)",
                         format_name(o.format), inputs));
  }
}

void run(const ImportOptions& o, std::span<const std::string_view> texts, std::span<const std::string> sources,
         Placement& p, detail::RecordSink& sink, ImportSummary& s) {
  const std::optional<uint32_t> device = parse_device_option(o);  // checked before, too
  const std::vector<MarkerPoint> markers =
      o.markers.empty() ? std::vector<MarkerPoint>{} : load_marker_sidecar(o.markers);
  detail::DeviceTally devices;
  DriveContext ctx{texts, sources, &o, device, &p.placer, &sink, &s, o.markers.empty() ? nullptr : &markers, &devices};
  kFormats[static_cast<size_t>(o.format)].run(ctx);
  s.devices = devices.sorted();
  check_devices(o, sources.front(), device, s);
  if (p.hints) {
    s.hint_rows = p.hints->rows();
    s.hint_bad_lines = p.hints->bad_lines();
  }
}

void append_to_vector(void* ctx, std::span<const Record> records) {
  auto* v = static_cast<std::vector<Record>*>(ctx);
  v->insert(v->end(), records.begin(), records.end());
}

// The file being written, and the span of what it was given.
struct SpannedWriter {
  FtrWriter* writer;
  RecordSpan* span;
  void append(const Record& r) {
    span->add(r, kSectorBytes);
    writer->append(r);
  }
};

void append_to_writer(void* ctx, std::span<const Record> records) {
  auto* w = static_cast<SpannedWriter*>(ctx);
  for (const Record& r : records) w->append(r);
}

ParsedTrace parse_with(std::span<const std::string_view> texts, std::span<const std::string> sources,
                       const ImportOptions& options, Placement& p) {
  ParsedTrace out;
  out.meta = make_meta(options, sources, p);
  detail::RecordSink sink(&append_to_vector, &out.records);
  run(options, texts, sources, p, sink, out.summary);
  add_result_meta(options, p, out.summary, out.meta);
  return out;
}

}  // namespace

namespace detail {

// DiskSim through the shared driver, so it gets pid maps and hints too.
class DiskSimAdapter {
 public:
  static constexpr bool kRebaseTime = false;
  [[nodiscard]] bool has_device() const { return false; }
  [[nodiscard]] bool has_process() const { return false; }
  LineKind parse(std::string_view line, Event& ev, std::string& why, ImportSummary&) {
    Record r{};
    switch (parse_disksim_line(line, r, ev.dev, why)) {
      case DiskSimLine::kSkip: return LineKind::kSkip;
      case DiskSimLine::kBad: return LineKind::kBad;
      case DiskSimLine::kRequest: break;
    }
    ev.time_ns = r.time_ns;
    ev.lba = r.lba;
    ev.sectors = r.sectors;
    ev.op = static_cast<Op>(r.op);
    return LineKind::kEvent;
  }
};

void run_disksim(const DriveContext& ctx) {
  DiskSimAdapter parser;
  drive(parser, ctx);
}

}  // namespace detail

std::string device_label(TextFormat format, uint32_t dev) {
  if (is_blk(format)) return fmt::format("{},{}", dev >> 20, dev & 0xFFFFF);
  return std::to_string(dev);
}

std::string device_list(TextFormat format, const std::vector<std::pair<uint32_t, uint64_t>>& devices, size_t shown) {
  std::string out;
  for (size_t i = 0; i < devices.size() && i < shown; ++i) {
    out += fmt::format("{}{} ({} request{})", i == 0 ? "" : ", ", device_label(format, devices[i].first),
                       devices[i].second, devices[i].second == 1 ? "" : "s");
  }
  if (devices.size() > shown) out += fmt::format(", ... ({} devices)", devices.size());
  return out;
}

std::string_view format_name(TextFormat format) { return kFormats[static_cast<size_t>(format)].name; }

ParsedTrace parse_text_trace(std::string_view text, const std::string& source_name, const ImportOptions& options) {
  return parse_trace_files(std::span<const std::string_view>(&text, 1), std::span<const std::string>(&source_name, 1),
                           options);
}

ParsedTrace parse_trace_files(std::span<const std::string_view> texts, std::span<const std::string> source_names,
                              const ImportOptions& options) {
  if (texts.size() != source_names.size()) throw std::invalid_argument("parse_trace_files: one name per text");
  check_input_count(options, texts.size());
  const ImportOptions resolved = resolve_options(options, texts.front());
  Placement p;
  setup_placement(resolved, p);
  ParsedTrace out = parse_with(texts, source_names, resolved, p);
  out.summary.dump_columns = resolved.csv.columns != options.csv.columns;
  return out;
}

namespace {

// The text file `in` converted into the FtrWriter `make(meta)` creates.
template <class MakeWriter>
ImportSummary import_with(std::span<const std::string> ins, const ImportOptions& given, MakeWriter make) {
  check_input_count(given, ins.size());
  (void)parse_device_option(given);  // option errors before any file is touched
  Placement p;
  setup_placement(given, p);
  std::vector<std::unique_ptr<MappedText>> inputs;
  std::vector<std::string_view> texts;
  for (const std::string& in : ins) {
    inputs.push_back(std::make_unique<MappedText>(in));
    texts.push_back(inputs.back()->text());
    for (size_t i = 0; i + 1 < inputs.size(); ++i) {  // its records would be read twice
      if (inputs[i]->identity() == inputs.back()->identity()) {
        throw InputError(fmt::format("{}: the same file as the input {}; give each file once", in, ins[i]));
      }
    }
  }
  const ImportOptions options = resolve_options(given, texts.front());
  const bool dump_columns = options.csv.columns != given.csv.columns;
  // Before the output's temporary file is made.
  if (options.format == TextFormat::kCsv) detail::check_csv_options(options);
  const auto check_intact = [&inputs] {
    for (const auto& input : inputs) input->check_intact();
  };
  if (p.hints || options.merge_devices) {
    // The match counts and the device list go into the header, which is
    // sized before the first record is written: parse first, then write.
    const ParsedTrace parsed = parse_with(texts, ins, options, p);
    check_intact();
    FtrWriter writer = make(parsed.meta);
    ImportSummary summary = parsed.summary;
    summary.dump_columns = dump_columns;
    SpannedWriter out{&writer, &summary.span};
    for (const Record& r : parsed.records) out.append(r);
    writer.finish();
    return summary;
  }
  ImportSummary summary;
  summary.dump_columns = dump_columns;
  FtrWriter writer = make(make_meta(options, ins, p));
  SpannedWriter out{&writer, &summary.span};
  detail::RecordSink sink(&append_to_writer, &out);
  run(options, texts, ins, p, sink, summary);
  check_intact();  // before the output appears
  writer.finish();
  return summary;
}

}  // namespace

ImportSummary import_text_trace(const std::string& in, const std::string& out, const ImportOptions& options,
                                Existing existing) {
  return import_with(std::span<const std::string>(&in, 1), options,
                     [&](TraceMeta meta) { return FtrWriter(out, std::move(meta), existing); });
}

ImportSummary import_text_trace(const std::string& in, OutputFile out, const ImportOptions& options) {
  return import_text_trace(std::span<const std::string>(&in, 1), std::move(out), options);
}

ImportSummary import_text_trace(std::span<const std::string> ins, OutputFile out, const ImportOptions& options) {
  return import_with(ins, options, [&](TraceMeta meta) { return FtrWriter(std::move(out), std::move(meta)); });
}

}  // namespace ftlsim::trace
