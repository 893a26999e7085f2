#include "cli/flag_text.h"

#include <array>

#include "cli/sim_options.h"
#include "timing/timing_settings.h"

namespace ftlsim::cli {
namespace {

bool name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

// The options libraries name that are neither model nor timing settings.
constexpr std::array<std::string_view, 7> kOtherOptions = {"out", "force", "mem-limit", "wrap", "timing", "ops", "reset-at"};

}  // namespace

bool is_option_name(std::string_view name) {
  for (const SettingInfo& s : model_settings()) {
    if (s.name == name) return true;
  }
  for (const auto& s : timing::timing_settings()) {
    if (s.name == name) return true;
  }
  for (const std::string_view o : kOtherOptions) {
    if (o == name) return true;
  }
  return false;
}

namespace {

template <class IsOption>
std::string rewrite(std::string_view text, IsOption is_option) {
  std::string out;
  out.reserve(text.size() + 16);
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '`') {
      size_t j = i + 1;
      while (j < text.size() && name_char(text[j])) ++j;
      if (j < text.size() && text[j] == '`' && j > i + 1 && is_option(text.substr(i + 1, j - i - 1))) {
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

}  // namespace

std::string flag_text(std::string_view text) { return rewrite(text, is_option_name); }

std::string help_flag_text(std::string_view help) {
  return rewrite(help, [](std::string_view name) { return name[0] >= 'a' && name[0] <= 'z'; });
}

}  // namespace ftlsim::cli
