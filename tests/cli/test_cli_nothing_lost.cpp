// Nothing lost, by construction: the
// binary end to end. Every command with --out writes where the kernel
// resolves the path once (link/../results), deletes only what an earlier
// run provably wrote, treats symdir/ and symdir/. as the link they name,
// finds a --out that would hold a --create target before it writes, and
// refuses a second replay onto a locked file. As root, a symbolic link
// swapped while a command runs (between the output's check and its write,
// held there by an OpenGate) neither lets the output replace an input nor
// redirects the write.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <csignal>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "cli/cli_run.h"
#include "common/open_gate.h"

using Catch::Contains;
using ftlsim::test::expect_refusal;
using ftlsim::test::kDevice;
using ftlsim::test::names_in;
using ftlsim::test::run_ftlsim;
using ftlsim::test::RunResult;
using ftlsim::test::slurp;
using ftlsim::test::TempDir;

namespace {

namespace fs = std::filesystem;

std::string make_trace(const std::string& path) {
  return ftlsim::test::gen_uniform(path, "--logical 8M --writes 1000");
}

const std::string kSmall = "--logical 8M --no-progress";

// Points the symbolic link `link` at `target` in one step (rename over it).
void repoint(const std::string& link, const std::string& target) {
  const std::string fresh = link + ".new";
  fs::remove(fresh);
  fs::create_symlink(target, fresh);
  fs::rename(fresh, link);
}

}  // namespace

TEST_CASE("output folders given as link/../results: written where the kernel resolves it, for every command", "[cli]") {
  const TempDir tmp("lost-dotdot");
  const std::string work = tmp.file("work");
  fs::create_directories(work + "/results");
  fs::create_directories(tmp.file("elsewhere/sub"));
  const std::string t = make_trace(work + "/results/t.ftr");
  std::ofstream(work + "/results/notes.txt") << "x";
  fs::create_symlink("../elsewhere/sub", work + "/link");
  const std::string img = tmp.file("target.img");
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"simulate", "--trace " + t + " " + kSmall},
      {"sweep", "--trace " + t + " " + kSmall + " --gc-thres 60,80"},
      {"compare", "compare --trace " + t + " " + kSmall + " --b \"--placement fdp\""},
      {"qd-sweep", "qd-sweep --trace " + t + " " + kDevice + " --qd 1,2"},
      {"replay", "replay --trace " + t + " --target " + img + " --create 8M --no-progress"},
  };
  for (const auto& [what, args] : runs) {
    INFO(what);
    // Twice: creating the folder, then replacing the set in it.
    for (int round = 0; round < 2; ++round) {
      const RunResult r = run_ftlsim(args + " --out " + work + "/link/../results-" + what);
      INFO(r.output);
      if (what == "replay" && r.output.find("O_DIRECT") != std::string::npos) {
        WARN("skipped: no O_DIRECT in " << tmp.file(""));
        break;
      }
      REQUIRE(r.exit_code == 0);
      CHECK(fs::is_directory(tmp.file("elsewhere/results-" + what)));
      CHECK(names_in(work + "/results") == std::set<std::string>{"t.ftr", "notes.txt"});
    }
  }
  // --out link/../results names elsewhere/results, not work/results.
  REQUIRE(run_ftlsim("--trace " + t + " " + kSmall + " --out " + work + "/link/../results").exit_code == 0);
  CHECK(names_in(work + "/results") == std::set<std::string>{"t.ftr", "notes.txt"});
  CHECK(fs::exists(tmp.file("elsewhere/results/summary.json")));
  // Relative, from the folder holding the link.
  const RunResult rel = ftlsim::test::run_shell("cd " + work + " && " + FTLSIM_BINARY + " --trace results/t.ftr " +
                                                kSmall + " --out link/../results");
  INFO(rel.output);
  CHECK(rel.exit_code == 0);
  CHECK(names_in(work + "/results") == std::set<std::string>{"t.ftr", "notes.txt"});
}

