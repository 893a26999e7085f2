// `ftlsim replay` end to end on temporary files: outputs, --verify,
// --predict against the simulate command, refusals (one line, exit 2,
// nothing left behind), and Ctrl-C giving a partial report. Device paths
// (loop devices, root) are covered by test_replay_loop.sh.
#include <fcntl.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cerrno>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli/cli_run.h"

using Catch::Contains;
using ftlsim::test::run_ftlsim;
using ftlsim::test::RunResult;
using ftlsim::test::slurp;
using ftlsim::test::TempDir;

namespace {

namespace fs = std::filesystem;

size_t lines_in(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

// The value after `"key": ` in a JSON text (first occurrence), up to , or newline.
std::string json_value(const std::string& json, const std::string& key) {
  const std::string k = "\"" + key + "\": ";
  const size_t at = json.find(k);
  if (at == std::string::npos) return "<missing " + key + ">";
  const size_t start = at + k.size();
  const size_t end = json.find_first_of(",\n", start);
  return json.substr(start, end - start);
}

// The line of `text` starting with `label`.
std::string line_of(const std::string& text, const std::string& label) {
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t eol = text.find('\n', pos);
    const std::string line = text.substr(pos, eol == std::string::npos ? std::string::npos : eol - pos);
    if (line.rfind(label, 0) == 0) return line;
    if (eol == std::string::npos) break;
    pos = eol + 1;
  }
  return "<no line " + label + ">";
}

// 16 MiB of uniform 4 KiB requests: 3000 writes plus reads and trims mixed in.
std::string make_trace(const TempDir& tmp) {
  const std::string t = tmp.file("u.ftr");
  const RunResult g = run_ftlsim(
      "gen --pattern uniform --logical 16M --writes 3000 --read-ratio 0.2 --trim-ratio 0.05 "
      "--markers 1000 -o " +
      t);
  REQUIRE(g.exit_code == 0);
  return t;
}

void expect_refusal(const std::string& args, const std::string& pattern) {
  const RunResult r = run_ftlsim(args);
  INFO(args << "\n" << r.output);
  CHECK(r.exit_code == 2);
  CHECK(lines_in(r.output) == 1);
  CHECK_THAT(r.output, Contains("ftlsim: error: ") && Contains(pattern));
}

}  // namespace

TEST_CASE("replay --help lists every option", "[replay][cli]") {
  const RunResult r = run_ftlsim("replay --help");
  CHECK(r.exit_code == 0);
  for (const char* opt : {"--trace", "--target", "--out", "--qd", "--mode", "--speed", "--ops", "--placement", "--rg",
                          "--create", "--wrap", "--force", "--max-io", "--interval", "--verify", "--predict",
                          "--no-progress", "--allow-unlisted-pids", "--ruh-update-at-end"}) {
    CHECK_THAT(r.output, Contains(opt));
  }
}

TEST_CASE("replay to a new file writes the report and verifies", "[replay][cli]") {
  const TempDir tmp("replay-cli");
  const std::string trace = make_trace(tmp);
  const std::string img = tmp.file("t.img");
  const std::string out = tmp.file("out");
  const RunResult r = run_ftlsim("replay --trace " + trace + " --target " + img + " --create 16M --out " + out +
                                 " --verify --no-progress");
  INFO(r.output);
  if (r.exit_code == 2 && r.output.find("O_DIRECT") != std::string::npos) {
    WARN("skipped: no O_DIRECT in the temp dir");
    return;
  }
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(line_of(r.output, "status"), Contains("complete in"));
  CHECK_THAT(line_of(r.output, "target"), Contains("16.00 MiB") && Contains("created by --create"));
  CHECK_THAT(line_of(r.output, "verify"), Contains(" 0 mismatches"));
  // The verify phase is timed: bytes read back and seconds.
  CHECK_THAT(line_of(r.output, "verify"), Contains(" read back in ") && Contains(" s)"));
  CHECK_THAT(line_of(r.output, "write "), Contains(" 3000 "));
  CHECK_THAT(line_of(r.output, "wrote"), Contains("summary.json") && Contains("events.csv"));
  CHECK(fs::file_size(img) == 16u << 20);

  const std::string json = slurp(out + "/summary.json");
  CHECK(json_value(json, "kind") == "\"replay\"");
  CHECK(json_value(json, "partial") == "false");
  CHECK(json_value(json, "stop_reason") == "null");
  CHECK(json_value(json, "ios") == "3000");        // ops.write comes first
  CHECK(json_value(json, "bytes") == "16777216");  // target.bytes comes first
  CHECK(json_value(json, "mismatches") == "0");
  // 3000 random 4 KiB writes over 16 MiB touch every 1 MiB chunk: all read back.
  CHECK(json_value(json, "read_bytes") == "16777216");
  CHECK_FALSE(json_value(json, "seconds").empty());
  CHECK(json_value(json, "queue_depth") == "32");
  const std::string csv = slurp(out + "/events.csv");
  CHECK(csv.rfind("elapsed_s,records,trace_time_ns,ios,bytes,interval_iops,interval_mib_s,interval_p50_us,", 0) == 0);
  CHECK(lines_in(csv) >= 3);
}

