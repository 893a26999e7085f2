#pragma once
// Small helpers for FTL tests: tiny geometries built by hand.
#include <cstdint>

#include "ftl/ftl_config.h"

namespace ftlsim::test {

// channels x luns dies of `planes` planes, each plane `blocks` blocks of
// `pages` 4 KiB pages, and `logical_slots` 4 KiB slots of logical space.
inline ftl::Geometry geometry(uint32_t channels, uint32_t luns, uint32_t planes, uint32_t blocks, uint32_t pages,
                              uint64_t logical_slots) {
  ftl::Geometry g;
  g.channels = channels;
  g.luns_per_channel = luns;
  g.planes_per_lun = planes;
  g.blocks_per_plane = blocks;
  g.pages_per_block = pages;
  g.page_bytes = 4096;
  g.logical_bytes = logical_slots * 4096;
  return g;
}

// One channel, one LUN, one plane: a line is one block of `slots` 4 KiB pages.
inline ftl::FtlConfig tiny_config(uint32_t lines, uint32_t slots, uint64_t logical_slots, double thres = 75.0,
                                  double thres_high = 95.0, ftl::VictimPolicy victim = ftl::VictimPolicy::kGreedy) {
  ftl::FtlConfig c;
  c.geometry.channels = 1;
  c.geometry.luns_per_channel = 1;
  c.geometry.planes_per_lun = 1;
  c.geometry.blocks_per_plane = lines;
  c.geometry.pages_per_block = slots;
  c.geometry.page_bytes = 4096;
  c.geometry.logical_bytes = logical_slots * 4096;
  c.gc.thres_pcent = thres;
  c.gc.thres_pcent_high = thres_high;
  c.gc.victim = victim;
  return c;
}

}  // namespace ftlsim::test
