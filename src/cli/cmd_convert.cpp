// `ftlsim convert --from FORMAT IN -o OUT.ftr`: imports a foreign trace.
// Each input format is one row of kImporters; adding a format means writing
// its import function and adding a row.
#include <fmt/format.h>

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "cli/commands.h"
#include "core/error.h"
#include "trace/disksim_import.h"

namespace ftlsim::cli {
namespace {

// Options shared by every importer; an importer that has no use for one
// says so in its table row.
struct ConvertRequest {
  std::string from;
  std::string in;
  std::string out;
  bool has_device = false;
  uint32_t device = 0;
  uint64_t skip_bad = 0;
  uint32_t pid = 0;
  bool force = false;
};

// What every importer reports; counts an importer does not track stay 0.
struct ConvertReport {
  uint64_t records = 0;
  uint64_t bad_lines = 0;
  uint64_t backwards_timestamps = 0;
  uint64_t filtered = 0;
  uint64_t first_bad_line = 0;
  std::string first_bad_reason;
};

using ImportFn = ConvertReport (*)(const ConvertRequest&);

struct Importer {
  std::string_view name;         // the --from value
  std::string_view description;  // shown in --help and in errors
  bool takes_device;             // honours --device
  ImportFn run;
};

ConvertReport run_disksim(const ConvertRequest& req) {
  trace::DiskSimOptions options;
  if (req.has_device) options.device = req.device;
  options.skip_bad = req.skip_bad;
  options.pid = static_cast<trace::PlacementId>(req.pid);
  const trace::ImportResult r = trace::import_disksim(req.in, req.out, options);
  return ConvertReport{r.records_written, r.summary.bad_lines, r.summary.backwards_timestamps,
                       r.summary.filtered, r.summary.first_bad_line, r.summary.first_bad_reason};
}

constexpr std::array<Importer, 1> kImporters = {{
    {"disksim", "DiskSim/MQSim ASCII: arrival_ns device lba size type (0 write, 1 read)", true,
     &run_disksim},
}};

std::string supported_formats() {
  std::string out;
  for (const Importer& imp : kImporters) {
    out += fmt::format("{}{} ({})", out.empty() ? "" : ", ", imp.name, imp.description);
  }
  return out;
}

const Importer& find_importer(const std::string& name) {
  for (const Importer& imp : kImporters) {
    if (imp.name == name) return imp;
  }
  throw InputError(fmt::format("--from {}: unknown input format; supported: {}", name, supported_formats()));
}

void run_convert(const ConvertRequest& req) {
  const Importer& importer = find_importer(req.from);
  if (req.has_device && !importer.takes_device) {
    throw InputError(fmt::format("--device does not apply to --from {}", importer.name));
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(req.out, ec)) throw InputError(fmt::format("{}: is a directory", req.out));
  if (fs::exists(req.out, ec)) {
    if (fs::equivalent(req.in, req.out, ec)) {
      throw InputError(fmt::format("{}: output would overwrite the input", req.out));
    }
    if (!req.force) throw InputError(fmt::format("{}: already exists (use --force to overwrite)", req.out));
  }

  const ConvertReport r = importer.run(req);
  std::string line = fmt::format("ftlsim convert: {} -> {}: {} records written, {} bad lines skipped, {} backwards timestamps",
                                 req.in, req.out, r.records, r.bad_lines, r.backwards_timestamps);
  if (req.has_device) line += fmt::format(", {} requests for other devices dropped", r.filtered);
  if (r.bad_lines > 0) line += fmt::format(" (first bad line {}: {})", r.first_bad_line, r.first_bad_reason);
  fmt::print(stderr, "{}\n", line);
}

}  // namespace

Command add_convert_command(CLI::App& root) {
  auto req = std::make_shared<ConvertRequest>();
  CLI::App* app = root.add_subcommand("convert", "Convert a foreign block trace into a .ftr trace");
  app->footer("Formats (--from):\n" + [] {
    std::string s;
    for (const Importer& imp : kImporters) s += fmt::format("  {:10} {}\n", imp.name, imp.description);
    return s;
  }());
  app->add_option("--from", req->from, "Input format (see below)")->required();
  app->add_option("input", req->in, "Input trace file")->required();
  app->add_option("-o,--out,--output", req->out, "Output .ftr file")->required();
  app->add_option("--device", req->device, "Keep only requests for this device number");
  app->add_option("--skip-bad", req->skip_bad, "Tolerate and skip up to N malformed lines (default 0)");
  app->add_option("--pid", req->pid, "Placement ID given to every request (default 0)")
      ->check(CLI::Range(0, 65535));
  app->add_flag("--force", req->force, "Overwrite the output file if it exists");
  return Command{app, [req, app] {
                   req->has_device = app->count("--device") > 0;
                   run_convert(*req);
                 }};
}

}  // namespace ftlsim::cli
