#!/usr/bin/env python3
"""Issue #27's speed targets in one command: NAND page operations per CPU
second on three geometries, timed mode against fast mode, and Peter
Desnoyers' sssl-ftlsim on the identical stream.

  bench/bench_speed.py                       # parts geo, bound, timed and peer
  bench/bench_speed.py --parts geo,timed     # without the peer
  bench/bench_speed.py --old OLD_FTLSIM --parts geo --pairs 5   # paired A/B per geometry
  bench/bench_speed.py --old OLD_FTLSIM --parts timed --pairs 5 # timed/fast of each, new/old timed
  bench/bench_speed.py --parts sizes --pairs 6 --callgrind       # the 1x1 device's time per op by map size
  bench/bench_speed.py --parts plain --plain-logical 1G,8G --pairs 6 --callgrind  # the engine against a plain one-die FTL

Every figure is CPU time of the child process (user + system, from wait4),
not wall time: the machine is shared. Runs of two binaries (--old) or two
modes (timed / fast) alternate (A B A B ...), and the ratio reported is the
median of the per-pair ratios with their min..max.

(a) NAND page ops = host pages + GC pages (summary.json) per CPU second of
    the whole replay (building the FTL and the fill included), single thread:
    femu-default (12 GiB logical, 8x8 dies, 256-page blocks), femu-eth
    (64 GiB logical, 8x8 dies, 4096-page blocks) and a 1x1 LUN device with
    64-page units (8 GiB logical, femu-default's over-provisioning and
    thresholds); each a sequential fill, then --writes uniform random 4 KiB
    overwrites (`ftlsim gen --pattern uniform --fill`). Target 150 M.
(b) timed mode (`--timing --qd 64`) against fast mode on the same trace
    (femu-default, --timed-writes overwrites after the fill). Target: timed
    CPU <= 5x fast CPU.
(c) sssl-ftlsim (github.com/pjd-nu/sssl-ftlsim, Python extensions in C built
    with SWIG at -O3: its _ftlsim and _getaddr modules), built OUTSIDE the
    repository from $SSSL_FTLSIM_SRC (a folder with its ftlsim.{c,h,i} and
    getaddr.{c,h,i}) or else a `git clone` into the work folder; the peer
    generates its own stream (a sequential fill, then --peer-writes uniform
    random single-page writes from its C generator getaddr.uniform) on
    256-page units, one pool, greedy; ftlsim replays that very stream (logged
    by the peer in an untimed run) from a trace on the same device with the
    peer's cleaning rule (`--channels 1 --luns 1 --pages 256`, as many lines
    as the peer has segments, --gc-trigger watermark at minfree - 1 free
    lines). The peer is also timed reading the stream from the logged file.
    Target: the peer's CPU >= 10x ftlsim's. Skipped, with the reason, when
    the source cannot be obtained, built or driven (no SWIG, no network,
    another API than the one this driver uses).
sizes (only when named in --parts): the 1x1 LUN with 64-page units of (a)
    at 1, 2, 4 and 8 GiB logical, fill + --size-writes writes each, the sizes
    interleaved: CPU per NAND op as the maps outgrow the caches while the
    work per op stays about the same (--callgrind: instructions per op).
plain (only when named): the engine against bench/plain_line_ftl.cpp, a
    plain FEMU-exact FTL for one die and nothing else, on part sizes' trace
    at each of --plain-logical (8G; e.g. 1G,8G), interleaved; stops if any
    counter differs (--callgrind: instructions per op of each).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

from bench_proc import run_usage

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEER_URL = "https://github.com/pjd-nu/sssl-ftlsim"
TARGET_OPS = 150e6


def one_die_args(logical):
    """Simulation arguments of the 1x1 LUN with 64-page units at `logical` (e.g. "8G")."""
    return ["--preset", "femu-default", "--channels", "1", "--luns", "1", "--pages", "64", "--logical", logical,
            "--op", "0.333333"]


# (name, gen arguments, simulation arguments)
GEOMETRIES = [
    ("femu-default", ["--logical", "12G"], ["--preset", "femu-default"]),
    ("femu-eth (64 GiB logical)", ["--logical", "64G"], ["--preset", "femu-eth"]),
    ("1x1 LUN, 64-page units", ["--logical", "8G"], one_die_args("8G")),
]


def timed(cmd):
    """(CPU seconds, stdout) of one child, from wait4's rusage (bench_proc)."""
    out, _, usage = run_usage(cmd)
    return usage.ru_utime + usage.ru_stime, out


