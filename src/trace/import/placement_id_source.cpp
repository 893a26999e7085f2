#include "trace/import/placement_id_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>

#include "core/error.h"
#include "trace/import/import_driver.h"
#include "trace/import/mapped_text.h"
#include "trace/import/text_scan.h"

namespace ftlsim::trace {
namespace {

using scan::parse_uint;
using scan::quote;
using scan::trim;

// 2^8 sectors = 128 KiB per hint-index bucket: most bios fall in one.
constexpr unsigned kBucketShift = 8;
// A row spanning more buckets than this (over 8 MiB, e.g. a discard of a
// whole device) is indexed once, in its device's "wide" bucket, which every
// lookup also searches: a row of 2^32 sectors would otherwise take 2^24
// index entries (found by fuzzing: one such line took gigabytes).
constexpr uint64_t kMaxRowBuckets = 64;
constexpr uint64_t kWideBucket = UINT64_MAX;  // above any sector >> kBucketShift

[[nodiscard]] bool starts_with_letter(std::string_view s) {
  return !s.empty() && ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_');
}

// Mixes (dev, bucket) into a slot index (splitmix64's finaliser).
[[nodiscard]] size_t slot_hash(uint32_t dev, uint64_t bucket) {
  uint64_t x = bucket * 0x9E3779B97F4A7C15ull ^ (uint64_t{dev} << 17 | dev);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return static_cast<size_t>(x ^ (x >> 31));
}

[[noreturn]] void fail(const std::string& source, uint64_t line, const std::string& why) {
  throw InputError(fmt::format("{}: line {}: {}", source, line, why));
}

}  // namespace

bool parse_maj_min(std::string_view s, uint32_t& dev) {
  const size_t sep = s.find_first_of(",:");
  if (sep == std::string_view::npos) return false;
  uint32_t major = 0;
  uint32_t minor = 0;
  std::string why;
  if (!parse_uint(s.substr(0, sep), "major", major, why) || !parse_uint(s.substr(sep + 1), "minor", minor, why)) {
    return false;
  }
  if (major > kMaxMajor || minor > kMaxMinor) return false;
  dev = make_dev(major, minor);
  return true;
}

// ---------------------------------------------------------------- PidMap

PidMap PidMap::load(const std::string& path) {
  const MappedText file(path);
  PidMap map = parse(file.text(), path);
  file.check_intact();
  return map;
}

PidMap PidMap::parse(std::string_view text, const std::string& source) {
  PidMap map;
  scan::LineCursor cursor(text);
  std::string_view raw;
  std::string why;
  std::vector<uint64_t> range_lines;  // parallel to ranges_ until sorted
  std::map<PlacementId, uint64_t> name_lines;
  bool have_default = false;
  const auto parse_id = [&](std::string_view tok, PlacementId& id) {
    uint32_t v = 0;
    if (!parse_uint(trim(tok), "placement ID", v, why)) fail(source, cursor.line_no(), why);
    if (v > std::numeric_limits<PlacementId>::max()) {
      fail(source, cursor.line_no(), fmt::format("placement ID {} is above 65535", v));
    }
    id = static_cast<PlacementId>(v);
  };
  while (cursor.next(raw)) {
    if (cursor.overlong()) fail(source, cursor.line_no(), scan::overlong_line_message());
    const std::string_view line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    const uint64_t n = cursor.line_no();
    if (line.substr(0, 7) == "default") {
      const std::string_view rest = trim(line.substr(7));
      if (rest.empty() || (rest[0] != '=' && rest[0] != ':')) fail(source, n, "expected default=ID");
      if (have_default) fail(source, n, "a second default= line");
      parse_id(rest.substr(1), map.default_);
      have_default = true;
      continue;
    }
    const size_t colon = line.find(':');
    const std::string_view kind = colon == std::string_view::npos ? line : line.substr(0, colon);
    const std::string_view body = colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
    if (kind == "name") {
      const size_t eq = body.find('=');
      if (eq == std::string_view::npos) fail(source, n, "expected name:ID=NAME");
      PlacementId id = 0;
      parse_id(body.substr(0, eq), id);
      const std::string_view name = trim(body.substr(eq + 1));
      if (name.empty()) fail(source, n, fmt::format("placement ID {} has an empty name", id));
      if (const auto it = name_lines.find(id); it != name_lines.end()) {
        fail(source, n, fmt::format("placement ID {} is already named on line {}", id, it->second));
      }
      name_lines[id] = n;
      map.names_[id] = std::string(name);
      continue;
    }
    const size_t eq = body.rfind('=');
    if (colon == std::string_view::npos || eq == std::string_view::npos ||
        (kind != "comm" && kind != "pid" && kind != "lba")) {
      fail(source, n,
           fmt::format("expected comm:NAME=ID, pid:PID=ID, lba:START-END=ID, name:ID=NAME or default=ID, found {}",
                       quote(line)));
    }
    PlacementId id = 0;
    parse_id(body.substr(eq + 1), id);
    const std::string_view key = trim(body.substr(0, eq));
    if (kind == "comm") {
      if (key.empty()) fail(source, n, "empty process name");
      if (key.back() == '*') {
        const std::string prefix(key.substr(0, key.size() - 1));
        for (const auto& [p, unused] : map.by_prefix_) {
          if (p == prefix) fail(source, n, fmt::format("comm prefix {} appears twice", quote(key)));
        }
        map.by_prefix_.emplace_back(prefix, id);
      } else if (!map.by_comm_.emplace(std::string(key), id).second) {
        fail(source, n, fmt::format("comm {} appears twice", quote(key)));
      }
    } else if (kind == "pid") {
      uint32_t pid = 0;
      if (!parse_uint(key, "process id", pid, why)) fail(source, n, why);
      if (!map.by_pid_.emplace(pid, id).second) fail(source, n, fmt::format("pid {} appears twice", pid));
    } else {  // lba
      const size_t dash = key.find('-');
      if (dash == std::string_view::npos) fail(source, n, "expected lba:START-END=ID");
      uint64_t start = 0;
      uint64_t end = 0;
      if (!parse_uint(trim(key.substr(0, dash)), "range start", start, why) ||
          !parse_uint(trim(key.substr(dash + 1)), "range end", end, why)) {
        fail(source, n, why);
      }
      if (start >= end) fail(source, n, fmt::format("range {}-{} is empty (END is exclusive)", start, end));
      map.ranges_.push_back(Range{start, end, id});
      range_lines.push_back(n);
    }
  }
  // Disjoint ranges: sort, then any overlap is between neighbours.
  std::vector<size_t> order(map.ranges_.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return map.ranges_[a].start < map.ranges_[b].start; });
  std::vector<Range> sorted;
  sorted.reserve(order.size());
  for (size_t k = 0; k < order.size(); ++k) {
    const Range& r = map.ranges_[order[k]];
    if (k > 0 && map.ranges_[order[k - 1]].end > r.start) {
      const uint64_t a = range_lines[order[k - 1]];
      const uint64_t b = range_lines[order[k]];
      fail(source, std::max(a, b), fmt::format("LBA range overlaps the range on line {}", std::min(a, b)));
    }
    sorted.push_back(r);
  }
  map.ranges_ = std::move(sorted);
  std::stable_sort(map.by_prefix_.begin(), map.by_prefix_.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  return map;
}

PlacementId PidMap::lookup(uint32_t proc, std::string_view comm, uint64_t lba, bool& matched) const {
  matched = true;
  if (!by_pid_.empty()) {
    if (const auto it = by_pid_.find(proc); it != by_pid_.end()) return it->second;
  }
  if (!comm.empty()) {
    if (!by_comm_.empty()) {
      if (const auto it = by_comm_.find(comm); it != by_comm_.end()) return it->second;
    }
    for (const auto& [prefix, id] : by_prefix_) {
      if (comm.substr(0, prefix.size()) == prefix) return id;
    }
  }
  if (!ranges_.empty()) {
    auto it =
        std::upper_bound(ranges_.begin(), ranges_.end(), lba, [](uint64_t v, const Range& r) { return v < r.start; });
    if (it != ranges_.begin() && lba < std::prev(it)->end) return std::prev(it)->pid;
  }
  matched = false;
  return default_;
}

// ------------------------------------------------------------- HintIndex

HintIndex HintIndex::load(const std::string& path, const LoadOptions& options) {
  const MappedText file(path);
  HintIndex index = parse(file.text(), path, options);
  file.check_intact();
  return index;
}

HintIndex HintIndex::parse(std::string_view text, const std::string& source, const LoadOptions& options) {
  HintIndex index;
  // Column positions; the documented order unless a header says otherwise.
  enum Col { kTime, kDev, kSector, kSectors, kValue, kCols };
  size_t col[kCols] = {0, 1, 2, 3, options.field == HintField::kHint ? size_t{4} : size_t{5}};
  const std::string_view value_name = options.field == HintField::kHint ? "hint" : "stream";
  size_t needed = *std::max_element(std::begin(col), std::end(col)) + 1;

  scan::LineCursor cursor(text);
  std::string_view line;
  std::string why;
  bool first = true;
  constexpr size_t kMaxFields = 16;
  std::string_view f[kMaxFields];
  while (cursor.next(line)) {
    if (cursor.overlong()) {  // cut at the limit, nothing past it read
      detail::on_bad_line(source, cursor.line_no(), scan::overlong_line_message(), options.skip_bad, index.bad_lines_);
      cursor.skip_overlong();  // skipped (--skip-bad): on to its end
      continue;
    }
    if (scan::is_blank_line(line) || trim(line)[0] == '#') continue;
    const size_t n = scan::split(line, ',', f);
    if (first) {
      first = false;
      if (starts_with_letter(trim(f[0]))) {  // header: find the columns by name
        const std::string_view names[kCols] = {"time_ns", "dev", "sector", "sectors", value_name};
        for (size_t c = 0; c < kCols; ++c) {
          size_t k = 0;
          while (k < std::min(n, kMaxFields) && trim(f[k]) != names[c]) ++k;
          if (k == std::min(n, kMaxFields)) {
            fail(source, cursor.line_no(), fmt::format("the header has no column '{}'", names[c]));
          }
          col[c] = k;
        }
        needed = *std::max_element(std::begin(col), std::end(col)) + 1;
        continue;
      }
    }
    Row row{};
    uint32_t sectors = 0;
    bool ok = true;
    if (n < needed) {
      why =
          fmt::format("expected at least {} columns (time_ns,dev,sector,sectors,hint,stream,...), found {}", needed, n);
      ok = false;
    } else if (!parse_uint(trim(f[col[kTime]]), "time_ns", row.time_ns, why) ||
               !parse_uint(trim(f[col[kSector]]), "sector", row.sector, why) ||
               !parse_uint(trim(f[col[kSectors]]), "sectors", sectors, why) ||
               !parse_uint(trim(f[col[kValue]]), value_name, row.value, why)) {
      ok = false;
    } else if (const std::string_view dev = trim(f[col[kDev]]); !parse_maj_min(dev, row.dev)) {
      uint32_t raw = 0;  // a kernel dev_t printed as a number is accepted too
      if (dev.find_first_of(",:") != std::string_view::npos || !parse_uint(dev, "dev", raw, why)) {
        why = fmt::format("dev {} is not MAJ:MIN", quote(dev));
        ok = false;
      }
      row.dev = raw;
    }
    if (ok && row.sector > std::numeric_limits<uint64_t>::max() - sectors) {
      why = fmt::format("sector {} + sectors {} overflows 64 bits", row.sector, sectors);
      ok = false;
    }
    if (!ok) {
      detail::on_bad_line(source, cursor.line_no(), why, options.skip_bad, index.bad_lines_);
      continue;
    }
    if (sectors == 0) continue;  // flushes carry no data and steer nothing
    row.end = row.sector + sectors;
    index.rows_.push_back(row);
  }
  index.build();
  return index;
}

void HintIndex::set_match_device(bool match) {
  if (match == match_device_) return;
  match_device_ = match;
  build();
}

void HintIndex::build() {
  struct Key {
    uint32_t dev;
    uint32_t row;
    uint64_t bucket;
    uint64_t sector;
    uint64_t end;
    uint64_t time_ns;
  };
  std::vector<Key> keys;
  keys.reserve(rows_.size());
  for (size_t i = 0; i < rows_.size(); ++i) {
    const Row& r = rows_[i];
    const uint32_t dev = match_device_ ? r.dev : 0;
    const uint64_t first = r.sector >> kBucketShift;
    const uint64_t last = (r.end - 1) >> kBucketShift;
    const auto row = static_cast<uint32_t>(i);
    if (last - first >= kMaxRowBuckets) {
      keys.push_back(Key{dev, row, kWideBucket, r.sector, r.end, r.time_ns});
      continue;
    }
    for (uint64_t b = first; b <= last; ++b) keys.push_back(Key{dev, row, b, r.sector, r.end, r.time_ns});
  }
  if (keys.size() >= std::numeric_limits<uint32_t>::max()) {
    throw InputError("write-hint log: more than 2^32 index entries");
  }
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    return std::tie(a.dev, a.bucket, a.sector, a.end, a.time_ns, a.row) <
           std::tie(b.dev, b.bucket, b.sector, b.end, b.time_ns, b.row);
  });
  entries_.clear();
  entries_.reserve(keys.size());
  groups_.clear();
  std::vector<std::pair<size_t, size_t>> slot_groups;  // [first group, end) per (dev, bucket)
  for (size_t i = 0; i < keys.size(); ++i) {
    const Key& k = keys[i];
    const bool new_slot = i == 0 || k.dev != keys[i - 1].dev || k.bucket != keys[i - 1].bucket;
    const bool new_group = new_slot || k.sector != keys[i - 1].sector || k.end != keys[i - 1].end;
    if (new_slot) slot_groups.emplace_back(groups_.size(), groups_.size());
    if (new_group) {
      groups_.push_back(Group{k.sector, k.end, static_cast<uint32_t>(i), static_cast<uint32_t>(i)});
      ++slot_groups.back().second;
    }
    ++groups_.back().stop;
    entries_.push_back(Entry{k.time_ns, k.row, rows_[k.row].value});
  }
  size_t capacity = 16;
  while (capacity < 2 * slot_groups.size()) capacity *= 2;
  slots_.assign(capacity, Slot{0, 0, 0, 0, 0});
  for (const auto& [gb, ge] : slot_groups) {
    const Key& k = keys[groups_[gb].begin];
    uint64_t longest = 0;
    for (size_t g = gb; g < ge; ++g) longest = std::max(longest, groups_[g].end - groups_[g].sector);
    size_t h = slot_hash(k.dev, k.bucket) & (capacity - 1);
    while (slots_[h].end != 0) h = (h + 1) & (capacity - 1);
    slots_[h] = Slot{k.bucket, longest, k.dev, static_cast<uint32_t>(gb), static_cast<uint32_t>(ge)};
  }
}

