#include "cli/flag_text.h"

namespace ftlsim::cli {
namespace {

bool name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

}  // namespace

std::string flag_text(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '`') {
      size_t j = i + 1;
      while (j < text.size() && name_char(text[j])) ++j;
      if (j < text.size() && text[j] == '`' && j > i + 1 && text[i + 1] >= 'a' && text[i + 1] <= 'z') {
        out += "--";
        out += text.substr(i + 1, j - i - 1);
        i = j + 1;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

}  // namespace ftlsim::cli
