// `ftlsim gen`: write a seeded synthetic workload as a .ftr trace.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/flag_text.h"
#include "cli/path_option.h"
#include "cli/uint_option.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/io_identity.h"
#include "core/progress_line.h"
#include "core/units.h"
#include "trace/record.h"
#include "workload/synth.h"

namespace ftlsim::cli {
namespace {

struct GenOptions {
  std::string pattern;
  std::string logical;
  std::string writes;
  std::string bytes;
  std::string io_size = "4K";
  std::string iat = "10us";
  bool fill = false;
  std::string fill_io = "1M";
  double read_ratio = 0;
  double trim_ratio = 0;
  std::string markers = "0";
  uint64_t seed = 1;
  double theta = 0.99;
  double hot_space = 0.1;
  double hot_writes = 0.9;
  std::string streams;
  std::string out;
  bool force = false;
  bool no_progress = false;

  // Set while registering, to tell "given" from "defaulted".
  CLI::Option* theta_opt = nullptr;
  CLI::Option* hot_space_opt = nullptr;
  CLI::Option* hot_writes_opt = nullptr;
  CLI::Option* streams_opt = nullptr;
  CLI::Option* fill_io_opt = nullptr;
};

constexpr const char* kGenFooter = R"(Patterns (a "page" is one --io-size unit; every measured request is one
whole, aligned page):
  seq      writes pages 0, 1, 2, ... wrapping at the end of the space
           (reads and trims, if mixed in, follow their own sequential cursors)
  uniform  uniform random pages over the whole space
  zipf     zipf(--theta) over pages, exact rejection-inversion sampling; the
           ranks are scattered over the space by a fixed pseudo-random
           permutation, so hot pages are NOT contiguous and not at LBA 0
  hotcold  --hot-writes of the requests go uniformly to the first --hot-space
           of the space (pid 0 "hot"), the rest uniformly to the remainder
           (pid 1 "cold")
  streams  --streams "W0:S0,W1:S1,...": stream i gets share Wi of the requests
           and its own region of share Si of the space (in order from LBA 0),
           written uniformly; tagged pid i, named "s<i>"
Reads and trims (--read-ratio, --trim-ratio) follow the same address
distribution and tags as the writes; --writes counts writes only, so the
trace holds about writes / (1 - read-ratio - trim-ratio) measured records.
Each record takes 24 bytes: --writes 2e9 is 2*10^9 records, 48 GB. A trace
that would not fit in the output's free space is refused before anything is
written (and writing stops, leaving no file, if random reads or trims run
past the estimate).
Sizes take binary suffixes (4K = 4096, 1G = 2^30). Counts (--writes,
--markers) are plain numbers or scientific: 100000 = 1e5, 2e9 = 2*10^9. A
count with a size suffix (--writes 2G) is refused as ambiguous: for a volume
of writes give --bytes 2G.
Durations: ns, us, ms, s (bare number = ns).
--fill writes the whole space once first, sequentially, in --fill-io
requests split at region boundaries and tagged with the owning region's pid.
Record i has time i * --iat (markers share the time of their write). The
header records source=ftlsim gen, the generator command line, every
parameter, region extents and pid names. Same options and seed give a
byte-identical trace.

Examples:
  ftlsim gen --pattern uniform --logical 1G --fill --writes 1e6 -o u.ftr
  ftlsim gen --pattern zipf --theta 1.2 --logical 16G --bytes 64G -o z.ftr
  ftlsim gen --pattern streams --streams 0.5:0.05,0.3:0.25,0.2:0.7 \
      --logical 8G --fill --writes 1e7 --markers 1e5 -o s.ftr)";

