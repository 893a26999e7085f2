// Inputs: what a hostile or careless user can hand ftlsim as
// input and option values. FIFOs and other non-regular files never block and
// are refused (every command bounded by `timeout`, so a regression fails
// instead of hanging); /proc files and unreadable files are refused with
// exit 2; integer options are parsed by one parser that refuses signs,
// exponents and overflow; names and header text are escaped in messages
// and valid UTF-8 in JSON; gen refuses traces larger than the free space;
// timed mode refuses issue times that do not fit; a resumed sweep prints
// WAF as an uninterrupted one does; a trace truncated during a replay ends
// it with a partial report instead of SIGBUS.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <cmath>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_run.h"
#include "trace/ftr_writer.h"

using namespace ftlsim;
using Catch::Contains;
using test::kDevice;
using test::run_ftlsim;
using test::run_shell;
using test::RunResult;
using test::slurp;
using test::TempDir;

namespace {

namespace fs = std::filesystem;

size_t lines_in(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

// ftlsim with a 20 s bound: exit 124 when it would have hung.
RunResult run_bounded(const std::string& args) {
  return run_shell(std::string("timeout -k 5 20 ") + FTLSIM_BINARY + " " + args);
}

void expect_error(const RunResult& r, const std::string& pattern, int code = 2) {
  INFO(r.output);
  CHECK(r.exit_code == code);
  CHECK(lines_in(r.output) == 1);
  CHECK_THAT(r.output, Contains("ftlsim: error: ") && Contains(pattern));
}

std::string small_trace(const TempDir& tmp) {
  const std::string t = tmp.file("small.ftr");
  ftlsim::test::gen_uniform(t, "--logical 4M --writes 2000");
  return t;
}

// A fresh folder that the user `run_as` (a setpriv prefix) can enter and
// read, removed on destruction; path() is empty when no candidate parent
// ($TMPDIR, /tmp, /var/tmp, /dev/shm) lets that user in.
class ReachableDir {
 public:
  explicit ReachableDir(const std::string& run_as) {
    std::vector<std::string> parents;
    if (const char* t = std::getenv("TMPDIR"); t != nullptr && *t != '\0') parents.emplace_back(t);
    for (const char* p : {"/tmp", "/var/tmp", "/dev/shm"}) parents.emplace_back(p);
    for (const std::string& parent : parents) {
      std::string tmpl = parent + "/ftlsim-reachable-XXXXXX";
      if (::mkdtemp(tmpl.data()) == nullptr) continue;
      if (::chmod(tmpl.c_str(), 0755) == 0 && run_shell(run_as + "test -r " + tmpl + " -a -x " + tmpl).exit_code == 0) {
        path_ = tmpl;
        return;
      }
      std::error_code ec;
      fs::remove_all(tmpl, ec);
    }
  }
  ~ReachableDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  ReachableDir(const ReachableDir&) = delete;
  ReachableDir& operator=(const ReachableDir&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

bool have_python() { return run_shell("python3 -c 'import json'").exit_code == 0; }

// Parses `path` as strict UTF-8 JSON with Python's json module.
RunResult python_json_check(const std::string& path) {
  return run_shell(
      "python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding=\"utf-8\", "
      "errors=\"strict\")); print(\"valid\")' " +
      path);
}

}  // namespace

TEST_CASE("a FIFO, directory or device as any input is refused at once", "[cli][hostile]") {
  const TempDir tmp("hostile-fifo");
  const std::string fifo = tmp.file("pipe");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string text = tmp.file("in.msr");
  std::ofstream(text) << "100,h,0,Write,0,4096,1\n";
  const std::string out = tmp.file("out.ftr");
  const std::vector<std::string> commands = {
      "info " + fifo,
      "--trace " + fifo + " " + kDevice,
      "convert --from msr " + fifo + " -o " + out,
      "convert --from msr " + text + " --pid-map " + fifo + " -o " + out,
      "convert --from msr " + text + " --markers " + fifo + " -o " + out,
      "convert --from blkparse " + text + " --hints " + fifo + " -o " + out,
      "replay --trace " + fifo + " --target " + tmp.file("t.img") + " --create 4M",
      "compare --trace " + fifo + " --a \"--gc-thres 60\" --b \"--gc-thres 70\"",
  };
  // No sections: their names would hold the temporary paths, which change
  // on every pass.
  for (const std::string& c : commands) {
    INFO(c);
    expect_error(run_bounded(c), "not a regular file (a FIFO");
    CHECK_FALSE(fs::exists(out));
    CHECK_FALSE(fs::exists(tmp.file("t.img")));
  }
  expect_error(run_bounded("info " + tmp.file("")), "not a regular file (a directory)");
  expect_error(run_bounded("--trace /dev/null " + kDevice), "not a regular file (a character device)");
  expect_error(run_bounded("convert --from msr /dev/zero -o " + out), "not a regular file (a character device)");
  CHECK_FALSE(fs::exists(out));
}

// A sysfs attribute reports 4096 bytes and cannot be
// mapped (ENODEV); it was "cannot mmap: No such device", exit 1.
TEST_CASE("a /sys attribute of 4096 bytes is refused with exit 2 by every input", "[cli][hostile]") {
  std::string attr;
  for (const char* p : {"/sys/kernel/uevent_seqnum", "/sys/kernel/mm/transparent_hugepage/enabled",
                        "/sys/devices/system/cpu/online", "/sys/power/state"}) {
    struct stat st {};
    if (::stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      attr = p;
      break;
    }
  }
  if (attr.empty()) SKIP_TEST("no sysfs attribute file of non-zero size here");
  const TempDir tmp("hostile-sys");
  const std::string out = tmp.file("p.ftr");
  const std::string trace = small_trace(tmp);
  const std::string good_csv = tmp.file("in.csv");
  std::ofstream(good_csv) << "0,host,0,Write,0,4096,0\n";
  const std::vector<std::string> commands = {
      "info " + attr,
      "--trace " + attr + " " + kDevice,
      "compare --trace " + attr + " --a \"--gc-thres 60\" --b \"--gc-thres 70\"",
      "convert --from msr " + attr + " -o " + out,
      "convert --from msr " + good_csv + " --pid-map " + attr + " -o " + out,
      "convert --from msr " + good_csv + " --markers " + attr + " -o " + out,
      "qd-sweep --trace " + attr + " --qd 1,2 " + kDevice,
  };
  for (const std::string& c : commands) {
    INFO(c);
    expect_error(run_bounded(c), attr + ": a special file whose size (");
    CHECK_FALSE(fs::exists(out));
  }
}

TEST_CASE("a /proc file or an unreadable file is refused with exit 2", "[cli][hostile]") {
  const TempDir tmp("hostile-proc");
  const std::string out = tmp.file("p.ftr");
  // /proc files say 0 bytes and have contents: not "0 records, exit 0".
  expect_error(run_bounded("convert --from msr /proc/self/status -o " + out),
               "/proc/self/status: a special file whose size (0 bytes) is not its contents");
  expect_error(run_bounded("info /proc/self/status"), "a special file whose size (0 bytes) is not its contents");
  CHECK_FALSE(fs::exists(out));

  // Permission denied: exit 2 like a missing file, with the system's message.
  if (::geteuid() != 0) {
    const std::string trace = small_trace(tmp);
    REQUIRE(::chmod(trace.c_str(), 0) == 0);
    const RunResult r = run_bounded("info " + trace);
    expect_error(r, "cannot open: Permission denied");
    CHECK(run_bounded("info " + tmp.file("none.ftr")).exit_code == r.exit_code);
    return;
  }
  // Root reads anything: run as nobody. The build tree may sit where nobody
  // cannot enter (a clone under /root, mode 0700, or in a private mktemp
  // folder), so nobody runs copies of the binary and the trace.
  if (run_shell("command -v setpriv").exit_code != 0) SKIP_TEST("root and no setpriv to drop privileges");
  const std::string nobody = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
  const ReachableDir shared(nobody);
  if (shared.path().empty()) SKIP_TEST("no folder here that user nobody can enter");
  const std::string binary = shared.file("ftlsim");
  fs::copy_file(FTLSIM_BINARY, binary);
  fs::permissions(binary, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
  const std::string trace = shared.file("small.ftr");
  fs::copy_file(small_trace(tmp), trace);
  REQUIRE(::chmod(trace.c_str(), 0) == 0);
  INFO("binary " << binary);
  const RunResult r = run_shell(nobody + "timeout 20 " + binary + " info " + trace);
  expect_error(r, "cannot open: Permission denied");
  const RunResult missing = run_shell(nobody + "timeout 20 " + binary + " info " + shared.file("none.ftr"));
  CHECK(missing.exit_code == r.exit_code);
}

TEST_CASE("integer options: signs, fractions and overflow are refused", "[cli][hostile]") {
  const TempDir tmp("hostile-int");
  const std::string trace = small_trace(tmp);
  const std::string gen = "gen --pattern uniform --logical 4M --writes 10 -o " + tmp.file("g.ftr") + " --seed ";
  expect_error(run_ftlsim(gen + "-1"), "--seed: '-1' is negative; give a whole number from 0 to 18446744073709551615");
  expect_error(run_ftlsim(gen + "18446744073709551616"), "--seed: 18446744073709551616 is too large");
  expect_error(run_ftlsim(gen + "1e26"), "--seed: 1e26 is too large");
  CHECK_FALSE(fs::exists(tmp.file("g.ftr")));
  const std::string sim = "--trace " + trace + " " + kDevice + " --seed ";
  expect_error(run_ftlsim(sim + "-1"), "--seed: '-1' is negative");
  expect_error(run_ftlsim(sim + "18446744073709551616"), "--seed: 18446744073709551616 is too large");
  expect_error(run_ftlsim(sim + "1e26"), "--seed: 1e26 is too large");
  const std::string text = tmp.file("in.msr");
  std::ofstream(text) << "100,h,0,Write,0,4096,1\n";
  expect_error(run_ftlsim("convert --from msr " + text + " -o " + tmp.file("c.ftr") + " --skip-bad -1"),
               "--skip-bad: '-1' is negative");
  CHECK_FALSE(fs::exists(tmp.file("c.ftr")));

  // -j 0: a short message with the range, not a 300-digit double.
  const RunResult j = run_ftlsim("--trace " + trace + " " + kDevice + " -j 0");
  expect_error(j, "--jobs: 0 is too small; give a whole number from 1 to 4096");
  CHECK(j.output.size() < 200);
  expect_error(run_ftlsim("qd-sweep --trace " + trace + " -j 0"), "--jobs: 0 is too small");
  // --qd: its real range (replay's and timed mode's), not u32's.
  expect_error(run_ftlsim("replay --trace " + trace + " --target " + tmp.file("t.img") + " --qd -1"),
               "--qd: '-1' is negative; give a whole number from 1 to 4096");
  expect_error(run_ftlsim("replay --trace " + trace + " --target " + tmp.file("t.img") + " --qd 0"),
               "--qd: 0 is too small; give a whole number from 1 to 4096");
  CHECK_FALSE(fs::exists(tmp.file("t.img")));
  expect_error(run_ftlsim("--trace " + trace + " " + kDevice + " --timing --qd -3"),
               "--qd: '-3' is negative; give a whole number from 1 to 1048576");
  expect_error(run_ftlsim("--trace " + trace + " " + kDevice + " --timing --qd 99999999999999999999"),
               "--qd: 99999999999999999999 is too large; give a whole number from 1 to 1048576");

  // Timing options given empty are refused, as every other option's: an
  // empty text was read as not given (--qd "" ran open loop).
  for (const char* o :
       {"--qd", "--speed", "--read-time", "--program-time", "--erase-time", "--xfer-time", "--event-interval"}) {
    expect_error(run_ftlsim("--trace " + trace + " " + kDevice + " --timing " + o + " ''"),
                 std::string(o) + ": '' is empty");
  }
  expect_error(run_ftlsim("qd-sweep --trace " + trace + " " + kDevice + " --qd 1 --read-time ' '"),
               "--read-time: ' ' is empty");
  // NAND times past 1 s are refused: 2^62 ns per program wrapped the clock.
  expect_error(run_ftlsim("--trace " + trace + " " + kDevice + " --timing --program-time 4611686018427387904ns"),
               "--program-time 4611686018427387904ns must be at most 1s");
  expect_error(run_ftlsim("--trace " + trace + " " + kDevice + " --timing --xfer-time 1001ms"),
               "--xfer-time 1001ms must be at most 1s");

  // --op 1e12: what is wrong and the valid range.
  expect_error(run_ftlsim("--trace " + trace + " --channels 8 --luns 1 --blocks 64 --pages 32 --op 1e12"),
               "--op 1e12 is out of range: give a fraction above 0 and below 100");
}

TEST_CASE("file names and header text are escaped in messages and text output", "[cli][hostile]") {
  const TempDir tmp("hostile-escape");
  // A missing file whose name holds a newline and a terminal escape.
  const std::string name = tmp.file("evil\nname\x1b[31m.ftr");
  const RunResult r = run_ftlsim("info '" + name + "'");
  expect_error(r, "evil\\nname\\x1b[31m.ftr: no such file");
  CHECK(r.output.find('\x1b') == std::string::npos);

  // Header metadata and placement names with controls and bad UTF-8.
  const std::string trace = tmp.file("meta.ftr");
  {
    trace::TraceMeta meta;
    meta.kv = {{"note", "line1\nline2\x1b]0;title\x07"},
               {"latin1", "caf\xe9"},
               {"c1",
                "a\xc2\x9b"
                "31mb"}};
    meta.pid_names = {{0, "ok"}, {1, "bad\xff\xfe name"}, {2, "\xe2\x82"}};
    trace::FtrWriter w(trace, meta);
    trace::Record rec{};
    rec.sectors = 8;
    for (uint16_t p = 0; p < 3; ++p) {
      rec.pid = p;
      rec.lba = 8 * p;
      w.append(rec);
    }
    w.finish();
  }
  const RunResult info = run_ftlsim("info " + trace);
  INFO(info.output);
  CHECK(info.exit_code == 0);
  CHECK(info.output.find('\x1b') == std::string::npos);
  CHECK(info.output.find('\x07') == std::string::npos);
  CHECK(info.output.find("\xc2\x9b") == std::string::npos);  // the one-byte CSI
  CHECK_THAT(info.output, Contains("note = line1\\nline2\\x1b]0;title\\x07"));
  CHECK_THAT(info.output, Contains("latin1 = caf\\xe9"));
  CHECK_THAT(info.output, Contains("bad\\xff\\xfe name"));
}

TEST_CASE("info --json and summary.json are valid UTF-8 JSON whatever the header holds", "[cli][hostile]") {
  if (!have_python()) SKIP_TEST("python3 is not installed");
  const TempDir tmp("hostile-json");
  const std::string trace = tmp.file("meta.ftr");
  {
    trace::TraceMeta meta;
    meta.kv = {{"k\xff", "v\xc3"}, {"overlong", "\xc0\xaf"}, {"surrogate", "\xed\xa0\x80"}, {"ok", "\xc3\xa9"}};
    meta.pid_names = {{1, "n\xfe\xff"}};
    trace::FtrWriter w(trace, meta);
    trace::Record rec{};
    rec.sectors = 8;
    rec.pid = 1;
    w.append(rec);
    w.finish();
  }
  const std::string json = tmp.file("info.json");
  REQUIRE(run_shell(std::string(FTLSIM_BINARY) + " info --json " + trace + " > " + json).exit_code == 0);
  const RunResult info_check = python_json_check(json);
  INFO(info_check.output);
  CHECK(info_check.output == "valid\n");
  CHECK_THAT(slurp(json), Contains("\\ufffd") && Contains("\xc3\xa9"));  // invalid replaced, valid kept

  const std::string out = tmp.file("run");
  const RunResult sim = run_ftlsim("--trace " + trace + " " + kDevice + " --out " + out);
  INFO(sim.output);
  REQUIRE(sim.exit_code == 0);
  const RunResult summary_check = python_json_check(out + "/summary.json");
  INFO(summary_check.output);
  CHECK(summary_check.output == "valid\n");
}

TEST_CASE("gen refuses a trace larger than the free space before writing", "[cli][hostile]") {
  const TempDir tmp("hostile-gen");
  const std::string out = tmp.file("g.ftr");
  // 10 writes at a read ratio of 1 - 1e-12: about 10^13 records, 240 TB.
  const RunResult r =
      run_bounded("gen --pattern uniform --logical 1G --read-ratio 0.999999999999 --writes 10 -o " + out);
  expect_error(r, "free; nothing was written");
  CHECK_THAT(r.output, Contains("about 1e+13 records"));
  CHECK_FALSE(fs::exists(out));
  // A fill of 4 PiB in 4 KiB requests: 2^40 records, 24 TiB.
  expect_error(run_bounded("gen --pattern seq --logical 4P --fill --fill-io 4K --writes 0 -o " + out), "fill requests");
  CHECK_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(tmp.file(""))) FAIL("left behind: " << e.path());
  // --help says what --writes counts.
  CHECK_THAT(run_ftlsim("gen --help").output,
             Contains("a count, not bytes") && Contains("--writes 2e9 is 2*10^9 records, 48 GB"));
}

TEST_CASE("gen refuses a count with a size suffix instead of writing 2*10^9 requests for --writes 2G",
          "[cli][hostile]") {
  // `gen --writes 2G` may mean 2 GiB of writes or 2*10^9 requests (a 48 GB
  // trace): it is refused, naming both readings.
  const TempDir tmp("hostile-gen-count");
  const std::string out = tmp.file("g.ftr");
  const RunResult r = run_bounded("gen --pattern uniform --logical 4G --writes 2G -o " + out);
  expect_error(r, "--writes: '2G' is ambiguous");
  // 2*10^9 records of 24 bytes = 4.8e10 bytes = 44.70 GiB.
  CHECK_THAT(r.output, Contains("2e9 requests (2*10^9) make a trace of 44.70 GiB"));
  CHECK_THAT(r.output, Contains("give --bytes 2G for 2G of writes, or --writes 2e9"));
  CHECK_FALSE(fs::exists(out));
  expect_error(run_bounded("gen --pattern uniform --logical 4G --writes 100 --markers 10K -o " + out),
               "--markers: '10K' is a size, not a count; give a number, e.g. --markers 10e3");
  CHECK_FALSE(fs::exists(out));
  // What the message suggests works: --bytes 2M is 512 writes of 4 KiB; 2e3 is 2000 writes.
  const RunResult by_bytes = run_bounded("gen --pattern uniform --logical 4M --bytes 2M -o " + out);
  REQUIRE(by_bytes.exit_code == 0);
  CHECK_THAT(by_bytes.output, Contains("wrote 512 records"));
  const RunResult by_count = run_bounded("gen --pattern uniform --logical 4M --writes 2e3 --force -o " + out);
  REQUIRE(by_count.exit_code == 0);
  CHECK_THAT(by_count.output, Contains("wrote 2000 records"));
}

TEST_CASE("timed mode refuses issue times beyond 2^62 ns and out-of-range speeds", "[cli][hostile]") {
  const TempDir tmp("hostile-time");
  const std::string trace = small_trace(tmp);
  expect_error(run_ftlsim("--trace " + trace + " " + kDevice + " --timing --speed 1e-300"),
               "--speed 1e-300 is out of range: give a number from 1e-06 to 1e+09");
  expect_error(run_ftlsim("--trace " + trace + " " + kDevice + " --timing --speed inf"), "--speed");
  const std::string img = tmp.file("t.img");
  expect_error(run_ftlsim("replay --trace " + trace + " --target " + img + " --create 4M --mode timed --speed 1e-300"),
               "--speed 1e-300 is out of range");
  CHECK_FALSE(fs::exists(img));

  // Two writes 2^63 ns apart: refused at speed 1 (it used to be issued at a
  // time clamped to 2^62, with 0 ns latency, or at once on replay).
  const std::string gap = tmp.file("gap.ftr");
  {
    trace::FtrWriter w(gap, trace::TraceMeta{});
    trace::Record rec{};
    rec.sectors = 8;
    w.append(rec);
    rec.time_ns = uint64_t{1} << 63;
    w.append(rec);
    w.finish();
  }
  expect_error(run_ftlsim("--trace " + gap + " " + kDevice + " --timing"),
               "record 1: time stamp 9223372036854775808 ns");
  expect_error(run_ftlsim("replay --trace " + gap + " --target " + img + " --create 4M --mode timed"),
               "beyond the 4.61e+09 s (2^62 ns)");
  CHECK_FALSE(fs::exists(img));
  // A span that fits at speed 1 but not at the slowest speed.
  const std::string span = tmp.file("span.ftr");
  {
    trace::FtrWriter w(span, trace::TraceMeta{});
    trace::Record rec{};
    rec.sectors = 8;
    w.append(rec);
    rec.time_ns = uint64_t{1} << 50;
    w.append(rec);
    w.finish();
  }
  CHECK(run_ftlsim("--trace " + span + " " + kDevice + " --timing").exit_code == 0);
  expect_error(run_ftlsim("--trace " + span + " " + kDevice + " --timing --speed 1e-6"), "at --speed 1e-06");
}

TEST_CASE("ftrace-blk lost events saturate and keep the warning", "[cli][hostile]") {
  const TempDir tmp("hostile-lost");
  const std::string in = tmp.file("t.txt");
  std::ofstream(in) << "CPU:0 [LOST 18446744073709551615 EVENTS]\n"
                       "  app-42 [000] ..... 1.000010: 8,16 D W 0 + 8 [app]\n"
                       "CPU:1 [LOST 1 EVENTS]\n";
  const RunResult r = run_ftlsim("convert --from ftrace-blk " + in + " -o " + tmp.file("t.ftr"));
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("WARNING: the kernel lost at least 2^64-1 events"));
}

TEST_CASE("a resumed sweep prints WAF exactly as an uninterrupted one", "[cli][hostile]") {
  const TempDir tmp("hostile-resume");
  const std::string trace = tmp.file("s.ftr");
  ftlsim::test::gen_uniform(trace, "--logical 48M --fill --writes 30000");
  const std::string cmd = "--trace " + trace + " " + kDevice + " --gc-thres 60,75 -j 1 --out " + tmp.file("sw");
  const RunResult first = run_ftlsim(cmd);
  REQUIRE(first.exit_code == 0);
  const RunResult again = run_ftlsim(cmd);  // every row carried over
  REQUIRE(again.exit_code == 0);
  REQUIRE_THAT(again.output, Contains("resumed    2 of 2"));
  // The table rows (from "gc-thres" to "wrote") are identical.
  const auto table = [](const std::string& s) {
    const size_t a = s.find("gc-thres  ");
    return a == std::string::npos ? std::string() : s.substr(a, s.find("wrote", a) - a);
  };
  INFO(first.output << "\n---\n" << again.output);
  CHECK(!table(first.output).empty());
  CHECK(table(first.output) == table(again.output));
  // The comparison only means something if this trace's WAF is one where
  // truncating to 4 decimals and rounding differ (5.841468: 5.8414 / 5.8415).
  const std::string csv = slurp(tmp.file("sw") + "/sweep.csv");
  const size_t row = csv.find("\ngc-thres=60,60,");
  REQUIRE(row != std::string::npos);
  const double waf = std::stod(csv.substr(row + std::string("\ngc-thres=60,60,").size()));
  CHECK(std::floor(waf * 1e4) != std::round(waf * 1e4));
}

TEST_CASE("a trace truncated during a timed replay ends it with a partial report, not SIGBUS", "[cli][hostile]") {
  const TempDir tmp("hostile-sigbus");
  // 2000 writes 10 ms apart: 20 s in timed mode. Truncated after 0.7 s to
  // 4 KiB (header and about 130 records): the replay reaches the lost
  // records after about 1.3 s.
  const std::string trace = tmp.file("slow.ftr");
  ftlsim::test::gen_uniform(trace, "--logical 8M --writes 2000 --iat 10ms");
  const std::string out = tmp.file("out");
  const std::string cmd = std::string("sh -c '") + FTLSIM_BINARY + " replay --trace " + trace + " --target " +
                          tmp.file("s.img") + " --create 8M --mode timed --no-progress --out " + out +
                          " & pid=$!; sleep 0.7; truncate -s 4096 " + trace + "; wait $pid; echo exit=$?'";
  const RunResult r = run_shell("timeout -k 5 60 " + cmd);
  INFO(r.output);
  if (r.output.find("O_DIRECT") != std::string::npos) SKIP_TEST("the test directory has no O_DIRECT");
  CHECK_THAT(r.output, Contains("exit=2"));
  CHECK_THAT(r.output, Contains("PARTIAL"));
  CHECK_THAT(r.output, Contains("ftlsim: error: " + trace + ": the file changed while ftlsim was reading it"));
  const std::string json = slurp(out + "/summary.json");
  CHECK_THAT(json, Contains("\"partial\": true") && Contains("the file changed while ftlsim was reading it"));
  CHECK(fs::exists(out + "/events.csv"));
}

// Small messages for hostile values and names: the real range
// of a geometry count and of a queue depth past 64 bits, a 255-byte --out
// name (its staging name passed NAME_MAX: exit 1 "cannot create a staging
// folder"), and compare --a's unexpected arguments in the order given.
TEST_CASE("real ranges and a 255-byte --out name and an overlay's extra arguments in order", "[cli][hostile]") {
  const TempDir tmp("hostile-small");
  const std::string trace = small_trace(tmp);
  const RunResult blocks = run_ftlsim("--trace " + trace + " --blocks 18446744073709551615 --no-progress");
  expect_error(blocks, "--blocks: 18446744073709551615 is too large; give a whole number from 4 to 4294967295");
  expect_error(run_ftlsim("--trace " + trace + " --channels 4294967296 --no-progress"),
               "give a whole number from 1 to 4294967295");
  expect_error(run_ftlsim("--trace " + trace + " --channels 0 --no-progress"), "--channels must be at least 1");
  expect_error(run_ftlsim("qd-sweep --trace " + trace + " --qd 1,99999999999999999999 --out " + tmp.file("q")),
               "--qd: 99999999999999999999 is not between 1 and 1048576");
  const std::string long_name = tmp.file(std::string(255, 'o'));
  const RunResult out = run_ftlsim("--trace " + trace + " " + kDevice + " --out " + long_name);
  INFO(out.output);
  CHECK(out.exit_code == 0);
  CHECK(fs::exists(long_name + "/summary.json"));
  const RunResult sweep =
      run_ftlsim("--trace " + trace + " " + kDevice + " --gc-thres 60,70 --out " + tmp.file(std::string(255, 's')));
  INFO(sweep.output);
  CHECK(sweep.exit_code == 0);
  const RunResult cmp =
      run_ftlsim("compare --trace " + trace + " " + kDevice + " --a \"--out victim x\" --b \"--gc-thres 70\"");
  expect_error(cmp, "The following arguments were not expected: --out victim x");
  CHECK(std::count(cmp.output.begin(), cmp.output.end(), '\n') == 1);
  expect_error(
      run_ftlsim("replay --trace " + trace + " --target " + tmp.file("t.img") + " --create 8M --predict \"--bogus 3\""),
      "not expected: --bogus 3");
  CHECK_FALSE(fs::exists(tmp.file("t.img")));
}

// The rest of that test's ranges (the rerun's S6): a value past 64 bits in
// a list, or as a range's START or STOP, is refused naming the setting's
// real range, as a single value within 64 bits is (it said "give a whole
// number from 0 to 18446744073709551615", or "is not a whole number").
TEST_CASE("values past 64 bits in lists and ranges name the setting's real range", "[cli][hostile]") {
  const TempDir tmp("hostile-ranges");
  const std::string trace = small_trace(tmp);
  const std::string sim = "--trace " + trace + " --no-progress --out " + tmp.file("o") + " ";
  const std::string huge = "99999999999999999999";
  const std::string blocks = "--blocks: " + huge + " is too large; give a whole number from 4 to 4294967295";
  for (const std::string& value :
       {huge, huge + ",8", "4:" + huge + ":4", huge + ":" + huge + ":1", "8,4:" + huge + ":4"}) {
    INFO(value);
    expect_error(run_ftlsim(sim + "--blocks " + value), blocks);
  }
  expect_error(run_ftlsim(sim + "--channels 1:" + huge + ":1"),
               "--channels: " + huge + " is too large; give a whole number from 1 to 4294967295");
  // The range named is the setting's own (d-choices starts at 1, not 0).
  expect_error(run_ftlsim(sim + "--victim d-choice --d-choices 4294967296"),
               "--d-choices: 4294967296 is too large; give a whole number from 1 to 4294967295");
  expect_error(run_ftlsim(sim + "--timing --qd 1:" + huge + ":1"),
               "--qd: " + huge + " is too large; give a whole number from ");
  for (const std::string& value : {"1:" + huge + ":1", huge + ":" + huge + ":1", "1," + huge}) {
    INFO(value);
    expect_error(run_ftlsim("qd-sweep --trace " + trace + " --qd " + value + " --out " + tmp.file("q")),
                 "--qd: " + huge + " is not between 1 and 1048576");
  }
  // A step past 64 bits is no value of the setting: said so, not "not a whole number".
  expect_error(
      run_ftlsim(sim + "--blocks 4:8:" + huge),
      "--blocks: '4:8:" + huge + "' is not a range START:STOP:STEP: '" + huge + "' is too large (past 2^64-1)");
  CHECK_FALSE(fs::exists(tmp.file("o")));
  CHECK_FALSE(fs::exists(tmp.file("q")));
}
