// A sweep interrupted with SIGINT (Ctrl-C) and resumed: the interrupted run
// exits non-zero leaving sweep.csv with its complete rows (each with its
// folder) and the others marked missing; rerunning the same command carries
// the complete rows over and ends with files identical to an uninterrupted
// run. A second signal stops at once and still leaves a consistent
// sweep.csv; a changed option or trace is another sweep: refused in the
// folder, or with --force run afresh, carrying nothing over.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "cli_run.h"
#include "trace/ftr_writer.h"

extern char** environ;

using namespace ftlsim;
using test::kDevice;
using test::kLogicalSlots;
using test::run_ftlsim;
using test::slurp;

namespace {

// One pass of random overwrites after a fill: enough GC for each
// configuration to take a while, small enough for the ASan build.
void write_trace(const std::string& path, uint64_t seed) {
  trace::FtrWriter w(path, {});
  uint64_t t = 0;
  for (uint64_t s = 0; s < kLogicalSlots; ++s) w.append({t++, s * 8, 8, 0, 0, 0});
  uint64_t x = seed;
  for (uint64_t i = 0; i < kLogicalSlots; ++i) {
    x = test::lcg_next(x);
    w.append({t++, (x >> 33) % kLogicalSlots * 8, 8, 0, 0, 0});
  }
  w.finish();
}

// Splits on blanks; what posix_spawn needs (the tests' arguments hold no quotes).
std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Starts ftlsim with `args`, stdout and stderr to `log`. Returns the pid.
pid_t spawn_ftlsim(const std::string& args, const std::string& log) {
  std::vector<std::string> argv_s = words(args);
  argv_s.insert(argv_s.begin(), FTLSIM_BINARY);
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, FTLSIM_BINARY, &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  REQUIRE(rc == 0);
  return pid;
}

// Waits until `path` exists (true) or the child exits first / 120 s pass (false).
bool wait_for_file(const std::string& path, pid_t pid) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::filesystem::exists(path)) return true;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

struct Row {
  std::string id;
  std::string status;
  std::string key;
};

// config_id, status and config_key of each row (none of the test's cells is quoted).
std::vector<Row> rows_of(const std::string& csv) {
  std::vector<Row> rows;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ls(line);
    for (std::string c; std::getline(ls, c, ',');) cells.push_back(c);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    REQUIRE(cells.size() >= 3);
    rows.push_back({cells[0], cells[cells.size() - 2], cells[cells.size() - 1]});
  }
  return rows;
}

bool has_temp_files(const std::string& dir) {
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.path().filename().string().find(".tmp.") != std::string::npos) return true;
  }
  return false;
}

// 24 configurations, one at a time.
std::string sweep_args(const std::string& trace, const std::string& out) {
  return "--trace " + trace + " " + kDevice + " --gc-thres 50:73:1 -j 1 --out " + out;
}

}  // namespace

TEST_CASE("Ctrl-C during a sweep keeps complete rows, marks the rest missing, and a rerun resumes", "[cli]") {
  test::TempDir dir("resume");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, 7);
  const std::string out = dir.file("out");

  // Interrupt as soon as the first configuration's results are written.
  const pid_t pid = spawn_ftlsim(sweep_args(tr, out), dir.file("log1"));
  REQUIRE(wait_for_file(out + "/gc-thres=50/summary.json", pid));
  REQUIRE(::kill(pid, SIGINT) == 0);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  const std::string log1 = slurp(dir.file("log1"));
  INFO(log1);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK_THAT(log1, Catch::Contains("ftlsim: interrupted: finishing the configurations in progress"));
  CHECK_THAT(log1, Catch::Contains("rerun the same command to resume"));

  const std::vector<Row> first = rows_of(slurp(out + "/sweep.csv"));
  REQUIRE(first.size() == 24);
  size_t done = 0;
  for (const Row& r : first) {
    INFO(r.id << " " << r.status);
    CHECK((r.status == "done" || r.status == "missing"));
    CHECK(r.key.size() == 16);
    // A done row has its folder; a missing one has none.
    CHECK(std::filesystem::exists(out + "/" + r.id + "/summary.json") == (r.status == "done"));
    done += r.status == "done";
  }
  CHECK(done >= 1);
  CHECK(done < 24);  // with -j 1 the signal lands long before the last
  CHECK_FALSE(has_temp_files(out));

  // The same command resumes and ends where an uninterrupted run ends.
  const test::RunResult again = run_ftlsim(sweep_args(tr, out));
  INFO(again.output);
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.output, Catch::Contains(fmt::format("resumed    {} of 24 configurations were complete", done)));
  const std::string fresh = dir.file("fresh");
  REQUIRE(run_ftlsim(sweep_args(tr, fresh)).exit_code == 0);
  CHECK(slurp(out + "/sweep.csv") == slurp(fresh + "/sweep.csv"));
  for (const Row& r : rows_of(slurp(fresh + "/sweep.csv"))) {
    CHECK(r.status == "done");
    CHECK(slurp(out + "/" + r.id + "/summary.json") == slurp(fresh + "/" + r.id + "/summary.json"));
  }
}

