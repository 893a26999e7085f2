#include "core/memory_budget.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/units.h"

namespace ftlsim {
namespace {

std::optional<std::string> slurp(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::optional<uint64_t> whole(std::string_view t) {
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.remove_suffix(1);
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return v;
}

// The value of "key N" in a file of such lines (meminfo: "MemAvailable:  123 kB").
std::optional<uint64_t> keyed(const std::string& text, std::string_view key) {
  std::istringstream in(text);
  std::string k;
  std::string v;
  while (in >> k >> v) {
    if (k == key) return whole(v);
    std::getline(in, k);  // the rest of the line (a unit)
  }
  return std::nullopt;
}

struct CgroupFiles {
  const char* limit;
  const char* usage;
  const char* inactive_key;  // in memory.stat
};
constexpr CgroupFiles kV2{"memory.max", "memory.current", "inactive_file"};
constexpr CgroupFiles kV1{"memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"};

// limit - (usage - inactive file pages) of `dir`, when it has a limit.
std::optional<uint64_t> cgroup_room(const std::string& dir, const CgroupFiles& f) {
  const auto limit_text = slurp(dir + "/" + f.limit);
  if (!limit_text) return std::nullopt;
  const auto limit = whole(*limit_text);                             // "max" (v2) is no limit
  if (!limit || *limit >= (uint64_t{1} << 62)) return std::nullopt;  // v1 says 2^63 - 4096 for none
  uint64_t used = whole(slurp(dir + "/" + f.usage).value_or("")).value_or(0);
  if (const auto stat = slurp(dir + "/memory.stat")) used -= std::min(used, keyed(*stat, f.inactive_key).value_or(0));
  return *limit > used ? *limit - used : 0;
}

}  // namespace

std::optional<MemoryBudget> available_memory(const std::string& proc, const std::string& cgroup_root) {
  const auto meminfo = slurp(proc + "/meminfo");
  if (!meminfo) return std::nullopt;
  const auto kib = keyed(*meminfo, "MemAvailable:");
  if (!kib) return std::nullopt;
  MemoryBudget b{*kib * 1024, "MemAvailable in /proc/meminfo"};
  // /proc/self/cgroup: "0::/path" (v2) or "N:memory:/path" (v1).
  std::istringstream lines(slurp(proc + "/self/cgroup").value_or(""));
  for (std::string line; std::getline(lines, line);) {
    const size_t a = line.find(':');
    const size_t c = a == std::string::npos ? a : line.find(':', a + 1);
    if (c == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, c - a - 1);
    const std::string path = line.substr(c + 1);
    const bool v2 = controllers.empty();
    if (!v2 && controllers != "memory") continue;
    const std::vector<std::string> mounts = v2 ? std::vector<std::string>{cgroup_root, cgroup_root + "/unified"}
                                               : std::vector<std::string>{cgroup_root + "/memory"};
    for (const std::string& mount : mounts) {
      // The process's group and every group above it: each limit applies.
      for (std::string p = path;;) {
        const std::string dir = mount + (p == "/" ? "" : p);
        if (const auto room = cgroup_room(dir, v2 ? kV2 : kV1); room && *room < b.bytes) {
          b = {*room, fmt::format("the room under the memory cgroup limit of {}", dir)};
        }
        const size_t slash = p.rfind('/');
        if (p.empty() || p == "/" || slash == std::string::npos) break;
        p = slash == 0 ? "/" : p.substr(0, slash);
      }
    }
  }
  return b;
}

std::optional<MemoryBudget> memory_limit(const std::string& text) {
  if (text == "off") return std::nullopt;
  if (text == "auto") {
    auto b = available_memory();
    if (!b) {
      throw SystemError(say("cannot read MemAvailable from /proc/meminfo; give `mem-limit` SIZE or `mem-limit` off"));
    }
    return b;
  }
  const auto bytes = parse_size(text);
  if (!bytes || *bytes == 0) {
    throw InputError(say("`mem-limit`: '{}' is not auto, off or a size above 0 (e.g. 12G)", text));
  }
  return MemoryBudget{*bytes, Message::setting("mem-limit")};
}

}  // namespace ftlsim
