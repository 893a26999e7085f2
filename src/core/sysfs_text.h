#pragma once
// Small readers for sysfs and proc text files, shared by the storage and
// safety probes (core/storage_stack.h, replay/device_safety.h), and where
// those probes read (SafetyPaths: tests point them at fixtures).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ftlsim {

// Where the probes read. Only the real /sys (live()) also opens device
// nodes (/dev/NAME: ioctls, superblocks, exclusive opens) and looks at the
// processes under `proc`; a fixture tree is text only.
struct SafetyPaths {
  std::string sysfs = "/sys";
  std::string mountinfo = "/proc/self/mountinfo";
  std::string swaps = "/proc/swaps";
  std::string proc = "/proc";
  [[nodiscard]] bool live() const { return sysfs == "/sys"; }
};

// `s` cut at every `sep` ("a,,b" is "a", "", "b"; "" is one empty part).
[[nodiscard]] std::vector<std::string_view> split(std::string_view s, char sep);
// The whole file, or "" when it cannot be read.
[[nodiscard]] std::string slurp(const std::string& path);
// `s` without trailing newlines and spaces.
[[nodiscard]] std::string trim(std::string s);
// "MAJ:MIN" into its numbers; false when the text is not exactly that.
[[nodiscard]] bool parse_dev(std::string_view text, unsigned& major, unsigned& minor);
// The names in the folder `dir`, sorted; empty when it cannot be listed.
[[nodiscard]] std::vector<std::string> list_dir(const std::filesystem::path& dir);
// The kernel's octal escapes in /proc/self/mountinfo ("\\040" a space,
// "\\054" a comma, "\\072" a colon, "\\134" a backslash) undone.
[[nodiscard]] std::string unescape_octal(std::string_view s);
// Paths in a /proc/swaps text (the first column after the header line).
[[nodiscard]] std::vector<std::string> swap_paths(std::string_view swaps);

}  // namespace ftlsim
