// Standard output, checked by every command (cli/standard_streams.h): a
// write that fails is one line and exit code 1, a reader that closes the
// pipe early ends the command quietly with its own exit code, never a death
// by SIGPIPE.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "cli_run.h"

using namespace ftlsim;
using test::kDevice;
using test::run_ftlsim;
using test::run_shell;
using test::TempDir;

extern char** environ;

namespace {

struct Ended {
  bool signaled = false;
  int code = -1;    // the exit code, or the signal
  std::string err;  // what it printed on stderr
};

// Runs ftlsim with `args` (split on blanks) writing its stdout into a pipe
// whose reader is already gone, SIGPIPE at its default action as in a shell
// (whatever this test process does with it): every write to stdout fails.
Ended run_into_closed_pipe(const std::string& args) {
  std::vector<std::string> words = {FTLSIM_BINARY};
  for (size_t at = 0; at < args.size();) {
    const size_t end = std::min(args.find(' ', at), args.size());
    if (end > at) words.push_back(args.substr(at, end - at));
    at = end + 1;
  }
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  int out[2];
  int err[2];
  REQUIRE(::pipe(out) == 0);
  REQUIRE(::pipe(err) == 0);
  ::close(out[0]);  // the reader has gone before the first write
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  posix_spawn_file_actions_addclose(&fa, err[0]);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  sigset_t dfl;
  sigemptyset(&dfl);
  sigaddset(&dfl, SIGPIPE);
  posix_spawnattr_setsigdefault(&at, &dfl);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, argv[0], &fa, &at, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  ::close(out[1]);
  ::close(err[1]);
  REQUIRE(rc == 0);
  Ended e;
  char buf[4096];
  for (ssize_t n; (n = ::read(err[0], buf, sizeof buf)) > 0;) e.err.append(buf, static_cast<size_t>(n));
  ::close(err[0]);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  e.signaled = WIFSIGNALED(status);
  e.code = e.signaled ? WTERMSIG(status) : WEXITSTATUS(status);
  return e;
}

}  // namespace

TEST_CASE("standard output: a failed write is one line and exit code 1, for every command", "[cli]") {
  const TempDir tmp("stdout");
  const std::string t = test::uniform_trace(tmp, "t.ftr", "--logical 8M --writes 2000");
  const std::string cmp = tmp.file("cmp");
  const std::vector<std::string> commands = {
      "--trace " + t + " " + kDevice,
      "--trace " + t + " " + kDevice + " --gc-thres 60,70 -j 1 --out " + tmp.file("sw"),
      "compare --trace " + t + " " + kDevice + " --b \"--gc-thres 60\"",
      "qd-sweep --trace " + t + " " + kDevice + " --qd 1,2",
      "info " + t,
      "info --json " + t,
      "dump " + t,
      "gen --pattern uniform --logical 8M --writes 10 -o " + tmp.file("g.ftr"),
      "--help",
      "--version",
  };
  for (const std::string& c : commands) {
    for (const std::string& redirect : {std::string(">/dev/full"), std::string(">&-")}) {
      const test::RunResult r = run_shell("{ " + std::string(FTLSIM_BINARY) + " " + c + " " + redirect + "; }");
      INFO(c << " " << redirect << "\n" << r.output);
      CHECK(r.exit_code == 1);
      CHECK_THAT(r.output, Catch::EndsWith(redirect == ">&-"
                                               ? "ftlsim: error: standard output: cannot write: Bad file descriptor\n"
                                               : "ftlsim: error: standard output: cannot write: No space left on "
                                                 "device\n"));
      CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
      std::filesystem::remove(tmp.file("g.ftr"));
    }
  }
  // A closed stdout is never taken by a file the run opens: the results
  // folder holds the results, not the summary text.
  const test::RunResult r = run_shell("{ " + std::string(FTLSIM_BINARY) + " --trace " + t + " " + kDevice + " --out " +
                                      tmp.file("o") + " >&-; }");
  CHECK(r.exit_code == 1);
  CHECK(test::slurp(tmp.file("o/summary.json")).rfind("{", 0) == 0);
  // Written in full: exit 0, nothing on stderr.
  const test::RunResult ok = run_shell(std::string(FTLSIM_BINARY) + " info " + t + " >/dev/null");
  CHECK(ok.exit_code == 0);
  CHECK(ok.output.empty());
}

