#include "sim/run_layout.h"

namespace ftlsim::sim {

ftl::FtlLayout run_layout(const ftl::Geometry& g, const fdp::FdpConfig& fdp) {
  return fdp.isolated_gc ? fdp::make_layout(g, fdp) : ftl::line_layout(g);
}

ftl::UnitShape run_unit_shape(const ftl::Geometry& g, const fdp::FdpConfig& fdp) {
  return fdp.isolated_gc ? fdp::resolve_ru_shape(g, fdp) : ftl::line_shape(g);
}

}  // namespace ftlsim::sim
