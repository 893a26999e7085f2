#include "workload/synth.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/io_units.h"
#include "core/units.h"

namespace ftlsim::workload {
namespace {

constexpr double kShareTolerance = 1e-9;
constexpr uint64_t kMaxStreams = uint64_t{std::numeric_limits<trace::PlacementId>::max()} + 1;

bool is_ratio(double r) { return std::isfinite(r) && r >= 0.0 && r <= 1.0; }

uint64_t scale53(double fraction) {
  if (!(fraction > 0.0)) return 0;
  if (fraction >= 1.0) return Rng::kUnit53;
  return static_cast<uint64_t>(std::llround(fraction * static_cast<double>(Rng::kUnit53)));
}

// Region boundaries in pages (size = regions + 1, front 0, back `pages`),
// or a problem when a region would be empty. `shares` are space shares.
std::vector<uint64_t> boundaries(const std::vector<double>& shares, uint64_t pages) {
  std::vector<uint64_t> b;
  b.reserve(shares.size() + 1);
  b.push_back(0);
  double cumulative = 0;
  for (size_t i = 0; i + 1 < shares.size(); ++i) {
    cumulative += shares[i];
    const double at = std::round(cumulative * static_cast<double>(pages));
    b.push_back(at <= 0 ? 0 : at >= static_cast<double>(pages) ? pages : static_cast<uint64_t>(at));
  }
  b.push_back(pages);
  return b;
}

std::vector<double> space_shares(const SynthSpec& spec) {
  std::vector<double> s;
  if (spec.pattern == Pattern::kHotCold) {
    s = {spec.hot_space, 1.0 - spec.hot_space};
  } else if (spec.pattern == Pattern::kStreams) {
    for (const StreamShare& st : spec.streams) s.push_back(st.space_share);
  } else {
    s = {1.0};
  }
  return s;
}

std::string format_duration_exact(uint64_t ns) {
  if (ns != 0 && ns % kNsPerSecond == 0) return fmt::format("{}s", ns / kNsPerSecond);
  if (ns != 0 && ns % 1'000'000 == 0) return fmt::format("{}ms", ns / 1'000'000);
  if (ns != 0 && ns % 1'000 == 0) return fmt::format("{}us", ns / 1'000);
  return fmt::format("{}ns", ns);
}

std::string format_streams(const std::vector<StreamShare>& streams) {
  std::string out;
  for (size_t i = 0; i < streams.size(); ++i) {
    if (i != 0) out += ',';
    out += fmt::format("{}:{}", streams[i].write_share, streams[i].space_share);
  }
  return out;
}

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<double> parse_double(std::string_view s) {
  s = trim_spaces(s);
  double v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

}  // namespace

std::string_view pattern_name(Pattern p) {
  switch (p) {
    case Pattern::kSeq: return "seq";
    case Pattern::kUniform: return "uniform";
    case Pattern::kZipf: return "zipf";
    case Pattern::kHotCold: return "hotcold";
    case Pattern::kStreams: return "streams";
  }
  return "unknown";
}

std::optional<Pattern> parse_pattern(std::string_view name) {
  for (const Pattern p : kAllPatterns) {
    if (pattern_name(p) == name) return p;
  }
  return std::nullopt;
}

std::vector<Problem> SynthSpec::problems() const {
  const auto in_parens = [](std::string setting, auto value, Message reason) {
    return Problem{std::move(setting), fmt::format("{}", value), std::move(reason), Problem::Shape::kInParens};
  };
  std::vector<Problem> out;
  bool sizes_ok = true;
  if (logical_bytes == 0) {
    out.push_back({"logical", "", "must be > 0"});
    sizes_ok = false;
  }
  if (io_bytes == 0 || io_bytes % kSectorBytes != 0) {
    out.push_back(in_parens("io-size", io_bytes, fmt::format("must be a positive multiple of {}", kSectorBytes)));
    sizes_ok = false;
  } else if (io_bytes / kSectorBytes > std::numeric_limits<uint32_t>::max()) {
    out.push_back(in_parens("io-size", io_bytes, "is too large for one request"));
    sizes_ok = false;
  }
  if (sizes_ok && logical_bytes % io_bytes != 0) {
    out.push_back(in_parens("logical", logical_bytes, say("must be a multiple of `io-size` ({})", io_bytes)));
    sizes_ok = false;
  }
  if (fill) {
    if (fill_io_bytes == 0 || (io_bytes != 0 && fill_io_bytes % io_bytes != 0)) {
      out.push_back(
          in_parens("fill-io", fill_io_bytes, say("must be a positive multiple of `io-size` ({})", io_bytes)));
      sizes_ok = false;
    } else if (fill_io_bytes / kSectorBytes > std::numeric_limits<uint32_t>::max()) {
      out.push_back(in_parens("fill-io", fill_io_bytes, "is too large for one request"));
      sizes_ok = false;
    }
  }
  bool ratios_ok = true;
  if (!is_ratio(read_ratio)) {
    out.push_back(in_parens("read-ratio", read_ratio, "must be in [0, 1]"));
    ratios_ok = false;
  }
  if (!is_ratio(trim_ratio)) {
    out.push_back(in_parens("trim-ratio", trim_ratio, "must be in [0, 1]"));
    ratios_ok = false;
  }
  if (ratios_ok && read_ratio + trim_ratio >= 1.0) {
    out.push_back(
        {"", "",
         say("`read-ratio` + `trim-ratio` ({} + {}) must be < 1 to leave room for writes", read_ratio, trim_ratio)});
    ratios_ok = false;
  }

  bool shares_ok = true;
  switch (pattern) {
    case Pattern::kSeq:
    case Pattern::kUniform: break;
    case Pattern::kZipf:
      if (!std::isfinite(theta) || theta <= 0.0) {
        out.push_back(in_parens("theta", theta, "must be > 0"));
      }
      break;
    case Pattern::kHotCold:
      if (!std::isfinite(hot_space) || hot_space <= 0.0 || hot_space >= 1.0) {
        out.push_back(in_parens("hot-space", hot_space, "must be in (0, 1)"));
        shares_ok = false;
      }
      if (!is_ratio(hot_writes)) {
        out.push_back(in_parens("hot-writes", hot_writes, "must be in [0, 1]"));
      }
      break;
    case Pattern::kStreams: {
      if (streams.empty()) {
        out.push_back({"streams", "", ": the streams pattern needs at least one stream"});
        shares_ok = false;
        break;
      }
      if (streams.size() > kMaxStreams) {
        out.push_back(
            {"streams", "", fmt::format(": {} streams, at most {} placement IDs", streams.size(), kMaxStreams)});
        shares_ok = false;
      }
      double write_sum = 0;
      double space_sum = 0;
      for (size_t i = 0; i < streams.size(); ++i) {
        const StreamShare& s = streams[i];
        if (!is_ratio(s.write_share)) {
          out.push_back(
              {"streams", "", fmt::format(": stream {} write share ({}) must be in [0, 1]", i, s.write_share)});
          shares_ok = false;
        }
        if (!std::isfinite(s.space_share) || s.space_share <= 0.0 || s.space_share > 1.0) {
          out.push_back(
              {"streams", "", fmt::format(": stream {} space share ({}) must be in (0, 1]", i, s.space_share)});
          shares_ok = false;
        }
        write_sum += s.write_share;
        space_sum += s.space_share;
      }
      if (std::abs(write_sum - 1.0) > kShareTolerance) {
        out.push_back({"streams", "", fmt::format(": write shares sum to {}, not 1", write_sum)});
        shares_ok = false;
      }
      if (std::abs(space_sum - 1.0) > kShareTolerance) {
        out.push_back({"streams", "", fmt::format(": space shares sum to {}, not 1", space_sum)});
        shares_ok = false;
      }
      break;
    }
  }

  if (sizes_ok && shares_ok) {
    const uint64_t pages = logical_bytes / io_bytes;
    const std::vector<uint64_t> b = boundaries(space_shares(*this), pages);
    for (size_t i = 0; i + 1 < b.size(); ++i) {
      if (b[i + 1] <= b[i]) {
        const std::string who = pattern == Pattern::kHotCold ? (i == 0 ? "the hot region" : "the cold region")
                                                             : fmt::format("stream {}", i);
        out.push_back({"", "",
                       say("{} gets no pages: `logical` {} holds only {} pages of `io-size` {}", who, logical_bytes,
                           pages, io_bytes)});
      }
    }
    if (ratios_ok) {
      // Timestamps must not wrap: estimate the record count generously.
      const double requests = static_cast<double>(writes) / (1.0 - read_ratio - trim_ratio);
      const double fills = fill ? static_cast<double>(logical_bytes / fill_io_bytes + b.size()) : 0.0;
      const double span = (requests + fills) * static_cast<double>(iat_ns);
      if (span > 0.5 * static_cast<double>(std::numeric_limits<uint64_t>::max())) {
        out.push_back({"iat", fmt::format("{} ns", iat_ns),
                       fmt::format("over ~{:.3g} requests overflows 64-bit timestamps", requests + fills)});
      }
    }
  }
  return out;
}

void SynthSpec::validate() const {
  const std::vector<Problem> p = problems();
  if (!p.empty()) throw InputError(Message("invalid workload: ") + join(p));
}

std::vector<Region> regions(const SynthSpec& spec) {
  const uint64_t pages = spec.logical_bytes / spec.io_bytes;
  const std::vector<uint64_t> b = boundaries(space_shares(spec), pages);
  std::vector<Region> out;
  out.reserve(b.size() - 1);
  for (size_t i = 0; i + 1 < b.size(); ++i) {
    Region r;
    r.first_page = b[i];
    r.pages = b[i + 1] - b[i];
    r.pid = static_cast<trace::PlacementId>(i);
    switch (spec.pattern) {
      case Pattern::kHotCold:
        r.name = i == 0 ? "hot" : "cold";
        r.write_share = i == 0 ? spec.hot_writes : 1.0 - spec.hot_writes;
        break;
      case Pattern::kStreams:
        r.name = fmt::format("s{}", i);
        r.write_share = spec.streams[i].write_share;
        break;
      default: break;
    }
    out.push_back(std::move(r));
  }
  return out;
}

uint64_t fill_request_count(const SynthSpec& spec) {
  if (!spec.fill) return 0;
  uint64_t n = 0;
  for (const Region& r : regions(spec)) {
    const uint64_t bytes = r.pages * spec.io_bytes;
    n += (bytes + spec.fill_io_bytes - 1) / spec.fill_io_bytes;
  }
  return n;
}

double expected_record_count(const SynthSpec& spec) {
  const double writes = static_cast<double>(spec.writes);
  const double measured = writes / (1.0 - spec.read_ratio - spec.trim_ratio);
  const double markers = spec.marker_every == 0 ? 0.0 : std::floor(writes / static_cast<double>(spec.marker_every));
  return static_cast<double>(fill_request_count(spec)) + measured + markers;
}

std::string command_line(const SynthSpec& spec) {
  std::string out =
      fmt::format("ftlsim gen --pattern {} --logical {} --io-size {} --writes {} --iat {} --seed {}",
                  pattern_name(spec.pattern), format_size_exact(spec.logical_bytes), format_size_exact(spec.io_bytes),
                  spec.writes, format_duration_exact(spec.iat_ns), spec.seed);
  switch (spec.pattern) {
    case Pattern::kZipf: out += fmt::format(" --theta {}", spec.theta); break;
    case Pattern::kHotCold:
      out += fmt::format(" --hot-space {} --hot-writes {}", spec.hot_space, spec.hot_writes);
      break;
    case Pattern::kStreams: out += fmt::format(" --streams {}", format_streams(spec.streams)); break;
    default: break;
  }
  if (spec.fill) out += fmt::format(" --fill --fill-io {}", format_size_exact(spec.fill_io_bytes));
  if (spec.read_ratio != 0) out += fmt::format(" --read-ratio {}", spec.read_ratio);
  if (spec.trim_ratio != 0) out += fmt::format(" --trim-ratio {}", spec.trim_ratio);
  if (spec.marker_every != 0) out += fmt::format(" --markers {}", spec.marker_every);
  return out;
}

trace::TraceMeta make_trace_meta(const SynthSpec& spec) {
  trace::TraceMeta meta;
  meta.sector_bytes = static_cast<uint32_t>(kSectorBytes);
  auto& kv = meta.kv;
  kv.emplace_back("source", "ftlsim gen");
  kv.emplace_back("generator", command_line(spec));
  kv.emplace_back("pattern", std::string(pattern_name(spec.pattern)));
  kv.emplace_back("seed", fmt::format("{}", spec.seed));
  kv.emplace_back("logical_bytes", fmt::format("{}", spec.logical_bytes));
  kv.emplace_back("io_bytes", fmt::format("{}", spec.io_bytes));
  kv.emplace_back("writes", fmt::format("{}", spec.writes));
  kv.emplace_back("iat_ns", fmt::format("{}", spec.iat_ns));
  kv.emplace_back("fill", spec.fill ? "true" : "false");
  if (spec.fill) kv.emplace_back("fill_io_bytes", fmt::format("{}", spec.fill_io_bytes));
  // Records before the measured part starts.
  kv.emplace_back("fill_records", fmt::format("{}", fill_request_count(spec)));
  kv.emplace_back("read_ratio", fmt::format("{}", spec.read_ratio));
  kv.emplace_back("trim_ratio", fmt::format("{}", spec.trim_ratio));
  kv.emplace_back("markers", fmt::format("{}", spec.marker_every));
  switch (spec.pattern) {
    case Pattern::kZipf:
      kv.emplace_back("theta", fmt::format("{}", spec.theta));
      kv.emplace_back("zipf_method", "rejection-inversion (Hormann & Derflinger 1996)");
      kv.emplace_back("zipf_scatter", "feistel4 cycle-walking permutation of ranks");
      break;
    case Pattern::kHotCold:
      kv.emplace_back("hot_space", fmt::format("{}", spec.hot_space));
      kv.emplace_back("hot_writes", fmt::format("{}", spec.hot_writes));
      break;
    case Pattern::kStreams: kv.emplace_back("streams", format_streams(spec.streams)); break;
    default: break;
  }
  kv.emplace_back("rng", "xoshiro256** seeded by splitmix64");
  const uint64_t page_sectors = spec.io_bytes / kSectorBytes;
  for (const Region& r : regions(spec)) {
    if (r.name.empty()) continue;
    // Extent in sectors: "<first lba>+<sectors>".
    kv.emplace_back(fmt::format("region.{}", r.name),
                    fmt::format("{}+{}", r.first_page * page_sectors, r.pages * page_sectors));
    meta.pid_names[r.pid] = r.name;
  }
  return meta;
}

std::optional<CountSuffix> count_suffix(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || text.size() - digits != 1) return std::nullopt;
  uint64_t value = 0;
  if (std::from_chars(text.data(), text.data() + digits, value).ec != std::errc()) return std::nullopt;
  switch (text[digits]) {
    case 'k':
    case 'K': return CountSuffix{value, 3};
    case 'm':
    case 'M': return CountSuffix{value, 6};
    case 'g':
    case 'G': return CountSuffix{value, 9};
    case 't':
    case 'T': return CountSuffix{value, 12};
    default: return std::nullopt;
  }
}

std::vector<StreamShare> parse_streams(std::string_view text) {
  std::vector<StreamShare> out;
  size_t index = 0;
  while (true) {
    const size_t comma = text.find(',');
    const std::string_view entry = trim_spaces(text.substr(0, comma));
    const size_t colon = entry.find(':');
    std::optional<double> w;
    std::optional<double> s;
    if (colon != std::string_view::npos) {
      w = parse_double(entry.substr(0, colon));
      s = parse_double(entry.substr(colon + 1));
    }
    if (!w || !s) {
      throw InputError(
          say("`streams`: entry {} ('{}') is not WRITE_SHARE:SPACE_SHARE (example: 0.5:0.05,0.5:0.95)", index, entry));
    }
    out.push_back({*w, *s});
    ++index;
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

namespace detail {

Plan make_plan(const SynthSpec& spec) {
  spec.validate();
  Plan plan;
  plan.pattern = spec.pattern;
  plan.pages = spec.logical_bytes / spec.io_bytes;
  plan.page_sectors = static_cast<uint32_t>(spec.io_bytes / kSectorBytes);
  plan.fill_sectors = spec.fill ? static_cast<uint32_t>(spec.fill_io_bytes / kSectorBytes) : 0;
  plan.writes = spec.writes;
  plan.iat_ns = spec.iat_ns;
  plan.marker_every = spec.marker_every;
  plan.seed = spec.seed;
  plan.theta = spec.theta;
  plan.mixed = spec.read_ratio > 0 || spec.trim_ratio > 0;
  plan.read_below = scale53(spec.read_ratio);
  plan.trim_below = scale53(spec.read_ratio + spec.trim_ratio);
  plan.regions = regions(spec);
  // Normalised so that shares summing to 1 within tolerance still end at
  // exactly 2^53, and a trailing zero share is never drawn.
  double total = 0;
  for (const Region& r : plan.regions) total += r.write_share;
  double cumulative = 0;
  for (const Region& r : plan.regions) {
    cumulative += r.write_share;
    plan.region_below.push_back(scale53(cumulative / total));
  }
  plan.region_below.back() = Rng::kUnit53;
  return plan;
}

}  // namespace detail

std::vector<trace::Record> generate_records(const SynthSpec& spec) {
  VectorSink sink;
  generate(spec, sink);
  return std::move(sink.records);
}

}  // namespace ftlsim::workload
