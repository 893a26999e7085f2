// Every option that changes what a run writes enters its config_key, the
// identity an output folder's results are kept, replaced or resumed by
// (cli/run_key.h, cli/out_results.h, sweep/sweep_resume.h). The test reads
// each command's --help and knows every option there: one that changes
// results or output files must change the key of a single run and, in the
// default command, be keyed alike in a sweep's configuration (so that a
// sweep resumed with it is another sweep); one that changes no output file
// must leave the key as it is. An option --help lists that the tables below
// do not know fails the test: whoever adds an option says which it is.
// Issue #22, the hostile rerun's W1: --id-series (which adds
// id_timeseries.csv) was not keyed, and a sweep resumed with it kept folders
// without that file ("resumed 2 of 2", exit 0).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli_run.h"

using Catch::Contains;
using ftlsim::test::run_ftlsim;
using ftlsim::test::RunResult;
using ftlsim::test::slurp;
using ftlsim::test::TempDir;

namespace {

namespace fs = std::filesystem;

// The long names (without dashes) of the options `help` lists: every line
// "  -x,--name ..." or "  --name ...".
std::set<std::string> options_in_help(const std::string& help) {
  std::set<std::string> names;
  size_t pos = 0;
  while (pos < help.size()) {
    size_t eol = help.find('\n', pos);
    if (eol == std::string::npos) eol = help.size();
    const std::string line = help.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.rfind("  -", 0) != 0) continue;
    std::string token = line.substr(2, line.find(' ', 2) - 2);
    token = token.substr(token.rfind(',') == std::string::npos ? 0 : token.rfind(',') + 1);
    while (!token.empty() && token[0] == '-') token.erase(0, 1);
    const size_t eq = token.find('=');  // "--gc-thres PCT=75" has a blank first; "--x=..." would not
    names.insert(token.substr(0, eq));
  }
  return names;
}

// The value of "config_key" in a summary.json or qd_sweep.json.
std::string key_in(const std::string& json_path) {
  const std::string text = slurp(json_path);
  const std::string tag = "\"config_key\": \"";
  const size_t at = text.find(tag);
  if (at == std::string::npos) return "none";
  return text.substr(at + tag.size(), 16);
}

// How an option relates to the key.
enum class Kind {
  kKeyed,     // changes results or output files: `args` must change the key
  kNoOutput,  // changes neither: `args` must leave it
  kNotRun,    // not run here (the command's own --trace/--out/--help, or a device-only option)
};
struct Option {
  Kind kind;
  std::string args;        // what is added to the base command for it
  bool timed = false;      // compared with the timed base (--timing)
  std::string replaces{};  // the base's setting it stands in for ("" = its own)
};

std::string help_of(const std::string& command) {
  const RunResult r = run_ftlsim(command + " --help");
  REQUIRE(r.exit_code == 0);
  return r.output;
}

// Fails for each option `help` lists that `table` does not know.
void check_known(const std::string& command, const std::set<std::string>& listed,
                 const std::map<std::string, Option>& table) {
  for (const std::string& name : listed) {
    INFO("ftlsim " << command << " --help lists --" << name);
    CHECK(table.count(name) == 1);  // unknown: add it to this test's table, keyed or not
  }
}