TEST_CASE("a run deletes only what an earlier ftlsim run provably wrote", "[cli]") {
  const TempDir tmp("lost-proof");
  const std::string t = make_trace(tmp.file("t.ftr"));
  const std::string out = tmp.file("out");
  const std::string compare = "compare --trace " + t + " " + kSmall + " --b \"--placement fdp\" --out " + out;
  // A folder named a (where compare writes side a), holding someone's thesis.
  fs::create_directories(out + "/a");
  std::ofstream(out + "/a/thesis.tex") << "x";
  expect_refusal(compare, "a (not written by ftlsim)");
  CHECK(slurp(out + "/a/thesis.tex") == "x");
  // After a real compare, a file added to a/ is not deleted by the next one.
  fs::remove_all(out);
  REQUIRE(run_ftlsim(compare).exit_code == 0);
  std::ofstream(out + "/a/thesis.tex") << "x";
  expect_refusal(compare, "a/thesis.tex (not written by ftlsim)");
  CHECK(slurp(out + "/a/thesis.tex") == "x");
  fs::remove(out + "/a/thesis.tex");
  REQUIRE(run_ftlsim(compare).exit_code == 0);  // proven again: replaced
  CHECK(fs::exists(out + "/a/summary.json"));

  // summary.json/ and events.csv/ as folders; a staging-like name.
  const std::string sim = "--trace " + t + " " + kSmall + " --out ";
  for (const std::string name : {"summary.json", "events.csv", ".x.ftlsim-y"}) {
    const std::string dir = tmp.file("o-" + name);
    fs::create_directories(dir + "/" + name);
    std::ofstream(dir + "/" + name + "/keep") << "k";
    const RunResult r = run_ftlsim(sim + dir);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(slurp(dir + "/" + name + "/keep") == "k");
  }
  // A file written by an earlier run but edited since.
  const std::string edited = tmp.file("edited");
  REQUIRE(run_ftlsim(sim + edited).exit_code == 0);
  std::ofstream(edited + "/summary.json", std::ios::app) << "my note";
  expect_refusal(sim + edited, "summary.json (changed since ftlsim wrote it)");
  CHECK_THAT(slurp(edited + "/summary.json"), Contains("my note"));

  // sweep --force: a configuration folder holding something else stops the
  // whole removal before anything is removed.
  const std::string sw = tmp.file("sw");
  REQUIRE(run_ftlsim("--trace " + t + " " + kSmall + " --gc-thres 60,80 --out " + sw).exit_code == 0);
  std::ofstream(sw + "/gc-thres=80/thesis.tex") << "x";
  expect_refusal("--trace " + t + " " + kSmall + " --gc-thres 60,70 --force --out " + sw,
                 "removes only what the earlier sweep provably wrote");
  CHECK(slurp(sw + "/gc-thres=80/thesis.tex") == "x");
  CHECK(fs::exists(sw + "/gc-thres=60/summary.json"));
  fs::remove(sw + "/gc-thres=80/thesis.tex");
  // ... a configuration folder that is a symbolic link, and (as root) a bind mount.
  fs::rename(sw + "/gc-thres=80", tmp.file("c80"));
  fs::create_directory_symlink(tmp.file("c80"), sw + "/gc-thres=80");
  expect_refusal("--trace " + t + " " + kSmall + " --gc-thres 60,70 --force --out " + sw, "gc-thres=80 (not a folder)");
  fs::remove(sw + "/gc-thres=80");
  fs::create_directory(sw + "/gc-thres=80");
  if (::geteuid() == 0 &&
      ftlsim::test::run_shell("mount --bind " + tmp.file("c80") + " " + sw + "/gc-thres=80").exit_code == 0) {
    expect_refusal("--trace " + t + " " + kSmall + " --gc-thres 60,70 --force --out " + sw,
                   "gc-thres=80 (a mount point)");
    (void)ftlsim::test::run_shell("umount " + sw + "/gc-thres=80");
  }
  CHECK(fs::exists(tmp.file("c80/summary.json")));
  fs::remove(sw + "/gc-thres=80");
  fs::rename(tmp.file("c80"), sw + "/gc-thres=80");
  const RunResult forced = run_ftlsim("--trace " + t + " " + kSmall + " --gc-thres 60,70 --force --out " + sw);
  INFO(forced.output);
  CHECK(forced.exit_code == 0);
  CHECK_FALSE(fs::exists(sw + "/gc-thres=80"));
}

