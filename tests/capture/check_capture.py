#!/usr/bin/env python3
"""Checks one raw capture of write_hinted.py (see test_capture.sh).

  check_capture.py EXPECTED.json HINTS.csv RAW.txt MAJ:MIN ROUTE

- bytes per hint 1..5 in the hint log equal what the program wrote (1%);
  hint 0 also holds file-system metadata and the journal, so it may be more;
- buffered writes carry the inode of their file;
- every queued (Q) write in the block trace (ftrace `blk` text or blkparse
  default output) has a hint record with the same sector and length, at a
  constant time offset (within 1 ms); for the ftrace route that offset is ~0,
  which shows both tracers stamp with the same clock (trace_clock=mono).
"""
import csv
import json
import re
import statistics
import sys

FTRACE_Q = re.compile(r"\s(\d+\.\d+):\s+(\d+),(\d+)\s+Q\s+(\S+)\s+(\d+) \+ (\d+)")
# blkparse default: "  7,0    1       12     0.000123456  4321  Q  WS 2048 + 8 [dd]"
BLKPARSE_Q = re.compile(
    r"^\s*(\d+),(\d+)\s+\d+\s+\d+\s+(\d+\.\d+)\s+\d+\s+Q\s+(\S+)\s+(\d+) \+ (\d+)")


def main(expected_path, hints_path, raw_path, dev, route):
    doc = json.load(open(expected_path))
    expected = {int(k): v for k, v in doc["bytes_per_hint"].items()}
    inodes = set(doc["inodes"].values())

    per_hint, hint_q, ino_bytes = {}, {}, 0
    for r in csv.DictReader(open(hints_path)):
        assert r["dev"] == dev, f"record for device {r['dev']}, traced {dev}"
        b = int(r["sectors"]) * 512
        per_hint[int(r["hint"])] = per_hint.get(int(r["hint"]), 0) + b
        hint_q.setdefault((int(r["sector"]), int(r["sectors"])), []).append(int(r["time_ns"]))
        if int(r["ino"]) in inodes:
            ino_bytes += b

    bad = []
    for h in range(1, 6):
        got, want = per_hint.get(h, 0), expected[h]
        print(f"  hint {h}: log {got} B, written {want} B")
        if abs(got - want) > 0.01 * want:
            bad.append(h)
    assert not bad, f"bytes per hint differ for hints {bad}"
    assert per_hint.get(0, 0) >= expected[0], "hint 0 has fewer bytes than the hint-0 files"
    buffered = sum((h + 1) << 20 for h in range(6))
    assert ino_bytes >= buffered, \
        f"inode known for {ino_bytes} B, want >= {buffered} B of buffered data"

    pattern = FTRACE_Q if route == "ftrace" else BLKPARSE_Q
    offsets, unmatched = [], 0
    for line in open(raw_path):
        m = pattern.search(line)
        if not m or "W" not in m.group(4) or int(m.group(6)) == 0:
            continue
        t_ns = float(m.group(1 if route == "ftrace" else 3)) * 1e9
        key = (int(m.group(5)), int(m.group(6)))
        times = hint_q.get(key)
        if not times:
            unmatched += 1
            continue
        offsets.append(min(times, key=lambda t: abs(t - t_ns)) - t_ns)
    q = len(offsets) + unmatched
    assert q > 0, "no queued writes in the block trace"
    median = statistics.median(offsets) if offsets else 0.0
    far = sum(1 for o in offsets if abs(o - median) > 1e6)
    print(f"  block trace: {q} queued writes, {unmatched} without hint record, "
          f"offset hint - block {median / 1e3:.1f} us (median), {far} off by > 1 ms")
    assert unmatched <= 0.01 * q and far <= 0.01 * q, "block trace and hint log disagree"
    if route == "ftrace":
        assert abs(median) < 1e6, "hint and block timestamps are not on one clock"
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 6:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
