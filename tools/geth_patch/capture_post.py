#!/usr/bin/env python3
"""Post-processing for run_import_capture.sh (one file, two subcommands).

  capture_post.py ancient-hints --events LOG [--events LOG ...] [--id 6] HINTS_CSV
      Linux has only six write hints (0-5), so geth's freezer ("ancient")
      files share hint 5 with Pebble's deep tier. The wrapper's JSONL event
      logs (GETH_FDP_MODE=...,log) name each freezer file's inode when the
      watcher first sees it ("ev": "ancient"); hinttrace logs each bio's inode.
      This rewrites, in place, the hint of every bio of a freezer inode to
      --id (default 6) while the inode is a freezer file (see
      ancient_inodes: ext4 reuses inode numbers), so the trace gets a
      placement ID of its own for the freezer. Prints how many rows it
      changed.

  capture_post.py sum-stats OUT.json STATS.json [STATS.json ...]
      Sums the wrapper's per-process stats files (one per geth process:
      init and each import) into one, per tier and per placement ID, with
      the freezer under its own ID when --ancient-id is given.

Errors name the file and line and exit 1; nothing is written on error.
"""
import argparse
import csv
import json
import os
import sys
import tempfile


def fail(msg):
    print(f"capture_post.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def ancient_inodes(paths):
    """inode -> list of (start_ns, end_ns) windows when it was a freezer file.

    ext4 reuses inode numbers at once: an inode that was a freezer file may
    have been a Pebble table just before (and become one again after). A
    window starts 2 s before the watcher first saw the freezer file (it
    rescans every second), but not before the inode's last event as a
    Pebble file, and ends at the inode's next event as a Pebble file.
    """
    first = {}   # ino -> first-sight times as a freezer file
    other = {}   # ino -> times of events as a Pebble file
    for path in paths:
        try:
            f = open(path, encoding="utf-8")
        except OSError as e:
            fail(f"{path}: {e.strerror}")
        with f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    ev = json.loads(line)
                except json.JSONDecodeError as e:
                    fail(f"{path}: line {n}: not JSON ({e.msg})")
                ino = int(ev.get("ino") or 0)
                if not ino:
                    continue
                t = int(ev["t_ns"])
                if ev.get("ev") in ("ancient", "ancient_end"):
                    if ev["ev"] == "ancient":
                        first.setdefault(ino, []).append(t)
                else:
                    other.setdefault(ino, []).append(t)
    margin = 2_000_000_000
    windows = {}
    for ino, seen in first.items():
        t0 = min(seen)
        times = sorted(other.get(ino, []))
        before = [t for t in times if t < t0]
        after = [t for t in times if t >= t0]
        start = max(t0 - margin, before[-1] + 1 if before else t0 - margin)
        end = after[0] if after else None
        windows[ino] = (start, end)
    return windows


def ancient_hints(args):
    inodes = ancient_inodes(args.events)
    if not inodes:
        fail(f"no freezer files in {', '.join(args.events)} (need GETH_FDP_MODE with log)")
    path = args.hints_csv
    try:
        src = open(path, newline="", encoding="utf-8")
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".hints.", dir=d)
    changed = rows = 0
    try:
        with src, os.fdopen(fd, "w", newline="", encoding="utf-8") as dst:
            lines = iter(src)
            # Comment lines (#...) before the header are kept as they are.
            for line in lines:
                dst.write(line)
                if not line.startswith("#"):
                    header = line.rstrip("\r\n").split(",")
                    break
            else:
                fail(f"{path}: no header line")
            try:
                ci, ct, ch = header.index("ino"), header.index("time_ns"), header.index("hint")
            except ValueError:
                fail(f"{path}: header lacks time_ns, hint or ino: {header}")
            for n, line in enumerate(lines, 2):
                f = line.rstrip("\r\n").split(",")
                if len(f) < len(header) or line.startswith("#"):
                    dst.write(line)
                    continue
                rows += 1
                try:
                    ino, t = int(f[ci]), int(f[ct])
                except ValueError:
                    fail(f"{path}: line {n}: bad time_ns or ino")
                w = inodes.get(ino)
                if w is not None and t >= w[0] and (w[1] is None or t < w[1]):
                    f[ch] = str(args.id)
                    changed += 1
                    line = ",".join(f) + "\n"
                dst.write(line)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    print(f"capture_post.py: {changed} of {rows} hint rows moved to ID {args.id} "
          f"({len(inodes)} freezer inodes)", file=sys.stderr)


def sum_stats(args):
    if os.path.lexists(args.out):
        fail(f"{args.out} exists")
    total = None
    for path in args.stats:
        try:
            s = json.load(open(path, encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            fail(f"{path}: {e}")
        if s.get("version") != 1 or "tiers" not in s:
            fail(f"{path}: not a version-1 fdpvfs stats file")
        if total is None:
            total = {"version": 1, "processes": [], "map": s["map"], "mode": s["mode"], "fdp": s["fdp"],
                     "tiers": {t["tier"]: {"tier": t["tier"], "id": t["id"], "bytes": 0, "page_bytes": 0, "files": 0,
                                           "method": t["method"]} for t in s["tiers"]},
                     "unmatched_tables": 0, "hint_errors": 0, "total_bytes": 0}
        if s["map"] != total["map"]:
            fail(f"{path}: tier map {s['map']} differs from the first file's {total['map']}")
        total["processes"].append({"file": os.path.basename(path), "start_ns": s["start_ns"], "end_ns": s["end_ns"],
                                   "total_bytes": s["total_bytes"]})
        for t in s["tiers"]:
            total["tiers"][t["tier"]]["bytes"] += t["bytes"]
            total["tiers"][t["tier"]]["page_bytes"] += t.get("page_bytes", 0)
            total["tiers"][t["tier"]]["files"] += t["files"]
        for k in ("unmatched_tables", "hint_errors", "total_bytes"):
            total[k] += s.get(k, 0)
    tiers = list(total["tiers"].values())
    if args.ancient_id is not None:
        for t in tiers:
            if t["tier"] == "ancient":
                t["id"] = args.ancient_id
    ids = {}
    for t in tiers:
        e = ids.setdefault(t["id"], {"id": t["id"], "bytes": 0, "page_bytes": 0, "tiers": []})
        e["bytes"] += t["bytes"]
        e["page_bytes"] += t["page_bytes"]
        e["tiers"].append(t["tier"])
    total["tiers"] = tiers
    total["ids"] = [ids[k] for k in sorted(ids)]
    with open(args.out, "x", encoding="utf-8") as f:
        json.dump(total, f, indent=2)
        f.write("\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("ancient-hints")
    a.add_argument("--events", action="append", required=True)
    a.add_argument("--id", type=int, default=6)
    a.add_argument("hints_csv")
    s = sub.add_parser("sum-stats")
    s.add_argument("--ancient-id", type=int)
    s.add_argument("out")
    s.add_argument("stats", nargs="+")
    args = p.parse_args()
    if args.cmd == "ancient-hints":
        if not 0 <= args.id <= 255:
            fail("--id must be 0..255")
        ancient_hints(args)
    else:
        sum_stats(args)


if __name__ == "__main__":
    main()
