#include "cli/flag_text.h"

namespace ftlsim::cli {

std::string flag_of(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 2);
  out += "--";
  out.append(name);
  return out;
}

std::string flag_text(const Message& m) { return m.str(flag_of); }

namespace {

bool name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

}  // namespace

std::string help_flag_text(std::string_view help) {
  std::string out;
  out.reserve(help.size() + 16);
  size_t i = 0;
  while (i < help.size()) {
    if (help[i] == '`') {
      size_t j = i + 1;
      while (j < help.size() && name_char(help[j])) ++j;
      if (j < help.size() && help[j] == '`' && j > i + 1 && help[i + 1] >= 'a' && help[i + 1] <= 'z') {
        out += "--";
        out += help.substr(i + 1, j - i - 1);
        i = j + 1;
        continue;
      }
    }
    out += help[i++];
  }
  return out;
}

}  // namespace ftlsim::cli
