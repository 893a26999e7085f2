// core/memory_budget.h on hand-made /proc and cgroup trees: MemAvailable,
// lowered to the room under a cgroup limit (v2 and v1, the process's group
// or one above it), usage counted without inactive file pages; --mem-limit.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"
#include "core/memory_budget.h"

using namespace ftlsim;
using Catch::Contains;
namespace fs = std::filesystem;

namespace {

class Tree {
 public:
  explicit Tree(const std::string& tag) {
#ifdef FTLSIM_TEST_TMP
    root_ = fs::path(FTLSIM_TEST_TMP) / ("budget-" + tag + "-" + std::to_string(::getpid()));
#else
    root_ = fs::temp_directory_path() / ("budget-" + tag + "-" + std::to_string(::getpid()));
#endif
    fs::remove_all(root_);
  }
  ~Tree() { fs::remove_all(root_); }
  void put(const std::string& rel, const std::string& text) const {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text;
  }
  [[nodiscard]] std::string at(const std::string& rel) const { return (root_ / rel).string(); }

 private:
  fs::path root_;
};

constexpr uint64_t kMiB = uint64_t{1} << 20;

}  // namespace

TEST_CASE("available memory: MemAvailable without a cgroup limit", "[core][unit]") {
  const Tree t("plain");
  t.put("proc/meminfo", "MemTotal:       8000000 kB\nMemFree:  100 kB\nMemAvailable:    2048000 kB\n");
  t.put("proc/self/cgroup", "0::/user.slice\n");
  t.put("cg/user.slice/memory.max", "max\n");
  const auto b = available_memory(t.at("proc"), t.at("cg"));
  REQUIRE(b);
  CHECK(b->bytes == uint64_t{2048000} * 1024);
  CHECK(b->source.str() == "MemAvailable in /proc/meminfo");
  CHECK_FALSE(available_memory(t.at("nowhere"), t.at("cg")));
}

TEST_CASE("available memory: a cgroup v2 limit above the process's group applies", "[core][unit]") {
  const Tree t("v2");
  t.put("proc/meminfo", "MemAvailable:    4194304 kB\n");  // 4 GiB
  t.put("proc/self/cgroup", "0::/a/b\n");
  t.put("cg/a/b/memory.max", "max\n");
  // 1 GiB limit, 900 MiB used of which 300 MiB inactive file pages: 1024 - 600 = 424 MiB room.
  t.put("cg/a/memory.max", std::to_string(1024 * kMiB) + "\n");
  t.put("cg/a/memory.current", std::to_string(900 * kMiB) + "\n");
  t.put("cg/a/memory.stat", "anon 1\ninactive_file " + std::to_string(300 * kMiB) + "\nactive_file 5\n");
  const auto b = available_memory(t.at("proc"), t.at("cg"));
  REQUIRE(b);
  CHECK(b->bytes == 424 * kMiB);
  CHECK_THAT(b->source.str(), Contains("cgroup") && Contains(t.at("cg/a")));
}

TEST_CASE("available memory: cgroup v1, and a limit above MemAvailable changes nothing", "[core][unit]") {
  const Tree t("v1");
  t.put("proc/meminfo", "MemAvailable:    102400 kB\n");  // 100 MiB
  t.put("proc/self/cgroup", "4:memory:/job\n3:cpu:/other\n");
  t.put("cg/memory/job/memory.limit_in_bytes", std::to_string(64 * kMiB) + "\n");
  t.put("cg/memory/job/memory.usage_in_bytes", std::to_string(40 * kMiB) + "\n");
  t.put("cg/memory/job/memory.stat", "cache 1\ntotal_inactive_file " + std::to_string(8 * kMiB) + "\n");
  auto b = available_memory(t.at("proc"), t.at("cg"));
  REQUIRE(b);
  CHECK(b->bytes == 32 * kMiB);  // 64 - (40 - 8)
  t.put("cg/memory/job/memory.limit_in_bytes", std::to_string(4096 * kMiB) + "\n");
  b = available_memory(t.at("proc"), t.at("cg"));
  REQUIRE(b);
  CHECK(b->bytes == 100 * kMiB);
  // v1's "no limit" (2^63 rounded down to a page) is no limit.
  t.put("cg/memory/job/memory.limit_in_bytes", "9223372036854771712\n");
  CHECK(available_memory(t.at("proc"), t.at("cg"))->bytes == 100 * kMiB);
}

TEST_CASE("memory_limit reads auto, off and sizes", "[core][unit]") {
  CHECK_FALSE(memory_limit("off"));
  const auto g = memory_limit("12G");
  REQUIRE(g);
  CHECK(g->bytes == uint64_t{12} << 30);
  CHECK(g->source.str() == "`mem-limit`");
  CHECK(memory_limit("auto").has_value());  // this machine's /proc/meminfo
  CHECK_THROWS_WITH(memory_limit("0"), Contains("`mem-limit`: '0' is not auto, off or a size above 0"));
  CHECK_THROWS_AS(memory_limit("lots"), InputError);
}
