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

  capture_post.py inode-hints --events LOG [--events LOG ...] [--ancient-id 6] HINTS_CSV
      For a kernel that does not carry a file's write hint into its bios
      (F2FS on Linux 6.12 puts its own temperature hints there): sets, in
      place, the hint of every bio from the inode hinttrace logged for it.
      A bio of a freezer inode (as in ancient-hints) gets --ancient-id; a
      bio of a Pebble file gets the placement ID of that file's tier (its
      last create/classify/reuse/open_rw/close event), taking the life of
      the inode current at the bio's time (see inode_lives); every other
      bio (file-system metadata, inodes the wrapper never saw) gets 0.
      Prints the rows and bytes per ID and how many rows' own hint differed.

  capture_post.py sum-stats OUT.json STATS.json [STATS.json ...]
      Sums the wrapper's per-process stats files (one per geth process:
      init and each import) into one, per tier and per placement ID, with
      the freezer under its own ID when --ancient-id is given.

Errors name the file and line and exit 1; nothing is written on error.
"""
import bisect
import argparse
import csv
import json
import os
import stat
import sys
import tempfile


def fail(msg):
    print(f"capture_post.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def read_events(paths):
    """Every event of the logs, in time order, as (t_ns, event, "FILE: line N").

    The one reader of the wrapper's JSONL logs: a line that is not a JSON
    object with an integer t_ns (and, when present, an integer ino) is an
    error naming its file and line.
    """
    events = []
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
                where = f"{path}: line {n}"
                try:
                    ev = json.loads(line)
                except json.JSONDecodeError as e:
                    fail(f"{where}: not JSON ({e.msg})")
                if not isinstance(ev, dict):
                    fail(f"{where}: not an event (a JSON object)")
                t = ev.get("t_ns")
                if not isinstance(t, int) or isinstance(t, bool) or t < 0:
                    fail(f"{where}: no time stamp (t_ns)")
                ino = ev.get("ino", 0)
                if ino is not None and (not isinstance(ino, int) or isinstance(ino, bool) or ino < 0):
                    fail(f"{where}: ino is not an inode number")
                events.append((t, ev, where))
    events.sort(key=lambda e: e[0])
    return events


def field(ev, where, key, kind):
    """ev[key] checked to be a `kind` (str or int); an error naming the line otherwise."""
    v = ev.get(key)
    if not isinstance(v, kind) or isinstance(v, bool):
        fail(f"{where}: a '{ev.get('ev')}' event without {key}")
    return v


def ancient_inodes(events):
    """inode -> (start_ns, end_ns) window when it was a freezer file.

    ext4 reuses inode numbers at once: an inode that was a freezer file may
    have been a Pebble table just before (and become one again after). A
    window starts 2 s before the watcher first saw the freezer file (it
    rescans every second), but not before the inode's last event as a
    Pebble file, and ends at the inode's next event as a Pebble file.
    """
    first = {}   # ino -> first-sight times as a freezer file
    other = {}   # ino -> times of events as a Pebble file
    for t, ev, _ in events:
        ino = ev.get("ino") or 0
        if not ino:
            continue
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


PLACING = ("create", "classify", "reuse", "open_rw", "close")


def inode_lives(events):
    """inode -> (ends, ids): the inode's lives as a Pebble file.

    A file system reuses the inode number of a removed file. The log names
    a file's inode on its create/classify/reuse/open_rw/close events, and
    its removal by path only; so a removal ends the life of the inode the
    path last had (renames carry it), and the next placing event of that
    inode starts a new life. ends[k] is the time life k ended,
    ids[k] its placement ID (of its last placing event: a table's final
    tier); only ended lives have an entry in ends (increasing). A bio at
    time t belongs to the first life that had not ended.
    """
    path_ino = {}
    lives = {}  # ino -> list of [end_ns, id]
    for t, ev, where in events:
        kind, ino = ev.get("ev"), ev.get("ino") or 0
        if kind == "rename" and ev.get("from") in path_ino:
            path_ino[field(ev, where, "file", str)] = path_ino.pop(ev["from"])
        elif kind == "remove" and ev.get("file") in path_ino:
            ino = path_ino.pop(ev["file"])
            cur = lives.get(ino)
            if cur and cur[-1][0] is None:
                cur[-1][0] = t
        elif kind in PLACING and ino:
            path_ino[field(ev, where, "file", str)] = ino
            pid = field(ev, where, "id", int)
            cur = lives.setdefault(ino, [])
            if not cur or cur[-1][0] is not None:
                cur.append([None, pid])
            else:
                cur[-1][1] = pid
    return {ino: ([e for e, _ in v if e is not None], [i for _, i in v]) for ino, v in lives.items()}


def rewrite_hints(path, new_hint):
    """Rewrites HINTS_CSV in place: new_hint(ino, t, old_hint) gives each
    row's hint, or None to keep the row. Returns (rows, changed, per-ID
    [rows, bytes], rows whose own hint was non-zero and differs)."""
    try:
        src = open(path, newline="", encoding="utf-8")
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".hints.", dir=d)
    os.fchmod(fd, stat.S_IMODE(os.fstat(src.fileno()).st_mode))  # mkstemp's 0600 would stay
    changed = rows = differed = 0
    per_id = {}
    try:
        with src, os.fdopen(fd, "w", newline="", encoding="utf-8") as dst:
            lines = iter(src)
            for line in lines:
                dst.write(line)
                if not line.startswith("#"):
                    header = line.rstrip("\r\n").split(",")
                    break
            else:
                fail(f"{path}: no header line")
            try:
                ci, ct, ch, cs = (header.index("ino"), header.index("time_ns"), header.index("hint"),
                                  header.index("sectors"))
            except ValueError:
                fail(f"{path}: header lacks time_ns, sectors, hint or ino: {header}")
            for n, line in enumerate(lines, 2):
                if line.startswith("#") or not line.strip():
                    dst.write(line)
                    continue
                f = line.rstrip("\r\n").split(",")
                if len(f) < len(header):
                    fail(f"{path}: line {n}: {len(f)} fields, the header has {len(header)} (a truncated row?)")
                rows += 1
                try:
                    ino, t, old, sectors = int(f[ci]), int(f[ct]), int(f[ch]), int(f[cs])
                except ValueError:
                    fail(f"{path}: line {n}: bad time_ns, sectors, hint or ino")
                h = new_hint(ino, t, old)
                if h is None:
                    h = old
                c = per_id.setdefault(h, [0, 0])
                c[0] += 1
                c[1] += sectors * 512
                if old and old != h:
                    differed += 1
                if h != old:
                    f[ch] = str(h)
                    changed += 1
                    line = ",".join(f) + "\n"
                dst.write(line)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return rows, changed, per_id, differed


def inode_hints(args):
    events = read_events(args.events)
    ancient = ancient_inodes(events)
    lives = inode_lives(events)
    if not lives:
        fail(f"no file with an inode in {', '.join(args.events)} (need GETH_FDP_MODE with log)")

    def new_hint(ino, t, old):
        w = ancient.get(ino)
        if w is not None and t >= w[0] and (w[1] is None or t < w[1]):
            return args.ancient_id
        life = lives.get(ino)
        if life is None:
            return 0
        ends, ids = life
        k = bisect.bisect_right(ends, t)  # the first life not ended at t
        return ids[k] if k < len(ids) else 0

    rows, changed, per_id, differed = rewrite_hints(args.hints_csv, new_hint)
    ids = ", ".join(f"{i}: {c[0]} rows {c[1]} B" for i, c in sorted(per_id.items()))
    print(f"capture_post.py: IDs from inodes: {changed} of {rows} hint rows changed; {ids}; "
          f"{differed} rows carried a different non-zero hint of their own "
          f"({len(lives)} Pebble inodes, {len(ancient)} freezer inodes)", file=sys.stderr)


def ancient_hints(args):
    inodes = ancient_inodes(read_events(args.events))
    if not inodes:
        fail(f"no freezer files in {', '.join(args.events)} (need GETH_FDP_MODE with log)")

    def new_hint(ino, t, old):
        w = inodes.get(ino)
        return args.id if w is not None and t >= w[0] and (w[1] is None or t < w[1]) else None

    rows, changed, _, _ = rewrite_hints(args.hints_csv, new_hint)
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
    i = sub.add_parser("inode-hints")
    i.add_argument("--events", action="append", required=True)
    i.add_argument("--ancient-id", type=int, default=6)
    i.add_argument("hints_csv")
    s = sub.add_parser("sum-stats")
    s.add_argument("--ancient-id", type=int)
    s.add_argument("out")
    s.add_argument("stats", nargs="+")
    args = p.parse_args()
    if args.cmd == "ancient-hints":
        if not 0 <= args.id <= 255:
            fail("--id must be 0..255")
        ancient_hints(args)
    elif args.cmd == "inode-hints":
        if not 0 <= args.ancient_id <= 255:
            fail("--ancient-id must be 0..255")
        inode_hints(args)
    else:
        sum_stats(args)


if __name__ == "__main__":
    main()
