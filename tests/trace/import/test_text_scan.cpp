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
