#pragma once
// The helpers of the end-to-end tests of the ftlsim binary (the tests of
// every module that run it use them too): running it and capturing what it
// prints, refusals, temporary folders, files, and the seeded generator the
// tests' hand-written traces draw from.
#include <sys/wait.h>
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Catch2 v2 has no SKIP: say why in the log and leave the test case.
#define SKIP_TEST(why)          \
  do {                          \
    WARN("skipped: " << (why)); \
    return;                     \
  } while (false)

namespace ftlsim::test {

struct RunResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `command` through sh, stdout and stderr together, no stdin.
inline RunResult run_shell(const std::string& command) {
  const std::string cmd = command + " 2>&1 </dev/null";
  RunResult r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  const int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

inline RunResult run_ftlsim(const std::string& args) { return run_shell(std::string(FTLSIM_BINARY) + " " + args); }

// `args` is refused: exit code 2 and `message` in what it prints.
inline void expect_refusal(const std::string& args, const std::string& message) {
  const RunResult r = run_ftlsim(args);
  INFO(args << "\n" << r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains(message));
}

// Each (arguments, message) row is refused before anything is written: exit
// code 2, one line holding `message`, and nothing at `out`. The command is
// `prefix + arguments + " --out " + out`.
inline void expect_one_line_refusals(const std::string& prefix,
                                     const std::vector<std::pair<std::string, std::string>>& rows,
                                     const std::string& out) {
  for (const auto& [args, message] : rows) {
    const RunResult r = run_ftlsim(prefix + args + " --out " + out);
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains(message));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    CHECK_FALSE(std::filesystem::exists(out));
  }
}

// The next state of the 64-bit linear congruential generator the tests'
// hand-written traces draw from (Knuth's MMIX constants; its high bits are
// the random ones: use x >> 33). Kept as it is: the traces, and the numbers
// the tests expect of them, depend on it.
[[nodiscard]] constexpr uint64_t lcg_next(uint64_t x) { return x * 6364136223846793005ULL + 1442695040888963407ULL; }

// The small device most CLI tests use: 8 dies x 32 pages x 64 lines = 64 MiB
// raw, 16384 slots, 25% over-provisioning -> 13107 logical slots.
inline const std::string kDevice = "--channels 8 --luns 1 --blocks 64 --pages 32 --op 0.25 --no-progress";
inline constexpr uint64_t kLogicalSlots = 13107;  // 16384 raw slots / 1.25

// A whole file's bytes ("" when it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh empty directory, removed on destruction. It lives under the build
// tree (FTLSIM_TEST_TMP), not the system temp dir, which may be a tmpfs
// without O_DIRECT: live-replay tests need O_DIRECT to test anything.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
#ifdef FTLSIM_TEST_TMP
    const std::filesystem::path root = FTLSIM_TEST_TMP;
#else
    const std::filesystem::path root = std::filesystem::temp_directory_path();
#endif
    path_ = root / ("ftlsim-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::filesystem::path path_;
};

// The names in the folder `dir`, hidden ones included, except an output
// folder's manifest (".ftlsim_manifest", core/output_set.h).
inline std::set<std::string> names_in(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.insert(e.path().filename().string());
  names.erase(".ftlsim_manifest");
  return names;
}

// Writes `text` as the whole file `path`, creating its folder if missing.
inline void put(const std::filesystem::path& path, std::string_view text) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  REQUIRE(out.good());
}

// `ftlsim gen --pattern uniform ARGS -o 'path'`, REQUIREd to succeed (what
// gen printed is logged if not); returns path.
inline std::string gen_uniform(const std::string& path, const std::string& args) {
  const RunResult g = run_ftlsim("gen --pattern uniform " + args + " -o '" + path + "'");
  INFO(g.output);
  REQUIRE(g.exit_code == 0);
  return path;
}

// gen_uniform() of the trace `name` in `tmp`.
inline std::string uniform_trace(const TempDir& tmp, const std::string& name, const std::string& args) {
  return gen_uniform(tmp.file(name), args);
}

}  // namespace ftlsim::test
