#include "core/sysfs_text.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

namespace ftlsim {

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

std::string unescape_octal(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
        s[i + 3] >= '0' && s[i + 3] <= '7') {
      out.push_back(static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0')));
      i += 3;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::vector<std::string> swap_paths(std::string_view swaps) {
  std::vector<std::string> paths;
  size_t pos = swaps.find('\n');  // skip the header line
  while (pos != std::string_view::npos && pos + 1 < swaps.size()) {
    ++pos;
    size_t eol = swaps.find('\n', pos);
    const std::string_view line = swaps.substr(pos, eol == std::string_view::npos ? swaps.npos : eol - pos);
    const size_t end = line.find_first_of(" \t");
    if (!line.empty()) paths.emplace_back(line.substr(0, end));
    pos = eol;
  }
  return paths;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t p = 0;
  for (;;) {
    const size_t q = s.find(sep, p);
    parts.push_back(s.substr(p, q == std::string_view::npos ? s.npos : q - p));
    if (q == std::string_view::npos) return parts;
    p = q + 1;
  }
}

}  // namespace ftlsim
