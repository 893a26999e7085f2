#pragma once
// Where imported records get their placement IDs: a pid map (process name,
// process id, LBA range) or a write-hint log joined with the block trace.
// Both are loaded once per import and looked up per record without
// allocating.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trace/import/import.h"
#include "trace/record.h"

namespace ftlsim::trace {

// Device numbers as MKDEV does: major in the top 12 bits, minor in the low 20.
[[nodiscard]] constexpr uint32_t make_dev(uint32_t major, uint32_t minor) { return (major << 20) | minor; }
inline constexpr uint32_t kMaxMajor = (1u << 12) - 1;
inline constexpr uint32_t kMaxMinor = (1u << 20) - 1;

// Parses "MAJ,MIN" or "MAJ:MIN" into `dev`; false when malformed.
[[nodiscard]] bool parse_maj_min(std::string_view s, uint32_t& dev);

// --pid-map FILE, one rule per line ('#' comments and blank lines allowed):
//   comm:NAME=ID        process name, exact; NAME ending in '*' is a prefix
//   pid:PID=ID          process id
//   lba:START-END=ID    first sector in [START, END), sectors; ranges disjoint
//   name:ID=NAME        name of ID in the trace's ID table
//   default=ID          ID of records no rule places (default 0)
// A record takes the first of: its pid rule, its exact comm rule, the
// longest matching comm prefix, the range holding its first sector, the
// default.
class PidMap {
 public:
  // Throws InputError("<path>: line N: <what>") for a malformed line, a
  // duplicate key or overlapping ranges.
  static PidMap load(const std::string& path);
  static PidMap parse(std::string_view text, const std::string& source);

  // The placement ID for a record; `matched` tells whether a rule (not the
  // default) chose it.
  [[nodiscard]] PlacementId lookup(uint32_t proc, std::string_view comm, uint64_t lba, bool& matched) const;

  [[nodiscard]] bool has_process_rules() const { return !by_pid_.empty() || !by_comm_.empty() || !by_prefix_.empty(); }
  [[nodiscard]] const std::map<PlacementId, std::string>& names() const { return names_; }

 private:
  struct Range {
    uint64_t start;
    uint64_t end;  // exclusive
    PlacementId pid;
  };
  std::unordered_map<uint32_t, PlacementId> by_pid_;
  std::map<std::string, PlacementId, std::less<>> by_comm_;
  std::vector<std::pair<std::string, PlacementId>> by_prefix_;  // longest first
  std::vector<Range> ranges_;                                   // sorted by start, disjoint
  std::map<PlacementId, std::string> names_;
  PlacementId default_ = 0;
};

// A write-hint log (CSV with header time_ns,dev,sector,sectors,hint,stream,
// ino,pid,comm; dev as MAJ:MIN), indexed for the join: rows are bucketed by
// (device, 128 KiB of sectors); within a bucket, rows with the same extent
// [sector, end) form a group, sorted by time. An open-addressing hash finds
// a bucket's groups; a lookup skips the groups that do not overlap the
// request and binary-searches the time of each one that does. Building is
// O(m log m) for m rows; a lookup O(g log k) for g extents in the request's
// buckets and k rows per extent, whatever the time stamps (a walk in time
// order, as before, was quadratic when many rows of a bucket shared a time
// stamp or did not overlap the request: bench/bench_hints.py).
class HintIndex {
 public:
  struct LoadOptions {
    HintField field = HintField::kHint;
    uint64_t skip_bad = 0;
  };
  // Throws InputError("<path>: line N: <what>") beyond skip_bad malformed lines.
  static HintIndex load(const std::string& path, const LoadOptions& options);
  static HintIndex parse(std::string_view text, const std::string& source, const LoadOptions& options);

  // The value (hint or stream) of the row on `dev` whose sectors overlap
  // [lba, lba + sectors) and whose time is nearest `time_ns`, within
  // `tolerance_ns`; ties go to the earlier row. nullopt when none.
  [[nodiscard]] std::optional<uint16_t> lookup(uint32_t dev, uint64_t lba, uint32_t sectors, uint64_t time_ns,
                                               uint64_t tolerance_ns) const;

  // false: devices are not compared (block traces without MAJ,MIN devices).
  void set_match_device(bool match);

  [[nodiscard]] uint64_t rows() const { return rows_.size(); }
  [[nodiscard]] uint64_t bad_lines() const { return bad_lines_; }

 private:
  struct Row {
    uint64_t time_ns;
    uint64_t sector;
    uint64_t end;  // exclusive
    uint32_t dev;
    uint16_t value;
  };
  // A row as seen from its group: what a lookup needs without touching rows_.
  struct Entry {
    uint64_t time_ns;
    uint32_t row;
    uint16_t value;
  };
  // Rows of one (dev, bucket) with the same extent: entries_[begin, stop),
  // sorted by (time_ns, row).
  struct Group {
    uint64_t sector;
    uint64_t end;  // exclusive
    uint32_t begin;
    uint32_t stop;
  };
  // One (dev, bucket) and its groups_[begin, end), sorted by (sector, end);
  // end == 0 is an empty slot. longest: the longest extent among them, so
  // that a lookup can skip the groups that end before the request starts.
  struct Slot {
    uint64_t bucket;
    uint64_t longest;
    uint32_t dev;
    uint32_t begin;
    uint32_t end;
  };
  void build();
  [[nodiscard]] const Slot* find_slot(uint32_t dev, uint64_t bucket) const;

  std::vector<Row> rows_;
  std::vector<Entry> entries_;  // by (dev, bucket, sector, end, time_ns, row)
  std::vector<Group> groups_;   // by (dev, bucket, sector, end)
  std::vector<Slot> slots_;     // power-of-two size, linear probing
  bool match_device_ = true;
  uint64_t bad_lines_ = 0;
};

// Parses --hint-map "2=1,3=2" into a table from hint value to placement ID
// (values not listed map to themselves). Throws InputError naming the option.
[[nodiscard]] std::vector<PlacementId> parse_hint_map(std::string_view spec);

}  // namespace ftlsim::trace
