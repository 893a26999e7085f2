// Replay targets refused before anything is written, and targets busy for a
// moment (issue #22, the rerun's S2 and S4), the binary end to end:
//  - a target on one of the kernel's pseudo file systems (a /proc or /sys
//    file, or a --create file in /proc or /sys) is refused, exit 2, one line,
//    --force or not (a writable sysfs attribute gave exit 1 "cannot open for
//    direct I/O: Permission denied"); outputs of every command there too;
//  - a lock another program holds on a file target and releases within
//    replay::kBusyWait (2 s) is waited for: the replay runs (a replay killed
//    by kill -9 holds its target until the kernel has closed its files, and
//    a rerun was refused for 0.2-0.4 s); a lock held longer is refused with
//    one line in bounded time.
// The root-only members (read-only file systems and devices, an exclusive
// open of a loop device, kill -9 onto a loop device, mounted tracefs and
// debugfs) are in tests/replay/test_replay_refusals.sh.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_run.h"

using Catch::Contains;
using ftlsim::test::run_ftlsim;
using ftlsim::test::RunResult;
using ftlsim::test::slurp;
using ftlsim::test::TempDir;

namespace {

namespace fs = std::filesystem;

std::string make_refusal_trace(const std::string& path, const std::string& writes = "1000") {
  return ftlsim::test::gen_uniform(path, "--logical 8M --writes " + writes);
}

// `args` exits 2 with one line holding `message`.
void expect_one_line(const std::string& args, const std::string& message) {
  const RunResult r = run_ftlsim(args);
  INFO(args << "\n" << r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains(message));
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

// The first /sys/block/*/size (a block device's size attribute), or "".
std::string sysfs_size_attribute() {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/sys/block", ec)) {
    const std::string size = e.path().string() + "/size";
    if (fs::exists(size)) return size;
  }
  return {};
}

// Forks a child that takes a lock on `path` with `take` (an open fd of the
// file, opened read-write), tells the parent (the returned pid has it by
// then), holds it for `hold_ms` and exits, which releases it.
pid_t hold_lock_in_child(const std::string& path, const std::function<bool(int)>& take, int hold_ms) {
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(ready[0]);
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    const char ok = fd >= 0 && take(fd) ? '1' : '0';
    (void)!::write(ready[1], &ok, 1);
    ::usleep(static_cast<useconds_t>(hold_ms) * 1000);
    ::_exit(0);
  }
  ::close(ready[1]);
  char ok = '0';
  REQUIRE(::read(ready[0], &ok, 1) == 1);
  ::close(ready[0]);
  REQUIRE(ok == '1');
  return pid;
}

bool ofd_lock(int fd) {
  struct flock lk {};
  lk.l_type = F_WRLCK;
  lk.l_whence = SEEK_SET;
  return ::fcntl(fd, F_OFD_SETLK, &lk) == 0;
}

bool flock_lock(int fd) { return ::flock(fd, LOCK_EX | LOCK_NB) == 0; }

// A target file the replay can write with O_DIRECT (false: skip).
bool make_target(const std::string& trace, const std::string& img) {
  const RunResult r = run_ftlsim("replay --no-progress --trace " + trace + " --target " + img + " --create 8M");
  if (r.output.find("O_DIRECT") != std::string::npos) return false;
  REQUIRE(r.exit_code == 0);
  return true;
}

}  // namespace

TEST_CASE("replay: a target on a kernel file system (/proc, /sys) is refused before anything is written", "[cli]") {
  const TempDir tmp("refuse-pseudo");
  const std::string t = make_refusal_trace(tmp.file("t.ftr"));
  std::vector<std::string> files = {"/proc/self/comm", "/sys/kernel/uevent_seqnum"};
  if (const std::string size = sysfs_size_attribute(); !size.empty()) files.push_back(size);
  for (const std::string& f : files) {
    if (!fs::exists(f)) continue;
    const std::string before = slurp(f);
    for (const char* force : {"", " --force"}) {
      expect_one_line("replay --no-progress --trace " + t + " --target " + f + force,
                      "--target " + f + " is a file of the kernel's ");
    }
    if (f.rfind("/sys/", 0) == 0) CHECK(slurp(f) == before);
  }
  for (const std::string& f : {std::string("/proc/ftlsim-x.img"), std::string("/sys/ftlsim-x.img")}) {
    expect_one_line("replay --no-progress --trace " + t + " --target " + f + " --create 8M",
                    "file system, which holds no files ftlsim could write");
    CHECK_FALSE(fs::exists(f));
  }
  // Outputs of every command there: refused before any work.
  const std::string small = " --logical 8M --no-progress";
  for (const std::string& args :
       {"dump " + t + " -o /proc/x.csv", "convert --from disksim " + t + " -o /sys/x.ftr",
        "compare --trace " + t + small + " --b \"--gc-thres 60\" --out /proc/x",
        "qd-sweep --trace " + t + small + " --qd 1,2 --out /sys/x",
        "replay --no-progress --trace " + t + " --target " + tmp.file("r.img") + " --create 8M --out /proc/x"}) {
    expect_one_line(args, "file system, which holds no files ftlsim could write");
  }
  CHECK_FALSE(fs::exists(tmp.file("r.img")));
}

