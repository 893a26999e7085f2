#!/usr/bin/env python3
"""Random combinations of simulate's options on small random traces.

Each combination (numbered 0..COUNT-1, drawn from random.Random(f"{seed}:{i}"),
so every one can be run again alone with --first i --count 1) makes a trace
of 1 to 200 records (writes, reads, trims, flushes, markers; dense, sparse or
huge LBAs; unaligned lengths; placement IDs with RG bits; times that go
back) through `ftlsim convert --from csv`, and simulates it on a small device
with 2 to 8 of the options below. A combination fails when ftlsim

  - exits other than 0 (done) or 2 (refused),
  - prints a sanitizer report, `terminate called` or `internal error`,
  - refuses without exactly one `ftlsim: error:` line,
  - or writes a summary.json that is not JSON,

and the whole run fails when fewer than a quarter of its combinations ran.

Refusing is fine: most combinations of this table are not valid devices.
Two crashes it would have found (2026-12-07): `--trim-range plus-one` under
`--logical fit:` (an untouched slot read as a device slot), and
`--id-series` under any FDP placement (a row written past the end). Run on
the ASan build, memory errors show up as sanitizer reports.

usage: option_mix.py --ftlsim BIN --work DIR [--seed S] [--first I] [--count N]
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys

ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=0", UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
BAD_TEXT = ("AddressSanitizer", "runtime error:", "UndefinedBehaviorSanitizer", "LeakSanitizer", "terminate called",
            "internal error")
PIDS = [0, 1, 2, 3, 7, 0x0102, 0x0100, 0x0201, 0x00ff, 0xffff]


def trace_csv(rng):
    """A random trace as `ftlsim dump`'s CSV (time,op,lba,length,pid)."""
    lba_mode = rng.choice(["dense", "dense", "tiny", "sparse", "aligned"])
    weights = rng.choice([(1, 0, 0, 0, 0), (8, 2, 1, 0, 1), (6, 2, 2, 1, 1), (4, 1, 3, 0, 2), (0, 0, 1, 0, 0)])
    rows, t = [], rng.randint(0, 1000)
    for k in range(rng.randint(1, 200)):
        op = rng.choices("wrtfm", weights=weights)[0]
        t = max(0, t + rng.randint(-1000, 100_000))
        length = rng.choice([8, 8, 16, 64, 256, rng.randint(1, 256), rng.choice([1, 7, 9, 2048])])
        lba = {"dense": rng.randint(0, 1024), "tiny": rng.randint(0, 64), "aligned": rng.randint(0, 128) * 8,
               "sparse": rng.choice([rng.randint(0, 2 ** 34), rng.randint(0, 1024)])}[lba_mode]
        pid = rng.choice(PIDS)
        if op in "wrt":
            rows.append(f"{t},{op},{lba},{length},{pid}")
        elif op == "f":
            rows.append(f"{t},f,0,0,{pid}")
        else:
            rows.append(f"{t},m,{rng.choice([0, 1, 2, k, 7])},0,0")
    return "time,op,lba,length,pid\n" + "\n".join(rows) + "\n"


