// Generic CSV: a header naming the columns, and a mapping from the record's
// fields to columns given as --columns / --op-map (CsvOptions in import.h;
// docs/trace_format.md has the grammar). For example the CloudPhysics trace
// (header version,time,op,size,lbn; time in seconds, size in bytes, lbn in
// sectors, op a SCSI opcode in hex):
//
//   --columns time=time:s,lba=lbn,length=size:bytes,op=op --op-map 2a=write,28=read
#include <fmt/format.h>

#include <array>
#include <string>
#include <vector>

#include "core/io_units.h"
#include "trace/dump_csv.h"
#include "trace/import/import_driver.h"

namespace ftlsim::trace::detail {
namespace {

using scan::parse_uint;
using scan::quote;
using scan::split_list;
using scan::trim;

enum Field : uint8_t { kTime, kLba, kLength, kOp, kPid, kDevice, kFieldCount };
constexpr std::array<std::string_view, kFieldCount> kFieldNames = {"time", "lba", "length", "op", "pid", "device"};
constexpr size_t kMaxColumns = 64;

// How a size column counts: in bytes, or in units of `sectors` sectors.
struct Unit {
  bool bytes = false;
  uint64_t sectors = 1;
};

struct Column {
  bool used = false;
  std::string name;         // header name; empty when given as #N
  size_t index = 0;         // 0-based, resolved against the header
  uint64_t time_scale = 1;  // time: ns per unit
  Unit unit;                // lba, length
};

enum class OpAction : uint8_t { kWrite, kRead, kTrim, kFlush, kMarker, kSkip };

struct OpEntry {
  std::string value;
  OpAction action;
};

std::array<Column, kFieldCount> parse_columns(std::string_view spec) {
  std::array<Column, kFieldCount> cols{};
  if (trim(spec).empty()) {
    throw InputError(
        say("`from` csv needs `columns` (see docs/trace_format.md), e.g. `columns` "
            "time=ts:us,lba=offset:bytes,length=size:bytes,op=type (a CSV from ftlsim dump, with the header {}, "
            "needs none)",
            kDumpCsvHeader));
  }
  for (const std::string_view item : split_list(spec)) {
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      throw InputError(say("`columns`: {} is not FIELD=COLUMN[:UNIT]", quote(item)));
    }
    const std::string_view field = trim(item.substr(0, eq));
    size_t f = 0;
    while (f < kFieldCount && kFieldNames[f] != field) ++f;
    if (f == kFieldCount) {
      throw InputError(say("`columns`: unknown field {} (fields: time, lba, length, op, pid, device)", quote(field)));
    }
    Column& c = cols[f];
    if (c.used) throw InputError(say("`columns`: field {} is given twice", field));
    c.used = true;
    std::string_view column = trim(item.substr(eq + 1));
    std::string_view unit;
    if (const size_t colon = column.rfind(':'); colon != std::string_view::npos) {
      unit = trim(column.substr(colon + 1));
      column = trim(column.substr(0, colon));
    }
    if (column.empty()) throw InputError(say("`columns`: field {} names no column", field));
    if (column[0] == '#') {
      size_t n = 0;
      std::string why;
      if (!parse_uint(column.substr(1), "column number", n, why) || n == 0 || n > kMaxColumns) {
        throw InputError(say("`columns`: {} is not a column number #1..#{}", quote(column), kMaxColumns));
      }
      c.index = n - 1;
    } else {
      c.name = std::string(column);
    }
    const auto bad_unit = [&](std::string_view allowed) {
      return InputError(say("`columns`: unit {} of {} is not one of {}", quote(unit), field, allowed));
    };
    if (f == kTime) {
      if (unit.empty() || unit == "ns") {
        c.time_scale = 1;
      } else if (unit == "us") {
        c.time_scale = 1'000;
      } else if (unit == "ms") {
        c.time_scale = 1'000'000;
      } else if (unit == "s") {
        c.time_scale = kNsPerSecond;
      } else {
        throw bad_unit("s, ms, us, ns");
      }
    } else if (f == kLba || f == kLength) {
      if (unit.empty() || unit == "sectors") {
        c.unit = Unit{false, 1};
      } else if (unit == "bytes") {
        c.unit = Unit{true, 0};
      } else if (unit == "4k") {
        c.unit = Unit{false, 8};
      } else {
        throw bad_unit("sectors, bytes, 4k");
      }
    } else if (!unit.empty()) {
      throw InputError(say("`columns`: {} takes no unit", field));
    }
  }
  if (!cols[kLba].used || !cols[kLength].used) {
    throw InputError(say("`columns`: lba and length are required"));
  }
  return cols;
}

std::vector<OpEntry> parse_op_map(std::string_view spec) {
  if (trim(spec).empty()) {
    return {{"w", OpAction::kWrite},     {"write", OpAction::kWrite},  {"r", OpAction::kRead},
            {"read", OpAction::kRead},   {"t", OpAction::kTrim},       {"trim", OpAction::kTrim},
            {"d", OpAction::kTrim},      {"discard", OpAction::kTrim}, {"f", OpAction::kFlush},
            {"flush", OpAction::kFlush}, {"m", OpAction::kMarker},     {"marker", OpAction::kMarker}};
  }
  std::vector<OpEntry> map;
  for (const std::string_view item : split_list(spec)) {
    const size_t eq = item.rfind('=');
    if (eq == std::string_view::npos) throw InputError(say("`op-map`: {} is not VALUE=OP", quote(item)));
    const std::string_view value = trim(item.substr(0, eq));
    const std::string_view op = trim(item.substr(eq + 1));
    OpAction a{};
    if (op == "write") {
      a = OpAction::kWrite;
    } else if (op == "read") {
      a = OpAction::kRead;
    } else if (op == "trim") {
      a = OpAction::kTrim;
    } else if (op == "flush") {
      a = OpAction::kFlush;
    } else if (op == "marker") {
      a = OpAction::kMarker;
    } else if (op == "skip") {
      a = OpAction::kSkip;
    } else {
      throw InputError(say("`op-map`: {} is not one of write, read, trim, flush, marker, skip", quote(op)));
    }
    for (const OpEntry& e : map) {
      if (scan::iequals(e.value, value)) throw InputError(say("`op-map`: {} is given twice", quote(value)));
    }
    map.push_back(OpEntry{std::string(value), a});
  }
  return map;
}

class CsvParser {
 public:
  static constexpr bool kRebaseTime = true;

