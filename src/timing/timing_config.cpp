#include "timing/timing_config.h"

#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "core/error.h"
#include "core/setting.h"
#include "timing/time_scale.h"

namespace ftlsim::timing {

std::string_view host_mode_name(HostMode m) { return m == HostMode::kOpen ? "open" : "closed"; }

std::string_view op_filter_name(OpFilter f) {
  switch (f) {
    case OpFilter::kAll: return "all";
    case OpFilter::kRead: return "read";
    case OpFilter::kWrite: return "write";
  }
  return "all";
}

OpFilter parse_op_filter(std::string_view s) {
  if (s == "all") return OpFilter::kAll;
  if (s == "read") return OpFilter::kRead;
  if (s == "write") return OpFilter::kWrite;
  throw SettingError({"ops", std::string(s), "is not all, read or write", Problem::Shape::kBadText});
}

std::vector<Problem> TimingConfig::problems(const ftl::Geometry& g) const {
  std::vector<Problem> p;
  if (g.page_bytes != ftl::kSlotBytes) {
    // A program is timed per 4 KiB slot; larger pages would need slots
    // gathered into page programs, which is not modelled.
    p.push_back({"", "",
                 say("timed mode models 4 KiB NAND pages (one slot per page); `page-size` {} is not supported "
                     "with `timing`",
                     g.page_bytes)});
  }
  if (read_ns == 0 || program_ns == 0 || erase_ns == 0) {
    p.push_back({"", "", say("`read-time`, `program-time` and `erase-time` must be above 0")});
  }
  const std::pair<const char*, uint64_t> times[] = {
      {"read-time", read_ns}, {"program-time", program_ns}, {"erase-time", erase_ns}, {"xfer-time", xfer_ns}};
  for (const auto& [name, ns] : times) {
    if (ns > kMaxNandNs) p.push_back({name, print_duration(ns), "must be at most 1s"});
  }
  if (mode == HostMode::kClosed && (qd == 0 || qd > kMaxQd)) {
    p.push_back({"qd", fmt::format("{}", qd), fmt::format("must be between 1 and {}", kMaxQd)});
  }
  if (mode == HostMode::kOpen && !speed_in_range(speed)) p.push_back(speed_problem(speed));
  return p;
}

}  // namespace ftlsim::timing