// The default command's options: the settings (one value each, other than
// the base's or the default), the options outside them, and those that
// change no output file.
std::map<std::string, Option> simulate_options() {
  const auto keyed = [](std::string args, bool timed = false) { return Option{Kind::kKeyed, std::move(args), timed}; };
  return {
      // Settings: device.
      {"preset", keyed("--preset femu-eth-512m")},
      {"rules", keyed("--rules confdp")},
      {"channels", keyed("--channels 4")},
      {"luns", keyed("--luns 2")},
      {"planes", keyed("--planes 2")},
      {"blocks", keyed("--blocks 48")},
      {"pages", keyed("--pages 64")},
      {"page-size", keyed("--page-size 8K")},
      {"logical", {Kind::kKeyed, "--logical 16M", false, "blocks"}},  // not with both --blocks and --op
      {"op", keyed("--op 0.3")},
      {"sizing", keyed("--sizing lines")},
      {"trim-partial", keyed("--trim-partial keep")},
      {"trim-range", keyed("--trim-range plus-one")},
      // GC.
      {"gc-thres", keyed("--gc-thres 60")},
      {"gc-thres-high", keyed("--gc-thres-high 90")},
      {"victim", keyed("--victim cost-benefit")},
      {"d-choices", keyed("--d-choices 4")},
      {"seed", keyed("--seed 2")},
      {"gc-check", keyed("--gc-check page")},
      {"rg-gc", keyed("--rg-gc every")},
      {"gc-order", keyed("--gc-order page")},
      {"declined", keyed("--declined keep")},
      {"forced-passes", keyed("--forced-passes 5")},
      {"gc-trigger", keyed("--gc-trigger watermark")},
      // FDP (under the base's placement single they change no number, but
      // they are what was asked for: keyed all the same).
      {"rg", keyed("--rg 2")},
      {"ru-size", keyed("--ru-size 2M")},
      {"ruh", keyed("--ruh 4")},
      {"ruh-type", keyed("--ruh-type ii")},
      {"pi-gc", keyed("--pi-gc host-ru")},
      {"ii-gc", keyed("--ii-gc gc-ru")},
      {"ru-open", keyed("--ru-open lazy")},
      {"rg-split", keyed("--rg-split dies")},
      {"rg-of", keyed("--rg-of lba")},
      {"pid-format", keyed("--pid-format rgif-min")},
      {"single", keyed("--single handle0")},
      {"ru-time-limit", keyed("--ru-time-limit 1s")},
      {"placement", keyed("--placement fdp")},
      {"write-spill", keyed("--write-spill nearest")},
      {"gc-spill", keyed("--gc-spill nearest")},
      // Output.
      {"interval", keyed("--interval 1M")},
      // Timing (against the timed base).
      {"qd", keyed("--qd 4", true)},
      {"speed", keyed("--speed 2", true)},
      {"read-time", keyed("--read-time 50us", true)},
      {"program-time", keyed("--program-time 250us", true)},
      {"erase-time", keyed("--erase-time 3ms", true)},
      {"xfer-time", keyed("--xfer-time 10us", true)},
      {"event-interval", keyed("--event-interval 1ms", true)},
      // Outside the settings.
      {"timing", keyed("--timing")},
      {"id-series", keyed("--id-series")},
      {"wrap", keyed("--wrap")},
      {"reset-at", keyed("--reset-at device:200")},
      {"precondition", keyed("--precondition seq")},
      {"repeat", keyed("--repeat 2")},
      // No output file changes.
      {"jobs", {Kind::kNoOutput, "-j 1"}},
      {"mem-limit", {Kind::kNoOutput, "--mem-limit off"}},
      {"no-progress", {Kind::kNoOutput, "--no-progress"}},
      {"force", {Kind::kNoOutput, "--force"}},
      {"help", {Kind::kNotRun, ""}},
      {"version", {Kind::kNotRun, ""}},
      {"trace", {Kind::kNotRun, ""}},
      {"out", {Kind::kNotRun, ""}},
  };
}

// The base device and its settings as given ("--channels 8" ...); a variant
// of one of them replaces it.
const std::vector<std::pair<std::string, std::string>> kBase = {
    {"channels", "--channels 8"}, {"luns", "--luns 1"}, {"blocks", "--blocks 64"},
    {"pages", "--pages 32"},      {"op", "--op 0.25"},  {"no-progress", "--no-progress"}};

std::string base_with(const std::string& name, const std::string& args, const std::string& replaces = "") {
  std::string out;
  bool replaced = false;
  for (const auto& [n, a] : kBase) {
    if (n == replaces) continue;
    out += " " + (n == name ? args : a);
    replaced = replaced || n == name;
  }
  return replaced ? out : out + " " + args;
}

}  // namespace

