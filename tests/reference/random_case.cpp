// Random configurations and request streams for the differential test (see
// random_case.h).
#include "random_case.h"

#include <algorithm>
#include <sstream>

namespace ftlsim::reftest {
namespace {

// A percentage with a whole or half value in [lo, hi].
double percent(CaseRng& g, uint32_t lo, uint32_t hi) {
  const double whole = static_cast<double>(g.range(lo, hi));
  return whole < hi && g.chance(30) ? whole + 0.5 : whole;
}

uint32_t truncated(double pcent, uint32_t units) {
  return static_cast<uint32_t>((1.0 - pcent / 100.0) * static_cast<double>(units));
}

struct Shape {
  uint32_t pools = 1, per_pool = 0, spu = 0, opens = 1;
};

Shape shape_of(const RefConfig& c) {
  Shape s;
  const uint32_t dies = c.channels * c.luns;
  if (!c.fdp && !c.single_handle0) {
    s.per_pool = c.blocks;
    s.spu = dies * c.planes * c.pages;
    return s;
  }
  s.pools = c.rgs;
  if (c.rg_split_lines) {
    s.per_pool = c.blocks / c.lines_per_ru / c.rgs;
    s.spu = c.lines_per_ru * dies * c.planes * c.pages;
  } else {
    s.per_pool = c.blocks;
    s.spu = dies / c.rgs * c.planes * c.pages;  // --rg-split dies and channels alike
  }
  // Units a pool may hold open: a host RU per handle, a GC RU per PI handle
  // (rule 6), the shared GC RU (--ii-gc gc-ru).
  const uint32_t pi = c.ruh_types == RuhTypes::pi ? c.handles : c.ruh_types == RuhTypes::last_ii ? c.handles - 1 : 0;
  s.opens = c.handles + (c.pi_gc_ru ? pi : 0) + (!c.ii_gc_last_ruh && c.ruh_types != RuhTypes::pi ? 1 : 0);
  return s;
}

// Thresholds and logical capacity for shape `s` (shared by both draws);
// false when none fits.
bool draw_capacity(CaseRng& g, RefConfig& c, const Shape& s);

// The configuration part; false when the draw is not feasible.
bool draw_config(CaseRng& g, RefConfig& c) {
  c = RefConfig{};
  c.channels = static_cast<uint32_t>(g.range(1, 4));
  c.luns = static_cast<uint32_t>(g.range(1, 3));
  c.planes = static_cast<uint32_t>(g.range(1, 2));
  c.pages = static_cast<uint32_t>(g.range(2, 8));
  c.blocks = static_cast<uint32_t>(g.range(6, 40));
  c.fdp = g.chance(60);
  c.rgs = static_cast<uint32_t>(g.range(1, 3));  // ignored on the line path, which the test checks too
  c.handles = static_cast<uint32_t>(g.range(1, 6));
  c.ruh_types = static_cast<RuhTypes>(g.range(0, 2));
  c.pi_gc_ru = g.chance(75);
  c.ii_gc_last_ruh = g.chance(75);
  c.open_at_start = g.chance(75);
  c.rg_split_lines = g.chance(75);
  c.rg_of_pid = g.chance(75);
  c.rg_current = g.chance(50);
  c.pid_min_rgif = g.chance(25);
  c.forced_check_per_slot = g.chance(20);
  c.every_pool = g.chance(25);
  c.trim_keeps_partial = g.chance(25);
  // ConfFDP's rules: each on its own, or in 15% of the cases all together
  // (--rules confdp: ConfFDP's rule set but for the geometry, which stays random).
  const bool confdp = g.chance(15);
  c.gc_page_order = confdp || g.chance(25);
  c.declined_keep = confdp || g.chance(25);
  c.forced_passes = confdp ? 5 : g.chance(25) ? static_cast<uint32_t>(g.range(1, 6)) : 0;
  c.trim_plus_one = confdp || g.chance(25);
  c.pid_confdp = confdp || g.chance(20);
  c.single_handle0 = confdp || g.chance(20);
  if (confdp) {
    c.rg_current = false;  // ConfFDP writes into the RG the identifier names
    c.every_pool = true;
    c.pi_gc_ru = false;
    c.ruh_types = RuhTypes::pi;
    c.open_at_start = true;
    c.forced_check_per_slot = false;
  }
  if (g.chance(10)) {
    c.reset_kind = static_cast<uint8_t>(g.range(1, 2));
    c.reset_marker = g.range(1, 40);
  }
  if (!c.rg_split_lines && (c.channels * c.luns) % c.rgs != 0) c.rg_split_lines = true;
  if (c.fdp && c.rg_split_lines && g.chance(20)) {
    const auto k = static_cast<uint32_t>(g.range(2, 4));
    if (c.blocks % k == 0) c.lines_per_ru = k;
  }
  return draw_capacity(g, c, shape_of(c));
}

bool draw_capacity(CaseRng& g, RefConfig& c, const Shape& s) {
  if (s.per_pool < 3) return false;
  // Thresholds: the forced one must hold back at least one unit, and the
  // pool must keep room for its open units besides.
  bool found = false;
  for (int attempt = 0; attempt < 20 && !found; ++attempt) {
    c.gc_thres_high = percent(g, 50, 97);
    c.gc_thres = g.chance(25) ? c.gc_thres_high : percent(g, 30, static_cast<uint32_t>(c.gc_thres_high));
    if (c.gc_thres > c.gc_thres_high) c.gc_thres = c.gc_thres_high;
    const uint32_t high = truncated(c.gc_thres_high, s.per_pool);
    found = high >= 1 && s.per_pool >= high + s.opens + 2;
  }
  if (!found) return false;
  const uint32_t high = truncated(c.gc_thres_high, s.per_pool);
  const uint64_t usable_per_pool = uint64_t{s.per_pool - high - s.opens} * s.spu;
  const uint64_t physical = uint64_t{s.pools} * s.per_pool * s.spu;
  uint64_t logical = physical * g.range(40, 90) / 100;
  logical = std::min(logical, usable_per_pool * s.pools * 95 / 100);
  // --rg-of current: every host write goes into RG 0, which must hold it all.
  if (c.fdp && c.rg_of_pid && c.rg_current) logical = std::min(logical, usable_per_pool * 95 / 100);
  // ftl::FtlConfig::problems() also checks the capacity against plain lines
  // (one pool, one open line), whatever the placement: stay inside that too.
  const uint64_t line_slots = uint64_t{c.channels} * c.luns * c.planes * c.pages;
  const uint32_t line_high = truncated(c.gc_thres_high, c.blocks);
  if (c.blocks < line_high + 2) return false;
  logical = std::min(logical, (c.blocks - line_high - 1) * line_slots * 95 / 100);
  if (logical < 16) return false;
  c.logical_slots = logical;
  if (c.fdp && !c.rg_of_pid && c.rgs > 1) {
    // LBA stripes put (slot / 256) % RGs in each RG: each share must fit.
    std::vector<uint64_t> share(c.rgs, 0);
    for (uint64_t lpn = 0; lpn < logical; ++lpn) ++share[(lpn / 256) % c.rgs];
    for (uint64_t n : share) {
      if (n > usable_per_pool * 95 / 100) return false;
    }
  }
  return true;
}

// A case of ConfFDP's rule set with several RGs (--rules confdp --rg N):
// RGs of whole channels or of LUN shares, writes and GC copies moved to the
// nearest RG not at its high threshold; the geometry random, with blocks of
// up to 16 pages so that a unit often holds 10 slots or more (U/10 >= 1, so
// a forced victim can move its copies).
bool draw_confdp_rgs(CaseRng& g, RefConfig& c) {
  c = RefConfig{};
  c.channels = static_cast<uint32_t>(g.range(1, 4));
  c.luns = static_cast<uint32_t>(g.range(1, 4));
  c.planes = g.chance(80) ? 1 : 2;
  c.pages = static_cast<uint32_t>(g.range(4, 16));
  c.blocks = static_cast<uint32_t>(g.range(6, 30));
  std::vector<uint32_t> rgs;  // the RG counts ConfFDP's rg2physical splits these dies into
  for (uint32_t r = 2; r <= c.channels * c.luns && r <= 8; ++r) {
    if (r <= c.channels ? c.channels % r == 0 : r % c.channels == 0 && c.luns % (r / c.channels) == 0) {
      rgs.push_back(r);
    }
  }
  if (rgs.empty()) return false;
  c.rgs = rgs[g.range(0, rgs.size() - 1)];
  c.fdp = g.chance(75);
  c.handles = static_cast<uint32_t>(g.range(1, 4));
  c.ruh_types = RuhTypes::pi;
  c.pi_gc_ru = false;
  c.open_at_start = true;
  c.rg_split_lines = false;
  c.rg_split_channels = true;
  c.rg_of_pid = true;
  c.rg_current = false;
  c.every_pool = true;
  c.gc_page_order = true;
  c.declined_keep = true;
  c.forced_passes = 5;
  c.trim_plus_one = true;
  c.pid_confdp = true;
  c.single_handle0 = true;
  c.write_spill = true;
  c.gc_spill = true;
  if (g.chance(10)) {
    c.reset_kind = static_cast<uint8_t>(g.range(1, 2));
    c.reset_marker = g.range(1, 40);
  }
  return draw_capacity(g, c, shape_of(c));
}

// The RG a write of logical slot lpn is tagged with: LBA regions, so that
// each RG holds about its share of the data (some writes stray, on purpose).
uint32_t region_rg(const RefConfig& c, uint64_t lpn) { return static_cast<uint32_t>(lpn * c.rgs / c.logical_slots); }

// `one_rg`: every write tagged with RG 0 (some stray), so that RG 0 fills
// and ConfFDP's moves to the nearest RG run often.
uint16_t draw_pid(CaseRng& g, const RefConfig& c, uint64_t lpn, bool one_rg = false) {
  if (!c.fdp) return static_cast<uint16_t>(g.next());  // ignored on the line path
  uint32_t handle = static_cast<uint32_t>(g.range(0, c.handles - 1));
  if (g.chance(4)) handle = c.handles + static_cast<uint32_t>(g.range(0, 2));  // no such handle
  if (c.pid_confdp) {
    // ConfFDP's format: handle in the low byte, RG above it (some missing).
    uint32_t rg = c.rg_of_pid && !one_rg ? region_rg(c, lpn) : 0;
    if (g.chance(4)) rg = static_cast<uint32_t>(g.range(0, c.rgs + 1));
    return static_cast<uint16_t>((rg << 8) | handle);
  }
  if (!c.rg_of_pid) {
    // No RG bits: a PID with high bits set is simply a handle the device lacks.
    return static_cast<uint16_t>(g.chance(2) ? 0x8000u | handle : handle);
  }
  const uint32_t bits = rgif_bits(c.rgs, c.pid_min_rgif);
  if (bits == 0) return static_cast<uint16_t>(handle);
  // Now and then a bit between the handle and the RG bits, which FEMU's
  // parsing ignores (its handle is the low 15 - RGIF bits).
  if (!c.pid_min_rgif && g.chance(3)) handle |= 1u << (15 - bits);
  uint32_t rg = region_rg(c, lpn);
  if (g.chance(5)) rg = static_cast<uint32_t>(g.range(0, (1u << bits) - 1));  // may name a missing RG
  return static_cast<uint16_t>((rg << (16 - bits)) | handle);
}

}  // namespace

uint32_t rgif_bits(uint32_t rgs, bool min) {
  if (rgs <= 1) return 0;
  uint32_t bits = 0;
  if (min) {
    while ((1u << bits) < rgs) ++bits;
  } else {
    while ((rgs >> bits) != 0) ++bits;
  }
  return bits;
}

bool confdp_rgs_case(uint64_t seed) { return (seed * 0xD1B54A32D192ED03ull) >> 61 == 5; }

RandomCase make_random_case(uint64_t seed) {
  RandomCase rc;
  rc.seed = seed;
  // ConfFDP's rules with several RGs in an eighth of the cases, chosen from
  // the seed alone and drawn from a generator of their own, so that every
  // other case (and its request stream) stays as earlier versions drew it.
  const bool rgs_case = confdp_rgs_case(seed);
  CaseRng g(rgs_case ? seed * 0x9FB21C651E98DF25ull + 0x7654321ull : seed * 0x2545F4914F6CDD1Dull + 0x1234567ull);
  while (!(rgs_case ? draw_confdp_rgs(g, rc.cfg) : draw_config(g, rc.cfg))) {
  }
  // ftlsim's watermark trigger in an eighth of the cases that do not run
  // every ConfFDP rule and of the several-RG cases (where it meets `gc-spill`
  // with background victims under U/10 invalid), chosen from the seed alone
  // so the other draws (and so the cases of earlier versions) stay as they were.
  const bool all_confdp = rc.cfg.gc_page_order && rc.cfg.declined_keep && rc.cfg.forced_passes == 5 &&
                          rc.cfg.trim_plus_one && rc.cfg.pid_confdp && rc.cfg.single_handle0 && rc.cfg.every_pool;
  rc.cfg.gc_watermark = (!all_confdp || rgs_case) && (seed * 0x9E3779B97F4A7C15ull) >> 61 == 0;
  const RefConfig& c = rc.cfg;
  const bool one_rg = rgs_case && g.chance(40);
  const uint64_t sectors = c.logical_slots * 8;
  const Shape s = shape_of(c);
  const uint64_t physical = uint64_t{s.pools} * s.per_pool * s.spu;
  std::vector<RefRequest>& out = rc.requests;
  uint64_t t = 0;
  const auto push = [&](uint8_t op, uint64_t lba, uint32_t n, uint16_t pid) {
    t += g.range(0, 1000);
    out.push_back(RefRequest{op, lba, n, pid, t});
  };

  // Half the cases start with a sequential fill, as a device is usually
  // prepared, so that GC starts early.
  if (g.chance(50)) {
    for (uint64_t lba = 0; lba < sectors;) {
      const auto n = static_cast<uint32_t>(std::min<uint64_t>(8 * g.range(1, 8), sectors - lba));
      push(0, lba, n, draw_pid(g, c, lba / 8, one_rg));
      lba += n;
    }
  }
  const uint64_t target_slots = physical * g.range(2, 5);
  const bool hot_cold = g.chance(50);
  const uint64_t hot_sectors = std::max<uint64_t>(8, sectors / 5);
  uint64_t written = 0;
  uint64_t next_seq = 0;
  uint64_t marker = 0;
  while (out.size() < 9000 && (out.size() < 1500 || written < target_slots)) {
    const uint64_t op = g.range(0, 99);
    if (op < 65) {  // write
      uint32_t n = 0;
      uint64_t lba = 0;
      const bool aligned = g.chance(70);
      n = aligned ? static_cast<uint32_t>(8 * g.range(1, 3)) : static_cast<uint32_t>(g.range(1, 24));
      if (g.chance(20)) {
        lba = next_seq;
      } else if (hot_cold && g.chance(80)) {
        lba = g.range(0, hot_sectors - 1);
      } else {
        lba = g.range(0, sectors - 1);
      }
      if (aligned) lba -= lba % 8;
      n = static_cast<uint32_t>(std::min<uint64_t>(n, sectors));
      if (lba + n > sectors) lba = sectors - n;
      push(0, lba, n, draw_pid(g, c, lba / 8, one_rg));
      next_seq = lba + n < sectors ? lba + n : 0;
      written += (lba % 8 + n + 7) / 8;
    } else if (op < 75) {  // trim, often unaligned
      auto n = static_cast<uint32_t>(std::min<uint64_t>(g.range(1, 64), sectors));
      uint64_t lba = g.range(0, sectors - n);
      if (g.chance(50)) {
        lba -= lba % 8;
        n = std::max<uint32_t>(8, n - n % 8);
        if (lba + n > sectors) lba = sectors - n;
      }
      push(2, lba, n, static_cast<uint16_t>(g.next()));
    } else if (op < 87) {  // read
      const auto n = static_cast<uint32_t>(std::min<uint64_t>(g.range(1, 32), sectors));
      push(1, g.range(0, sectors - n), n, static_cast<uint16_t>(g.next()));
    } else if (op < 92) {
      push(3, 0, 0, 0);  // flush
    } else {
      push(4, ++marker, 0, 0);  // marker
    }
  }
  return rc;
}

std::string cli_flags(const RefConfig& c) {
  static const char* const kTypes[] = {"pi", "last-ii", "ii"};
  std::ostringstream o;
  o << "--channels " << c.channels << " --luns " << c.luns << " --planes " << c.planes << " --blocks " << c.blocks
    << " --pages " << c.pages << " --page-size 4096 --logical " << c.logical_slots * 4096 << " --gc-thres "
    << c.gc_thres << " --gc-thres-high " << c.gc_thres_high << " --placement " << (c.fdp ? "fdp" : "single") << " --rg "
    << c.rgs << " --ruh " << c.handles << " --ruh-type " << kTypes[static_cast<int>(c.ruh_types)];
  if (c.lines_per_ru > 1) {
    o << " --ru-size " << uint64_t{c.lines_per_ru} * c.channels * c.luns * c.planes * c.pages * 4096;
  }
  if (!c.pi_gc_ru) o << " --pi-gc host-ru";
  if (!c.ii_gc_last_ruh) o << " --ii-gc gc-ru";
  if (!c.open_at_start) o << " --ru-open lazy";
  if (!c.rg_split_lines) o << (c.rg_split_channels ? " --rg-split channels" : " --rg-split dies");
  if (!c.rg_of_pid) o << " --rg-of lba";
  if (c.rg_of_pid && !c.rg_current) o << " --rg-of pid";
  if (c.pid_min_rgif && !c.pid_confdp) o << " --pid-format rgif-min";
  if (c.forced_check_per_slot) o << " --gc-check page";
  if (c.every_pool) o << " --rg-gc every";
  if (c.trim_keeps_partial) o << " --trim-partial keep";
  if (c.gc_page_order) o << " --gc-order page";
  if (c.declined_keep) o << " --declined keep";
  if (c.forced_passes != 0) o << " --forced-passes " << c.forced_passes;
  if (c.gc_watermark) o << " --gc-trigger watermark";
  if (c.trim_plus_one) o << " --trim-range plus-one";
  if (c.pid_confdp) o << " --pid-format confdp";
  if (c.single_handle0) o << " --single handle0";
  if (c.write_spill) o << " --write-spill nearest";
  if (c.gc_spill) o << " --gc-spill nearest";
  if (c.reset_kind != 0) o << " --reset-at " << (c.reset_kind == 1 ? "device:" : "counters:") << c.reset_marker;
  return o.str();
}

}  // namespace ftlsim::reftest