TEST_CASE("standard output: a reader that closed the pipe ends the command quietly, exit 0, no SIGPIPE", "[cli]") {
  const TempDir tmp("stdout-pipe");
  const std::string t = test::uniform_trace(tmp, "t.ftr", "--logical 48M --writes 300000");
  for (const std::string& c :
       {"dump " + t, std::string("--help"), "info " + t, "info --json " + t, "--trace " + t + " " + kDevice,
        "compare --trace " + t + " " + kDevice + " --b --gc-thres=60"}) {
    const Ended e = run_into_closed_pipe(c);
    INFO(c << "\n" << e.err);
    CHECK_FALSE(e.signaled);
    CHECK(e.code == 0);
    CHECK(e.err.empty());
  }
  // `| head -1`, as a user writes it: the first line arrives, ftlsim exits 0.
  const test::RunResult head =
      run_shell("{ { " + std::string(FTLSIM_BINARY) + " dump " + t + "; echo \"rc=$?\" >&2; } | head -1; }");
  INFO(head.output);  // head's line and the status, in whichever order they came
  CHECK((head.output == "time,op,lba,length,pid\nrc=0\n" || head.output == "rc=0\ntime,op,lba,length,pid\n"));
  // The command's own failure keeps its code when its reader has gone.
  const Ended bad = run_into_closed_pipe("info " + tmp.file("missing.ftr"));
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("missing.ftr"));
}

// Standard output or error onto an input (hostile rerun 2, N4): `info t.ftr
// 1<>t.ftr` overwrote the trace's header, `>> t.ftr` appended to it. Every
// command that reads a trace refuses first, exit 2, the trace unchanged; a
// refusal about standard error says nothing (it would land in the input).
TEST_CASE("standard output or error onto an input is refused before a byte is written, for every command", "[cli]") {
  const TempDir tmp("stdout-input");
  const std::string t = test::uniform_trace(tmp, "t.ftr", "--logical 8M --writes 2000");
  const std::string original = test::slurp(t);
  const std::string csv = tmp.file("t.csv");
  REQUIRE(run_ftlsim("dump " + t + " -o " + csv).exit_code == 0);
  const std::string csv_text = test::slurp(csv);
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"--trace " + t + " " + kDevice, t},
      {"--trace " + t + " " + kDevice + " --gc-thres 60,70 -j 1 --out " + tmp.file("sw"), t},
      {"compare --trace " + t + " " + kDevice + " --b \"--gc-thres 60\"", t},
      {"qd-sweep --trace " + t + " " + kDevice + " --qd 1,2", t},
      {"info " + t, t},
      {"info --json " + t, t},
      {"dump " + t, t},
      {"dump " + t + " -o " + tmp.file("d.csv") + " --force", t},
      {"replay --trace " + t + " --target " + tmp.file("r.img") + " --create 8M", t},
      {"convert --from csv " + csv + " -o " + tmp.file("c.ftr") + " --force", csv},
  };
  for (const auto& [c, input] : commands) {
    for (const std::string& redirect : {std::string(">>"), std::string("1<>"), std::string("2>>")}) {
      const test::RunResult r = run_shell("{ " + std::string(FTLSIM_BINARY) + " " + c + " " + redirect + input +
                                          "; } 2>/dev/null; "
                                          "echo $?");
      INFO(c << " " << redirect << input << "\n" << r.output);
      CHECK(r.output == "2\n");
      CHECK(test::slurp(input) == (input == t ? original : csv_text));
    }
  }
  const test::RunResult said = run_shell("{ " + std::string(FTLSIM_BINARY) + " info " + t + " >>" + t + "; }");
  CHECK(said.exit_code == 2);
  CHECK(said.output == "ftlsim: error: standard output is the input argument " + t +
                           ": writing to it would destroy what is read; redirect it elsewhere\n");
  // Also a usage error, before any option is parsed.
  CHECK(run_shell("{ " + std::string(FTLSIM_BINARY) + " --bogus " + t + " 2>>" + t + "; }").exit_code == 2);
  CHECK(test::slurp(t) == original);
}