TEST_CASE("a second Ctrl-C stops at once and sweep.csv stays consistent", "[cli]") {
  test::TempDir dir("resume2");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, 9);
  const std::string out = dir.file("out");
  const pid_t pid = spawn_ftlsim(sweep_args(tr, out), dir.file("log"));
  REQUIRE(wait_for_file(out + "/gc-thres=50/summary.json", pid));
  REQUIRE(::kill(pid, SIGINT) == 0);
  // The first signal must be taken before the second is sent.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (slurp(dir.file("log")).find("interrupted") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(pid, SIGINT);  // may find the process already gone
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  INFO(slurp(dir.file("log")));
  // Killed by the re-raised SIGINT, or exited 1 if the running job ended first.
  CHECK(((WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) || (WIFEXITED(status) && WEXITSTATUS(status) == 1)));
  const std::vector<Row> rows = rows_of(slurp(out + "/sweep.csv"));
  REQUIRE(rows.size() == 24);
  for (const Row& r : rows) {
    CHECK((r.status == "done" || r.status == "missing"));
    if (r.status == "done") CHECK(std::filesystem::exists(out + "/" + r.id + "/summary.json"));
  }
  const test::RunResult again = run_ftlsim(sweep_args(tr, out));
  CHECK(again.exit_code == 0);
  for (const Row& r : rows_of(slurp(out + "/sweep.csv"))) CHECK(r.status == "done");
}

TEST_CASE("resume carries rows over only for the same configuration and trace", "[cli]") {
  test::TempDir dir("resume3");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, 11);
  const std::string out = dir.file("out");
  const std::string args =
      "--trace " + tr + " " + kDevice + " --gc-thres 60,80 --placement single,fdp -j 2 --out " + out;
  const test::RunResult first = run_ftlsim(args);
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.output, !Catch::Contains("resumed"));
  const std::string csv = slurp(out + "/sweep.csv");

  // Unchanged: everything carried over, nothing rewritten differently.
  const test::RunResult same = run_ftlsim(args);
  CHECK(same.exit_code == 0);
  CHECK_THAT(same.output, Catch::Contains("resumed    4 of 4 configurations were complete"));
  CHECK(slurp(out + "/sweep.csv") == csv);

  // A folder removed by hand: that row runs again.
  std::filesystem::remove_all(out + "/gc-thres=80_placement=fdp");
  const test::RunResult lost = run_ftlsim(args);
  CHECK_THAT(lost.output, Catch::Contains("resumed    3 of 4"));
  CHECK(slurp(out + "/sweep.csv") == csv);
  CHECK(std::filesystem::exists(out + "/gc-thres=80_placement=fdp/summary.json"));

  // A result file of a folder removed: that row runs again and writes it
  // (it was carried over without its timeseries.csv). A file the user put
  // beside the results changes nothing.
  const std::string series = slurp(out + "/gc-thres=60_placement=single/timeseries.csv");
  std::filesystem::remove(out + "/gc-thres=60_placement=single/timeseries.csv");
  { std::ofstream(out + "/gc-thres=80_placement=single/notes.txt") << "mine\n"; }
  const test::RunResult partial = run_ftlsim(args);
  CHECK(partial.exit_code == 0);
  CHECK_THAT(partial.output, Catch::Contains("resumed    3 of 4"));
  CHECK(slurp(out + "/gc-thres=60_placement=single/timeseries.csv") == series);
  CHECK(slurp(out + "/gc-thres=80_placement=single/notes.txt") == "mine\n");
  CHECK(slurp(out + "/sweep.csv") == csv);
  std::filesystem::remove(out + "/gc-thres=80_placement=single/notes.txt");

  // A folder of that name from the same sweep of another trace, moved in
  // by hand (hostile rerun 2, N10): not this configuration's results, so
  // that row runs again and the folder ends up holding its own.
  const std::string tr2 = dir.file("t2.ftr");
  write_trace(tr2, 13);
  const std::string out2 = dir.file("out2");
  REQUIRE(run_ftlsim("--trace " + tr2 + " " + kDevice + " --gc-thres 60,80 --placement single,fdp -j 2 --out " + out2)
              .exit_code == 0);
  const std::string own = slurp(out + "/gc-thres=80_placement=fdp/summary.json");
  std::filesystem::remove_all(out + "/gc-thres=80_placement=fdp");
  std::filesystem::rename(out2 + "/gc-thres=80_placement=fdp", out + "/gc-thres=80_placement=fdp");
  const test::RunResult swapped = run_ftlsim(args);
  CHECK(swapped.exit_code == 0);
  CHECK_THAT(swapped.output, Catch::Contains("resumed    3 of 4"));
  CHECK(slurp(out + "/gc-thres=80_placement=fdp/summary.json") == own);
  CHECK(slurp(out + "/sweep.csv") == csv);

  // Another value of an option that is not swept: another sweep, refused
  // in this folder with sweep.csv untouched; with --force it
  // replaces the earlier one: new keys, nothing carried.
  const test::RunResult refused = run_ftlsim(args + " --gc-thres-high 96");
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.output, Catch::Contains("holds another sweep"));
  CHECK(slurp(out + "/sweep.csv") == csv);
  const test::RunResult changed = run_ftlsim(args + " --gc-thres-high 96 --force");
  CHECK(changed.exit_code == 0);
  CHECK_THAT(changed.output, !Catch::Contains("resumed"));
  const std::vector<Row> before = rows_of(csv);
  const std::vector<Row> after = rows_of(slurp(out + "/sweep.csv"));
  REQUIRE(before.size() == after.size());
  for (size_t i = 0; i < before.size(); ++i) CHECK(before[i].key != after[i].key);

  // Another trace under the same name: nothing carried either.
  write_trace(tr, 12);
  CHECK(run_ftlsim(args + " --gc-thres-high 96").exit_code == 2);
  const test::RunResult other = run_ftlsim(args + " --gc-thres-high 96 --force");
  CHECK(other.exit_code == 0);
  CHECK_THAT(other.output, !Catch::Contains("resumed"));
}