TEST_CASE("output folders given as symdir/ and symdir/. are the symbolic link symdir", "[cli]") {
  const TempDir tmp("lost-symdir");
  const std::string t = make_trace(tmp.file("t.ftr"));
  const std::string real = tmp.file("real");
  REQUIRE(run_ftlsim("--trace " + t + " " + kSmall + " --out " + real).exit_code == 0);
  const std::string summary = slurp(real + "/summary.json");
  fs::create_symlink(real, tmp.file("symdir"));
  for (const std::string suffix : {"", "/", "/.", "/./"}) {
    const std::string link = tmp.file("symdir") + suffix;
    expect_refusal("--trace " + t + " " + kSmall + " --out " + link, "is a symbolic link");
    expect_refusal("--trace " + t + " " + kSmall + " --gc-thres 60,80 --out " + link, "is a symbolic link");
    expect_refusal("compare --trace " + t + " " + kSmall + " --b \"--placement fdp\" --out " + link,
                   "is a symbolic link");
  }
  CHECK(slurp(real + "/summary.json") == summary);
  CHECK(fs::is_symlink(tmp.file("symdir")));
}

TEST_CASE("replay: a --out that would hold the --create target is refused before the first write", "[cli]") {
  const TempDir tmp("lost-create-out");
  const std::string t = make_trace(tmp.file("t.ftr"));
  const std::string o = tmp.file("o");
  fs::create_directories(o + "/deep");
  for (const auto& [target, out] : std::vector<std::pair<std::string, std::string>>{{o + "/t.img", o},
                                                                                    {o + "/t.img", o + "/"},
                                                                                    {o + "/t.img", o + "/."},
                                                                                    {o + "/deep/t.img", o},
                                                                                    {o + "/deep/../t.img", o}}) {
    const RunResult r =
        run_ftlsim("replay --no-progress --trace " + t + " --target " + target + " --create 8M --out " + out);
    INFO(target << " --out " << out << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("which this run creates"));
    CHECK_FALSE(fs::exists(target));
  }
  // --out below the file --create is about to make.
  for (const std::string& out : {o + "/t.img/r", o + "/t.img/r/deeper", o + "/deep/../t.img/r"}) {
    const RunResult r =
        run_ftlsim("replay --no-progress --trace " + t + " --target " + o + "/t.img --create 8M --out " + out);
    INFO(out << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("a file this run creates"));
  }
  CHECK(names_in(o) == std::set<std::string>{"deep"});
}

