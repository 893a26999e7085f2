#!/usr/bin/env python3
"""Paired speed comparison of two ftlsim binaries in fast mode.

Runs the two binaries alternately (A B A B ...) on the same generated traces,
so that load from other work on this shared machine hits both alike, and
reports the median user CPU time of each replay (getrusage of the child;
less sensitive to the machine's other load than wall time) and the ratio. Used to show that a change
to the engine keeps the fast path's speed (issue #13: the FEMU-exact heap and
GC order against the previous engine).

  bench/bench_paired.py --old /path/to/old/ftlsim --new build/release/src/cli/ftlsim
"""
import argparse
import os
import resource
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (name, gen arguments, simulation arguments)
CASES = [
    ("femu-default uniform 4K", ["--pattern", "uniform", "--logical", "12G", "--fill"], ["--preset", "femu-default"]),
    ("femu-eth uniform 4K", ["--pattern", "uniform", "--logical", "64G", "--fill"], ["--preset", "femu-eth"]),
    ("femu-eth 4 streams, fdp", ["--pattern", "streams", "--streams", "0.4:0.05,0.3:0.15,0.2:0.3,0.1:0.5",
                                 "--logical", "64G", "--fill"], ["--preset", "femu-eth", "--placement", "fdp"]),
]


def cpu_seconds(binary, trace, sim_args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    out = subprocess.run([binary, "--trace", trace, "--no-progress"] + sim_args, check=True,
                         capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    waf = re.search(r"WAF\s+([0-9.]+)", out)
    return after - before, waf.group(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True, help="the reference binary")
    ap.add_argument("--new", default=os.path.join(ROOT, "build/release/src/cli/ftlsim"))
    ap.add_argument("--writes", default="20e6", help="random writes after the fill (a count: 20000000 or 20e6)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--workdir", default="/tmp/ftlsim-bench-paired")
    ap.add_argument("--new-args", default="",
                    help="extra options for the new binary only, e.g. \"--rules confdp --sizing lines\" (the old "
                         "binary runs the FEMU rules on the same device)")
    ap.add_argument("--args", default="",
                    help="extra options for both binaries, e.g. \"--rules confdp --sizing lines\" to compare them "
                         "under ConfFDP's rules")
    args = ap.parse_args()
    both = args.args.split()
    new_extra = both + args.new_args.split()
    os.makedirs(args.workdir, exist_ok=True)
    print(f"| case | old CPU s | new CPU s | new/old | WAF old / new |")
    print(f"|---|---|---|---|---|")
    for name, gen, sim in CASES:
        trace = os.path.join(args.workdir, re.sub(r"[^a-z0-9]+", "-", name.lower()) + ".ftr")
        if not os.path.exists(trace):
            subprocess.run([args.new, "gen"] + gen + ["--writes", args.writes, "-o", trace], check=True,
                           capture_output=True)
        olds, news = [], []
        for _ in range(args.repeat):
            o, waf_o = cpu_seconds(args.old, trace, sim + both)
            n, waf_n = cpu_seconds(args.new, trace, sim + new_extra)
            olds.append(o)
            news.append(n)
        mo, mn = statistics.median(olds), statistics.median(news)
        print(f"| {name} | {mo:.2f} ({min(olds):.2f}-{max(olds):.2f}) | {mn:.2f} ({min(news):.2f}-{max(news):.2f}) "
              f"| {mn / mo:.2f} | {waf_o} / {waf_n} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
