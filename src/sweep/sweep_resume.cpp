#include "sweep/sweep_resume.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "core/build_identity.h"
#include "core/dir_fd.h"
#include "core/fnv1a.h"
#include "core/mapping_guard.h"
#include "core/output_set.h"
#include "core/version.h"

namespace ftlsim::sim {

namespace {

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

uint64_t trace_fingerprint(const TraceView& trace, const std::map<trace::PlacementId, std::string>& pid_names) {
  uint64_t h = fnv1a::word(fnv1a::kOffset, trace.sector_bytes);
  h = fnv1a::word(h, trace.records.size());
  for (const auto& [id, name] : pid_names) h = fnv1a::bytes(fnv1a::word(h, id), name);
  return fnv1a::word(h, scan(trace).records_hash);
}

std::string config_key(uint64_t trace_fingerprint, std::string_view description) {
  // The build first: results another version or other sources computed
  // never match (core/build_identity.h).
  const uint64_t build =
      fnv1a::bytes(fnv1a::bytes(fnv1a::bytes(fnv1a::bytes(fnv1a::kOffset, kVersion), " "), source_digest()), "\n");
  return fmt::format("{:016x}", fnv1a::bytes(fnv1a::word(build, trace_fingerprint), description));
}

std::map<std::string, std::map<std::string, std::string>> read_sweep_rows(int dir) {
  std::map<std::string, std::map<std::string, std::string>> rows;
  // Never through a symbolic link, never waiting on a FIFO (core/dir_fd.h).
  const RegularFileAt file = open_regular_at(dir, "sweep.csv");
  if (!file.fd.valid()) return rows;
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t got = ::read(file.fd.get(), buf, sizeof buf);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      return rows;  // unreadable: nothing carried over
    }
    text.append(buf, static_cast<size_t>(got));
  }
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

namespace {

// True when the folder `id` of the open folder `dir` (itself, not a symbolic
// link) holds summary.json as a regular file whose config_key is `key`: a
// folder of the same name holding another configuration's or trace's
// results (moved in from another sweep) is not this configuration's.
bool holds_summary(int dir, const std::string& id, const std::string& key) {
  const UniqueFd folder = open_subfolder(dir, id);
  if (!folder.valid()) return false;
  const RegularFileAt file = open_regular_at(folder.get(), "summary.json");
  if (!file.fd.valid()) return false;
  // The key is among the first fields summary.json writes (sim/report.cpp).
  char head[4096];
  size_t got = 0;
  while (got < sizeof head) {
    const ssize_t n = ::read(file.fd.get(), head + got, sizeof head - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  const std::string tag = "\"config_key\": \"" + key + "\"";
  return std::string_view(head, got).find(tag) != std::string_view::npos;
}

}  // namespace

size_t carry_over(const std::map<std::string, std::map<std::string, std::string>>& previous, const SweepTable& table,
                  int out_dir, std::vector<SweepOutcome>& outcomes, bool rerun_errors) {
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
    if (status == "error" && !rerun_errors && get("error").find(kInputChanged) == std::string::npos) {
      o.status = SweepStatus::kError;
      o.error = get("error");
    } else if (status == "done" && holds_summary(out_dir, table.ids[i], table.keys[i]) &&
               written_set_intact(out_dir, table.ids[i])) {
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

}  // namespace ftlsim::sim
