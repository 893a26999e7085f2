#pragma once
// Small readers for sysfs and proc text files, shared by the safety probes.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ftlsim::replay {

// The whole file, or "" when it cannot be read.
[[nodiscard]] std::string slurp(const std::string& path);
// `s` without trailing newlines and spaces.
[[nodiscard]] std::string trim(std::string s);
// "MAJ:MIN" into its numbers; false when the text is not exactly that.
[[nodiscard]] bool parse_dev(std::string_view text, unsigned& major, unsigned& minor);
// The names in the folder `dir`, sorted; empty when it cannot be listed.
[[nodiscard]] std::vector<std::string> list_dir(const std::filesystem::path& dir);

}  // namespace ftlsim::replay
