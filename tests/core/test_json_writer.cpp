#include <catch2/catch.hpp>

#include "core/json_writer.h"

TEST_CASE("json writer nests, escapes and formats deterministically", "[core][unit]") {
  ftlsim::JsonWriter j;
  j.begin_object();
  j.field("a", uint64_t{1});
  j.key("b").begin_array();
  j.value(1.5);
  j.value("x\"y\n");
  j.null();
  j.end_array();
  j.key("c").begin_object().end_object();
  j.field("d", true);
  j.end_object();
  CHECK(j.str() ==
        "{\n  \"a\": 1,\n  \"b\": [\n    1.5,\n    \"x\\\"y\\n\",\n    null\n  ],\n  \"c\": {},\n  \"d\": true\n}\n");
}
