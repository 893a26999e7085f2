#include "sim/sweep.h"

#include "sim/fit.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cmath>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <set>
#include <thread>

#include "core/error.h"
#include "core/output_dir.h"
#include "core/units.h"

namespace ftlsim::sim {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

[[noreturn]] void bad_item(std::string_view option, std::string_view item, std::string_view why) {
  throw InputError(fmt::format("{}: '{}' {}", option, item, why));
}

std::optional<uint64_t> parse_whole(std::string_view s) {
  uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> parse_real(std::string_view s) {
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// The shortest exact form with a binary suffix: 16777216 -> "16M".
std::string format_size_exact(uint64_t bytes) {
  static constexpr std::array<std::pair<unsigned, char>, 5> kSuffixes = {
      {{50, 'P'}, {40, 'T'}, {30, 'G'}, {20, 'M'}, {10, 'K'}}};
  for (const auto& [shift, suffix] : kSuffixes) {
    const uint64_t unit = uint64_t{1} << shift;
    if (bytes != 0 && bytes % unit == 0) return fmt::format("{}{}", bytes / unit, suffix);
  }
  return fmt::format("{}", bytes);
}

const char* kind_noun(ValueKind kind) {
  switch (kind) {
    case ValueKind::kInteger: return "is not a whole number";
    case ValueKind::kReal: return "is not a number";
    case ValueKind::kSize: return "is not a size (examples: 4096, 4K, 16M, 64G)";
    default: return "is not valid";
  }
}

// One number or size item, checked; returns it as given.
void check_scalar(std::string_view option, ValueKind kind, std::string_view item) {
  if (kind == ValueKind::kInteger) {
    (void)parse_uint_option(item, option);  // the one integer parser: its message names the range
    return;
  }
  const bool ok = kind == ValueKind::kInteger ? parse_whole(item).has_value()
                  : kind == ValueKind::kReal  ? parse_real(item).has_value()
                                              : parse_size(item).has_value();
  if (!ok) bad_item(option, item, kind_noun(kind));
}

// START:STOP:STEP, inclusive, appended to `out`.
void expand_range(std::string_view option, ValueKind kind, std::string_view item, std::vector<std::string>& out) {
  const size_t c1 = item.find(':');
  const size_t c2 = item.find(':', c1 + 1);
  if (c2 == std::string_view::npos || item.find(':', c2 + 1) != std::string_view::npos) {
    bad_item(option, item, "is not a range START:STOP:STEP");
  }
  const std::string_view parts[3] = {trim(item.substr(0, c1)), trim(item.substr(c1 + 1, c2 - c1 - 1)),
                                     trim(item.substr(c2 + 1))};
  for (const std::string_view part : parts) {
    const bool ok = kind == ValueKind::kReal ? parse_real(part).has_value()
                    : kind == ValueKind::kSize ? parse_size(part).has_value()
                                               : parse_whole(part).has_value();
    if (!ok) {
      bad_item(option, item, fmt::format("is not a range START:STOP:STEP: '{}' {}", part, kind_noun(kind)));
    }
  }
  auto too_many = [&] { bad_item(option, item, fmt::format("gives more than {} values", kMaxItems)); };
  if (kind == ValueKind::kReal) {
    const double start = *parse_real(parts[0]), stop = *parse_real(parts[1]), step = *parse_real(parts[2]);
    if (!(step > 0)) bad_item(option, item, "has a step that is not above 0");
    if (start > stop) bad_item(option, item, "has START above STOP");
    // A small tolerance so that 0.1:0.3:0.1 includes 0.3 despite rounding.
    const double count = std::floor((stop - start) / step + 1e-9) + 1;
    if (count > static_cast<double>(kMaxItems)) too_many();
    for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
      out.push_back(fmt::format("{:.12g}", start + static_cast<double>(i) * step));
    }
    return;
  }
  const bool size = kind == ValueKind::kSize;
  const uint64_t start = size ? *parse_size(parts[0]) : *parse_whole(parts[0]);
  const uint64_t stop = size ? *parse_size(parts[1]) : *parse_whole(parts[1]);
  const uint64_t step = size ? *parse_size(parts[2]) : *parse_whole(parts[2]);
  if (step == 0) bad_item(option, item, "has a step that is not above 0");
  if (start > stop) bad_item(option, item, "has START above STOP");
  if ((stop - start) / step + 1 > kMaxItems) too_many();
  for (uint64_t v = start; v <= stop; v += step) {
    out.push_back(size ? format_size_exact(v) : fmt::format("{}", v));
    if (stop - v < step) break;  // no overflow past UINT64_MAX
  }
}

}  // namespace

std::vector<std::string> expand_values(std::string_view option, ValueKind kind, std::string_view text) {
  std::vector<std::string> items;
  if (trim(text).empty()) bad_item(option, text, "is empty");
  auto add = [&](std::string_view item) {
    item = trim(item);
    if (item.empty()) throw InputError(fmt::format("{} {}: an item of the list is empty", option, text));
    if (kind == ValueKind::kWord || kind == ValueKind::kPlacement) {
      items.emplace_back(item);
    } else if (kind == ValueKind::kSize && item.substr(0, 4) == "fit:") {
      (void)parse_fit(item);  // --logical fit:P% (sim/fit.h), a word among sizes
      items.emplace_back(item);
    } else if (item.find(':') != std::string_view::npos) {
      expand_range(option, kind, item, items);
    } else {
      check_scalar(option, kind, item);
      items.emplace_back(item);
    }
  };
  if (kind == ValueKind::kPlacement) {
    // Groups end at ';'; within a group, items end at ',' until one starts
    // with "map:", which takes the rest of the group.
    std::string_view rest = text;
    while (true) {
      const size_t semi = rest.find(';');
      std::string_view group = rest.substr(0, semi);
      while (true) {
        const std::string_view head = trim(group);
        if (head.substr(0, 4) == "map:") {
          add(head);
          break;
        }
        const size_t comma = group.find(',');
        add(group.substr(0, comma));
        if (comma == std::string_view::npos) break;
        group.remove_prefix(comma + 1);
      }
      if (semi == std::string_view::npos) break;
      rest.remove_prefix(semi + 1);
    }
  } else {
    std::string_view rest = text;
    while (true) {
      const size_t comma = rest.find(',');
      add(rest.substr(0, comma));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  if (items.size() > kMaxItems) {
    throw InputError(fmt::format("{}: more than {} values", option, kMaxItems));
  }
  std::set<std::string_view> seen;
  for (const std::string& item : items) {
    if (!seen.insert(item).second) bad_item(option, item, "is listed twice");
  }
  return items;
}

size_t product_size(std::span<const size_t> sizes) {
  size_t n = 1;
  for (const size_t s : sizes) {
    if (s == 0) throw InputError("an option of the sweep has no values");
    if (n > kMaxConfigurations / s) {
      throw InputError(fmt::format("the sweep has more than {} configurations", kMaxConfigurations));
    }
    n *= s;
  }
  return n;
}

std::vector<size_t> product_point(std::span<const size_t> sizes, size_t index) {
  std::vector<size_t> point(sizes.size());
  for (size_t k = sizes.size(); k-- > 0;) {
    point[k] = index % sizes[k];
    index /= sizes[k];
  }
  return point;
}

namespace {

constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr uint64_t kFnvPrime = 0x100000001b3ULL;

uint64_t fnv_bytes(uint64_t h, std::string_view bytes) {
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= kFnvPrime;
  }
  return h;
}

uint64_t fnv_word(uint64_t h, uint64_t w) {
  h ^= w;
  return h * kFnvPrime;
}

}  // namespace

std::string config_id(std::span<const std::pair<std::string, std::string>> swept) {
  std::string id;
  for (const auto& [name, value] : swept) {
    if (!id.empty()) id += '_';
    id += name;
    id += '=';
    for (const char c : value) {
      const bool safe = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                        c == '.' || c == '=' || c == '+' || c == '-';
      id += safe ? c : '-';
    }
  }
  if (id.empty()) return "default";
  if (id.size() > kMaxConfigIdBytes) {
    // Too long for a folder name: a prefix and the FNV-1a hash of the whole.
    const uint64_t h = fnv_bytes(kFnvOffset, id);
    id = fmt::format("{}~{:016x}", std::string_view(id).substr(0, kMaxConfigIdBytes - 17), h);
  }
  return id;
}

void make_unique(std::vector<std::string>& names) {
  std::set<std::string> used(names.begin(), names.end());
  std::set<std::string> seen;
  for (std::string& name : names) {
    if (seen.insert(name).second) continue;
    for (int k = 2;; ++k) {
      std::string candidate = fmt::format("{}-{}", name, k);
      if (used.insert(candidate).second) {
        name = std::move(candidate);
        seen.insert(name);
        break;
      }
    }
  }
}

std::vector<SweepOutcome> run_sweep(const TraceView& trace, std::span<const SweepJob> jobs, unsigned threads,
                                    const SweepCallbacks& callbacks) {
  std::vector<SweepOutcome> outcomes(jobs.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;  // guards done, failure and the progress callback
  size_t done = 0;
  std::exception_ptr failure;

  const auto cancelled = [&] { return callbacks.cancel != nullptr && callbacks.cancel->load(); };
  auto worker = [&] {
    while (!stop.load(std::memory_order_relaxed) && !cancelled()) {
      const size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= jobs.size()) return;
      try {
        SweepOutcome& out = outcomes[i];
        const SweepJob& job = jobs[i];
        if (!job.error.empty()) {
          out.error = job.error;
          out.status = SweepStatus::kError;
        } else {
          try {
            out.result = simulate(job.run.config, trace, job.run.options, job.run.placement);
            out.status = SweepStatus::kDone;
          } catch (const InputError& e) {
            out.error = e.what();
            out.status = SweepStatus::kError;
          }
        }
        if (callbacks.on_done) callbacks.on_done(i, out);
        const std::lock_guard lock(mutex);
        ++done;
        if (callbacks.progress) callbacks.progress(done, jobs.size());
      } catch (...) {
        const std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        stop.store(true, std::memory_order_relaxed);
        return;
      }
    }
  };

  const size_t n_threads = std::clamp<size_t>(threads, 1, std::max<size_t>(jobs.size(), 1));
  if (n_threads == 1) {
    worker();
  } else {
    std::vector<std::jthread> pool;
    pool.reserve(n_threads);
    for (size_t t = 0; t < n_threads; ++t) pool.emplace_back(worker);
  }  // joined here
  if (failure) std::rethrow_exception(failure);
  return outcomes;
}

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

namespace {

// Handle names in report order: ruh0, ruh1, ... by number, then the rest
// (the shared "gc" handle) by name.
bool handle_before(const std::string& a, const std::string& b) {
  auto number = [](const std::string& s) -> std::optional<uint64_t> {
    if (s.size() <= 3 || s.compare(0, 3, "ruh") != 0) return std::nullopt;
    return parse_whole(std::string_view(s).substr(3));
  };
  const auto na = number(a), nb = number(b);
  if (na && nb) return *na < *nb;
  if (na || nb) return na.has_value();
  return a < b;
}

}  // namespace

std::string_view status_name(SweepStatus s) {
  switch (s) {
    case SweepStatus::kDone: return "done";
    case SweepStatus::kError: return "error";
    case SweepStatus::kMissing: break;
  }
  return "missing";
}

namespace {

// The metric columns between the axes and the waf_share_* columns.
constexpr std::array<std::string_view, 8> kMetricColumns = {
    "waf",         "host_bytes",          "gc_bytes",
    "erases",      "gc_onset_host_bytes", "gc_onset_marker",
    "invalid_pid_requests", "ru_not_fully_written"};
constexpr std::string_view kSharePrefix = "waf_share_";

}  // namespace

std::map<std::string, std::string> sweep_row_cells(const SweepOutcome& o) {
  if (!o.result && !o.carried.empty()) return o.carried;
  std::map<std::string, std::string> cells;
  if (o.result) {
    const SimResult& r = *o.result;
    cells["waf"] = fmt::format("{:.6f}", r.ftl.waf());
    cells["host_bytes"] = fmt::format("{}", r.ftl.host_slots * ftl::kSlotBytes);
    cells["gc_bytes"] = fmt::format("{}", r.ftl.gc_slots * ftl::kSlotBytes);
    cells["erases"] = fmt::format("{}", erased_blocks(r));
    if (r.gc_onset) {
      cells["gc_onset_host_bytes"] = fmt::format("{}", r.gc_onset->host_bytes);
      if (r.gc_onset->marker) cells["gc_onset_marker"] = fmt::format("{}", *r.gc_onset->marker);
    }
    cells["invalid_pid_requests"] = fmt::format("{}", r.invalid_pid_requests);
    cells["ru_not_fully_written"] = fmt::format("{}", r.ftl.units_not_fully_written);
    for (const HandleStats& h : r.handles) cells[std::string(kSharePrefix) + h.name] = fmt::format("{:.6f}", h.waf_share);
  }
  cells["error"] = o.error;
  cells["status"] = std::string(status_name(o.status));
  return cells;
}

std::string sweep_csv(const SweepTable& table, std::span<const SweepOutcome> outcomes) {
  std::vector<std::map<std::string, std::string>> rows;
  rows.reserve(outcomes.size());
  std::vector<std::string> handles;
  for (const SweepOutcome& o : outcomes) {
    rows.push_back(sweep_row_cells(o));
    for (const auto& [column, unused] : rows.back()) {
      if (column.compare(0, kSharePrefix.size(), kSharePrefix) != 0) continue;
      const std::string name = column.substr(kSharePrefix.size());
      if (std::find(handles.begin(), handles.end(), name) == handles.end()) handles.push_back(name);
    }
  }
  std::sort(handles.begin(), handles.end(), handle_before);

  std::string out = "config_id";
  for (const std::string& axis : table.axes) {
    out += ',';
    out += csv_field(axis);
  }
  for (const std::string_view column : kMetricColumns) {
    out += ',';
    out += column;
  }
  for (const std::string& h : handles) {
    out += ',';
    out += csv_field(std::string(kSharePrefix) + h);
  }
  out += ",error,status,config_key\n";

  const auto cell = [](const std::map<std::string, std::string>& row, const std::string& column) {
    const auto it = row.find(column);
    return it == row.end() ? std::string() : csv_field(it->second);
  };
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const auto& row = rows[i];
    out += csv_field(table.ids[i]);
    for (const std::string& v : table.values[i]) {
      out += ',';
      out += csv_field(v);
    }
    for (const std::string_view column : kMetricColumns) {
      out += ',';
      out += cell(row, std::string(column));
    }
    for (const std::string& h : handles) {
      out += ',';
      out += cell(row, std::string(kSharePrefix) + h);
    }
    out += ',';
    out += cell(row, "error");
    out += ',';
    out += cell(row, "status");
    out += ',';
    if (i < table.keys.size()) out += csv_field(table.keys[i]);
    out += '\n';
  }
  return out;
}

// ---- Interruption and resume ----------------------------------------------

namespace {

// Written by the signal handler: lock-free, so async-signal-safe.
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);
struct sigaction g_old_int {};
struct sigaction g_old_term {};

extern "C" void on_interrupt(int sig) {
  if (g_interrupted.exchange(true)) {  // the second signal: stop at once
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  static constexpr char kMsg[] =
      "\nftlsim: interrupted: finishing the configurations in progress (Ctrl-C again to stop at once)\n";
  const ssize_t unused = ::write(STDERR_FILENO, kMsg, sizeof kMsg - 1);
  (void)unused;
}

// RFC 4180 records of `text`: fields split on ',', quoted fields may hold
// ',', '"' (doubled) and line breaks. False when a quote is left open.
bool parse_csv(std::string_view text, std::vector<std::vector<std::string>>& records) {
  std::vector<std::string> record;
  std::string field;
  bool quoted = false;
  bool any = false;  // the current record has begun
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '"') {
        field += c;
      } else if (i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else {
        quoted = false;
      }
      continue;
    }
    any = true;
    if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      record.push_back(std::move(field));
      field.clear();
      records.push_back(std::move(record));
      record.clear();
      any = false;
    } else if (c != '\r') {
      field += c;
    }
  }
  if (quoted) return false;
  if (any) {
    record.push_back(std::move(field));
    records.push_back(std::move(record));
  }
  return true;
}

}  // namespace

