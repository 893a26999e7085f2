// The shared scanner under every text importer: lines, CSV fields, numbers.
#include <catch2/catch.hpp>

#include "trace/import/text_scan.h"

using namespace ftlsim::trace::scan;

TEST_CASE("LineCursor: LF, CRLF, a last line without end, empty lines", "[trace][unit][scan]") {
  LineCursor c("a\r\n\nb\rc\nlast");
  std::string_view line;
  std::vector<std::string> got;
  while (c.next(line)) got.emplace_back(line);
  CHECK(got == std::vector<std::string>{"a", "", "b\rc", "last"});
  CHECK(c.line_no() == 4);
  LineCursor empty("");
  CHECK_FALSE(empty.next(line));
  LineCursor one("\n");
  CHECK(one.next(line));
  CHECK(line.empty());
  CHECK_FALSE(one.next(line));
}

// A line is looked for within kMaxLineBytes + 2 bytes (its bytes, '\r',
// '\n'): a longer one comes cut, overlong(), and skip_overlong() moves past it.
TEST_CASE("LineCursor: lines up to 4096 bytes, CRLF included, and a longer one cut at 4097", "[trace][unit][scan]") {
  const std::string at_limit(kMaxLineBytes, 'a');
  const std::string over(kMaxLineBytes + 1, 'b');
  std::string_view line;
  for (const std::string& end : {std::string("\n"), std::string("\r\n"), std::string("\r"), std::string()}) {
    const std::string text = at_limit + end;
    LineCursor c(text);
    REQUIRE(c.next(line));
    CHECK(line == at_limit);
    CHECK_FALSE(c.overlong());
    CHECK_FALSE(c.next(line));
  }
  for (const std::string& end : {std::string("\n"), std::string("\r\n")}) {
    const std::string text = over + end + "next\n";
    LineCursor c(text);
    REQUIRE(c.next(line));
    CHECK(c.overlong());
    CHECK(line.size() == kMaxLineBytes + 1);
    CHECK(c.pos() == kMaxLineBytes + 1);  // nothing past the cut was consumed
    c.skip_overlong();
    CHECK_FALSE(c.overlong());
    REQUIRE(c.next(line));
    CHECK(line == "next");
    CHECK(c.line_no() == 2);
  }
  const std::string unended_text(3 * kMaxLineBytes, 'c');
  LineCursor unended(unended_text);  // skipped to the end of the text
  REQUIRE(unended.next(line));
  CHECK(unended.overlong());
  unended.skip_overlong();
  CHECK_FALSE(unended.next(line));
}

TEST_CASE("split: fields, empty fields, quotes, too many fields", "[trace][unit][scan]") {
  std::string_view f[4];
  CHECK(split("a,b,,d", ',', f) == 4);
  CHECK(f[0] == "a");
  CHECK(f[2].empty());
  CHECK(f[3] == "d");
  CHECK(split("a,", ',', f) == 2);
  CHECK(f[1].empty());
  CHECK(split("", ',', f) == 1);
  CHECK(split("\"x, y\",2,\"q\"\"q\"", ',', f) == 3);
  CHECK(f[0] == "x, y");
  CHECK(f[2] == "q\"\"q");
  CHECK(split("1,2,3,4,5,6", ',', f) == 6);  // counted, not stored past 4
  CHECK(f[3] == "4");
  CHECK(split("\"open,1", ',', f) == 1);  // unterminated quote takes the rest
  CHECK(f[0] == "open,1");
}

TEST_CASE("parse_scaled: decimals to integer units, truncation, overflow", "[trace][unit][scan]") {
  uint64_t v = 0;
  std::string why;
  CHECK(parse_scaled("12", "t", 1'000'000'000, v, why));
  CHECK(v == 12'000'000'000);
  CHECK(parse_scaled("0.000123456", "t", 1'000'000'000, v, why));
  CHECK(v == 123'456);
  CHECK(parse_scaled("1.5", "t", 1000, v, why));
  CHECK(v == 1'500);
  CHECK(parse_scaled("1.0009", "t", 1000, v, why));  // finer than a unit: dropped
  CHECK(v == 1'000);
  CHECK(parse_scaled(".25", "t", 100, v, why));
  CHECK(v == 25);
  CHECK(parse_scaled("7.", "t", 10, v, why));
  CHECK(v == 70);
  CHECK(parse_scaled("18446744073", "t", 1'000'000'000, v, why));
  CHECK_FALSE(parse_scaled("18446744074", "t", 1'000'000'000, v, why));
  CHECK(why == "t '18446744074' overflows 64 bits once scaled");
  CHECK_FALSE(parse_scaled(".", "t", 10, v, why));
  CHECK(why == "t '.' is not a decimal number");
  CHECK_FALSE(parse_scaled("1.2.3", "t", 10, v, why));
  CHECK(why == "t '1.2.3' is not a decimal number");
  CHECK_FALSE(parse_scaled("", "t", 10, v, why));
  CHECK(why == "t is missing");
  CHECK_FALSE(parse_scaled("-1", "t", 10, v, why));
  CHECK(why == "t '-1' is negative");
}

TEST_CASE("parse_uint: the messages importers show", "[trace][unit][scan]") {
  uint32_t v = 0;
  std::string why;
  CHECK(parse_uint("4294967295", "x", v, why));
  CHECK_FALSE(parse_uint("4294967296", "x", v, why));
  CHECK(why == "x '4294967296' does not fit in 32 bits");
  CHECK_FALSE(parse_uint("+1", "x", v, why));
  CHECK(why == "x '+1' is not a decimal integer");
  CHECK_FALSE(parse_uint(std::string_view("1\x01", 2), "x", v, why));
  CHECK(why == "x '1?' is not a decimal integer");
  CHECK(iequals("Write", "wRITE"));
  CHECK_FALSE(iequals("Write", "Writes"));
}