  CsvParser(const ImportOptions& o, const std::string& source)
      : cols_(parse_columns(o.csv.columns)),
        ops_(parse_op_map(o.csv.op_map)),
        sep_(o.csv.separator),
        header_(o.csv.header),
        source_(source) {
    // What a value missing from the map is told: the map's values.
    constexpr size_t kShown = 12;
    op_map_text_ = trim(o.csv.op_map).empty() ? "the default one: " : "";
    constexpr size_t kLongest = 16;  // keeps the message one line
    for (size_t i = 0; i < ops_.size() && i < kShown; ++i) {
      const std::string_view v = ops_[i].value;
      op_map_text_ += fmt::format("{}{}{}", i == 0 ? "" : ", ", scan::printable(v.substr(0, kLongest)),
                                  v.size() > kLongest ? "..." : "");
    }
    if (ops_.size() > kShown) op_map_text_ += fmt::format(", ... ({} values)", ops_.size());
    if (!header_) {
      for (const Column& c : cols_) {
        if (c.used && !c.name.empty()) {
          throw InputError(say("`columns`: column {} is named, but the file has no header (use #N)", quote(c.name)));
        }
      }
      resolve_needed();
    }
  }
  [[nodiscard]] bool has_device() const { return false; }
  [[nodiscard]] bool has_process() const { return false; }

  LineKind parse(std::string_view line, Event& ev, std::string& why, ImportSummary& s) {
    if (scan::is_blank_line(line)) return LineKind::kSkip;
    std::string_view f[kMaxColumns];
    const size_t n = scan::split(line, sep_, f);
    if (header_) {
      header_ = false;
      ++s.header_lines;
      resolve_header(f, std::min(n, kMaxColumns));
      return LineKind::kSkip;
    }
    if (n < needed_) {
      why = fmt::format("expected at least {} fields, found {}", needed_, n);
      return LineKind::kBad;
    }
    // Operation first: a skipped value needs nothing else parsed.
    ev.op = Op::kWrite;
    if (cols_[kOp].used) {
      const std::string_view v = trim(f[cols_[kOp].index]);
      const OpEntry* hit = nullptr;
      for (const OpEntry& e : ops_) {
        if (scan::iequals(e.value, v)) {
          hit = &e;
          break;
        }
      }
      if (hit == nullptr) {
        why = fmt::format("op {} is not in the op map ({})", quote(v), op_map_text_);
        return LineKind::kBad;
      }
      switch (hit->action) {
        case OpAction::kWrite: ev.op = Op::kWrite; break;
        case OpAction::kRead: ev.op = Op::kRead; break;
        case OpAction::kTrim: ev.op = Op::kTrim; break;
        case OpAction::kFlush: ev.op = Op::kFlush; break;
        case OpAction::kMarker: ev.op = Op::kMarker; break;
        case OpAction::kSkip: ++s.skipped_ops; return LineKind::kSkip;
      }
    }
    ev.time_ns = 0;
    if (cols_[kTime].used &&
        !scan::parse_scaled(trim(f[cols_[kTime].index]), "time", cols_[kTime].time_scale, ev.time_ns, why)) {
      return LineKind::kBad;
    }
    if (cols_[kPid].used) {
      if (!parse_uint(trim(f[cols_[kPid].index]), "pid", ev.pid, why)) return LineKind::kBad;
      ev.has_pid = true;
    }
    if (cols_[kDevice].used && !parse_uint(trim(f[cols_[kDevice].index]), "device", ev.dev, why)) {
      return LineKind::kBad;
    }
    uint64_t lba = 0;
    uint64_t length = 0;
    if (!parse_uint(trim(f[cols_[kLba].index]), "lba", lba, why) ||
        !parse_uint(trim(f[cols_[kLength].index]), "length", length, why)) {
      return LineKind::kBad;
    }
    if (ev.op == Op::kFlush || ev.op == Op::kMarker) {
      ev.lba = ev.op == Op::kMarker ? lba : 0;  // a marker's value is in the lba column
      ev.sectors = 0;
      return LineKind::kEvent;
    }
    return range(lba, length, ev, why, s) ? LineKind::kEvent : LineKind::kBad;
  }

