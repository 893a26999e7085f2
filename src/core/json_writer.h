#pragma once
// A small streaming JSON writer with deterministic output (keys in the order
// written, doubles with fixed precision), enough for summary.json and
// `info --json`. Misuse (a key outside an object) is a programming error.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ftlsim {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(uint64_t v);
  JsonWriter& value(int64_t v);
  JsonWriter& value(uint32_t v) { return value(static_cast<uint64_t>(v)); }
  JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
  // Finite doubles print with up to 6 significant decimals; NaN/inf as null.
  JsonWriter& value(double v);
  JsonWriter& value(bool v);
  JsonWriter& null();

  template <typename T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

  // The document so far, ending in a newline once the top level is closed.
  [[nodiscard]] std::string str() const;

 private:
  void before_value();
  JsonWriter& close(char bracket);
  void newline();
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

// `s` as the inside of a JSON string: quotes, backslashes and controls
// escaped; bytes that are not valid UTF-8 become \ufffd (U+FFFD), so the
// document is valid JSON whatever bytes a trace header holds.
[[nodiscard]] std::string json_escape(std::string_view s);

}  // namespace ftlsim
