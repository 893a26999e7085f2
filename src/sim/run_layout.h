#pragma once
// A run's engine layout and unit shape, from its effective FDP configuration
// (fdp::effective_config): FEMU's line path comes from ftl alone
// (ftl::line_layout, ftl::line_shape), FDP's reclaim units from fdp
// (fdp::make_layout, fdp::resolve_ru_shape), so a run without FDP never
// calls into fdp for its units.
#include "fdp/fdp_config.h"
#include "ftl/ftl_layout.h"
#include "ftl/geometry.h"
#include "ftl/unit_shape.h"

namespace ftlsim::sim {

// Throws InputError for inconsistent FDP settings (fdp::make_layout).
[[nodiscard]] ftl::FtlLayout run_layout(const ftl::Geometry& g, const fdp::FdpConfig& fdp);
// The shape timed mode places the units of run_layout(g, fdp) by.
[[nodiscard]] ftl::UnitShape run_unit_shape(const ftl::Geometry& g, const fdp::FdpConfig& fdp);

}  // namespace ftlsim::sim
