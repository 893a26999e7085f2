// core/message.h: the settings a message names are held apart from its
// text, so a value or a file name is never read for setting names.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/message.h"
#include "core/setting.h"

namespace ftlsim {
namespace {

std::string as_flag(std::string_view name) { return "--" + std::string(name); }

}  // namespace

TEST_CASE("say() takes settings from its format only, never from an argument", "[core][unit]") {
  const Message m = say("`gc-thres-high` {} is below `gc-thres` {}: see {}", 80, 90, "`out`.ftr");
  CHECK(m.settings() == std::vector<std::string>{"gc-thres-high", "gc-thres"});
  CHECK(m.str() == "`gc-thres-high` 80 is below `gc-thres` 90: see `out`.ftr");
  CHECK(m.str(as_flag) == "--gc-thres-high 80 is below --gc-thres 90: see `out`.ftr");
}

TEST_CASE("say() keeps format specs and escapes across the settings it splits at", "[core][unit]") {
  CHECK(say("to `gc-thres-high` {:.4g}{} ({{x}})", 93.33333, "%").str(as_flag) == "to --gc-thres-high 93.33% ({x})");
  // Only a backquoted lower-case name is a setting: these stay text.
  CHECK(say("`nvme set-feature` and `{}` and `Out`", "x").settings().empty());
  CHECK(say("`nvme set-feature` and `{}`", "x").str(as_flag) == "`nvme set-feature` and `x`");
}

TEST_CASE("plain text and joined messages keep their parts", "[core][unit]") {
  const Message plain("trace `wrap`.ftr: no such file");
  CHECK(plain.settings().empty());
  CHECK(plain.str(as_flag) == "trace `wrap`.ftr: no such file");
  const Message both = join({say("`qd` 0 is outside 1..4096"), Message("a `ops` b")}, "; ");
  CHECK(both.str(as_flag) == "--qd 0 is outside 1..4096; a `ops` b");
  CHECK(say("in /proc/self/fd/3 `out`").replaced("/proc/self/fd/3", "x/.y").str(as_flag) == "in x/.y --out");
}

TEST_CASE("a Problem names its setting as data, and errors carry their message", "[core][unit]") {
  const Problem p{"gc-thres", "150", "must be a percentage in (0, 100)"};
  CHECK(p.text() == "`gc-thres` 150 must be a percentage in (0, 100)");
  CHECK(p.message().str(as_flag) == "--gc-thres 150 must be a percentage in (0, 100)");
  CHECK(Problem{"blocks", "3", ": at least 4 lines are needed"}.text() == "`blocks` 3: at least 4 lines are needed");
  CHECK(Problem{"", "", "logical capacity is 0"}.text() == "logical capacity is 0");
  CHECK(Problem{"victim", "x", "(known: greedy)", Problem::Shape::kUnknown}.text() ==
        "`victim`: unknown policy 'x' (known: greedy)");
  try {
    throw SettingError({"ops", "`speed`", "is not all, read or write", Problem::Shape::kBadText});
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "`ops`: '`speed`' is not all, read or write");
    CHECK(e.message().str(as_flag) == "--ops: '`speed`' is not all, read or write");
  }
}

}  // namespace ftlsim