namespace {

// True when /dev is a devtmpfs mount (read here from mountinfo's text, not
// through the code under test).
bool dev_is_devtmpfs() {
  std::istringstream lines(slurp("/proc/self/mountinfo"));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream f(line);
    std::string id, parent, dev, root, point;
    f >> id >> parent >> dev >> root >> point;
    if (point == "/dev" && line.find(" - devtmpfs ") != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("no command makes a file or folder in devtmpfs (/dev): a mistyped or absent device is refused", "[cli]") {
  if (!dev_is_devtmpfs()) SKIP_TEST("/dev is not a devtmpfs mount here");
  const TempDir tmp("refuse-devtmpfs");
  const std::string t = make_refusal_trace(tmp.file("t.ftr"));
  const std::string in = tmp.file("in.disksim");
  std::ofstream(in) << "0 0 8 8 0\n";
  // Names no device has; each is removed again if a run made it after all.
  const std::string base = "/dev/ftlsim-test-" + std::to_string(::getpid());
  const std::string small = " --logical 8M --no-progress";
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"dump " + t + " -o " + base + "-a.csv", base + "-a.csv"},
      {"convert --from disksim " + in + " -o " + base + "-b.ftr", base + "-b.ftr"},
      {"gen --pattern uniform --logical 8M --writes 10 -o " + base + "-c.ftr", base + "-c.ftr"},
      {"--trace " + t + small + " --out " + base + "-d", base + "-d"},
      {"--trace " + t + small + " --out " + base + "-e/deeper", base + "-e"},
      {"--trace " + t + small + " --gc-thres 60,80 --out " + base + "-f", base + "-f"},
      {"replay --no-progress --trace " + t + " --target " + base + "-g --create 8M", base + "-g"},
      {"replay --no-progress --trace " + t + " --target " + tmp.file("r.img") + " --create 8M --out " + base + "-h",
       base + "-h"}};
  for (const auto& [args, made] : runs) {
    expect_one_line(args, "is on devtmpfs, where the kernel makes device nodes");
    std::error_code ec;
    CHECK_FALSE(fs::exists(made, ec));
    fs::remove_all(made, ec);
  }
  CHECK_FALSE(fs::exists(tmp.file("r.img")));
  // A regular file there (left before this check) is no replay target,
  // --force or not, and is left as it was.
  if (::geteuid() != 0) return;
  const std::string stray = base + "-i";
  std::ofstream(stray) << std::string(8 << 20, 'x');
  for (const char* force : {"", " --force"}) {
    expect_one_line("replay --no-progress --wrap --trace " + t + " --target " + stray + force,
                    "is a regular file on devtmpfs, not a device");
  }
  CHECK(slurp(stray) == std::string(8 << 20, 'x'));
  fs::remove(stray);
}

TEST_CASE("replay: a lock released within the busy wait is waited for, one held longer refused in bounded time",
          "[cli]") {
  const TempDir tmp("refuse-busy");
  const std::string t = make_refusal_trace(tmp.file("t.ftr"));
  const std::string img = tmp.file("t.img");
  if (!make_target(t, img)) SKIP_TEST("no O_DIRECT in the test directory");
  const std::string replay = "replay --no-progress --trace " + t + " --target " + img;
  // Held by another program for half a second, as a replay killed a moment
  // ago holds it until its files are closed: the rerun waits and runs.
  for (const auto& [kind, take] : {std::pair{"OFD lock", std::function<bool(int)>(ofd_lock)},
                                   std::pair{"flock", std::function<bool(int)>(flock_lock)}}) {
    INFO(kind);
    const pid_t holder = hold_lock_in_child(img, take, 500);
    const RunResult r = run_ftlsim(replay);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    ::waitpid(holder, nullptr, 0);
  }
  // Held for good: refused, one line, after the bounded wait.
  const int fd = ::open(img.c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(fd >= 0);
  REQUIRE(ofd_lock(fd));
  const std::string before = slurp(img);
  const auto start = std::chrono::steady_clock::now();
  expect_one_line(replay, "another program holds a lock on it (a replay already writing to it?; still after 2 s)");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds >= 1.9);
  CHECK(seconds < 30);  // bounded: 2 s of waiting, on a busy machine
  CHECK(slurp(img) == before);
  ::close(fd);
}

TEST_CASE("replay: a rerun right after a replay was killed (kill -9) runs", "[cli]") {
  const TempDir tmp("refuse-killed");
  const std::string big = make_refusal_trace(tmp.file("big.ftr"), "200000");
  const std::string t = make_refusal_trace(tmp.file("t.ftr"));
  const std::string img = tmp.file("t.img");
  if (!make_target(t, img)) SKIP_TEST("no O_DIRECT in the test directory");
  struct stat st {};
  REQUIRE(::stat(img.c_str(), &st) == 0);
  const std::string id = ":" + std::to_string(st.st_ino) + " ";  // "OFDLCK ADVISORY  WRITE -1 MAJ:MIN:INO 0 EOF"
  for (int round = 0; round < 3; ++round) {
    INFO("round " << round);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const std::string cmd = std::string(FTLSIM_BINARY) + " replay --no-progress --qd 64 --trace " + big +
                              " --target " + img + " >/dev/null 2>&1";
      ::execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // Killed while it writes: once its lock is in /proc/locks, and a little
    // later, with I/Os in flight.
    bool locked = false;
    for (int i = 0; i < 400 && !locked; ++i) {
      const std::string locks = slurp("/proc/locks");
      locked = locks.find("OFDLCK ADVISORY  WRITE") != std::string::npos && locks.find(id) != std::string::npos;
      if (!locked) ::usleep(5 * 1000);
    }
    ::usleep(50 * 1000);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    if (!locked) {
      WARN("the replay ended before it was killed");
      continue;
    }
    const RunResult r = run_ftlsim("replay --no-progress --trace " + t + " --target " + img);
    INFO(r.output);
    CHECK(r.exit_code == 0);
  }
}
