#pragma once
// What the header of a .ftr file carries besides the record count.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/io_units.h"
#include "trace/record.h"

namespace ftlsim::trace {

struct TraceMeta {
  uint32_t sector_bytes = kSectorBytes;
  // Free-form key/value pairs in insertion order, e.g. {"source", "disksim"},
  // {"capture_command", "..."}, {"generator", "ftlsim gen ..."}.
  std::vector<std::pair<std::string, std::string>> kv;
  // Names of placement IDs, e.g. {1, "wal"}.
  std::map<PlacementId, std::string> pid_names;

  // Value of the first pair with `key`, or "" when absent.
  [[nodiscard]] std::string get(const std::string& key) const {
    for (const auto& [k, v] : kv) {
      if (k == key) return v;
    }
    return {};
  }
};

}  // namespace ftlsim::trace
