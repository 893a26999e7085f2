#include "trace/import/marker_sidecar.h"

#include <fmt/format.h>

#include "core/error.h"
#include "trace/import/mapped_text.h"
#include "trace/import/text_scan.h"

namespace ftlsim::trace {

std::vector<MarkerPoint> parse_marker_sidecar(std::string_view text, const std::string& source) {
  std::vector<MarkerPoint> out;
  scan::LineCursor cursor(text);
  std::string_view line;
  std::string why;
  while (cursor.next(line)) {
    if (cursor.overlong()) {
      throw InputError(fmt::format("{}: line {}: {}", source, cursor.line_no(), scan::overlong_line_message()));
    }
    const std::string_view t = scan::trim(line);
    if (t.empty() || t.front() == '#') continue;
    scan::Tokens tok(t);
    const std::string_view time_tok = tok.next();
    const std::string_view value_tok = tok.next();
    MarkerPoint m;
    if (value_tok.empty() || !tok.rest().empty()) {
      throw InputError(fmt::format("{}: line {}: expected '<time_ns> <value>', got '{}'", source, cursor.line_no(),
                                   scan::printable(t, 80)));
    }
    if (!scan::parse_uint(time_tok, "time_ns", m.time_ns, why) || !scan::parse_uint(value_tok, "value", m.value, why)) {
      throw InputError(fmt::format("{}: line {}: {}", source, cursor.line_no(), why));
    }
    if (!out.empty() && m.time_ns < out.back().time_ns) {
      throw InputError(fmt::format("{}: line {}: time {} ns is earlier than the line before ({} ns)", source,
                                   cursor.line_no(), m.time_ns, out.back().time_ns));
    }
    out.push_back(m);
  }
  return out;
}

std::vector<MarkerPoint> load_marker_sidecar(const std::string& path) {
  const MappedText text(path);
  std::vector<MarkerPoint> points = parse_marker_sidecar(text.text(), path);
  text.check_intact();
  return points;
}

}  // namespace ftlsim::trace