const HintIndex::Slot* HintIndex::find_slot(uint32_t dev, uint64_t bucket) const {
  const size_t mask = slots_.size() - 1;
  for (size_t h = slot_hash(dev, bucket) & mask;; h = (h + 1) & mask) {
    const Slot& s = slots_[h];
    if (s.end == 0) return nullptr;
    if (s.dev == dev && s.bucket == bucket) return &s;
  }
}

std::optional<uint16_t> HintIndex::lookup(uint32_t dev, uint64_t lba, uint32_t sectors, uint64_t time_ns,
                                          uint64_t tolerance_ns) const {
  if (entries_.empty()) return std::nullopt;
  if (!match_device_) dev = 0;
  const uint64_t end = lba + std::max<uint32_t>(sectors, 1);
  // The best is the least (|dt|, time_ns, row) with |dt| <= tolerance.
  const Entry* best = nullptr;
  uint64_t best_dt = 0;
  const auto consider = [&](const Entry& e) {
    const uint64_t dt = e.time_ns >= time_ns ? e.time_ns - time_ns : time_ns - e.time_ns;
    if (dt > tolerance_ns) return;
    if (best != nullptr && std::tie(dt, e.time_ns, e.row) >= std::tie(best_dt, best->time_ns, best->row)) return;
    best = &e;
    best_dt = dt;
  };
  const auto by_time = [](const Entry& e, uint64_t t) { return e.time_ns < t; };
  // In one group every row overlaps or none does. Its candidates are the
  // first row at or after time_ns and the first row (least row index) of the
  // latest time stamp before it; nothing else in the group can be nearer.
  const auto search_group = [&](const Group& g) {
    const Entry* first = entries_.data() + g.begin;
    const Entry* last = entries_.data() + g.stop;
    if (last - first == 1) {  // the common case: one row per extent
      consider(*first);
      return;
    }
    const Entry* p = std::lower_bound(first, last, time_ns, by_time);
    if (p != last) consider(*p);
    if (p != first) consider(*std::lower_bound(first, p, std::prev(p)->time_ns, by_time));
  };
  const auto search = [&](const Slot* slot) {
    if (slot == nullptr) return;
    const Group* gfirst = groups_.data() + slot->begin;
    const Group* glast = groups_.data() + slot->end;
    // A group overlaps [lba, end) only if it starts before `end` and, being
    // at most `longest` long, after lba - longest.
    const uint64_t from = lba >= slot->longest ? lba - slot->longest + 1 : 0;
    const Group* g = std::partition_point(gfirst, glast, [&](const Group& x) { return x.sector < from; });
    for (; g != glast && g->sector < end; ++g) {
      if (g->end > lba) search_group(*g);
    }
  };
  const uint64_t first_bucket = lba >> kBucketShift;
  const uint64_t last_bucket = (end - 1) >> kBucketShift;
  if (last_bucket - first_bucket < slots_.size()) {
    for (uint64_t b = first_bucket; b <= last_bucket; ++b) search(find_slot(dev, b));
  } else {  // a request wider than the table: visit the slots instead of its buckets
    for (const Slot& s : slots_) {
      if (s.end != 0 && s.dev == dev && s.bucket >= first_bucket && s.bucket <= last_bucket) search(&s);
    }
  }
  search(find_slot(dev, kWideBucket));
  if (best == nullptr) return std::nullopt;
  return best->value;
}

std::vector<PlacementId> parse_hint_map(std::string_view spec) {
  std::vector<PlacementId> table(size_t{std::numeric_limits<uint16_t>::max()} + 1);
  std::iota(table.begin(), table.end(), PlacementId{0});
  std::string why;
  size_t pos = 0;
  while (pos <= spec.size()) {
    const size_t comma = std::min(spec.find(',', pos), spec.size());
    const std::string_view item = trim(spec.substr(pos, comma - pos));
    pos = comma + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    uint16_t from = 0;
    uint16_t to = 0;
    if (eq == std::string_view::npos || !parse_uint(trim(item.substr(0, eq)), "hint value", from, why) ||
        !parse_uint(trim(item.substr(eq + 1)), "placement ID", to, why)) {
      throw InputError(say("`hint-map`: {} is not VALUE=ID with both in 0..65535", quote(item)));
    }
    table[from] = to;
  }
  return table;
}

}  // namespace ftlsim::trace
