// core/input_file.h (inputs never block and are regular files) and
// core/mapping_guard.h (a mapped file that shrinks reads as zeros and is
// reported instead of killing the process with SIGBUS).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"
#include "core/input_file.h"
#include "core/mapping_guard.h"

using namespace ftlsim;
using Catch::Contains;

namespace {

std::string temp_path(const std::string& name) {
#ifdef FTLSIM_TEST_TMP
  const std::filesystem::path root = FTLSIM_TEST_TMP;
#else
  const std::filesystem::path root = std::filesystem::temp_directory_path();
#endif
  std::filesystem::create_directories(root);
  return (root / ("core-" + std::to_string(::getpid()) + "-" + name)).string();
}

}  // namespace

TEST_CASE("InputFile refuses what is not a regular file, without blocking", "[core][unit]") {
  const std::string fifo = temp_path("fifo");
  ::unlink(fifo.c_str());
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // No writer: a blocking open would wait here forever.
  CHECK_THROWS_WITH(InputFile(fifo), Contains("not a regular file (a FIFO (named pipe))"));
  ::unlink(fifo.c_str());
  CHECK_THROWS_WITH(InputFile("/dev/null"), Contains("not a regular file (a character device)"));
  CHECK_THROWS_WITH(InputFile("/"), Contains("not a regular file (a directory)"));
  CHECK_THROWS_AS(InputFile("/proc/self/status"), InputError);
  CHECK_THROWS_WITH(InputFile("/proc/self/status"),
                    Contains("a special file whose size (0 bytes) is not its contents"));
  CHECK_THROWS_WITH(InputFile(temp_path("missing")), Contains("no such file"));

  const std::string empty = temp_path("empty");
  std::ofstream(empty).close();
  const InputFile e(empty);  // a real empty file is fine: 0 records
  CHECK(e.size() == 0);
  CHECK(e.unchanged());
  ::unlink(empty.c_str());
}

TEST_CASE("a guarded mapping whose file shrinks reads zeros and reports it", "[core][unit]") {
  const std::string path = temp_path("shrink");
  const long page = ::sysconf(_SC_PAGESIZE);
  {
    std::ofstream out(path, std::ios::binary);
    const std::string bytes(static_cast<size_t>(3 * page), 'x');
    out << bytes;
  }
  const int fd = ::open(path.c_str(), O_RDWR);
  REQUIRE(fd >= 0);
  void* map = ::mmap(nullptr, static_cast<size_t>(3 * page), PROT_READ, MAP_PRIVATE, fd, 0);
  REQUIRE(map != MAP_FAILED);
  const auto* bytes = static_cast<const volatile char*>(map);
  {
    const MappingGuard guard(map, static_cast<size_t>(3 * page), path);
    CHECK(bytes[0] == 'x');
    CHECK_FALSE(guard.faulted());
    REQUIRE(::ftruncate(fd, page) == 0);  // another program truncates the file
    CHECK(bytes[0] == 'x');               // still there
    CHECK(bytes[2 * page + 5] == 0);      // SIGBUS without the guard
    CHECK(bytes[page] == 0);
    CHECK(guard.faulted());
    CHECK_THAT(mapped_input_fault(), Contains(path) && Contains("changed while ftlsim was reading it"));
  }
  // Remembered after the guard is gone, for main()'s one error line.
  CHECK_THAT(mapped_input_fault(), Contains(path));
  ::munmap(map, static_cast<size_t>(3 * page));
  ::close(fd);
  ::unlink(path.c_str());
}
