// Not a test of ftlsim: the hidden test cases the catch_main_skip check
// (tests/core/CMakeLists.txt) runs to see that catch_main.cpp reports a skip
// only when nothing failed.
#include <catch2/catch.hpp>

TEST_CASE("probe: skipped", "[.probe]") {
  CHECK(1 + 1 == 2);
  WARN("skipped: the probe has nothing to run");
}

TEST_CASE("probe: skipped in one section and failing in another", "[.probe]") {
  SECTION("skips") { WARN("skipped: this section cannot run"); }
  SECTION("fails") { CHECK(1 + 1 == 3); }
}
