// Replay targets that are regular files:
// signatures found by libblkid on images made by the system's own mkfs
// tools (each case says it skipped when its tool is missing), a file that
// backs a loop device or is an active swap file (sysfs and /proc fixtures),
// and the two-phase Target that checks before it creates or resizes.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli_run.h"
#include "core/error.h"
#include "replay/data_pattern.h"
#include "replay/device_safety.h"
#include "replay/target.h"

namespace fs = std::filesystem;
using Catch::Contains;
using ftlsim::replay::inspect_regular_file;
using ftlsim::replay::probe_signatures;
using ftlsim::test::put;

namespace {

bool have(const std::string& tool) {
  return std::system(
             ("command -v " + tool + " >/dev/null 2>&1 || test -x /usr/sbin/" + tool + " || test -x /sbin/" + tool)
                 .c_str()) == 0;
}

// A sparse file of `bytes`, then `command` run on it (its output dropped).
bool make_image(const std::string& path, uint64_t bytes, const std::string& command) {
  { std::ofstream(path, std::ios::binary); }
  fs::resize_file(path, bytes);
  const std::string cmd = "PATH=$PATH:/usr/sbin:/sbin " + command + " '" + path + "' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

std::string joined_args(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += x + "; ";
  return s;
}

}  // namespace

TEST_CASE("libblkid finds the signatures mkfs tools leave in a file", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("signatures");
  struct Case {
    const char* tool;
    std::string command;
    uint64_t bytes;
    const char* want;  // in the finding
  };
  fs::create_directories(tmp.file("cramfs-src"));
  // minix, bfs and cramfs were missed by the hand-written magic table this replaced.
  const Case cases[] = {
      {"mkfs.cramfs", "mkfs.cramfs " + tmp.file("cramfs-src"), 0, "cramfs file system signature"},
      {"mkfs.ext4", "mkfs.ext4 -q -F", 8u << 20, "ext4 file system signature (at byte 1080)"},
      {"mkfs.xfs", "mkfs.xfs -q -f", 320u << 20, "xfs file system signature (at byte 0)"},
      {"mkfs.minix", "mkfs.minix", 8u << 20, "minix file system signature"},
      {"mkfs.bfs", "mkfs.bfs", 8u << 20, "bfs file system signature"},
      {"mkswap", "mkswap", 8u << 20, "swap signature"},
  };
  for (const Case& c : cases) {
    if (!have(c.tool)) {
      WARN("skipped: " << c.tool << " is not installed (tools/install_deps.sh build)");
      continue;
    }
    const std::string img = tmp.file(std::string(c.tool) + ".img");
    REQUIRE(make_image(img, c.bytes, c.command));
    const std::vector<std::string> found = probe_signatures(img);
    INFO(c.tool << ": " << joined_args(found));
    REQUIRE(found.size() >= 1);
    CHECK_THAT(joined_args(found), Contains(c.want));
    // A target holding it is refused, and --force overrides.
    ftlsim::replay::TargetRequest req;
    req.path = img;
    CHECK_THROWS_WITH(ftlsim::replay::Target(req, ftlsim::replay::Target::Deferred{}),
                      Contains("refusing to write to " + img) && Contains(c.want));
    req.force = true;
    try {
      const ftlsim::replay::Target t(req, ftlsim::replay::Target::Deferred{});
      CHECK_THAT(joined_args(t.info().findings), Contains(c.want));
    } catch (const ftlsim::InputError& e) {
      if (std::string(e.what()).find("O_DIRECT") == std::string::npos) throw;
      WARN("skipped --force: " << e.what());
    }
  }
}

TEST_CASE("a DOS partition table is found, zeros and replay data carry no signature", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("signatures-mbr");
  std::vector<uint8_t> b(1 << 20, 0);
  const std::string zeros = tmp.file("zeros.img");
  std::ofstream(zeros, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  CHECK(probe_signatures(zeros).empty());

  // So a file that only ever held replay data can be replayed to again.
  ftlsim::replay::fill_pattern(b);
  ftlsim::replay::stamp_pattern(b, 0, 0, 0);
  const std::string pattern = tmp.file("pattern.img");
  std::ofstream(pattern, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  CHECK(probe_signatures(pattern).empty());

  // One Linux partition (type 0x83) from sector 2048, 1024 sectors; 55 AA at 510.
  std::fill(b.begin(), b.end(), 0);
  const uint8_t entry[16] = {0, 0, 0, 0, 0x83, 0, 0, 0, 0x00, 0x08, 0, 0, 0x00, 0x04, 0, 0};
  std::copy(std::begin(entry), std::end(entry), b.begin() + 446);
  b[510] = 0x55;
  b[511] = 0xAA;
  const std::string mbr = tmp.file("mbr.img");
  std::ofstream(mbr, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  CHECK_THAT(joined_args(probe_signatures(mbr)), Contains("dos partition table signature (at byte 510)"));

  CHECK_THAT(joined_args(probe_signatures(tmp.file("missing.img"))), Contains("could not be probed"));
}

TEST_CASE("a file backing a loop device or used as swap is found, by inode", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("loop-backing");
  const std::string img = tmp.file("disk.img");
  { std::ofstream(img, std::ios::binary) << std::string(1 << 16, '\0'); }
  const std::string link = tmp.file("other-name.img");
  fs::create_hard_link(img, link);

  ftlsim::replay::SafetyPaths paths;
  paths.sysfs = tmp.file("sys");
  paths.mountinfo = tmp.file("mountinfo");
  paths.swaps = tmp.file("swaps");
  put(paths.swaps, "Filename Type Size Used Priority\n");
  put(paths.mountinfo, "22 1 254:0 / / rw - ext4 /dev/vda rw\n");
  const fs::path block = fs::path(paths.sysfs) / "block";
  put(block / "loop0" / "dev", "7:0\n");  // attached elsewhere
  put(block / "loop0" / "loop" / "backing_file", tmp.file("elsewhere.img") + "\n");
  put(block / "loop1" / "dev", "7:1\n");  // detached: no loop/ folder
  CHECK(inspect_regular_file(img, paths).empty());

  // loop5 is backed by the file under its other name, and mounted.
  put(block / "loop5" / "dev", "7:5\n");
  put(block / "loop5" / "loop" / "backing_file", link + "\n");
  fs::create_directories(fs::path(paths.sysfs) / "dev" / "block" / "7:5" / "holders");
  put(paths.mountinfo, "22 1 254:0 / / rw - ext4 /dev/vda rw\n70 22 7:5 / /mnt/img rw - ext4 /dev/loop5 rw\n");
  const std::vector<std::string> f = inspect_regular_file(img, paths);
  REQUIRE(f.size() == 2);
  CHECK(f[0] == img + " backs loop device /dev/loop5");
  CHECK(f[1] == "/dev/loop5 is mounted at /mnt/img");

  // An active swap file, named through the hard link.
  fs::remove_all(block / "loop5");
  put(paths.swaps, "Filename Type Size Used Priority\n" + link + " file 64 0 -2\n");
  const std::vector<std::string> g = inspect_regular_file(img, paths);
  REQUIRE(g.size() == 1);
  CHECK_THAT(g[0], Contains("is an active swap file (" + link + ")"));
}

TEST_CASE("a deferred target checks without creating or resizing", "[replay][unit]") {
  const ftlsim::test::TempDir tmp("target-deferred");
  using ftlsim::replay::Target;
  ftlsim::replay::TargetRequest req;
  req.path = tmp.file("new.img");
  req.create_bytes = 1 << 20;
  try {
    Target t(req, Target::Deferred{});
    CHECK_FALSE(fs::exists(req.path));  // checked, not created
    CHECK(t.info().bytes == (1u << 20));
    t.materialize();
    CHECK(fs::file_size(req.path) == (1u << 20));
    CHECK(t.info().created);
  } catch (const ftlsim::InputError& e) {
    if (std::string(e.what()).find("O_DIRECT") == std::string::npos) throw;
    WARN("skipped: " << e.what());
    return;
  }
  CHECK_FALSE(fs::exists(req.path));  // created, never kept: removed again

  // An existing 4 MiB file and --create 1M --force: the size is planned,
  // the file keeps its 4 MiB until materialize().
  const std::string big = tmp.file("big.img");
  { std::ofstream(big, std::ios::binary) << std::string(4 << 20, '\x5a'); }
  req.path = big;
  req.force = true;
  {
    Target t(req, Target::Deferred{});
    CHECK(t.info().bytes == (1u << 20));
    CHECK(fs::file_size(big) == (4u << 20));
  }
  CHECK(fs::file_size(big) == (4u << 20));  // dropped without materialize(): untouched
  // The folder of a new file must exist: refused without creating anything.
  req.path = tmp.file("no/such/folder.img");
  CHECK_THROWS_WITH(Target(req, Target::Deferred{}), Contains("does not exist"));
}

TEST_CASE("a --create target is made, opened and removed through the folder checked, whatever the path names later",
          "[replay][unit]") {
  const ftlsim::test::TempDir tmp("target-once");
  using ftlsim::replay::Target;
  fs::create_directories(tmp.file("checked"));
  fs::create_directories(tmp.file("other"));
  fs::create_symlink("checked", tmp.file("link"));
  ftlsim::replay::TargetRequest req;
  req.path = tmp.file("link/t.img");
  req.create_bytes = 1 << 20;
  const auto point_link_to = [&](const std::string& target) {
    fs::remove(tmp.file("link"));
    fs::create_symlink(target, tmp.file("link"));
  };
  try {
    Target t(req, Target::Deferred{});
    point_link_to("other");  // after the check: changes nothing
    t.materialize();
    CHECK(fs::file_size(tmp.file("checked/t.img")) == (1u << 20));
    CHECK_FALSE(fs::exists(tmp.file("other/t.img")));
    // Someone else's file now at the path, and the one made moved away:
    // not kept, the Target removes nothing but its own file.
    std::ofstream(tmp.file("other/t.img"), std::ios::binary) << "theirs";
  } catch (const ftlsim::InputError& e) {
    if (std::string(e.what()).find("O_DIRECT") == std::string::npos) throw;
    WARN("skipped: " << e.what());
    return;
  }
  CHECK_FALSE(fs::exists(tmp.file("checked/t.img")));  // its own file: removed
  CHECK(ftlsim::test::slurp(tmp.file("other/t.img")) == "theirs");
  // A file that replaced the one made, under the same name, is not removed.
  point_link_to("checked");
  {
    Target t(req, Target::Deferred{});
    t.materialize();
    fs::rename(tmp.file("checked/t.img"), tmp.file("checked/moved.img"));
    std::ofstream(tmp.file("checked/t.img"), std::ios::binary) << "replaced";
  }
  CHECK(ftlsim::test::slurp(tmp.file("checked/t.img")) == "replaced");
  CHECK(fs::exists(tmp.file("checked/moved.img")));
}