InterruptScope::InterruptScope() {
  g_interrupted.store(false);
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  ::sigaction(SIGINT, &sa, &g_old_int);
  ::sigaction(SIGTERM, &sa, &g_old_term);
}

InterruptScope::~InterruptScope() {
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
}

const std::atomic<bool>* InterruptScope::flag() const { return &g_interrupted; }

uint64_t trace_fingerprint(const TraceView& trace, const std::map<trace::PlacementId, std::string>& pid_names) {
  uint64_t h = fnv_word(kFnvOffset, trace.sector_bytes);
  h = fnv_word(h, trace.records.size());
  for (const auto& [id, name] : pid_names) h = fnv_bytes(fnv_word(h, id), name);
  static_assert(sizeof(trace::Record) == 3 * sizeof(uint64_t));
  const auto* bytes = reinterpret_cast<const unsigned char*>(trace.records.data());
  const size_t words = trace.records.size() * 3;
  for (size_t i = 0; i < words; ++i) {
    uint64_t w;
    std::memcpy(&w, bytes + i * sizeof w, sizeof w);
    h = fnv_word(h, w);
  }
  return h;
}

std::string config_key(uint64_t trace_fingerprint, std::string_view description) {
  return fmt::format("{:016x}", fnv_bytes(fnv_word(kFnvOffset, trace_fingerprint), description));
}

