#include "sweep/sweep_product.h"

#include <fmt/format.h>

#include <set>

#include "core/error.h"
#include "core/fnv1a.h"

namespace ftlsim::sim {

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

std::string config_id(std::span<const std::pair<std::string, std::string>> swept) {
  std::string id;
  for (const auto& [name, value] : swept) {
    if (!id.empty()) id += '_';
    id += name;
    id += '=';
    for (const char c : value) {
      const bool safe = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                        c == '=' || c == '+' || c == '-';
      id += safe ? c : '-';
    }
  }
  if (id.empty()) return "default";
  if (id.size() > kMaxConfigIdBytes) {
    // Too long for a folder name: a prefix and the FNV-1a hash of the whole.
    const uint64_t h = fnv1a::bytes(fnv1a::kOffset, id);
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

}  // namespace ftlsim::sim
