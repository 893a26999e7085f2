#include "replay/sysfs_text.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

namespace ftlsim::replay {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

bool parse_dev(std::string_view text, unsigned& major, unsigned& minor) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return false;
  const char* b = text.data();
  auto r1 = std::from_chars(b, b + colon, major);
  auto r2 = std::from_chars(b + colon + 1, b + text.size(), minor);
  return r1.ec == std::errc() && r2.ec == std::errc() && r1.ptr == b + colon && r2.ptr == b + text.size();
}

std::vector<std::string> list_dir(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace ftlsim::replay