TEST_CASE(
    "every option of the default command that changes what a run writes changes its config_key, in a single run "
    "and a sweep alike",
    "[cli]") {
  const TempDir tmp("keyed-options");
  const std::string t = tmp.file("t.ftr");
  ftlsim::test::gen_uniform(t, "--logical 8M --writes 1000 --markers 200");
  const std::map<std::string, Option> table = simulate_options();
  check_known("", options_in_help(help_of("")), table);

  int n = 0;
  const auto key = [&](const std::string& args) {
    const std::string out = tmp.file("r" + std::to_string(n++));
    const RunResult r = run_ftlsim("--trace " + t + args + " --out " + out);
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 0);
    return r.exit_code == 0 ? key_in(out + "/summary.json") : "exit " + std::to_string(r.exit_code);
  };
  // The same configuration as the first of a sweep over `axis` (its folder `id`).
  const auto sweep_key = [&](const std::string& args, const std::string& axis, const std::string& id) {
    const std::string out = tmp.file("s" + std::to_string(n++));
    const RunResult r = run_ftlsim("--trace " + t + args + " " + axis + " --out " + out);
    INFO(args << " " << axis << "\n" << r.output);
    CHECK(r.exit_code == 0);
    return r.exit_code == 0 ? key_in(out + "/" + id + "/summary.json") : "exit " + std::to_string(r.exit_code);
  };
  const std::string plain = key(base_with("", ""));
  const std::string timed = key(base_with("", "--timing"));
  REQUIRE(plain != "none");
  CHECK(timed != plain);
  for (const auto& [name, o] : table) {
    if (o.kind == Kind::kNotRun) continue;
    INFO("--" << name << ": " << o.args);
    const std::string args = base_with(name, o.timed ? "--timing " + o.args : o.args, o.replaces);
    const std::string k = key(args);
    if (o.kind == Kind::kNoOutput) {
      CHECK(k == plain);
      continue;
    }
    CHECK(k != (o.timed ? timed : plain));
    // In a sweep, the configuration that equals this run has its key.
    const bool seed = name == "seed";
    CHECK(sweep_key(args, seed ? "--d-choices 8,9" : "--seed 1,2", seed ? "d-choices=8" : "seed=1") == k);
  }
}

TEST_CASE("a sweep resumed with --id-series is another sweep: no folder without id_timeseries.csv is kept", "[cli]") {
  const TempDir tmp("keyed-id-series");
  const std::string t = tmp.file("t.ftr");
  ftlsim::test::gen_uniform(t, "--logical 8M --writes 1000");
  const std::string sweep = "--trace " + t + " --logical 8M --no-progress --gc-thres 60,70 --out " + tmp.file("sw");
  REQUIRE(run_ftlsim(sweep).exit_code == 0);
  const RunResult resumed = run_ftlsim(sweep + " --id-series");
  INFO(resumed.output);
  CHECK(resumed.exit_code == 2);
  CHECK_THAT(resumed.output, Contains("holds another sweep"));
  CHECK_THAT(resumed.output, !Contains("resumed"));
  const RunResult forced = run_ftlsim(sweep + " --id-series --force");
  INFO(forced.output);
  REQUIRE(forced.exit_code == 0);
  for (const std::string id : {"gc-thres=60", "gc-thres=70"}) {
    CHECK(fs::exists(tmp.file("sw/" + id + "/id_timeseries.csv")));
  }
  // And resumed with it: the same sweep.
  const RunResult again = run_ftlsim(sweep + " --id-series");
  INFO(again.output);
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.output, Contains("resumed    2 of 2"));
}