def options(rng):
    """A small device, then 2 to 8 options of the table with plausible and edge values."""
    args = ["--channels", str(rng.choice([1, 2])), "--luns", str(rng.choice([1, 2])),
            "--pages", str(rng.choice([4, 16, 32, 64])), "--blocks", str(rng.choice([32, 64, 128]))]
    if rng.random() < 0.3:
        args.append("--wrap")
    table = {
        "--logical": lambda: rng.choice(["256K", "1M", "4M", "fit:50%", "fit:90%"]),
        "--op": lambda: rng.choice(["0.1", "0.25", "1"]),
        "--rules": lambda: rng.choice(["femu", "confdp"]),
        "--sizing": lambda: rng.choice(["lines", "thres"]),
        "--trim-partial": lambda: rng.choice(["unmap", "keep"]),
        "--trim-range": lambda: rng.choice(["exact", "plus-one"]),
        "--gc-thres": lambda: rng.choice(["25", "60", "75", "90"]),
        "--gc-thres-high": lambda: rng.choice(["80", "90", "95"]),
        "--victim": lambda: rng.choice(["greedy", "cost-benefit", "fifo", "random", "d-choice"]),
        "--gc-check": lambda: rng.choice(["request", "page"]),
        "--rg-gc": lambda: rng.choice(["first", "every"]),
        "--gc-order": lambda: rng.choice(["block", "page"]),
        "--declined": lambda: rng.choice(["requeue", "keep"]),
        "--forced-passes": lambda: rng.choice(["femu", "1", "5"]),
        "--gc-trigger": lambda: rng.choice(["femu", "watermark"]),
        "--rg": lambda: rng.choice(["1", "2"]),
        "--ru-size": lambda: rng.choice(["32K", "64K", "256K"]),
        "--ruh": lambda: rng.choice(["1", "2", "4", "8"]),
        "--ruh-type": lambda: rng.choice(["pi", "last-ii", "ii"]),
        "--pi-gc": lambda: rng.choice(["gc-ru", "host-ru"]),
        "--ii-gc": lambda: rng.choice(["last-ruh", "gc-ru"]),
        "--ru-open": lambda: rng.choice(["startup", "lazy"]),
        "--rg-split": lambda: rng.choice(["lines", "dies", "channels"]),
        "--rg-of": lambda: rng.choice(["current", "pid", "lba"]),
        "--pid-format": lambda: rng.choice(["rgif", "rgif-min", "confdp"]),
        "--single": lambda: rng.choice(["line-path", "handle0"]),
        "--ru-time-limit": lambda: rng.choice(["off", "1ms", "1s"]),
        "--placement": lambda: rng.choice(["single", "fdp", "map:0=1,1=0", "oracle", "interval"]),
        "--write-spill": lambda: rng.choice(["stay", "nearest"]),
        "--gc-spill": lambda: rng.choice(["stay", "nearest"]),
        "--interval": lambda: rng.choice(["4K", "64K"]),
        "--id-series": None,
        "--reset-at": lambda: rng.choice(["device:0", "counters:1", "device:7"]),
        "--precondition": lambda: rng.choice(["seq", "random", "trace"]),
        "--repeat": lambda: rng.choice(["1", "2"]),
        "--timing": None,
        "--qd": lambda: rng.choice(["1", "4", "64"]),
    }
    for name in rng.sample(sorted(table), rng.randint(2, 8)):
        make = table[name]
        args += [name] if make is None else [name, make()]
    if "--qd" in args and "--timing" not in args:
        args.append("--timing")
    return args


def check(binary, work, seed, i):
    """Runs combination i; returns its exit status (0 or 2), or what went wrong with the command to repeat it."""
    rng = random.Random(f"{seed}:{i}")
    d = os.path.join(work, str(i))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    csv, ftr = os.path.join(d, "t.csv"), os.path.join(d, "t.ftr")
    with open(csv, "w") as f:
        f.write(trace_csv(rng))
    conv = subprocess.run([binary, "convert", "--from", "csv", csv, "-o", ftr, "--no-progress"],
                          capture_output=True, text=True, env=ENV, timeout=120)
    if conv.returncode != 0:
        return f"convert of {csv} exited {conv.returncode}: {conv.stderr.strip()[-2000:]}"
    cmd = [binary, "--trace", ftr, *options(rng), "--out", os.path.join(d, "out"), "--no-progress", "-j", "1"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=120)
    except subprocess.TimeoutExpired:
        return "no end within 120 s: " + " ".join(cmd)
    errors = [line for line in r.stderr.splitlines() if line.startswith("ftlsim: error:")]
    what = None
    if any(t in r.stderr or t in r.stdout for t in BAD_TEXT):
        what = "a crash report"
    elif r.returncode not in (0, 2):
        what = f"exit status {r.returncode}"
    elif r.returncode == 2 and len(errors) != 1:
        what = f"{len(errors)} 'ftlsim: error:' lines on a refusal"
    elif r.returncode == 0 and os.path.exists(os.path.join(d, "out", "summary.json")):
        try:
            with open(os.path.join(d, "out", "summary.json")) as f:
                json.load(f)
        except ValueError as e:
            what = f"summary.json is not JSON: {e}"
    if what is None:
        shutil.rmtree(d)
        return r.returncode
    return f"{what}: {' '.join(cmd)}\n{r.stderr.strip()[-3000:]}"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ftlsim", required=True)
    p.add_argument("--work", required=True, help="a scratch folder (emptied first)")
    p.add_argument("--seed", default="1")
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--count", type=int, default=150)
    a = p.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    failed = ran = 0
    for i in range(a.first, a.first + a.count):
        outcome = check(a.ftlsim, a.work, a.seed, i)
        if isinstance(outcome, str):
            failed += 1
            print(f"combination {i} (--seed {a.seed} --first {i} --count 1): {outcome}", file=sys.stderr)
        elif outcome == 0:
            ran += 1
    print(f"option_mix: {a.count} combinations from {a.first}, seed {a.seed}: {ran} ran, "
          f"{a.count - ran - failed} refused, {failed} failed")
    # A change that refused every combination would pass the checks above
    # without running one: at least a quarter must run (about half do).
    if ran < a.count // 4:
        failed += 1
        print(f"option_mix: only {ran} of {a.count} combinations ran (at least {a.count // 4} should): "
              "the checks cover little", file=sys.stderr)
    if failed == 0:
        shutil.rmtree(a.work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