std::map<std::string, std::map<std::string, std::string>> read_sweep_rows(const std::string& path) {
  std::map<std::string, std::map<std::string, std::string>> rows;
  std::ifstream in(path, std::ios::binary);
  if (!in) return rows;
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<std::vector<std::string>> records;
  if (!parse_csv(text, records) || records.empty()) return rows;
  const std::vector<std::string>& header = records[0];
  for (const char* need : {"config_id", "status", "config_key"}) {
    if (std::find(header.begin(), header.end(), need) == header.end()) return rows;
  }
  for (size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != header.size()) return {};  // not a file this version wrote: resume nothing
    std::map<std::string, std::string> cells;
    for (size_t c = 0; c < header.size(); ++c) cells[header[c]] = records[r][c];
    const std::string id = cells["config_id"];
    rows[id] = std::move(cells);
  }
  return rows;
}

size_t carry_over(const std::map<std::string, std::map<std::string, std::string>>& previous,
                  const SweepTable& table, const std::string& out_dir, std::vector<SweepOutcome>& outcomes) {
  size_t carried = 0;
  for (size_t i = 0; i < table.ids.size() && i < outcomes.size() && i < table.keys.size(); ++i) {
    const auto it = previous.find(table.ids[i]);
    if (it == previous.end() || table.keys[i].empty()) continue;
    const std::map<std::string, std::string>& cells = it->second;
    const auto get = [&](const char* column) {
      const auto c = cells.find(column);
      return c == cells.end() ? std::string() : c->second;
    };
    if (get("config_key") != table.keys[i]) continue;
    const std::string status = get("status");
    SweepOutcome& o = outcomes[i];
    if (status == "error") {
      o.status = SweepStatus::kError;
      o.error = get("error");
    } else if (status == "done" && std::filesystem::exists(out_dir + "/" + table.ids[i] + "/summary.json")) {
      o.status = SweepStatus::kDone;
    } else {
      continue;
    }
    o.result.reset();
    o.carried = cells;
    ++carried;
  }
  return carried;
}

