#!/usr/bin/env python3
"""Checks the outputs of tests/vm/guest_f2fs_fdp.sh: the FDP-aware F2FS
(tools/f2fs_fdp) with fdp_log_n=8 and fdp_log_n=1.

The expectations come from where the files are (p3/, p5/) and from the
addresses the guest read back (FIEMAP, dump.f2fs's NAT entry, the
superblock's main_blkaddr), compared with the hint tracer's log of every
write bio (the placement ID in bi_write_hint); a block's ID is the one of
the last bio that wrote it.
- both: every block of a surviving file in pX/ (after cleaning) and its
  inode block were last written with ID X; every write below main_blkaddr
  (checkpoint, SIT, NAT, SSA) has ID 0; cleaning moved blocks, and each
  moved block was rewritten after cleaning began with its file's ID;
- N=8: while the files were written, no 2 MiB segment got two IDs (their
  sub-logs 3 and 5 are apart), the open logs include sub-logs 3 and 5 of
  a data and a node type;
- N=1: the same writes share segments (one log per type, as stock F2FS),
  and exactly the six logs are open, each sub-log 0;
- 40 checkpoints that change only ID 0's files: each wrote the checkpoint
  area (writes below main_blkaddr), and N=8 wrote no more summary (SSA)
  blocks than N=1 (a sub-log's summary is written only when it changed, not
  once per open sub-log per checkpoint).
usage: check_vm_f2fs_fdp.py DIR   (the guest's /tmp/out: n8/, n1/)
"""
import collections
import os
import re
import sys

from vm_checks import Checks

BLOCKS_PER_SEG = 512  # 2 MiB segments of 4 KiB blocks


def read_outputs(top):
    """{"n8.files": text, ...} from DIR/n8/files, ..."""
    files = {}
    for n in (8, 1):
        for name in ("options", "files", "fdp_logs", "hinttrace.err", "hints.csv"):
            path = os.path.join(top, f"n{n}", name)
            if os.path.exists(path):
                with open(path, encoding="utf-8", errors="replace") as f:
                    files[f"n{n}.{name}"] = f.read()
    return files


