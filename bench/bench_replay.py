#!/usr/bin/env python3
"""Live-replay benchmark (issue 6, section 4): `ftlsim replay` against fio's
io_uring engine on the same target, in the same run.

Workload: 4 KiB random writes, queue depth 32, O_DIRECT. ftlsim replays a
trace made by `ftlsim gen --pattern uniform` (uniform random 4 KiB pages over
the target, afap mode); fio runs `--ioengine=io_uring --iodepth=32 --bs=4k
--rw=randwrite --direct=1 --norandommap --randrepeat=0` over the same bytes
for the same number of I/Os, once with fio's defaults and once with
`--fixedbufs=1 --registerfiles=1` (what ftlsim does). Each round runs all
three, in an order that rotates from round to round, so all see the same
machine load and none always follows another; the table shows the medians
and the median of the per-round ratios ftlsim IOPS / fio IOPS (target >=
0.90 against fio's defaults).

Targets:
  file      a regular file in --dir (written in full first, so both tools
            overwrite allocated blocks): bound by the disk;
  loop-shm  a loop device over a file in /dev/shm (root only; written in
            full first): the device is memory, so the submission and
            completion path of each tool is what is measured.

Usage: bench/bench_replay.py [--binary PATH] [--size 1G] [--ios 262144]
                             [--rounds 5] [--targets file,loop-shm] [--dir DIR]
Needs fio (tools/install_deps.sh bench). Prints a Markdown table.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def size_bytes(text):
    units = {"K": 10, "M": 20, "G": 30, "T": 40}
    t = text.strip().upper().rstrip("B").rstrip("I")
    if t and t[-1] in units:
        return int(t[:-1]) << units[t[-1]]
    return int(t)


def fio_iops(target, size, ios, qd, tuned=False):
    cmd = ["fio", "--name=bench", f"--filename={target}", "--ioengine=io_uring", f"--iodepth={qd}", "--bs=4k",
           "--rw=randwrite", "--direct=1", f"--size={size}", f"--number_ios={ios}", f"--io_size={ios * 4096}",
           "--norandommap", "--randrepeat=0", "--output-format=json"]
    if tuned:
        cmd += ["--fixedbufs=1", "--registerfiles=1"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    job = json.loads(out)["jobs"][0]["write"]
    return job["iops"], job["clat_ns"]["percentile"]["50.000000"] / 1000.0, job["total_ios"]


def ftlsim_iops(binary, trace, target, qd, outdir):
    cmd = [binary, "replay", "--trace", trace, "--target", target, "--qd", str(qd), "--no-progress", "--out", outdir]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"ftlsim replay failed (exit {proc.returncode}): {proc.stderr.strip()}")
    with open(os.path.join(outdir, "summary.json")) as f:
        s = json.load(f)
    if s["partial"]:
        sys.exit(f"ftlsim replay stopped: {s['stop_reason']}")
    w = s["ops"]["write"]
    return w["iops"], w["latency_us"]["p50"], w["ios"]


def run_target(name, target, args, binary, trace, work):
    rows = []
    for r in range(args.rounds):
        # The order rotates: a run can leave the device busy (host write-back
        # of a virtual disk) and slow the one after it.
        runs = {
            "fio": lambda: fio_iops(target, args.size, args.ios, args.qd),
            "fio_tuned": lambda: fio_iops(target, args.size, args.ios, args.qd, tuned=True),
            "ftlsim": lambda: ftlsim_iops(binary, trace, target, args.qd, os.path.join(work, f"out-{name}-{r}")),
        }
        names = list(runs)
        order = names[r % 3:] + names[:r % 3]
        got = {n: runs[n]() for n in order}
        for n, (_, _, ios) in got.items():
            if ios != args.ios:
                sys.exit(f"{name}: {n} did {ios} I/Os, not {args.ios}")
        rows.append(got)
        print(f"  {name} round {r + 1} ({', '.join(order)}): " +
              ", ".join(f"{n} {got[n][0]:.0f} IOPS" for n in names) +
              f", ratio {got['ftlsim'][0] / got['fio'][0]:.3f}", file=sys.stderr)
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", default=os.path.join(ROOT, "build", "release", "src", "cli", "ftlsim"))
    p.add_argument("--size", default="1G", help="target size (default 1G)")
    p.add_argument("--ios", type=int, default=262144, help="4 KiB writes per run (default 262144 = 1 GiB)")
    p.add_argument("--qd", type=int, default=32)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--targets", default="file,loop-shm")
    p.add_argument("--dir", default=None, help="directory of the file target (default: a temp dir in /var/tmp)")
    args = p.parse_args()
    if shutil.which("fio") is None:
        sys.exit("fio not found: run tools/install_deps.sh bench")
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"{args.binary} not found: build the release preset first (make release)")
    size = size_bytes(args.size)
    work = tempfile.mkdtemp(prefix="ftlsim-bench-replay-", dir=args.dir or "/var/tmp")
    loop = None
    shm = None
    results = {}
    try:
        trace = os.path.join(work, "u4k.ftr")
        subprocess.run([args.binary, "gen", "--pattern", "uniform", "--logical", str(size), "--writes", str(args.ios),
                        "-o", trace], check=True, capture_output=True)
        for name in args.targets.split(","):
            if name == "file":
                target = os.path.join(work, "target.img")
                subprocess.run(["dd", "if=/dev/zero", f"of={target}", "bs=1M", f"count={size >> 20}",
                                "oflag=direct", "status=none"], check=True)
            elif name == "loop-shm":
                if os.geteuid() != 0:
                    print("  loop-shm skipped: needs root", file=sys.stderr)
                    continue
                fd, shm = tempfile.mkstemp(prefix="ftlsim-bench-replay-", dir="/dev/shm")
                os.ftruncate(fd, size)
                os.close(fd)
                loop = subprocess.run(["losetup", "-f", "--show", shm], check=True, capture_output=True,
                                      text=True).stdout.strip()
                target = loop
                # Allocate the tmpfs pages once, so no round pays for it.
                subprocess.run(["dd", "if=/dev/zero", f"of={target}", "bs=1M", f"count={size >> 20}",
                                "oflag=direct", "status=none"], check=True)
            else:
                sys.exit(f"unknown target {name} (file, loop-shm)")
            results[name] = run_target(name, target, args, args.binary, trace, work)
            if loop:
                subprocess.run(["losetup", "-d", loop], check=False)
                loop = None
    finally:
        if loop:
            subprocess.run(["losetup", "-d", loop], check=False)
        if shm and os.path.exists(shm):
            os.remove(shm)
        shutil.rmtree(work, ignore_errors=True)

    print(f"\n4 KiB random writes, queue depth {args.qd}, O_DIRECT, {args.ios} I/Os over {args.size}, "
          f"{args.rounds} rounds (medians)\n")
    print("| target | fio io_uring IOPS | fio + fixedbufs, registerfiles | ftlsim replay IOPS "
          "| ftlsim / fio (median of rounds) | min..max | ftlsim / tuned fio | p50 latency fio / ftlsim |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    med = statistics.median
    for name, rows in results.items():
        ratios = [g["ftlsim"][0] / g["fio"][0] for g in rows]
        tuned = [g["ftlsim"][0] / g["fio_tuned"][0] for g in rows]
        print(f"| {name} | {med(g['fio'][0] for g in rows):,.0f} | {med(g['fio_tuned'][0] for g in rows):,.0f} "
              f"| {med(g['ftlsim'][0] for g in rows):,.0f} | **{med(ratios):.2f}** "
              f"| {min(ratios):.2f}..{max(ratios):.2f} | {med(tuned):.2f} "
              f"| {med(g['fio'][1] for g in rows):.0f} / {med(g['ftlsim'][1] for g in rows):.0f} us |")


if __name__ == "__main__":
    main()
