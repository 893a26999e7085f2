#!/usr/bin/env python3
"""Write-hint join benchmark for ftlsim (issue 14, item 14).

Generates a blkparse text trace and a write-hint log (the capture tool's CSV:
time_ns,dev,sector,sectors,hint,stream,ino,pid,comm) with one hint row per
write, then times `ftlsim convert --from blkparse TRACE --hints LOG` (CPU
seconds of the process from wait4, and wall seconds). Shapes:

  capture   random 4 KiB writes over 4 GiB, 10 us apart, each hint 0.5 us
            after its write: what a capture looks like
  sametime  random 4 KiB writes into one 128 KiB index bucket, every time
            stamp equal (a coarse clock): quadratic in the old join
  disjoint  writes into one bucket, the hints on the other 4 KiB pages of
            it, 2 us apart (no hint matches): quadratic in the old join

With --baseline OLD_BINARY the same runs are made with the old binary too
(killed after --baseline-limit wall seconds, and then skipped for the larger
row counts of that shape; the rows say so). Both binaries' outputs are
compared byte for byte.

Usage: bench/bench_hints.py [--rows 1000000,4000000] [--shapes capture,sametime,disjoint]
                            [--binary PATH] [--baseline OLD] [--workdir DIR]
Prints a Markdown table (paste it into bench/README.md).
"""
import argparse
import filecmp
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def generate(shape, rows, prefix):
    """Writes prefix.blk and prefix.hints.csv with `rows` writes and hints."""
    rnd = random.Random(14)
    with open(prefix + ".blk", "w") as blk, open(prefix + ".hints.csv", "w") as hints:
        hints.write("time_ns,dev,sector,sectors,hint,stream,ino,pid,comm\n")
        for i in range(rows):
            if shape == "capture":
                sector, ts, hint_sector, hint_ts = rnd.randrange(1 << 20) * 8, i * 10_000, None, 500
            elif shape == "sametime":
                sector, ts, hint_sector, hint_ts = rnd.randrange(32) * 8, 1_000_000, None, 0
            elif shape == "disjoint":
                sector = rnd.randrange(16) * 16
                ts, hint_sector, hint_ts = i * 2_000, sector + 8, 500
            else:
                sys.exit(f"bench_hints: unknown shape {shape}")
            hs = sector if hint_sector is None else hint_sector
            hints.write(f"{ts + hint_ts},8:16,{hs},8,{i % 5},0,0,42,app\n")
            blk.write(f"8,16 0 {i + 1} {ts // 1_000_000_000}.{ts % 1_000_000_000:09d} 42 D W {sector} + 8 [app]\n")


def timed_convert(binary, prefix, out, limit):
    """CPU seconds (user + system, from wait4: the machine is shared, so wall
    time says more about the other users) and wall seconds of one convert,
    and its hint report; (None, None, why) when killed after `limit` s."""
    cmd = [binary, "convert", "--from", "blkparse", prefix + ".blk", "--hints", prefix + ".hints.csv", "-o", out,
           "--force"]
    with tempfile.TemporaryFile(mode="w+") as err:
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        timer = threading.Timer(limit, proc.kill)
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - start
        err.seek(0)
        text = err.read()
    if proc.returncode == -signal.SIGKILL:
        return None, None, f"over {limit:.0f} s (killed)"
    if proc.returncode != 0:
        sys.exit(f"bench_hints: {' '.join(cmd)} failed: {text.strip()}")
    m = re.search(r"hints: (\d+) writes matched, (\d+) unmatched", text)
    return usage.ru_utime + usage.ru_stime, wall, (m.group(0) if m else text.strip())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", default="1000000,4000000", help="hint rows (= writes) per run, comma-separated")
    ap.add_argument("--shapes", default="capture,sametime,disjoint")
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "release", "src", "cli", "ftlsim"))
    ap.add_argument("--baseline", help="an older ftlsim binary to compare with")
    ap.add_argument("--baseline-limit", type=float, default=120.0, help="seconds before a baseline run is killed")
    ap.add_argument("--workdir", default=os.path.join(ROOT, "build", "bench-hints"))
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    print("| shape | rows | ftlsim CPU s (wall) | rows per CPU s | baseline CPU s (wall) | join result |")
    print("|---|---|---|---|---|---|")
    for shape in a.shapes.split(","):
        baseline_over = False
        for rows in (int(r) for r in a.rows.split(",")):
            prefix = os.path.join(a.workdir, f"{shape}-{rows}")
            generate(shape, rows, prefix)
            cpu, wall, line = timed_convert(a.binary, prefix, prefix + ".ftr", 3600)
            base = "-"
            if a.baseline and not baseline_over:
                bcpu, bwall, bline = timed_convert(a.baseline, prefix, prefix + ".old.ftr", a.baseline_limit)
                if bcpu is None:
                    base, baseline_over = bline, True
                else:
                    same = filecmp.cmp(prefix + ".ftr", prefix + ".old.ftr", shallow=False)
                    base = f"{bcpu:.2f} ({bwall:.2f})" + ("; same output" if same else "; OUTPUT DIFFERS")
            elif baseline_over:
                base = "not run (smaller run was over the limit)"
            print(f"| {shape} | {rows:,} | {cpu:.2f} ({wall:.2f}) | {rows / max(cpu, 1e-6) / 1e6:.2f} M | {base} | {line} |",
                  flush=True)
            for suffix in (".blk", ".hints.csv", ".ftr", ".old.ftr"):
                if os.path.exists(prefix + suffix):
                    os.remove(prefix + suffix)


if __name__ == "__main__":
    main()
