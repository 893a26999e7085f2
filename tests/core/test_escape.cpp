// core/escape.h, the one escaper of user text in messages, the JSON
// writer's handling of bytes that are not UTF-8, and parse_uint_option, the
// one parser of integer option values.
#include <catch2/catch.hpp>

#include <string>

#include "core/error.h"
#include "core/escape.h"
#include "core/json_writer.h"
#include "core/units.h"

using namespace ftlsim;
using Catch::Contains;

TEST_CASE("escape_for_terminal keeps text and escapes what a terminal acts on", "[core][unit]") {
  CHECK(escape_for_terminal("plain/path name.ftr") == "plain/path name.ftr");
  CHECK(escape_for_terminal("C:\\traces") == "C:\\traces");  // backslashes stay
  CHECK(escape_for_terminal("a\nb\tc\rd") == "a\\nb\\tc\\rd");
  CHECK(escape_for_terminal("\x1b[31mred\x07") == "\\x1b[31mred\\x07");
  CHECK(escape_for_terminal(std::string("nul\0x", 5)) == "nul\\x00x");
  CHECK(escape_for_terminal("del\x7f") == "del\\x7f");
  CHECK(escape_for_terminal("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
        "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  CHECK(escape_for_terminal("csi\xc2\x9b"
                            "31m") == "csi\\xc2\\x9b31m");  // C1 control U+009B
  CHECK(escape_for_terminal("\xc2\xa0") == "\xc2\xa0");     // U+00A0 is not a control
  CHECK(escape_for_terminal("latin1 caf\xe9") == "latin1 caf\\xe9");
  CHECK(escape_for_terminal("\xc0\xaf") == "\\xc0\\xaf");                    // overlong '/'
  CHECK(escape_for_terminal("\xed\xa0\x80") == "\\xed\\xa0\\x80");           // a UTF-16 surrogate
  CHECK(escape_for_terminal("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  CHECK(escape_for_terminal("\xe2\x82") == "\\xe2\\x82");                    // truncated sequence
}

TEST_CASE("json strings are valid UTF-8 whatever the bytes", "[core][unit]") {
  CHECK(json_escape("ok \xc3\xa9") == "ok \xc3\xa9");
  CHECK(json_escape("bad\xff") == "bad\\ufffd");
  CHECK(json_escape("\xe2\x82") == "\\ufffd\\ufffd");
  CHECK(json_escape("\xed\xa0\x80") == "\\ufffd\\ufffd\\ufffd");
  CHECK(json_escape("q\"b\\\x01") == "q\\\"b\\\\\\u0001");
  JsonWriter j;
  j.begin_object().field("k\xfe", "v\xc3").end_object();
  CHECK(j.str() == "{\n  \"k\\ufffd\": \"v\\ufffd\"\n}\n");
}

TEST_CASE("parse_uint_option takes digits and exponents, refuses signs, fractions and overflow", "[core][unit]") {
  CHECK(parse_uint_option("0", "--seed") == 0);
  CHECK(parse_uint_option("18446744073709551615", "--seed") == UINT64_MAX);
  CHECK(parse_uint_option("7", "-j", 1, 8) == 7);
  CHECK_THROWS_WITH(parse_uint_option("-1", "--seed"),
                    "--seed: '-1' is negative; give a whole number from 0 to 18446744073709551615");
  CHECK_THROWS_WITH(parse_uint_option("18446744073709551616", "--seed"), Contains("18446744073709551616 is too large"));
  // The exponent form is a whole number too (one grammar with --writes 2e9).
  CHECK(parse_uint_option("2e9", "--seed") == 2'000'000'000u);
  CHECK(parse_uint_option("0e30", "--seed") == 0);
  CHECK_THROWS_WITH(parse_uint_option("1e26", "--seed"), Contains("1e26 is too large"));
  CHECK_THROWS_WITH(parse_uint_option("1e2", "-j", 1, 64), "-j: 1e2 is too large; give a whole number from 1 to 64");
  CHECK_THROWS_WITH(parse_uint_option("1e", "--seed"), Contains("'1e' is not a whole number"));
  CHECK_THROWS_WITH(parse_uint_option("1.5e3", "--seed"), Contains("not a whole number"));
  CHECK_THROWS_WITH(parse_uint_option("e3", "--seed"), Contains("not a whole number"));
  CHECK_THROWS_WITH(parse_uint_option("1.5", "--seed"), Contains("not a whole number"));
  CHECK_THROWS_WITH(parse_uint_option("+3", "--seed"), Contains("not a whole number"));
  CHECK_THROWS_WITH(parse_uint_option(" 3", "--seed"), Contains("not a whole number"));
  CHECK_THROWS_WITH(parse_uint_option("", "--seed"), Contains("not a whole number"));
  CHECK_THROWS_WITH(parse_uint_option("0", "--jobs", 1, 4096),
                    "--jobs: 0 is too small; give a whole number from 1 to 4096");
  CHECK_THROWS_WITH(parse_uint_option("4097", "--jobs", 1, 4096), Contains("4097 is too large"));
  CHECK_THROWS_AS(parse_uint_option("-0", "--x"), InputError);
}