TEST_CASE("replay: a regular-file target is locked, and a second replay onto it is refused", "[cli]") {
  const TempDir tmp("lost-lock");
  const std::string t = make_trace(tmp.file("t.ftr"));
  const std::string img = tmp.file("t.img");
  const RunResult first = run_ftlsim("replay --no-progress --trace " + t + " --target " + img + " --create 8M");
  if (first.output.find("O_DIRECT") != std::string::npos) {
    WARN("skipped: no O_DIRECT in " << tmp.file(""));
    return;
  }
  REQUIRE(first.exit_code == 0);
  const std::string before = slurp(img);
  // Another replay holds the file: an OFD write lock, taken here as the
  // first replay takes it (F_OFD_SETLK on the whole file).
  const int fd = ::open(img.c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(fd >= 0);
  struct flock lk {};
  lk.l_type = F_WRLCK;
  lk.l_whence = SEEK_SET;
  REQUIRE(::fcntl(fd, F_OFD_SETLK, &lk) == 0);
  ::symlink(img.c_str(), tmp.file("link.img").c_str());
  for (const std::string& name : {img, tmp.file("link.img")}) {
    expect_refusal("replay --no-progress --trace " + t + " --target " + name, "another program holds a lock on it");
    expect_refusal("replay --no-progress --force --trace " + t + " --target " + name, "holds a lock");
  }
  ::close(fd);
  CHECK(slurp(img) == before);
  // Released: accepted again.
  CHECK(run_ftlsim("replay --no-progress --trace " + t + " --target " + img).exit_code == 0);

  // Two replays at once: a slow timed one holds the file; once its lock is
  // in /proc/locks, a second one is refused; the first then ends by Ctrl-C.
  struct stat st {};
  REQUIRE(::stat(img.c_str(), &st) == 0);
  std::string id = ":";  // "OFDLCK ADVISORY  WRITE -1 MAJ:MIN:INO 0 EOF"
  id += std::to_string(st.st_ino);
  id += ' ';
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::signal(SIGINT, SIG_DFL);
    const std::string cmd = std::string(FTLSIM_BINARY) + " replay --no-progress --mode timed --speed 1e-6 --trace " +
                            t + " --target " + img + " >/dev/null 2>&1";
    ::execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  bool locked = false;
  for (int i = 0; i < 200 && !locked; ++i) {
    const std::string locks = slurp("/proc/locks");
    locked = locks.find("OFDLCK ADVISORY  WRITE") != std::string::npos && locks.find(id) != std::string::npos;
    if (!locked) ::usleep(50 * 1000);
  }
  CHECK(locked);
  if (locked) expect_refusal("replay --no-progress --trace " + t + " --target " + img, "holds a lock");
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

TEST_CASE("messages say what is wrong", "[cli]") {
  const TempDir tmp("lost-words");
  const std::string t = make_trace(tmp.file("t.ftr"));
  // convert's input has no option name: not "is the input input".
  const std::string in = tmp.file("in.disksim");
  std::ofstream(in) << "0.0 0 8 8 0\n";
  const RunResult same = run_ftlsim("convert --from disksim " + in + " -o " + in + " --force");
  INFO(same.output);
  CHECK(same.exit_code == 2);
  CHECK_THAT(same.output, Contains("is the input " + in + " (the same file)"));
  CHECK_THAT(same.output, !Contains("input input"));
  // /proc and /sys hold no files: said so, not "0 B free".
  const std::vector<std::string> pseudo = {"gen --pattern uniform --logical 8M --writes 10 -o /proc/x.ftr",
                                           "gen --pattern uniform --logical 8M --writes 10 -o /sys/x.ftr",
                                           "--trace " + t + " " + kSmall + " --out /proc/x",
                                           "--trace " + t + " " + kSmall + " --gc-thres 60,80 --out /proc/x"};
  for (const std::string& args : pseudo) {
    const RunResult r = run_ftlsim(args);
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("file system, which holds no files"));
    CHECK_THAT(r.output, !Contains("B free"));
  }
  // A missing device node: no --create advice (nothing is created under /dev).
  ::symlink("/dev", tmp.file("devlink").c_str());
  for (const std::string& name : {std::string("/dev/loop-ftlsim-missing0p1"), std::string("/dev/ftlsim-missing/sdz1"),
                                  tmp.file("devlink/loop-ftlsim-missing0p1")}) {
    const RunResult r = run_ftlsim("replay --no-progress --trace " + t + " --target " + name);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("no such device"));
    CHECK_THAT(r.output, !Contains("--create"));
  }
}

TEST_CASE("a link swapped while a command runs: no output replaces an input, no write is redirected (root)", "[cli]") {
  if (::geteuid() != 0) SKIP_TEST("fanotify permission events need root");
  const TempDir tmp("lost-swap");
  fs::create_directories(tmp.file("a"));
  fs::create_directories(tmp.file("b"));
  const std::string link = tmp.file("link");
  {
    const ftlsim::test::OpenGate probe(tmp.file("a"), [] {});
    if (!probe.ok()) SKIP_TEST("no fanotify permission events in this kernel");
  }
  // Each run names its output (or replay target) through link, which points
  // at a/ when the run starts; when the run opens `gated`, link is turned to
  // b/, where the same name is one of the run's inputs. Checked on a/ and
  // written into b/, the input would be replaced (what ftlsim did before the
  // check and the write shared one open folder, or one open target).
  struct Case {
    std::string what, args, gated, input;
  };
  const std::string trace = make_trace(tmp.file("b/t.ftr"));
  const std::string text = tmp.file("b/in.txt");
  std::ofstream(text) << "0 0 0 8 0\n1000 0 8 8 0\n";
  const std::string img_trace = make_trace(tmp.file("b/t.img"));
  ftlsim::test::put(tmp.file("a/t.img"), std::string(8 << 20, '\0'));
  const std::vector<Case> cases = {
      {"dump", "dump " + trace + " -o " + link + "/t.ftr --force", trace, trace},
      {"convert", "convert --from disksim " + text + " -o " + link + "/in.txt --force", text, text},
      {"replay", "replay --no-progress --trace " + img_trace + " --target " + link + "/t.img", tmp.file("a/t.img"),
       img_trace},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const std::string before = slurp(c.input);
    REQUIRE_FALSE(before.empty());
    repoint(link, "a");
    RunResult r;
    {
      const ftlsim::test::OpenGate gate(c.gated, [&] { repoint(link, "b"); });
      r = run_ftlsim(c.args);
      CHECK(gate.fired());
    }
    INFO(r.output);
    if (r.output.find("O_DIRECT") != std::string::npos) {
      WARN("not run: the test directory has no O_DIRECT (" << c.what << ")");
      continue;
    }
    CHECK(slurp(c.input) == before);                                                      // the input is intact
    CHECK(names_in(tmp.file("b")) == std::set<std::string>{"t.ftr", "in.txt", "t.img"});  // nothing left in b/
    if (r.exit_code == 0) {
      // Written where link pointed when the run resolved it: a/.
      const bool written = c.what == "replay" ? slurp(tmp.file("a/t.img")) != std::string(8 << 20, '\0')
                                              : fs::exists(tmp.file("a/" + fs::path(c.input).filename().string()));
      CHECK(written);
    } else {
      CHECK(r.exit_code == 2);
      CHECK_THAT(r.output, Contains("is the input"));
    }
  }
}