def summary(folder):
    with open(os.path.join(folder, "summary.json")) as f:
        return json.load(f)


def counters(folder):
    s = summary(folder)
    return find_key(s, "host_pages"), find_key(s, "gc_pages"), find_key(s, "waf")


def find_key(obj, key):
    if isinstance(obj, dict):
        if key in obj:
            return obj[key]
        for v in obj.values():
            r = find_key(v, key)
            if r is not None:
                return r
    return None


def one_die_trace(a, logical):
    """The trace of parts sizes and plain at `logical`: a fill and --size-writes uniform writes."""
    return gen(a.ftlsim, a.workdir, f"1x1 LUN, 64-page units, {logical}", ["--logical", logical], a.size_writes)


def gen(ftlsim, workdir, name, gen_args, writes):
    trace = os.path.join(workdir, re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") + f"-{writes}.ftr")
    if not os.path.exists(trace):
        subprocess.run([ftlsim, "gen", "--pattern", "uniform", "--fill", "--writes", str(writes)] + gen_args +
                       ["-o", trace], check=True, capture_output=True)
    return trace


def sim(ftlsim, trace, args, out):
    cpu, _ = timed([ftlsim, "--trace", trace, "--no-progress", "--force", "--out", out] + args)
    host, gc, waf = counters(out)
    return cpu, host, gc, waf


def spread(xs):
    return f"{statistics.median(xs):.3f} ({min(xs):.3f}..{max(xs):.3f})"


def instructions_per_op(cmd, ops):
    """Instructions per NAND op in one valgrind run of cmd, or why there is no count."""
    if not shutil.which("valgrind"):
        return "no valgrind"
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                          capture_output=True, text=True)
    m = re.search(r"refs:\s+([\d,]+)", done.stderr)
    return f"{int(m.group(1).replace(',', '')) / ops:.1f}" if done.returncode == 0 and m else "valgrind failed"