def parse_hints(csv):
    """[(time_ns, first_block, nblocks, hint)] in time order"""
    writes = []
    for line in csv.splitlines()[1:]:
        f = line.split(",")
        if len(f) < 5:
            continue
        t, sector, sectors, hint = int(f[0]), int(f[2]), int(f[3]), int(f[4])
        writes.append((t, sector // 8, max(1, sectors // 8), hint))
    writes.sort()
    return writes


def last_hint(writes, until=None):
    """block -> (time, hint) of the last write (before `until` when given)"""
    last = {}
    for t, blk, n, hint in writes:
        if until is not None and t >= until:
            break
        for b in range(blk, blk + n):
            last[b] = (t, hint)
    return last


def main():
    files = read_outputs(sys.argv[1])
    checks = Checks()
    check = checks.check
    cp_ssa = {}

    for n in (8, 1):
        tag = f"N={n}"
        out = files.get(f"n{n}.files", "")
        check(f"{tag}: mounted with fdp_log_n={n}", f"fdp_log_n={n}" in files.get(f"n{n}.options", ""),
              files.get(f"n{n}.options", "(no options)"))
        check(f"{tag}: hint tracer lost nothing", re.search(r"records, 0 lost", files.get(f"n{n}.hinttrace.err", "")),
              files.get(f"n{n}.hinttrace.err", ""))
        fid, fino, before, after, inode_blk, vals = {}, {}, collections.defaultdict(list), collections.defaultdict(list), {}, {}
        for line in out.splitlines():
            f = line.split()
            if f and f[0] == "file":
                fid[f[1]], fino[f[1]] = int(f[2]), f[3]
            elif f and f[0] in ("before", "after"):
                (before if f[0] == "before" else after)[f[1]] += range(int(f[2]), int(f[2]) + int(f[3]))
            elif f and f[0] == "inode_blk" and f[2] != "none":
                inode_blk[f[1]] = int(f[2], 16)
            elif len(f) == 2 and f[0] in ("t_written", "t_gc", "t_cp", "t_cp_end", "ssa_blkaddr", "main_blkaddr",
                                          "gc_rounds"):
                vals[f[0]] = int(f[1])
        if not all(k in vals for k in ("t_written", "t_gc", "t_cp", "t_cp_end", "ssa_blkaddr", "main_blkaddr")) \
                or not after:
            check(f"{tag}: the guest program ran", False, out[-600:])
            continue
        writes = parse_hints(files.get(f"n{n}.hints.csv", ""))
        final = last_hint(writes)
        main_blk = vals["main_blkaddr"]
        survivors = sorted(after)
        check(f"{tag}: half the files survive", len(survivors) == len(fid) // 2 and len(fid) == 16,
              f"{len(survivors)} of {len(fid)}")

        bad = [(p, b, final.get(b)) for p in survivors for b in after[p] if final.get(b, (0, -1))[1] != fid[p]]
        nblk = sum(len(after[p]) for p in survivors)
        check(f"{tag}: all {nblk} data blocks of the files in p3/, p5/ carry their directory's ID", nblk > 0 and not bad,
              f"{len(bad)} wrong, e.g. {bad[:3]}")
        inodes = {p: inode_blk.get(fino[p]) for p in survivors}
        bad = [(p, b, final.get(b)) for p, b in inodes.items() if b is None or final.get(b, (0, -1))[1] != fid[p]]
        check(f"{tag}: each file's inode (node) block carries its ID", not bad, str(bad[:3]))

        meta = [w for w in writes if w[1] < main_blk]
        check(f"{tag}: checkpoint/SIT/NAT/SSA writes (below block {main_blk}) are all ID 0",
              meta and all(w[3] == 0 for w in meta), f"{len(meta)} writes, IDs {sorted({w[3] for w in meta})}")

        moved = [(p, b) for p in survivors for b in after[p] if b not in set(before[p])]
        cleaned = [(p, b) for p, b in moved if final.get(b, (0, -1))[0] >= vals["t_gc"] and final[b][1] == fid[p]]
        print(f"      {tag}: {vals.get('gc_rounds')} cleaning rounds moved {len(moved)} of {nblk} blocks")
        check(f"{tag}: F2FS's cleaning moved blocks, rewriting each with its file's ID",
              moved and len(cleaned) == len(moved), f"{len(moved)} moved, {len(cleaned)} rewritten with the ID")

        in_cp = [w for w in writes if vals["t_cp"] <= w[0] <= vals["t_cp_end"] and w[1] < main_blk]
        cp_ssa[n] = sum(w[2] for w in in_cp if w[1] >= vals["ssa_blkaddr"])
        print(f"      {tag}: 40 checkpoints wrote {len(in_cp)} metadata bios, with {cp_ssa[n]} summary (SSA) blocks")
        check(f"{tag}: the 40 directory fsyncs wrote the checkpoint area", len(in_cp) >= 40, f"{len(in_cp)} bios")

        seg_ids = collections.defaultdict(set)
        for t, blk, cnt, hint in writes:
            if t < vals["t_written"] and blk >= main_blk:
                for b in range(blk, blk + cnt):
                    seg_ids[(b - main_blk) // BLOCKS_PER_SEG].add(hint)
        mixed = sorted(s for s, ids in seg_ids.items() if len(ids) > 1)
        print(f"      {tag}: {len(seg_ids)} segments written while the files were, {len(mixed)} with two IDs or more")
        logs = [tuple(int(x) for x in line.split()) for line in files.get(f"n{n}.fdp_logs", "").splitlines()[1:]]
        print(f"      {tag}: open logs (type, sub-log, segment): {logs}")
        if n == 8:
            check(f"{tag}: no segment mixes IDs", seg_ids and not mixed, f"segments {mixed[:5]}")
            subs = {(t < 3, s) for t, s, _ in logs}
            check(f"{tag}: sub-logs 3 and 5 are open in a data and a node type",
                  {(True, 3), (True, 5), (False, 3), (False, 5)} <= subs, str(logs))
            check(f"{tag}: every open log has a segment of its own",
                  len({seg for _, _, seg in logs}) == len(logs) and len({(t, s) for t, s, _ in logs}) == len(logs), str(logs))
        else:
            check(f"{tag}: segments mix IDs (one log per type)", bool(mixed), f"{len(seg_ids)} segments, none mixed")
            check(f"{tag}: one sub-log per type", sorted(logs) == sorted((t, 0, s) for t, _, s in logs)
                  and sorted(t for t, _, _ in logs) == list(range(6)), str(logs))
    if len(cp_ssa) == 2:
        # 42 sub-logs of N=8, at least 4 of them open (p3/, p5/: data and
        # node), would add at least 160 if every checkpoint wrote them
        check("N=8 writes no more summary blocks in 40 checkpoints than N=1 (+10)", cp_ssa[8] <= cp_ssa[1] + 10,
              f"N=8 {cp_ssa[8]}, N=1 {cp_ssa[1]}")
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