// Issue #22, the hostile rerun's M3: a sweep whose --out folder was renamed
// while it ran said "wrote sw/sweep.csv ..." though sw/ was gone (or was
// the user's new folder). The sweep writes on into the folder it holds, and
// says where that is now, as a single run does. The rename happens while
// the sweep opens its folder (an OpenGate on it), so after that open, every
// time.
TEST_CASE("a sweep whose folder is renamed while it runs says where its results are (root)", "[cli]") {
  if (::geteuid() != 0) SKIP_TEST("fanotify permission events need root");
  const TempDir tmp("lost-moved-sweep");
  const std::string trace = make_trace(tmp.file("t.ftr"));
  const std::string sw = tmp.file("sw");
  fs::create_directories(sw);
  {
    const ftlsim::test::OpenGate probe(
        sw, [] {}, FAN_ONDIR);
    if (!probe.ok()) SKIP_TEST("no fanotify permission events in this kernel");
  }
  const std::string moved = tmp.file("sw.moved");
  const std::string sweep = "--trace " + trace + " " + kSmall + " --gc-thres 60,70 -j 1 --out ";
  for (const bool replaced : {false, true}) {
    INFO((replaced ? "renamed, and a new folder made in its place" : "renamed"));
    fs::remove_all(sw);
    fs::remove_all(moved);
    fs::create_directories(sw);
    RunResult r;
    {
      const ftlsim::test::OpenGate gate(
          sw,
          [&] {
            fs::rename(sw, moved);
            if (replaced) fs::create_directories(sw);
          },
          FAN_ONDIR);
      r = run_ftlsim(sweep + sw);
      REQUIRE(gate.fired());
    }
    INFO(r.output);
    const std::string where = fs::canonical(moved).string();
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Contains("wrote      " + where + "/sweep.csv and 2 configuration folders"));
    CHECK_THAT(r.output, !Contains("wrote      " + sw + "/"));
    CHECK_THAT(r.output, Contains("ftlsim: error: --out " + sw + " changed while the run went on (now " +
                                  (replaced ? "another folder" : "absent") + "); the results are in " + where));
    // The results are complete where it says; the user's new folder is untouched.
    CHECK(names_in(moved) == std::set<std::string>{"sweep.csv", "gc-thres=60", "gc-thres=70"});
    CHECK(fs::exists(moved + "/gc-thres=70/summary.json"));
    if (replaced) {
      CHECK(fs::is_empty(sw));
    } else {
      CHECK_FALSE(fs::exists(sw));
    }
    // ... and resume from there.
    const RunResult again = run_ftlsim(sweep + moved);
    INFO(again.output);
    CHECK(again.exit_code == 0);
    CHECK_THAT(again.output, Contains("resumed    2 of 2 configurations were complete"));
  }
}
