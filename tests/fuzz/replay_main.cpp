// Runs a fuzz target's LLVMFuzzerTestOneInput over files, without libFuzzer:
// the ctest replay of tests/fuzz/corpus/<target> and regressions/<target> in
// the ordinary (gcc, release and asan) builds.
//
//   fuzz_<target>_replay PATH...   PATH a file or a directory (not recursed)
//
// Exit 0 when every input ran (the target aborts on a finding), 2 when a
// path cannot be read or no input was found.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

bool run_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", p.c_str());
    return false;
  }
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // A copy in its own allocation, so ASan sees reads past the end.
  std::vector<uint8_t> copy(bytes.begin(), bytes.end());
  (void)LLVMFuzzerTestOneInput(copy.empty() ? nullptr : copy.data(), copy.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  size_t ran = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::directory_iterator(arg)) {
        if (e.is_regular_file() && e.path().filename() != "README.md") files.push_back(e.path());
      }
      std::sort(files.begin(), files.end());  // deterministic order
      for (const auto& f : files) {
        if (!run_file(f)) return 2;
        ++ran;
      }
    } else {
      if (!run_file(arg)) return 2;
      ++ran;
    }
  }
  std::printf("replay: %zu inputs ran without a finding\n", ran);
  return ran > 0 ? 0 : 2;
}
