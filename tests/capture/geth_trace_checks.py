#!/usr/bin/env python3
"""Checks shared by the geth capture tests (test_geth_capture.sh,
test_geth_import_capture.sh).

  geth_trace_checks.py ids STATS.json INFO.json [--tol 0.01] [--pages | --range] [--at-least ID,...]
                         [--require ID,ID,...] [--min-ids N]
      Bytes per placement ID in the trace (`ftlsim info --json`) equal the
      wrapper's own per-ID counts (fdp_stats.json "ids": "bytes", or with
      --pages "page_bytes", the 4 KiB pages written) within --tol, for
      every ID but 0 (which also carries the file system's metadata and
      journal) that the wrapper wrote. --at-least ID,...: for these IDs the
      trace only has to carry at least the wrapper's bytes (files that geth
      writes and syncs itself, e.g. the freezer, whose syncs rewrite
      partial pages the wrapper does not see). --range: the trace's bytes
      lie between the wrapper's "bytes" and its "page_bytes", each widened
      by --tol: every byte written reaches the device, but two writes that
      share a 4 KiB page count it twice in page_bytes and reach the device
      once when no writeback came between them, which depends on timing
      (a VM under load wrote 1.06% fewer of the flush tier's pages in one run
      and less in others). --require: these IDs must
      carry bytes in both. --min-ids: at least N IDs checked.

  geth_trace_checks.py markers TRACE.ftr INFO.json FIRST LAST
      One marker per block FIRST..LAST: the count and range from `ftlsim
      info`, and in the records (layout in docs/trace_format.md) marker
      values count up by one in file order, each marker's time between its
      neighbours'.
Exits 1 with the reason on the first failed check.
"""
import argparse
import json
import struct
import sys


def ids(a):
    stats = json.load(open(a.stats))
    info = json.load(open(a.info))
    trace = {p["pid"]: p["write_bytes"] for p in info["pids"]}
    checked = []
    at_least = {int(x) for x in a.at_least.split(",") if x}
    for entry in stats["ids"]:
        pid, want = entry["id"], entry["page_bytes" if a.pages or a.range else "bytes"]
        if pid == 0 or want == 0:
            continue
        got = trace.get(pid, 0)
        lower = pid in at_least
        print(f"  ID {pid} ({'+'.join(entry['tiers'])}): wrapper {want} B, trace {got} B, {100.0 * (got - want) / want:+.3f}%"
              + (" (want at least the wrapper's)" if lower else ""))
        if lower and got < want:
            sys.exit(f"ID {pid} carries less than the wrapper's bytes")
        if a.range and not lower:
            low = entry["bytes"] * (1 - a.tol)
            if not low <= got <= want * (1 + a.tol):
                sys.exit(f"ID {pid}: trace {got} B outside the wrapper's {entry['bytes']} B .. {want} B "
                         f"(bytes .. pages) widened by {100 * a.tol:g}%")
        elif not lower and abs(got - want) > a.tol * want:
            sys.exit(f"ID {pid} differs by more than {100 * a.tol:g}%")
        checked.append(pid)
    if len(checked) < a.min_ids:
        sys.exit(f"only {len(checked)} tagged IDs carried data, want at least {a.min_ids}")
    for pid in (int(x) for x in a.require.split(",") if x):
        if pid not in checked or trace.get(pid, 0) == 0:
            sys.exit(f"ID {pid} carries no bytes in the wrapper's counts or in the trace")


def markers(a):
    info = json.load(open(a.info))
    m = info["markers"]
    if not (m["count"] == a.last - a.first + 1 and m["first"] == a.first and m["last"] == a.last):
        sys.exit(f"markers {m}, want one per block {a.first}..{a.last}")
    data = open(a.trace, "rb").read()
    header_bytes, record_bytes = struct.unpack_from("<II", data, 16)
    count = struct.unpack_from("<Q", data, 32)[0]
    recs = [struct.unpack_from("<QQIHBB", data, header_bytes + i * record_bytes) for i in range(count)]
    pos = [i for i, r in enumerate(recs) if r[4] == 4]
    if [recs[i][1] for i in pos] != list(range(a.first, a.first + len(pos))):
        sys.exit("marker values do not count up by one in file order")
    for i in pos:
        if i > 0 and recs[i - 1][0] > recs[i][0]:
            sys.exit(f"record {i}: marker earlier than the request before it")
        if i + 1 < count and recs[i][0] > recs[i + 1][0]:
            sys.exit(f"record {i}: marker later than the request after it")
    print(f"  {len(pos)} markers ({a.first}..{a.last}) in order among {count} records")


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("ids")
    i.add_argument("stats")
    i.add_argument("info")
    i.add_argument("--tol", type=float, default=0.01)
    i.add_argument("--pages", action="store_true")
    i.add_argument("--range", action="store_true")
    i.add_argument("--require", default="")
    i.add_argument("--at-least", default="")
    i.add_argument("--min-ids", type=int, default=1)
    m = sub.add_parser("markers")
    m.add_argument("trace")
    m.add_argument("info")
    m.add_argument("first", type=int)
    m.add_argument("last", type=int)
    a = p.parse_args()
    ids(a) if a.cmd == "ids" else markers(a)


if __name__ == "__main__":
    main()