TEST_CASE("compare and qd-sweep and replay: every option of theirs that changes what they write changes the key",
          "[cli]") {
  const TempDir tmp("keyed-commands");
  const std::string t = tmp.file("t.ftr"), t2 = tmp.file("t2.ftr");
  ftlsim::test::gen_uniform(t, "--logical 8M --writes 1000");
  ftlsim::test::gen_uniform(t2, "--logical 8M --writes 1000 --seed 2");
  const std::map<std::string, Option> common = simulate_options();
  int n = 0;
  const auto run_keys = [&](const std::string& args, const std::vector<std::string>& files) {
    const std::string out = tmp.file("r" + std::to_string(n++));
    const RunResult r = run_ftlsim(args + " --out " + out);
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 0);
    if (r.exit_code != 0) return "exit " + std::to_string(r.exit_code);
    std::string keys;
    for (const std::string& f : files) keys += key_in(out + "/" + f) + " ";
    return keys;
  };

  SECTION("compare") {
    std::map<std::string, Option> table = common;
    table.erase("jobs");  // compare runs its two sides on two threads: no -j
    table["trace-b"] = {Kind::kKeyed, "--trace-b " + t2};
    table["a"] = {Kind::kKeyed, "--a \"--gc-thres 60\""};
    table["b"] = {Kind::kKeyed, "--b \"--placement fdp --gc-thres 60\""};
    check_known("compare", options_in_help(help_of("compare")), table);
    const std::string base = "compare --trace " + t + " --logical 8M --no-progress";
    const std::string b = " --b \"--placement fdp\"";
    const std::vector<std::string> files = {"a/summary.json", "b/summary.json"};
    const std::string plain = run_keys(base + b, files);
    // Its own options, and the options outside the settings (the settings
    // are keyed by the same code as the default command's).
    for (const std::string name : {"trace-b", "a", "b", "id-series", "wrap", "repeat", "precondition", "timing"}) {
      INFO("compare --" << name);
      CHECK(run_keys(base + (name == "b" ? "" : b) + " " + table.at(name).args, files) != plain);
    }
    CHECK(run_keys(base + b + " --mem-limit off", files) == plain);
  }
  SECTION("qd-sweep") {
    std::map<std::string, Option> table = common;
    table["qd"] = {Kind::kKeyed, "--qd 1,2"};
    table["ops"] = {Kind::kKeyed, "--ops write"};
    check_known("qd-sweep", options_in_help(help_of("qd-sweep")), table);
    const std::string base = "qd-sweep --trace " + t + " " + ftlsim::test::kDevice;
    const std::vector<std::string> files = {"qd_sweep.json"};
    const std::string plain = run_keys(base + " --qd 1", files);
    for (const std::string args : {"--qd 1,2", "--ops write", "--gc-thres 60", "--wrap", "--read-time 50us"}) {
      INFO("qd-sweep " << args);
      CHECK(run_keys(base + (args.rfind("--qd", 0) == 0 ? "" : " --qd 1") + " " + args, files) != plain);
    }
    CHECK(run_keys(base + " --qd 1 -j 1 --mem-limit off", files) == plain);
  }
  SECTION("replay") {
    // Options that need an NVMe FDP device are not run here.
    const std::map<std::string, Option> table = {
        {"qd", {Kind::kKeyed, "--qd 4"}},
        {"mode", {Kind::kKeyed, "--mode timed --speed 1000000"}},
        {"speed", {Kind::kKeyed, "--mode timed --speed 2000000"}},
        {"ops", {Kind::kKeyed, "--ops write"}},
        {"wrap", {Kind::kKeyed, "--wrap"}},
        {"max-io", {Kind::kKeyed, "--max-io 64K"}},
        {"interval", {Kind::kKeyed, "--interval 1M"}},
        {"verify", {Kind::kKeyed, "--verify"}},
        {"predict", {Kind::kKeyed, "--predict \"--gc-thres 60\""}},
        {"create", {Kind::kNotRun, ""}},  // keyed; the file exists here (its size is the target's)
        {"placement", {Kind::kNotRun, ""}},
        {"rg", {Kind::kNotRun, ""}},
        {"allow-unlisted-pids", {Kind::kNotRun, ""}},
        {"ruh-update-at-end", {Kind::kNotRun, ""}},
        {"force", {Kind::kNoOutput, "--force"}},
        {"no-progress", {Kind::kNoOutput, "--no-progress"}},
        {"mem-limit", {Kind::kNoOutput, "--mem-limit off"}},
        {"replace-out", {Kind::kNotRun, ""}},
        {"help", {Kind::kNotRun, ""}},
        {"trace", {Kind::kNotRun, ""}},
        {"target", {Kind::kNotRun, ""}},
        {"out", {Kind::kNotRun, ""}},
    };
    check_known("replay", options_in_help(help_of("replay")), table);
    const std::string img = tmp.file("t.img");
    const RunResult made = run_ftlsim("replay --no-progress --trace " + t + " --target " + img + " --create 8M");
    if (made.output.find("O_DIRECT") != std::string::npos) SKIP_TEST("no O_DIRECT in " + tmp.file(""));
    REQUIRE(made.exit_code == 0);
    const std::string base = "replay --no-progress --trace " + t + " --target " + img;
    const std::vector<std::string> files = {"summary.json"};
    const std::string plain = run_keys(base, files);
    for (const auto& [name, o] : table) {
      if (o.kind == Kind::kNotRun) continue;
      INFO("replay --" << name << ": " << o.args);
      const std::string k = run_keys(base + " " + o.args, files);
      CHECK((k == plain) == (o.kind == Kind::kNoOutput));
    }
  }
}