// A file --create made for a run that does no record (an empty trace) is
// removed again, and the report says so (it said "created by --create" and
// summary.json "created": true of a file that was gone).
TEST_CASE("replay of an empty trace says the file --create made is removed again", "[replay][cli]") {
  const TempDir tmp("replay-empty");
  const std::string csv = tmp.file("e.csv");
  std::ofstream(csv) << "time,op,lba,length,pid\n";
  const std::string trace = tmp.file("e.ftr");
  REQUIRE(run_ftlsim("convert --from csv " + csv + " -o " + trace + " --no-progress").exit_code == 0);
  const std::string img = tmp.file("e.img");
  const RunResult r = run_ftlsim("replay --trace " + trace + " --target " + img + " --create 1M --no-progress --out " +
                                 tmp.file("out"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("(created by --create; removed again: no record was done)"));
  CHECK_FALSE(fs::exists(img));
  const std::string json = slurp(tmp.file("out/summary.json"));
  CHECK(json_value(json, "created") == "true");
  CHECK(json_value(json, "removed") == "true");
}

TEST_CASE("replay --predict prints the model's WAF for the same trace", "[replay][cli]") {
  const TempDir tmp("replay-predict");
  const std::string trace = make_trace(tmp);
  const std::string model = "--channels 8 --luns 1 --blocks 64 --pages 32 --op 0.25";
  const RunResult sim = run_ftlsim("--trace " + trace + " " + model + " --no-progress");
  REQUIRE(sim.exit_code == 0);
  const std::string waf_line = line_of(sim.output, "WAF");
  const std::string waf = waf_line.substr(waf_line.find_last_of(' ') + 1);
  const RunResult r = run_ftlsim("replay --trace " + trace + " --target " + tmp.file("p.img") +
                                 " --create 16M --no-progress --predict \"" + model + "\"");
  INFO(r.output);
  if (r.exit_code == 2 && r.output.find("O_DIRECT") != std::string::npos) {
    WARN("skipped: the test directory has no O_DIRECT: " << r.output);
    return;
  }
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(line_of(r.output, "model WAF"), Contains(waf));
  expect_refusal(
      "replay --trace " + trace + " --target " + tmp.file("q.img") + " --create 16M --predict \"--gc-thres 50,60\"",
      "--predict takes one configuration");
  CHECK_FALSE(fs::exists(tmp.file("q.img")));
}

TEST_CASE("replay refusals: one line, exit 2, nothing written", "[replay][cli]") {
  const TempDir tmp("replay-refuse");
  const std::string trace = make_trace(tmp);
  const std::string img = tmp.file("r.img");
  expect_refusal("replay --trace " + trace + " --target " + img, "does not exist; add --create SIZE");
  CHECK_FALSE(fs::exists(img));
  // The 16 MiB trace does not fit 1 MiB: refused before anything is written,
  // and the file --create made is removed again.
  expect_refusal("replay --trace " + trace + " --target " + img + " --create 1M",
                 "ends beyond the target's 1048576 bytes");
  CHECK_FALSE(fs::exists(img));
  // A size past the file system's largest file (ext4: 16 TiB with 4 KiB
  // blocks) is bad input, exit 2, and the file made is removed. Whether the
  // folder's file system refuses 1 PiB is found out first, with a file of
  // the test's own.
  {
    const std::string probe = tmp.file("probe.bin");
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    REQUIRE(fd >= 0);
    const bool too_big = ::ftruncate(fd, off_t{1} << 50) != 0 && errno == EFBIG;
    ::close(fd);
    fs::remove(probe);
    if (too_big) {
      expect_refusal("replay --trace " + trace + " --target " + img + " --create 1P",
                     "its file system cannot hold a file of 1125899906842624 bytes (--create); nothing was written");
      CHECK_FALSE(fs::exists(img));
    } else {
      WARN("the test folder's file system holds a 1 PiB file: the --create refusal is not checked here");
    }
  }
  expect_refusal("replay --trace " + trace + " --target " + img + " --create 1M --placement stream",
                 "--placement stream needs a block device");
  CHECK_FALSE(fs::exists(img));
  expect_refusal("replay --trace " + trace + " --target /dev/ng-ftlsim-missing --placement nvme",
                 "--placement nvme: /dev/ng-ftlsim-missing: No such file or directory");
  const std::string plain = tmp.file("plain.bin");
  std::ofstream(plain) << "not a device";
  expect_refusal("replay --trace " + trace + " --target " + plain + " --placement nvme", "is not a character device");
  // The trace itself is never a target, whatever the placement.
  expect_refusal("replay --trace " + trace + " --target " + trace + " --placement nvme", "is the input --trace");
  expect_refusal("replay --trace " + trace + " --target /dev/null --placement nvme",
                 "/dev/null is not an NVMe namespace");
  expect_refusal("replay --trace " + trace + " --target /dev/null", "is a character device");
  expect_refusal("replay --trace " + trace + " --target " + img + " --qd 2 --mode fast --speed 2",
                 "--mode: 'fast' is not afap or timed");
  expect_refusal("replay --trace " + trace + " --target " + img + " --qd 0",
                 "--qd: 0 is too small; give a whole number from 1 to 4096");
  expect_refusal("replay --trace " + trace + " --target " + img + " --speed 2", "--speed applies only to --mode timed");
  expect_refusal("replay --trace " + trace + " --target " + img + " --ops write,erase", "'erase' is not an op");
  expect_refusal("replay --trace " + trace + " --target " + img + " --rg 1", "--rg applies only to --placement nvme");
  expect_refusal("replay --trace " + trace + " --target " + img + " --placement nvme --verify",
                 "--verify is not available with --placement nvme");
  expect_refusal("replay --trace " + trace + " --target " + img + " --allow-unlisted-pids",
                 "--allow-unlisted-pids needs --placement nvme");
  expect_refusal("replay --trace " + trace + " --target " + img + " --ruh-update-at-end",
                 "--ruh-update-at-end needs --placement nvme");
  expect_refusal("replay --trace " + tmp.file("missing.ftr") + " --target " + img + " --create 1M", "missing.ftr");
  CHECK_FALSE(fs::exists(img));
  // Empty values name their option (an empty --target was an internal
  // error, --trace "" read ": no such file", --create "" was taken as none).
  expect_refusal("replay --trace " + trace + " --target ''", "--target: the path is empty");
  expect_refusal("replay --trace '' --target " + img + " --create 1M", "--trace: the path is empty");
  expect_refusal("replay --trace " + trace + " --target " + img + " --create ''", "--create: '' is empty");
  expect_refusal("replay --trace " + trace + " --target " + img + " --create 1M --mode timed --speed abc",
                 "--speed: 'abc' is not a number");
  expect_refusal("info ''", "an input's path is empty");
  CHECK_FALSE(fs::exists(img));
  // --verify's size limit is a check like the others: before the target is
  // made, resized or written (it came after the replay had written it all).
  expect_refusal("replay --trace " + trace + " --target " + img + " --create 65G --verify",
                 "--verify supports targets up to 64.00 GiB; " + img + " has 65.00 GiB");
  CHECK_FALSE(fs::exists(img));
  std::ofstream(img) << std::string(4096, 'k');
  expect_refusal("replay --trace " + trace + " --target " + img + " --create 65G --force --verify",
                 "--verify supports targets up to 64.00 GiB");
  CHECK(fs::file_size(img) == 4096);
  fs::remove(img);
}

// A target name that is a symbolic link to no file "does not exist", yet is
// no place to create one: a new target is never made through a link. It
// used to fail after the checks with "cannot create: File exists", exit 1.
TEST_CASE("replay onto a dangling symbolic link: one line naming the link, exit 2, with or without --create",
          "[replay][cli]") {
  const TempDir tmp("replay-dangling");
  const std::string trace = make_trace(tmp);
  const std::string link = tmp.file("tg.img");
  fs::create_symlink("nowhere/new.img", link);
  for (const std::string& create : {std::string(" --create 16M"), std::string()}) {
    const RunResult r = run_ftlsim("replay --trace " + trace + " --target " + link + create + " --no-progress");
    INFO(create << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output == "ftlsim: error: --target " + link +
                          ": is a symbolic link (to nowhere/new.img) that leads to no file; a target is never "
                          "created or written through a link: give the file itself\n");
    CHECK(fs::is_symlink(link));
    CHECK_FALSE(fs::exists(tmp.file("nowhere")));
  }
}

TEST_CASE("Ctrl-C drains and writes a partial report", "[replay][cli]") {
  const TempDir tmp("replay-sigint");
  // 2000 writes 10 ms apart: 20 s in timed mode.
  const std::string trace = tmp.file("slow.ftr");
  REQUIRE(run_ftlsim("gen --pattern uniform --logical 8M --writes 2000 --iat 10ms -o " + trace).exit_code == 0);
  const std::string out = tmp.file("out");
  const std::string cmd = std::string("sh -c '") + FTLSIM_BINARY + " replay --trace " + trace + " --target " +
                          tmp.file("s.img") + " --create 8M --mode timed --no-progress --out " + out +
                          " & pid=$!; sleep 0.7; kill -INT $pid; wait $pid; echo exit=$?' 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string text;
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
  ::pclose(p);
  INFO(text);
  if (text.find("O_DIRECT") != std::string::npos) {
    WARN("skipped: the test directory has no O_DIRECT: " << text);
    return;
  }
  CHECK_THAT(text, Contains("exit=1"));
  CHECK_THAT(line_of(text, "status"), Contains("PARTIAL") && Contains("interrupted"));
  CHECK_THAT(text, Contains("ftlsim: error: replay interrupted; the report above is partial"));
  const std::string json = slurp(out + "/summary.json");
  CHECK(json_value(json, "partial") == "true");
  CHECK(json_value(json, "stop_reason") == "\"interrupted\"");
  CHECK(fs::exists(out + "/events.csv"));
}