SweepFolder claim_sweep_folder(const std::string& dir, const SweepTable& table, bool force) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(dir, ec))) return SweepFolder::kNew;  // absent (check_output_folder ran)
  std::vector<std::string> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!is_staging_name(name)) entries.push_back(name);
  }
  if (ec) throw InputError(fmt::format("--out {}: cannot list it ({})", dir, ec.message()));
  std::sort(entries.begin(), entries.end());
  if (entries.empty()) return SweepFolder::kNew;
  const std::string csv = dir + "/sweep.csv";
  if (!fs::exists(csv)) {
    throw InputError(fmt::format("--out {} is not a sweep's folder (no sweep.csv; it holds {}{}); give a new or "
                                 "empty folder",
                                 dir, entries.front(), entries.size() > 1 ? ", ..." : ""));
  }
  const auto previous = read_sweep_rows(csv);
  for (const std::string& name : entries) {
    if (name != "sweep.csv" && previous.count(name) == 0) {
      throw InputError(fmt::format("--out {} holds {}, which its sweep.csv does not name; a sweep's folder holds "
                                   "only sweep.csv and its configurations' folders: give a new or empty folder",
                                   dir, name));
    }
  }
  bool same = previous.size() == table.ids.size();
  for (size_t i = 0; same && i < table.ids.size(); ++i) {
    const auto it = previous.find(table.ids[i]);
    same = it != previous.end() && it->second.count("config_key") != 0 &&
           it->second.at("config_key") == table.keys[i] && !table.keys[i].empty();
  }
  if (same) return SweepFolder::kResume;
  if (!force) {
    throw InputError(fmt::format("--out {} holds another sweep ({} configuration{} in its sweep.csv, not those of "
                                 "this command); give a new folder to keep it, or --force to replace it",
                                 dir, previous.size(), previous.size() == 1 ? "" : "s"));
  }
  for (const std::string& name : entries) {
    fs::remove_all(fs::path(dir) / name, ec);
    if (ec) throw SystemError(fmt::format("--force: cannot remove {}/{}: {}", dir, name, ec.message()));
  }
  return SweepFolder::kReplaced;
}

}  // namespace ftlsim::sim
