// libFuzzer target: the generic CSV importer (--from csv). Line 1 of an
// input is the --columns value, line 2 the --op-map value (may be empty),
// and the trace starts on line 3. When every column is given as #N, the
// input's length decides whether line 3 is a header; a tab in line 3 makes
// the separator a tab.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"

using namespace ftlsim;

namespace {

std::string_view take_line(std::string_view& text) {
  const size_t nl = text.find('\n');
  const std::string_view line = text.substr(0, nl);
  text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  trace::ImportOptions o;
  o.format = trace::TextFormat::kCsv;
  o.csv.columns = std::string(take_line(text));
  o.csv.op_map = std::string(take_line(text));
  // Named columns need the header; all-#N specs try both.
  bool named = false;
  for (size_t i = 0; i < o.csv.columns.size(); ++i) {
    if (o.csv.columns[i] == '=' && i + 1 < o.csv.columns.size() && o.csv.columns[i + 1] != '#') named = true;
  }
  o.csv.header = named || size % 2 == 0;
  const std::string_view first = text.substr(0, text.find('\n'));
  if (first.find('\t') != std::string_view::npos) o.csv.separator = '\t';
  fuzz::check_import(text, o, /*rebased=*/true);
  return 0;
}