TEST_CASE("a sweep that fails part-way (disk full) keeps the rows it finished in sweep.csv", "[cli]") {
  if (::geteuid() != 0) {
    WARN("skipped: needs root to mount a small tmpfs");
    return;
  }
  test::TempDir dir("full");
  const std::string tr = dir.file("t.ftr");
  write_trace(tr, 11);
  // The files of one configuration's folder, from a one-configuration run.
  const std::string one = dir.file("one");
  REQUIRE(run_ftlsim("--trace " + tr + " " + kDevice + " --gc-thres 50 --out " + one).exit_code == 0);
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(one)) ++files;
  REQUIRE(files > 1);
  // A tmpfs with inodes for its root, the sweep folder, sweep.csv, three
  // configuration folders and two entries of a fourth: the fourth fails with
  // "No space left on device" half-written; removing its staging folder
  // frees the inode the last sweep.csv needs.
  const std::string mnt = dir.file("mnt");
  std::filesystem::create_directory(mnt);
  const size_t inodes = 3 + 3 * (1 + files) + 2;
  if (test::run_shell(fmt::format("mount -t tmpfs -o size=64m,nr_inodes={} tmpfs {}", inodes, mnt)).exit_code != 0) {
    WARN("skipped: cannot mount a tmpfs here");
    return;
  }
  struct Unmount {
    std::string path;
    ~Unmount() { (void)test::run_shell("umount " + path); }
  } unmount{mnt};
  const std::string out = mnt + "/sweep";
  const test::RunResult r = run_ftlsim(sweep_args(tr, out));
  INFO(r.output);
  CHECK(r.exit_code != 0);
  CHECK_THAT(r.output, Catch::Contains("No space left on device"));
  // Each configuration whose folder was published is a complete row of
  // sweep.csv (it was finished within the last second, so only the final
  // snapshot can have recorded it), and the others are missing.
  size_t folders = 0;
  for (const auto& e : std::filesystem::directory_iterator(out)) folders += e.is_directory() ? 1 : 0;
  CHECK(folders == 3);
  size_t done = 0;
  for (const Row& row : rows_of(slurp(out + "/sweep.csv"))) {
    if (row.status == "done") {
      ++done;
      CHECK(std::filesystem::is_directory(out + "/" + row.id));
    } else {
      CHECK(row.status == "missing");
    }
  }
  CHECK(done == folders);
  CHECK_FALSE(has_temp_files(out));
}