def part_geo(a):
    print("## (a) NAND page ops (host + GC pages) per CPU second, single thread; target 150 M")
    print(f"Whole run: ops / CPU s of the replay of fill + {a.writes} writes (building the maps, their page "
          f"faults and the fill included). Steady: (ops(fill + W) - ops(fill + W/2)) / (CPU(W) - CPU(W/2)) per "
          f"pair, the rate once GC runs all the time.")
    print()
    if a.old:
        print("| geometry | WAF | NAND pages | old CPU s | new CPU s | new/old per pair: median (min..max) "
              "| new M ops/CPU s whole run | new M ops/CPU s steady | steady / target |")
        print("|---|---|---|---|---|---|---|---|---|")
    else:
        print("| geometry | WAF | NAND pages | CPU s: median (min..max) | M ops/CPU s whole run "
              "| M ops/CPU s steady: median (min..max) | steady / target |")
        print("|---|---|---|---|---|---|---|")
    for name, gen_args, sim_args in GEOMETRIES:
        if a.only and a.only not in name:
            continue
        long_t = gen(a.ftlsim, a.workdir, name, gen_args, a.writes)
        short_t = gen(a.ftlsim, a.workdir, name, gen_args, a.writes // 2)
        out = os.path.join(a.workdir, "out-geo")
        news, olds, ratios, steady = [], [], [], []
        ref = {}

        def one(binary, trace):
            c, h, g, w = sim(binary, trace, sim_args, out)
            if trace in ref and ref[trace] != (h, g, w):
                sys.exit(f"{name}: counters differ between binaries or runs: {ref[trace]} vs {(h, g, w)}")
            ref[trace] = (h, g, w)
            return c

        for _ in range(a.pairs):
            if a.old:
                olds.append(one(a.old, long_t))
            c_long = one(a.ftlsim, long_t)
            news.append(c_long)
            if a.old:
                ratios.append(c_long / olds[-1])
            c_short = one(a.ftlsim, short_t)
            d_ops = sum(ref[long_t][:2]) - sum(ref[short_t][:2])
            steady.append(d_ops / max(c_long - c_short, 1e-9) / 1e6)
        host, gcp, waf = ref[long_t]
        ops = host + gcp
        rate = ops / statistics.median(news) / 1e6
        st = statistics.median(steady)
        if a.old:
            print(f"| {name} | {waf:.4f} | {ops / 1e6:.1f} M | {spread(olds)} | {spread(news)} | "
                  f"{spread(ratios)} | {rate:.1f} | {st:.1f} | {st * 1e6 / TARGET_OPS:.2f} |", flush=True)
        else:
            print(f"| {name} | {waf:.4f} | {ops / 1e6:.1f} M | {spread(news)} | {rate:.1f} | "
                  f"{spread(steady)} | {st * 1e6 / TARGET_OPS:.2f} |", flush=True)
    print()


def part_bound(a):
    print("## Memory bound: random 4-byte read-modify-writes in a table the size of each run's l2p, prefetched "
          "D updates ahead (bench/mlp_bound.cpp)")
    exe = os.path.join(a.workdir, "mlp_bound")
    subprocess.run(["g++", "-O2", "-std=c++20", os.path.join(HERE, "mlp_bound.cpp"), "-o", exe], check=True)
    dists = ["0", "8", "16", "32", "64"]
    print("| l2p of | table MiB | " + " | ".join(f"M updates/CPU s, D={d}" for d in dists) + " |")
    print("|---|---|" + "---|" * len(dists))
    for name, mib in (("femu-default (12 GiB)", 12), ("femu-eth (64 GiB)", 64), ("1x1 LUN (8 GiB)", 8)):
        runs = []
        for _ in range(a.pairs):
            out = subprocess.run([exe, str(mib), "20000000"] + dists, check=True, capture_output=True,
                                 text=True).stdout
            runs.append([float(line.split()[1]) / 1e6 for line in out.strip().splitlines()])
        med = [statistics.median(r[i] for r in runs) for i in range(len(dists))]
        print(f"| {name} | {mib} | " + " | ".join(f"{m:.0f}" for m in med) + " |", flush=True)
    print()


def part_sizes(a):
    print("## The 1x1 LUN with 64-page units at four logical sizes: where its time per NAND op goes")
    print(f"Fill + {a.size_writes} uniform writes at each size, the sizes interleaved in {a.pairs} rounds; the "
          f"maps (l2p and p2l, 4 bytes a page) grow with the size while the work per NAND op stays about the same "
          f"(instructions per op, when --callgrind, from one valgrind run each).")
    print()
    sizes = ["1G", "2G", "4G", "8G"]
    rows = {}
    for size in sizes:
        rows[size] = {"trace": one_die_trace(a, size), "args": one_die_args(size), "cpu": [], "ref": None}
    out = os.path.join(a.workdir, "out-sizes")
    for r in range(a.pairs):
        for size in (sizes if r % 2 == 0 else sizes[::-1]):
            row = rows[size]
            c, h, g, w = sim(a.ftlsim, row["trace"], row["args"], out)
            if row["ref"] is not None and row["ref"] != (h, g, w):
                sys.exit(f"{size}: counters differ between runs: {row['ref']} vs {(h, g, w)}")
            row["ref"] = (h, g, w)
            row["cpu"].append(c)
            if r == 0:
                geo = summary(out)["config"]["geometry"]
                row["maps"] = (geo["logical_bytes"] + geo["physical_bytes"]) / geo["page_bytes"] * 4 / 2**20
    print("| logical | l2p + p2l MiB | WAF | NAND pages | CPU s: median (min..max) | ns per NAND op | M ops/CPU s "
          "| instructions per NAND op |")
    print("|---|---|---|---|---|---|---|---|")
    for size in sizes:
        row = rows[size]
        h, g, w = row["ref"]
        ops = h + g
        cpu = statistics.median(row["cpu"])
        instr = "-"
        if a.callgrind:
            instr = instructions_per_op([a.ftlsim, "--trace", row["trace"], "--no-progress", "--force", "--out", out] +
                                        row["args"], ops)
        print(f"| {size} | {row['maps']:.1f} | {w:.4f} | {ops / 1e6:.1f} M | {spread(row['cpu'])} | "
              f"{cpu / ops * 1e9:.2f} | {ops / cpu / 1e6:.1f} | {instr} |", flush=True)
    print()


def part_plain(a):
    print("## The engine against a plain FEMU-exact FTL for one die (bench/plain_line_ftl.cpp), same trace")
    exe = os.path.join(a.workdir, "plain_line_ftl")
    subprocess.run(["g++", "-O2", "-std=c++20", "-I", os.path.join(ROOT, "tests", "reference"),
                    os.path.join(HERE, "plain_line_ftl.cpp"), "-o", exe], check=True)
    out = os.path.join(a.workdir, "out-plain")
    for logical in a.plain_logical.split(","):
        trace = one_die_trace(a, logical)
        engine_cmd = [a.ftlsim, "--trace", trace, "--no-progress", "--force", "--out", out] + one_die_args(logical)
        cpu = {"engine": [], "plain": []}
        plain_cmd = None
        for r in range(a.pairs):
            for who in (("engine", "plain") if r % 2 == 0 else ("plain", "engine")):
                if who == "engine":
                    c, _ = timed(engine_cmd)
                    if plain_cmd is None:
                        s = summary(out)
                        geo, gc = s["config"]["geometry"], s["config"]["gc"]
                        want = (s["host_pages"], s["gc_pages"], s["unit_erases"])
                        plain_cmd = [exe, trace, str(geo["lines"]), str(geo["pages_per_block"]),
                                     str(geo["logical_bytes"] // geo["page_bytes"]), str(gc["thres_units"]),
                                     str(gc["thres_units_high"])]
                else:  # after the engine's first run, which gives its arguments
                    c, text = timed(plain_cmd)
                    got = tuple(int(x) for x in text.split())
                    if got != want:
                        sys.exit(f"plain_line_ftl's counters (host, gc, erases) {got} differ from the engine's {want}")
                cpu[who].append(c)
        ops = want[0] + want[1]
        ratios = [p / e for p, e in zip(cpu["plain"], cpu["engine"])]
        print(f"Fill + {a.size_writes} uniform writes, {logical} logical, {ops / 1e6:.1f} M NAND pages; counters "
              f"equal; plain/engine CPU per pair: median (min..max) {spread(ratios)}.")
        print()
        print("| program | CPU s: median (min..max) | ns per NAND op | M ops/CPU s | instructions per NAND op |")
        print("|---|---|---|---|---|")
        for label, who, cmd in (("engine (ftlsim)", "engine", engine_cmd), ("plain_line_ftl", "plain", plain_cmd)):
            xs = cpu[who]
            c = statistics.median(xs)
            instr = instructions_per_op(cmd, ops) if a.callgrind else "-"
            print(f"| {label} | {spread(xs)} | {c / ops * 1e9:.2f} | {ops / c / 1e6:.1f} | {instr} |", flush=True)
        print()


def part_timed(a):
    print("## (b) timed mode (--timing --qd 64) against fast mode, same trace (femu-default); target <= 5x")
    trace = gen(a.ftlsim, a.workdir, "timed femu-default", ["--logical", "12G"], a.timed_writes)
    base = ["--preset", "femu-default"]
    binaries = [("new", a.ftlsim)] + ([("old", a.old)] if a.old else [])
    fast = {n: [] for n, _ in binaries}
    tim = {n: [] for n, _ in binaries}
    ratios = {n: [] for n, _ in binaries}
    new_old = []
    ref = None
    for _ in range(a.pairs):
        for n, binary in binaries:  # interleaved: new fast, new timed, old fast, old timed
            c_f, h, g, w = sim(binary, trace, base, os.path.join(a.workdir, "out-fast"))
            c_t, h2, g2, w2 = sim(binary, trace, base + ["--timing", "--qd", "64"], os.path.join(a.workdir, "out-timed"))
            if (h, g) != (h2, g2) or (ref is not None and ref != (h, g, w)):
                sys.exit(f"{n}: timed and fast mode counters differ: {(h, g)} vs {(h2, g2)} (first run {ref})")
            ref = (h, g, w)
            fast[n].append(c_f)
            tim[n].append(c_t)
            ratios[n].append(c_t / c_f)
        if a.old:
            new_old.append(tim["new"][-1] / tim["old"][-1])
    h, g, w = ref
    print("| binary | WAF | NAND pages | fast CPU s | timed CPU s | timed/fast per pair: median (min..max) | target |")
    print("|---|---|---|---|---|---|---|")
    for n, _ in binaries:
        print(f"| {n}: femu-default, fill + {a.timed_writes} writes | {w:.4f} | {(h + g) / 1e6:.1f} M | "
              f"{spread(fast[n])} | {spread(tim[n])} | {spread(ratios[n])} | "
              f"{'met' if statistics.median(ratios[n]) <= 5 else 'missed'} |")
    if a.old:
        print()
        print(f"timed mode, new/old CPU per pair: median (min..max) {spread(new_old)}")
    print()


PEER_DRIVER = r"""
# Drives sssl-ftlsim's C engine through its SWIG modules as its ftlsim.i and
# getaddr.i define them (the version named in bench/README.md): ftl(T, Np)
# with T segments of Np pages (its map covers T x Np LBAs), a "greedy" pool
# whose cleaned pages go back into the same pool (next_pool, the host's
# write frontier), segments handed to the free list with put_blk, and
# ftl.run(handle, count), which after every host write cleans segments
# while fewer than ftl.minfree are free. The fill is getaddr.trace of a
# one-line file "0 U*Np"; the stream is getaddr.uniform(U*Np) (C rand(),
# never seeded, so every run draws the same addresses), optionally through
# getaddr.log(src, FILE), which writes each address on a line, or, with
# --from-file, getaddr.trace(FILE) in its one-address-a-line mode (single).
# Prints the counters; CPU time is the caller's (wait4).
import sys
sys.path.insert(0, sys.argv[1])
import ftlsim, getaddr
U, Np, T, minfree, writes = (int(v) for v in sys.argv[2:7])
fill_file, mode = sys.argv[7], sys.argv[8]
ftl = ftlsim.ftl(T, Np)
ftl.minfree = minfree
ftl.get_input_pool = ftlsim.cvar.write_select_first
ftl.get_pool_to_clean = ftlsim.cvar.clean_select_first
gdy = ftlsim.pool(ftl, "greedy", Np)
gdy.next_pool = gdy
segs = [ftlsim.segment(Np) for i in range(T)]
for b in segs:
    b.thisown = False
gdy.add_segment(segs.pop())
for b in segs:
    ftl.put_blk(b)
fill = getaddr.trace(fill_file)
ftl.run(fill.handle, U * Np)
ext0, int0 = ftl.ext_writes, ftl.int_writes
if mode == "gen":
    src = getaddr.uniform(U * Np)
    ftl.run(src.handle, writes)
elif mode.startswith("log="):
    src = getaddr.uniform(U * Np)
    src.thisown = False            # the log frees its source when closed
    log = getaddr.log(src.handle, mode[4:])
    ftl.run(log.handle, writes)
    del log                        # log_close: flushes the file
elif mode.startswith("file="):
    src = getaddr.trace(mode[5:])
    src.single = 1
    ftl.run(src.handle, writes)
print("ext", ftl.ext_writes, "int", ftl.int_writes, "ext_overwrites", ftl.ext_writes - ext0,
      "int_overwrites", ftl.int_writes - int0)
"""

# The peer's setup.py also builds _lambertw, whose lambertw.i does not compile
# in the version read (its %{ %} block declares lambertw() without a
# semicolon); the engine does not use it, so only the two modules the driver
# imports are built, from the peer's own sources, with the peer's flags.
PEER_BUILD = r"""
import sys
from setuptools import setup, Extension
sys.argv[1:] = ["build_ext", "--inplace"]
setup(name="sssl-ftlsim-engine", py_modules=[], ext_modules=[
    Extension("_ftlsim", sources=["ftlsim.i", "ftlsim.c"]),
    Extension("_getaddr", sources=["getaddr.i", "getaddr.c"])])
"""
PEER_FILES = ("ftlsim.c", "ftlsim.h", "ftlsim.i", "getaddr.c", "getaddr.h", "getaddr.i")


def peer_source(a):
    """(folder, None, made): the peer's source outside the repository, or
    (None, reason, False). made: a copy from $SSSL_FTLSIM_SRC in a fresh
    folder this call created (tempfile.mkdtemp), which part_peer removes
    when done; a clone is kept for the next run."""
    src = os.environ.get("SSSL_FTLSIM_SRC")
    if src:
        missing = [f for f in PEER_FILES if not os.path.isfile(os.path.join(src, f))]
        if missing:
            return None, f"SSSL_FTLSIM_SRC={src} lacks {', '.join(missing)}", False
        # A fresh folder each time: nothing already in --workdir is removed.
        dst = tempfile.mkdtemp(prefix="sssl-ftlsim-", dir=a.workdir)
        shutil.copytree(src, dst, dirs_exist_ok=True)
        return dst, None, True
    dst = os.path.join(a.workdir, "sssl-ftlsim")
    if os.path.isfile(os.path.join(dst, "ftlsim.c")):
        return dst, None, False
    r = subprocess.run(["git", "clone", "--depth", "1", PEER_URL, dst], capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, GIT_TERMINAL_PROMPT="0"))
    if r.returncode != 0:
        return None, (f"`git clone {PEER_URL}` failed ({r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}); "
                      "set SSSL_FTLSIM_SRC to a checkout of it"), False
    return dst, None, False


def peer_counters(out):
    m = re.search(r"ext (\d+) int (\d+) ext_overwrites (\d+) int_overwrites (\d+)", out)
    return tuple(int(g) for g in m.groups()) if m else None


def peer_trace(a, log_file, U, Np):
    """The peer's logged stream as an ftlsim trace: the fill as 1 MiB
    requests (the peer writes it page by page; no GC runs during it either
    way), then one 4 KiB write per logged address."""
    csv = os.path.join(a.workdir, "peer-stream.csv")
    n = 0
    with open(log_file) as src, open(csv, "w") as out:
        out.writelines(f"{p},{min(256, U * Np - p)}\n" for p in range(0, U * Np, 256))
        for line in src:
            lba = int(line)
            if not 0 <= lba < U * Np:
                return None, f"the peer's generator gave LBA {lba} outside [0, {U * Np})"
            out.write(f"{lba},1\n")
            n += 1
    trace = os.path.join(a.workdir, "peer-stream.ftr")
    subprocess.run([a.ftlsim, "convert", "--from", "csv", csv, "-o", trace, "--no-header", "--columns",
                    "lba=#1:4k,length=#2:4k", "--force", "--no-progress"], check=True, capture_output=True)
    os.remove(csv)
    return trace, n


def part_peer(a):
    print("## (c) sssl-ftlsim (Desnoyers) on the identical stream; target: peer CPU >= 10x ftlsim's")
    if os.path.realpath(a.workdir).startswith(os.path.realpath(ROOT) + os.sep):
        sys.exit("--workdir must be outside the repository (the peer is built there)")
    src, why, made = peer_source(a)
    if src is None:
        print(f"SKIPPED: the peer's source could not be obtained: {why}.\n")
        return
    try:
        peer_rounds(a, src)
    finally:
        if made:
            shutil.rmtree(src)


def peer_rounds(a, src):
    if shutil.which("swig") is None:
        print("SKIPPED: building the peer needs SWIG (apt-get install swig).\n")
        return
    r = subprocess.run([sys.executable, "-c", PEER_BUILD], cwd=src, capture_output=True, text=True,
                       env=dict(os.environ, CFLAGS="-O3"))
    if r.returncode != 0:
        print(f"SKIPPED: building the peer failed:\n{(r.stdout + r.stderr)[-2000:]}\n")
        return
    U = a.peer_logical_gib * 1024   # logical segments of 256 x 4 KiB = 1 MiB
    Np = 256
    minfree = a.peer_minfree
    T = int(U * (1 + a.peer_spare)) + minfree
    fill_file = os.path.join(a.workdir, "peer-fill.txt")
    with open(fill_file, "w") as f:
        f.write(f"0 {U * Np}\n")
    driver = os.path.join(a.workdir, "peer_driver.py")
    with open(driver, "w") as f:
        f.write(PEER_DRIVER)

    def peer(mode):
        c, out = timed([sys.executable, driver, src, str(U), str(Np), str(T), str(minfree), str(a.peer_writes),
                        fill_file, mode])
        k = peer_counters(out)
        if k is None:
            print(f"SKIPPED: the peer's driver printed no counters:\n{out}\n")
            sys.exit(0)
        return c, k

    # The identical stream: one untimed run logs the addresses the peer's own
    # generator draws (the same in every run: rand() is never seeded), and
    # ftlsim replays them as a trace.
    log_file = os.path.join(a.workdir, "peer-stream.txt")
    _, ref = peer("log=" + log_file)
    trace, n = peer_trace(a, log_file, U, Np)
    if trace is None:
        print(f"SKIPPED: {n}.\n")
        return
    if n != a.peer_writes:
        sys.exit(f"the peer logged {n} addresses, not {a.peer_writes}")
    # ftlsim: the same device (T lines of 256 pages on one die) and the peer's
    # cleaning rule: after every request, passes while free lines <= minfree - 1
    # (--gc-trigger watermark; the threshold count is (int)((1 - thres/100) x T)),
    # any victim (no 1/8 rule), forced GC only at one free line.
    thres_pct = 100.0 * (1 - (minfree - 0.5) / T)
    sim_args = ["--channels", "1", "--luns", "1", "--planes", "1", "--pages", "256", "--blocks", str(T),
                "--logical", f"{a.peer_logical_gib}G", "--gc-trigger", "watermark", "--gc-thres",
                f"{thres_pct:.6f}", "--gc-thres-high", f"{100.0 * (1 - 1.5 / T):.6f}"]
    # With --old, each round also runs the old binary between the peer's
    # two runs, so both binaries' ratios come from the same rounds; the two
    # take turns at running first after the peer (which leaves the machine
    # in another state than an ftlsim run does).
    binaries = [("new", a.ftlsim)] + ([("old", a.old)] if a.old else [])
    gens, files = [], []
    ours = {n: [] for n, _ in binaries}
    r_gen = {n: [] for n, _ in binaries}
    r_file = {n: [] for n, _ in binaries}
    for round_ in range(a.pairs):
        c_g, k_g = peer("gen")
        cpu, seen = {}, {}
        for n, binary in (binaries if round_ % 2 == 0 else binaries[::-1]):
            cpu[n], h, g, w = sim(binary, trace, sim_args, os.path.join(a.workdir, "out-peer"))
            seen[n] = (h, g)
        if len(set(seen.values())) != 1:
            sys.exit(f"the two ftlsim binaries' counters differ on the peer's stream: {seen}")
        c_f, k_f = peer("file=" + log_file)
        if k_g != ref or k_f != ref:
            sys.exit(f"the peer's counters differ between runs of the same stream: {ref}, {k_g}, {k_f}")
        gens.append(c_g)
        files.append(c_f)
        for n, _ in binaries:
            ours[n].append(cpu[n])
            r_gen[n].append(c_g / cpu[n])
            r_file[n].append(c_f / cpu[n])
    _, _, ext_over, int_over = ref
    peer_waf = int_over / ext_over          # (host + cleaning writes) / host writes, after the fill
    over = h - U * Np                       # ftlsim's host pages after the fill
    our_waf = (over + g) / over             # no GC runs during the fill
    ops = h + g
    print(f"Stream: {a.peer_logical_gib} GiB fill + {a.peer_writes} uniform 4 KiB writes drawn by the peer's "
          f"getaddr.uniform; 256-page units, 1x1 LUN, {T} segments, {minfree} kept free; ftlsim "
          f"{ops / 1e6:.1f} M NAND pages, {ops / statistics.median(ours['new']) / 1e6:.0f} M per CPU s.")
    print()
    print("| ftlsim | peer | peer CPU s | ftlsim CPU s | peer/ftlsim per pair: median (min..max) | WAF after the "
          "fill: peer / ftlsim (difference) | target |")
    print("|---|---|---|---|---|---|---|")
    diff = 100.0 * (our_waf - peer_waf) / peer_waf
    for n, _ in binaries:
        for name, cpu, ratios in (("generating its stream (getaddr.uniform)", gens, r_gen[n]),
                                  ("reading the same stream from a file (getaddr.trace)", files, r_file[n])):
            target = ('met' if statistics.median(ratios) >= 10 else 'missed') if cpu is gens else "-"
            print(f"| {n} | {name} | {spread(cpu)} | {spread(ours[n])} | {spread(ratios)} | {peer_waf:.4f} / "
                  f"{our_waf:.4f} ({diff:+.3f}%) | {target} |")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ftlsim", default=os.path.join(ROOT, "build/release/src/cli/ftlsim"))
    ap.add_argument("--old", help="a second ftlsim binary: paired A/B per geometry in part (a), in part (b) "
                    "its own timed/fast ratio and new/old timed CPU, in part (c) its own ratio to the peer from "
                    "the same rounds")
    ap.add_argument("--parts", default="geo,bound,timed,peer",
                    help="comma list of geo, bound, timed, peer, sizes, plain (the last two run only when named)")
    ap.add_argument("--writes", type=lambda s: int(float(s)), default=20_000_000,
                    help="uniform overwrites after the fill in part (a)")
    ap.add_argument("--timed-writes", type=lambda s: int(float(s)), default=2_000_000)
    ap.add_argument("--peer-writes", type=lambda s: int(float(s)), default=8_000_000)
    ap.add_argument("--peer-logical-gib", type=int, default=8)
    ap.add_argument("--peer-spare", type=float, default=0.25,
                    help="peer: segments beyond the logical space and the free target, as a fraction of it")
    ap.add_argument("--peer-minfree", type=int, default=64, help="peer: free-segment target (ftl.minfree)")
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--plain-logical", default="8G",
                    help="part plain: comma list of the logical sizes to run it at (the traces of part sizes)")
    ap.add_argument("--size-writes", type=lambda s: int(float(s)), default=5_000_000,
                    help="parts sizes and plain: uniform overwrites after the fill at each logical size")
    ap.add_argument("--callgrind", action="store_true",
                    help="parts sizes and plain: also count instructions per NAND op with valgrind (about a "
                         "minute)")
    ap.add_argument("--only", help="part (a): only the geometries whose name contains this")
    ap.add_argument("--workdir", default=os.path.join(os.path.expanduser("~"), ".cache", "ftlsim-bench-speed"),
                    help="traces, outputs and the peer's build (outside the repository; not a symbolic link)")
    a = ap.parse_args()
    a.ftlsim = os.path.abspath(a.ftlsim)
    if a.old:
        a.old = os.path.abspath(a.old)
    if os.path.islink(a.workdir.rstrip("/")):
        sys.exit(f"--workdir {a.workdir} is a symbolic link; give the folder it points to")
    os.makedirs(a.workdir, exist_ok=True)
    parts = a.parts.split(",")
    if "geo" in parts:
        part_geo(a)
    if "bound" in parts:
        part_bound(a)
    if "timed" in parts:
        part_timed(a)
    if "peer" in parts:
        part_peer(a)
    if "sizes" in parts:
        part_sizes(a)
    if "plain" in parts:
        part_plain(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
