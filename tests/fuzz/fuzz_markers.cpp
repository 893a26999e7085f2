// libFuzzer target: the marker sidecar reader (trace/import/marker_sidecar.h,
// `ftlsim convert --markers`). Input that parses gives markers in time
// order, one per non-blank, non-comment line; input that does not is refused
// with one printable line naming the sidecar and the line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "trace/import/marker_sidecar.h"
#include "trace/import/text_scan.h"

using namespace ftlsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const std::vector<trace::MarkerPoint> m = trace::parse_marker_sidecar(text, "fuzz.markers");
    for (size_t i = 1; i < m.size(); ++i) FUZZ_CHECK(m[i - 1].time_ns <= m[i].time_ns, "markers out of time order");
    // Count the lines that hold data: every one became a marker.
    size_t data_lines = 0;
    trace::scan::LineCursor cursor(text);
    std::string_view line;
    while (cursor.next(line)) {
      const std::string_view t = trace::scan::trim(line);
      if (!t.empty() && t.front() != '#') ++data_lines;
    }
    FUZZ_CHECK(data_lines == m.size(), "a data line did not become exactly one marker");
  } catch (const InputError& e) {
    fuzz::check_message(e.what());
    FUZZ_CHECK(fuzz::message_line(e.what(), "fuzz.markers") != 0,
               std::string("message does not name the sidecar and line: ") + e.what());
  }
  return 0;
}
