// Inputs that change while ftlsim reads them: a .ftr
// trace or a text input truncated while mapped reads as zeros instead of
// raising SIGBUS, the consumers stop at the first zero record, and the
// reader says the file changed. Also: ftrace-blk lost-event counts saturate
// (item 19).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"
#include "core/mapping_guard.h"
#include "test_util.h"
#include "trace/ftr_reader.h"
#include "trace/ftr_writer.h"
#include "trace/import/import.h"
#include "trace/import/mapped_text.h"
#include "trace/trace_stats.h"

using namespace ftlsim::trace;
using namespace ftlsim::trace::test;
using Catch::Contains;
using ftlsim::InputError;

namespace {

std::string temp_path(const std::string& name) {
  const std::filesystem::path root = FTLSIM_TEST_TMP;
  std::filesystem::create_directories(root);
  return (root / ("trace-" + std::to_string(::getpid()) + "-" + name)).string();
}

}  // namespace

TEST_CASE("a .ftr truncated while mapped: zeros, then a clear error, no SIGBUS", "[trace][unit]") {
  const std::string path = temp_path("shrink.ftr");
  {
    FtrWriter w(path, TraceMeta{});
    Record r{};
    r.sectors = 8;
    for (uint64_t i = 0; i < 4000; ++i) {  // 96 KB: many pages
      r.lba = 8 * i;
      r.time_ns = i;
      w.append(r);
    }
    w.finish();
  }
  const FtrReader reader(path);
  REQUIRE(reader.size() == 4000);
  CHECK(reader.intact());
  CHECK(compute_trace_stats(reader).records == 4000);
  std::filesystem::resize_file(path, 8192);  // as `truncate -s 8K` from another program
  CHECK_FALSE(reader.intact());
  CHECK_THROWS_WITH(reader.check_intact(),
                    Contains(path) && Contains("changed while ftlsim was reading it") && Contains("to 8192 bytes"));
  // The lost records read as zeros (a zero-length write: invalid) instead of
  // killing the process, so every consumer stops there.
  CHECK(reader.records()[3999].sectors == 0);
  CHECK_FALSE(record_ok(reader.records()[3999]));
  CHECK_THROWS_AS(compute_trace_stats(reader), InputError);
  CHECK_THROWS_WITH(reader.check_intact(), Contains("it shrank while mapped"));
  CHECK_THAT(ftlsim::mapped_input_fault(), Contains(path));
}

TEST_CASE("a .ftr rewritten in place with its size and mtime put back is caught (ctime)", "[trace][unit]") {
  // W1/W2: the same size, and `touch -r` restoring the modification time,
  // left only the change time to tell (it cannot be set back).
  const std::string path = temp_path("rewrite.ftr");
  {
    FtrWriter w(path, TraceMeta{});
    Record r{};
    r.sectors = 8;
    for (uint64_t i = 0; i < 1000; ++i) {
      r.lba = 8 * i;
      r.time_ns = i;
      w.append(r);
    }
    w.finish();
  }
  struct stat before {};
  REQUIRE(::stat(path.c_str(), &before) == 0);
  const FtrReader reader(path);
  REQUIRE(reader.intact());
  ::usleep(20000);  // past the file system's timestamp granularity
  {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    const unsigned char junk[32] = {149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149,
                                    149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149, 149};
    REQUIRE(::pwrite(fd, junk, sizeof junk, before.st_size - 32) == 32);  // the same size
    const struct timespec times[2] = {before.st_atim, before.st_mtim};
    REQUIRE(::futimens(fd, times) == 0);  // as `touch -r orig trace`
    ::close(fd);
  }
  struct stat after {};
  REQUIRE(::stat(path.c_str(), &after) == 0);
  REQUIRE(after.st_size == before.st_size);
  REQUIRE(after.st_mtim.tv_sec == before.st_mtim.tv_sec);
  REQUIRE(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
  CHECK_FALSE(reader.intact());
  CHECK_THROWS_WITH(reader.check_intact(), Contains(path) && Contains("changed while ftlsim was reading it"));
  std::filesystem::remove(path);
}

TEST_CASE("a text input truncated while mapped is caught before the output appears", "[trace][unit]") {
  const std::string path = temp_path("shrink.txt");
  {
    std::ofstream out(path);
    for (int i = 0; i < 5000; ++i) out << "10 0 " << 8 * i << " 8 0\n";
  }
  const MappedText text(path);
  CHECK_NOTHROW(text.check_intact());
  std::filesystem::resize_file(path, 100);
  const std::string_view t = text.text();
  CHECK(t[t.size() - 1] == '\0');  // was '\n'; SIGBUS without the guard
  CHECK_THROWS_WITH(text.check_intact(), Contains("changed while ftlsim was reading it"));
}

TEST_CASE("ftrace-blk: lost-event counts saturate instead of wrapping", "[trace][unit][ftrace]") {
  ImportOptions o = options_for(TextFormat::kFtraceBlk);
  const std::string text =
      "CPU:0 [LOST 18446744073709551615 EVENTS]\n"
      "  app-42 [000] ..... 1.000010: 8,16 D W 0 + 8 [app]\n"
      "CPU:1 [LOST 1 EVENTS]\n"
      "CPU:1 [LOST 5 EVENTS]\n";
  const ParsedTrace p = parse_text_trace(text, "t", o);
  CHECK(p.summary.lost_events == UINT64_MAX);  // 2^64-1 + 1 wrapped to 0 before
  const ParsedTrace q = parse_text_trace("CPU:0 [LOST 7 EVENTS]\nCPU:1 [LOST 5 EVENTS]\n", "t", o);
  CHECK(q.summary.lost_events == 12);
}