workload::SynthSpec build_spec(const GenOptions& o) {
  std::vector<std::string> problems;
  std::vector<const char*> unparsed;  // options whose value did not parse
  workload::SynthSpec spec;

  if (const auto p = workload::parse_pattern(o.pattern)) {
    spec.pattern = *p;
  } else {
    problems.push_back(fmt::format("--pattern: unknown pattern '{}'", o.pattern));
  }

  auto size_option = [&](const std::string& text, const char* name, uint64_t& field) {
    if (const auto v = parse_size(text)) {
      field = *v;
      return true;
    }
    problems.push_back(fmt::format("{}: '{}' is not a size (examples: 4096, 4K, 16M, 64G)", name, text));
    unparsed.push_back(name);
    return false;
  };
  auto count_option = [&](const std::string& text, const char* name, uint64_t& field) {
    if (const auto v = parse_count(text)) {
      field = *v;
      return true;
    }
    if (const auto c = workload::count_suffix(text)) {
      // 2G is 2 GiB to every size option; as a count it would be 2*10^9.
      const std::string sci = fmt::format("{}e{}", c->value, c->decimal_exponent);
      if (std::string_view(name) == "--writes") {
        const double trace_bytes =
            static_cast<double>(c->value) * std::pow(10.0, c->decimal_exponent) * sizeof(trace::Record);
        problems.push_back(fmt::format(
            "--writes: '{0}' is ambiguous: as a size it is bytes, but --writes counts write requests, and "
            "{1} requests ({2}*10^{3}) make a trace of {4}; give --bytes {0} for {0} of writes, or --writes {1} "
            "for {2}*10^{3} requests",
            text, sci, c->value, c->decimal_exponent,
            trace_bytes >= 0x1p64 ? std::string("more than 16 EiB")
                                  : format_bytes(static_cast<uint64_t>(trace_bytes))));
      } else {
        problems.push_back(
            fmt::format("{0}: '{1}' is a size, not a count; give a number, e.g. {0} {2}", name, text, sci));
      }
      unparsed.push_back(name);
      return false;
    }
    problems.push_back(fmt::format("{}: '{}' is not a count (examples: 250000, 1e5, 1e6, 2e9)", name, text));
    unparsed.push_back(name);
    return false;
  };

  size_option(o.logical, "--logical", spec.logical_bytes);
  const bool io_ok = size_option(o.io_size, "--io-size", spec.io_bytes);
  size_option(o.fill_io, "--fill-io", spec.fill_io_bytes);
  count_option(o.markers, "--markers", spec.marker_every);

  if (!o.writes.empty()) {
    count_option(o.writes, "--writes", spec.writes);
  } else if (!o.bytes.empty()) {
    uint64_t bytes = 0;
    if (size_option(o.bytes, "--bytes", bytes) && io_ok && spec.io_bytes != 0) {
      if (bytes % spec.io_bytes != 0) {
        problems.push_back(fmt::format("--bytes ({}) must be a multiple of --io-size ({})", bytes, spec.io_bytes));
      }
      spec.writes = bytes / spec.io_bytes;
    }
  } else {
    problems.emplace_back("one of --writes or --bytes is required (0 is allowed, e.g. with --fill)");
  }

  if (const auto ns = parse_duration_ns(o.iat)) {
    spec.iat_ns = *ns;
  } else {
    problems.push_back(fmt::format("--iat: '{}' is not a duration (examples: 10us, 2.5us, 1ms)", o.iat));
    unparsed.push_back("--iat");
  }

  spec.fill = o.fill;
  spec.read_ratio = o.read_ratio;
  spec.trim_ratio = o.trim_ratio;
  spec.seed = o.seed;
  spec.theta = o.theta;
  spec.hot_space = o.hot_space;
  spec.hot_writes = o.hot_writes;
  if (o.streams_opt->count() > 0) {
    try {
      spec.streams = workload::parse_streams(o.streams);
    } catch (const InputError& e) {
      problems.push_back(flag_text(e.message()));
      unparsed.push_back("--streams");
    }
  }

  // Options that would silently do nothing are mistakes.
  auto only_for = [&](const CLI::Option* opt, workload::Pattern p) {
    if (opt->count() > 0 && spec.pattern != p) {
      problems.push_back(fmt::format("{} applies only to --pattern {}", opt->get_name(), workload::pattern_name(p)));
    }
  };
  only_for(o.theta_opt, workload::Pattern::kZipf);
  only_for(o.hot_space_opt, workload::Pattern::kHotCold);
  only_for(o.hot_writes_opt, workload::Pattern::kHotCold);
  only_for(o.streams_opt, workload::Pattern::kStreams);
  if (o.fill_io_opt->count() > 0 && !o.fill) problems.emplace_back("--fill-io needs --fill");
  if (spec.pattern == workload::Pattern::kStreams && o.streams_opt->count() == 0) {
    problems.emplace_back("--pattern streams needs --streams (e.g. 0.5:0.05,0.3:0.25,0.2:0.7)");
    unparsed.push_back("--streams");
  }

  // Then the spec's own checks, minus those about options already reported
  // as unparseable (their fields hold defaults, not what the user typed).
  for (const Problem& p : spec.problems()) {
    const Message m = p.message();
    const std::vector<std::string> named = m.settings();
    const bool repeats = std::any_of(unparsed.begin(), unparsed.end(), [&](const char* flag) {
      return std::any_of(named.begin(), named.end(), [&](const std::string& s) { return flag_of(s) == flag; });
    });
    if (!repeats) problems.push_back(flag_text(m));
  }
  if (!problems.empty()) throw InputError(fmt::format("gen: {}", fmt::join(problems, "; ")));
  return spec;
}

