// `ftlsim dump TRACE [-o FILE] [--range START:END] [--op LIST] [--pid LIST]`:
// a .ftr trace's records as CSV, in the columns `convert --from csv` reads,
// so that
//   ftlsim convert --from csv D.csv -o T.ftr --keep-time
//     --columns time=time,lba=lba,length=length,op=op,pid=pid
// gives back the records byte for byte (docs/cli.md, "ftlsim dump").
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "cli/path_option.h"
#include "cli/standard_streams.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/io_identity.h"
#include "core/io_units.h"
#include "trace/dump_csv.h"
#include "trace/ftr_reader.h"
#include "trace/import/text_scan.h"

namespace ftlsim::cli {
namespace {

using trace::Op;

struct DumpArgs {
  std::string trace;
  std::string out;
  std::string range;
  std::string ops;
  std::string pids;
  bool force = false;
};

// Which records are printed: indices [first, end) whose op and ID pass.
struct DumpFilter {
  uint64_t first = 0;
  uint64_t end = UINT64_MAX;
  std::string range;                       // --range as given (empty: every record)
  std::array<bool, trace::kOpCount> op{};  // all true when --op is not given
  std::vector<bool> pid;                   // 65536 entries, or empty for every ID
};

DumpFilter dump_filter(const DumpArgs& a) {
  DumpFilter f;
  if (!a.range.empty()) {
    const size_t colon = a.range.find(':');
    const auto bound = [&a](std::string_view text, uint64_t fallback) {
      text = trace::scan::trim(text);
      if (text.empty()) return fallback;
      uint64_t v = 0;
      std::string why;
      if (!trace::scan::parse_uint(text, "record", v, why)) {
        throw InputError(
            fmt::format("--range {}: expected START:END record indices, e.g. 100:200, 100: or :50", a.range));
      }
      return v;
    };
    if (colon == std::string::npos) {
      throw InputError(
          fmt::format("--range {}: expected START:END record indices, e.g. 100:200, 100: or :50", a.range));
    }
    f.first = bound(std::string_view(a.range).substr(0, colon), 0);
    f.end = bound(std::string_view(a.range).substr(colon + 1), UINT64_MAX);
    if (f.first > f.end) throw InputError(fmt::format("--range {}: START is after END", a.range));
    f.range = a.range;
  }
  if (a.ops.empty()) {
    f.op.fill(true);
  } else {
    for (const std::string_view name : trace::scan::split_list(a.ops)) {
      uint8_t k = 0;
      while (k < trace::kOpCount && trace::op_name(static_cast<Op>(k)) != name) ++k;
      if (k == trace::kOpCount) {
        throw InputError(
            fmt::format("--op {}: {} is not one of write, read, trim, flush, marker", a.ops, trace::scan::quote(name)));
      }
      f.op[k] = true;
    }
  }
  if (!a.pids.empty()) {
    f.pid.assign(65536, false);
    for (const std::string_view item : trace::scan::split_list(a.pids)) {
      uint16_t id = 0;
      std::string why;
      if (!trace::scan::parse_uint(item, "ID", id, why)) {
        throw InputError(fmt::format("--pid {}: {} is not a placement ID 0..65535", a.pids, trace::scan::quote(item)));
      }
      f.pid[id] = true;
    }
  }
  return f;
}

// START must name a record (0 on an empty trace): past the last one the dump
// would be its header alone. END past the last is the trace's end. Checked
// before the output is opened.
void check_range(const trace::FtrReader& reader, const DumpFilter& f) {
  const uint64_t n = reader.records().size();
  if (f.first == 0 || f.first < n) return;
  throw InputError(fmt::format("{}: --range {}: START {} is past the last record (the trace has {} record{}{})",
                               reader.path(), f.range, f.first, n, n == 1 ? "" : "s",
                               n == 0 ? "" : fmt::format(", 0 to {}", n - 1)));
}

// Writes the selected records of `reader` to `out` in 512-byte sectors
// (a trace with larger sectors is scaled; a marker's value is kept).
void write_dump(const trace::FtrReader& reader, const DumpFilter& f, std::FILE* out, const std::string& out_name) {
  const std::span<const trace::Record> records = reader.records();
  const uint64_t scale = reader.meta().sector_bytes / kSectorBytes;
  fmt::memory_buffer buf;
  buf.append(trace::kDumpCsvHeader);
  buf.push_back('\n');
  // Standard output is checked (cli/standard_streams.h): once a write to it
  // failed (the reader left: `| head`), nothing more is formatted, and
  // main() reports the failure, or for a closed pipe nothing.
  const bool to_stdout = out == stdout;
  const auto flush = [&] {
    if (std::fwrite(buf.data(), 1, buf.size(), out) != buf.size()) {
      throw SystemError(fmt::format("{}: cannot write: {}", out_name, std::strerror(errno)));
    }
    buf.clear();
    return !to_stdout || stdout_error() == 0;
  };
  const uint64_t end = std::min<uint64_t>(f.end, records.size());
  for (uint64_t i = f.first; i < end; ++i) {
    const trace::Record& r = records[i];
    if (!trace::record_ok(r)) {
      throw InputError(fmt::format("{}: record {}: {}", reader.path(), i, trace::check_record(r)));
    }
    if (!f.op[r.op] || (!f.pid.empty() && !f.pid[r.pid])) continue;
    const auto op = static_cast<Op>(r.op);
    uint64_t lba = r.lba;
    uint64_t sectors = r.sectors;
    if (scale != 1 && op != Op::kMarker) {
      if (lba > UINT64_MAX / scale || sectors * scale > UINT32_MAX || lba * scale > UINT64_MAX - sectors * scale) {
        throw InputError(fmt::format("{}: record {}: lba {} + {} sectors of {} bytes do not fit in {}-byte sectors",
                                     reader.path(), i, r.lba, r.sectors, reader.meta().sector_bytes, kSectorBytes));
      }
      lba *= scale;
      sectors *= scale;
    }
    fmt::format_to(std::back_inserter(buf), "{},{},{},{},{}\n", r.time_ns, trace::op_name(op), lba, sectors, r.pid);
    if (buf.size() >= (1u << 20) && !flush()) return;
  }
  if (!flush()) return;
  if (std::fflush(out) != 0) throw SystemError(fmt::format("{}: cannot write: {}", out_name, std::strerror(errno)));
}

void run_dump(const DumpArgs& args) {
  const DumpFilter filter = dump_filter(args);
  if (args.out.empty() || args.out == "-") {
    const trace::FtrReader reader(args.trace);
    check_not_standard_stream("trace", args.trace, reader.identity());
    check_range(reader, filter);
    write_dump(reader, filter, stdout, "standard output");
    reader.check_intact();
    return;
  }
  // The trace first: -o is compared with the file the dump reads (its
  // device and inode, from the open file), not with what the path names.
  const trace::FtrReader reader(args.trace);
  check_range(reader, filter);
  RunInputs inputs;
  inputs.add("trace", args.trace, reader.identity());
  check_not_standard_stream(inputs);
  AtomicFile file(open_output_file("-o", args.out, args.force, inputs));
  write_dump(reader, filter, file.stream(), args.out);
  reader.check_intact();
  file.commit();
}

}  // namespace

Command add_dump_command(CLI::App& root) {
  auto args = std::make_shared<DumpArgs>();
  CLI::App* app =
      root.add_subcommand("dump", "Print a .ftr trace's records as CSV (the columns convert --from csv reads)");
  app->footer(
      "Columns: time (ns), op (write, read, trim, flush, marker), lba and length (512-byte sectors; a marker's\n"
      "value is its lba), pid. Back to .ftr, record for record:\n"
      "  ftlsim convert --from csv D.csv -o T.ftr --keep-time --columns time=time,lba=lba,length=length,op=op,pid=pid");
  app->add_option("trace", args->trace, "The .ftr trace")->required();
  add_output_path_option(*app, "-o,--out", args->out, "Write the CSV to this file instead of standard output", "-o",
                         "file")
      ->type_name("FILE");
  app->add_option("--range", args->range, "Records START:END by index, END excluded (e.g. 0:100, 5000:, :10)");
  app->add_option("--op", args->ops, "Only these ops: a list of write, read, trim, flush, marker");
  app->add_option("--pid", args->pids, "Only these placement IDs: a list, e.g. 1,3");
  app->add_flag("--force", args->force, "Replace the output file if it exists (a regular file only)");
  return Command{app, [args] { run_dump(*args); }};
}

}  // namespace ftlsim::cli