 private:
  // lba and length into sectors; through bytes when either counts bytes.
  bool range(uint64_t lba, uint64_t length, Event& ev, std::string& why, ImportSummary& s) const {
    const Unit lu = cols_[kLba].unit;
    const Unit nu = cols_[kLength].unit;
    if (!lu.bytes && !nu.bytes) {
      if (lba > UINT64_MAX / lu.sectors) {
        why = fmt::format("lba {} overflows 64-bit sectors", lba);
        return false;
      }
      if (length == 0) {
        why = "length is 0 (zero-length request)";
        return false;
      }
      if (length > UINT32_MAX / nu.sectors) {
        why = fmt::format("length {} does not fit in 32-bit sectors", length);
        return false;
      }
      ev.lba = lba * lu.sectors;
      ev.sectors = static_cast<uint32_t>(length * nu.sectors);
      if (ev.lba > UINT64_MAX - ev.sectors) {
        why = fmt::format("lba {} + length {} overflows 64 bits", ev.lba, ev.sectors);
        return false;
      }
      return true;
    }
    uint64_t offset = lba;
    uint64_t bytes = length;
    if (!lu.bytes) {
      if (lba > UINT64_MAX / (kSectorBytes * lu.sectors)) {
        why = fmt::format("lba {} overflows 64-bit bytes", lba);
        return false;
      }
      offset = lba * kSectorBytes * lu.sectors;
    }
    if (!nu.bytes) {
      if (length > UINT64_MAX / (kSectorBytes * nu.sectors)) {
        why = fmt::format("length {} overflows 64-bit bytes", length);
        return false;
      }
      bytes = length * kSectorBytes * nu.sectors;
    }
    return covering_sectors(offset, bytes, ev, why, s);
  }

  void resolve_header(const std::string_view* f, size_t n) {
    for (size_t k = 0; k < kFieldCount; ++k) {
      Column& c = cols_[k];
      if (!c.used || c.name.empty()) continue;
      size_t i = 0;
      while (i < n && trim(f[i]) != c.name) ++i;
      if (i == n) {
        constexpr size_t kShown = 12;  // keeps the message one line
        std::string names;
        for (size_t j = 0; j < n && j < kShown; ++j) {
          names += fmt::format("{}{}", j == 0 ? "" : ", ", scan::printable(trim(f[j])));
        }
        if (n > kShown) names += fmt::format(", ... ({} columns)", n);
        throw InputError(
            fmt::format("{}: the header line has no column {} (it has: {})", source_, quote(c.name), names));
      }
      c.index = i;
    }
    resolve_needed();
  }

  void resolve_needed() {
    needed_ = 0;
    for (const Column& c : cols_) {
      if (c.used) needed_ = std::max(needed_, c.index + 1);
    }
  }

  std::array<Column, kFieldCount> cols_;
  std::vector<OpEntry> ops_;
  char sep_;
  bool header_;
  const std::string& source_;
  std::string op_map_text_;
  size_t needed_ = 0;
};

}  // namespace

void check_csv_options(const ImportOptions& o) {
  (void)parse_columns(o.csv.columns);
  (void)parse_op_map(o.csv.op_map);
}

void run_csv(const DriveContext& ctx) {
  CsvParser parser(*ctx.options, ctx.source());
  drive(parser, ctx);
}

}  // namespace ftlsim::trace::detail