// Refuses, before anything is written, a trace larger than the output's
// free space: --writes counts write requests (2e9 = 2*10^9 records of 24
// bytes, 48 GB), a read ratio near 1 multiplies them (0.999999 -> 10^6 reads
// per write), and --fill over --logical 4P is 2^32 requests of 1 MiB. Returns
// the most records the space holds, which write_ftr enforces while writing.
uint64_t check_output_room(const workload::SynthSpec& spec, const OutputFile& out) {
  constexpr double kRecordBytes = sizeof(trace::Record);
  constexpr uint64_t kHeaderAllowance = 64 * 1024;  // generous: the gen header is about 1 KiB
  const double records = workload::expected_record_count(spec);
  const double bytes = records * kRecordBytes + kHeaderAllowance;
  const std::optional<uint64_t> free = out.free_bytes();  // of the folder the trace is written into
  if (!free) return UINT64_MAX;
  const auto fits =
      static_cast<uint64_t>(std::max<double>(static_cast<double>(*free) - kHeaderAllowance, 0.0) / kRecordBytes);
  if (bytes > static_cast<double>(*free)) {
    const double measured = records - static_cast<double>(workload::fill_request_count(spec));
    throw InputError(fmt::format(
        "gen: the trace would hold about {:.4g} records ({} fill requests and about {:.4g} measured requests and "
        "markers for {} writes), about {}, but the file system that would hold {} has {} free; nothing was written. --writes "
        "counts write requests (1e6 = 10^6 records, not bytes; --bytes gives a volume), --read-ratio/--trim-ratio "
        "near 1 multiply them, and --fill adds --logical / --fill-io requests",
        records, workload::fill_request_count(spec), measured, spec.writes,
        bytes >= 0x1p64 ? std::string("more than 16 EiB") : format_bytes(static_cast<uint64_t>(bytes)), out.path(),
        format_bytes(*free)));
  }
  return fits;
}

void run_gen(const GenOptions& o) {
  const workload::SynthSpec spec = build_spec(o);
  // A regular file or absent; --force to replace. Its folder is opened
  // once: the checks, the free space and the write all look at it.
  OutputFile out = open_output_file("-o", o.out, o.force, RunInputs{});
  const uint64_t max_records = check_output_room(spec, out);
  // The total is an estimate when reads or trims are drawn at random.
  ProgressLine progress("gen", static_cast<uint64_t>(workload::expected_record_count(spec)), ProgressUnit::kRecords,
                        progress_wanted(o.no_progress));
  const workload::GenerateStats s = workload::write_ftr(spec, std::move(out), max_records, &progress);
  progress.finish();
  fmt::print("wrote {} records to {} ({} fill, {} writes, {} reads, {} trims, {} markers)\n", s.total(),
             escape_for_terminal(o.out), s.fill, s.writes, s.reads, s.trims, s.markers);
}

}  // namespace

Command add_gen_command(CLI::App& root) {
  CLI::App* app =
      root.add_subcommand("gen", "Generate a seeded synthetic workload trace (seq, uniform, zipf, hotcold, streams)");
  app->footer(kGenFooter);
  auto o = std::make_shared<GenOptions>();

  app->add_option("--pattern", o->pattern, "Workload pattern (see below)")
      ->required()
      ->check(CLI::IsMember({"seq", "uniform", "zipf", "hotcold", "streams"}));
  app->add_option("--logical", o->logical, "Logical space, e.g. 1G")->required()->type_name("SIZE");
  auto* writes = app->add_option("--writes", o->writes,
                                 "Measured write requests (a count, not bytes: 1e6 = 10^6 records of --io-size; "
                                 "--bytes gives a volume)")
                     ->type_name("N");
  auto* bytes = app->add_option("--bytes", o->bytes, "Measured writes as a byte volume, e.g. 64G")->type_name("SIZE");
  writes->excludes(bytes);
  app->add_option("--io-size", o->io_size, "Request size, a multiple of 512")->type_name("SIZE")->capture_default_str();
  app->add_option("--iat", o->iat, "Inter-arrival time between records")->type_name("DURATION")->capture_default_str();
  app->add_flag("--fill", o->fill, "Precede with one sequential pass over the whole space");
  o->fill_io_opt = app->add_option("--fill-io", o->fill_io, "Fill request size, a multiple of --io-size")
                       ->type_name("SIZE")
                       ->capture_default_str();
  app->add_option("--read-ratio", o->read_ratio, "Fraction of measured requests that are reads")->capture_default_str();
  app->add_option("--trim-ratio", o->trim_ratio, "Fraction of measured requests that are trims")->capture_default_str();
  app->add_option("--markers", o->markers, "Marker (value = writes so far) every N writes; 0 = none")
      ->type_name("N")
      ->capture_default_str();
  add_uint_option(*app, "--seed", o->seed, 0, UINT64_MAX, "RNG seed, 0 to 2^64-1")->default_str("1");
  o->theta_opt = app->add_option("--theta", o->theta, "zipf: skew, > 0")->capture_default_str();
  o->hot_space_opt =
      app->add_option("--hot-space", o->hot_space, "hotcold: hot fraction of the space")->capture_default_str();
  o->hot_writes_opt =
      app->add_option("--hot-writes", o->hot_writes, "hotcold: fraction of requests to hot")->capture_default_str();
  o->streams_opt =
      app->add_option("--streams", o->streams, "streams: W:S,W:S,... write share : space share")->type_name("LIST");
  add_output_path_option(*app, "-o,--out", o->out, "Output .ftr file", "-o", "file")->required()->type_name("FILE");
  app->add_flag("--force", o->force,
                "Replace an existing output file (a regular file only; never a device, FIFO or symlink)");
  app->add_flag("--no-progress", o->no_progress, "No progress line on stderr (shown only on a terminal)");

  return {app, [o] { run_gen(*o); }};
}

}  // namespace ftlsim::cli
