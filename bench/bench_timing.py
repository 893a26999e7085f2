#!/usr/bin/env python3
"""Timed-mode benchmark for ftlsim (issue 5, section 4).

Measures, in one run on this machine:
  * timed-mode speed: simulated NAND operations (page reads, page programs,
    erases; a GC copy is a read and a program) per second of the replay, on
    femu-default with uniform random 4 KiB writes after a fill (GC all the
    time), closed loop at queue depth 64 and open loop at the trace's own
    pace, and on a 90%-read mix; both per wall-clock second (from the
    summary's `simulated in` line) and per CPU second of the process
    (wait4 rusage), since the machine is shared;
  * fast mode before/after: with --baseline BINARY, the same fast-mode
    replay with the old and the new binary, alternating, so that both see
    the same machine state (target: unchanged).
Each run is repeated --repeat times; the table shows medians.

Usage: bench/bench_timing.py [--writes N] [--repeat K] [--baseline OLD_BINARY]
                             [--binary PATH] [--workdir DIR] [--steps timed,fast]
Prints a Markdown table (paste it into bench/README.md).
"""
import argparse
import json
import os
import re
import statistics

from bench_proc import run, run_usage

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOGICAL = 12 * 2**30  # femu-default


def run_cpu(cmd):
    """Runs cmd; returns (stdout, its CPU seconds)."""
    out, _, usage = run_usage(cmd)
    return out, usage.ru_utime + usage.ru_stime


def simulated(out):
    m = re.search(r"simulated\s+in ([0-9.]+) s \(([0-9.]+) M host pages/s", out)
    return float(m.group(1)), float(m.group(2))


def timed_case(ftlsim, trace, extra, repeat, workdir):
    """Median wall and CPU NAND-ops rates of a timed run, and its summary."""
    walls, cpus = [], []
    summary = None
    for k in range(repeat):
        out_dir = os.path.join(workdir, "timed-out")
        out, cpu = run_cpu([ftlsim, "--trace", trace, "--timing", *extra, "--no-progress", "--out", out_dir])
        wall, _ = simulated(out)
        with open(os.path.join(out_dir, "summary.json")) as f:
            summary = json.load(f)
        ops = summary["timing"]["nand"]["ops"]
        walls.append(ops / wall / 1e6)
        cpus.append(ops / cpu / 1e6)
    return statistics.median(walls), statistics.median(cpus), summary


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--writes", default="10e6", help="random writes after the fill (a count: 10000000 or 10e6)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workdir", default="/tmp/ftlsim-bench-timing")
    ap.add_argument("--binary", default=os.path.join(ROOT, "build/release/src/cli/ftlsim"))
    ap.add_argument("--baseline", help="an ftlsim binary built before timed mode, for the fast-mode comparison")
    ap.add_argument("--steps", default="timed,fast")
    args = ap.parse_args()
    steps = set(args.steps.split(","))
    os.makedirs(args.workdir, exist_ok=True)
    ftlsim = args.binary
    rows = []

    trace = os.path.join(args.workdir, "uniform-femu-default.ftr")
    if os.path.exists(trace):
        os.remove(trace)
    run([ftlsim, "gen", "--pattern", "uniform", "--logical", str(LOGICAL), "--fill", "--writes", args.writes,
         "--seed", "1", "-o", trace])

    if "timed" in steps:
        for label, extra in (("closed loop, qd 64", ["--qd", "64"]), ("open loop, speed 1", [])):
            wall, cpu, s = timed_case(ftlsim, trace, extra, args.repeat, args.workdir)
            t = s["timing"]
            w = t["ops"]["write"]
            rows.append((f"timed femu-default, uniform writes, {label} (WAF {s['waf']:.2f})",
                         f"{wall:.2f} M NAND ops/s wall, {cpu:.2f} M per CPU second",
                         f"{t['nand']['ops'] / 1e6:.1f} M NAND ops; {w['iops']:.0f} write IOPS simulated, "
                         f"p99 {w['lat_ns']['p99'] / 1e6:.2f} ms; utilization {t['nand']['utilization']:.2f}"))
        mix = os.path.join(args.workdir, "mix90r.ftr")
        if os.path.exists(mix):
            os.remove(mix)
        run([ftlsim, "gen", "--pattern", "uniform", "--logical", str(LOGICAL), "--fill", "--writes", args.writes,
             "--read-ratio", "0.9", "--seed", "1", "-o", mix])
        wall, cpu, s = timed_case(ftlsim, mix, ["--qd", "64"], args.repeat, args.workdir)
        t = s["timing"]
        rows.append(("timed femu-default, 90% reads, closed loop, qd 64",
                     f"{wall:.2f} M NAND ops/s wall, {cpu:.2f} M per CPU second",
                     f"{t['nand']['ops'] / 1e6:.1f} M NAND ops; {t['ops']['read']['iops']:.0f} read IOPS simulated, "
                     f"read p99 {t['ops']['read']['lat_ns']['p99'] / 1e3:.0f} us"))
        os.remove(mix)

    if "fast" in steps and args.baseline:
        rates = {"baseline": [], "new": []}
        cpus = {"baseline": [], "new": []}
        for _ in range(args.repeat):
            for name, binary in (("baseline", args.baseline), ("new", ftlsim)):
                out, cpu = run_cpu([binary, "--trace", trace, "--preset", "femu-default", "--no-progress"])
                _, rate = simulated(out)
                pages = int(re.search(r"\(([0-9]+) pages\), ", out).group(1))
                rates[name].append(rate)
                cpus[name].append(pages / cpu / 1e6)
        b, n = statistics.median(rates["baseline"]), statistics.median(rates["new"])
        bc, nc = statistics.median(cpus["baseline"]), statistics.median(cpus["new"])
        rows.append(("fast femu-default before timed mode (baseline binary)",
                     f"{b:.1f} M host pages/s (min {min(rates['baseline']):.1f}, max {max(rates['baseline']):.1f})",
                     f"{bc:.1f} M host pages per CPU second of the process"))
        rows.append(("fast femu-default with timed mode (this binary)",
                     f"{n:.1f} M host pages/s (min {min(rates['new']):.1f}, max {max(rates['new']):.1f})",
                     f"{nc:.1f} M host pages per CPU second; change {100 * (n / b - 1):+.1f}% wall, "
                     f"{100 * (nc / bc - 1):+.1f}% CPU"))
    os.remove(trace)

    print("| step | rate | notes |")
    print("|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} |")


if __name__ == "__main__":
    main()
