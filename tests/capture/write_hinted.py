#!/usr/bin/env python3
"""Writes files with per-file write-lifetime hints (F_SET_RW_HINT) and prints,
as JSON on stdout, how many data bytes it wrote per hint value.

Used by test_capture.sh: the capture of this run must show the same bytes per
hint in the hint log and per placement ID in the converted trace.

  write_hinted.py DIR [--direct]

For hint h in 0..5: a buffered file of (h + 1) MiB, written in 256 KiB chunks
and fsync'ed; with --direct also an O_DIRECT file of (h + 1) * 512 KiB.
Sizes are whole file-system blocks, so data bios carry exactly these bytes.
"""
import fcntl
import json
import mmap
import os
import struct
import sys

F_SET_RW_HINT = 1036  # linux/fcntl.h: F_LINUX_SPECIFIC_BASE + 12
KIB = 1024
MIB = 1024 * KIB
CHUNK = 256 * KIB


def write_file(path, hint, size, direct):
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    if direct:
        flags |= os.O_DIRECT
    fd = os.open(path, flags, 0o644)
    try:
        fcntl.fcntl(fd, F_SET_RW_HINT, struct.pack("Q", hint))
        # Page-aligned anonymous buffer, as O_DIRECT requires.
        buf = mmap.mmap(-1, CHUNK, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        buf.write(bytes([0x41 + hint]) * CHUNK)
        done = 0
        while done < size:
            n = os.write(fd, memoryview(buf)[: min(CHUNK, size - done)])
            done += n
        os.fsync(fd)
    finally:
        os.close(fd)


def main():
    if len(sys.argv) < 2:
        print("usage: write_hinted.py DIR [--direct]", file=sys.stderr)
        return 2
    out = sys.argv[1]
    direct = "--direct" in sys.argv[2:]
    written = {h: 0 for h in range(6)}
    inodes = {}
    for h in range(6):
        p = os.path.join(out, f"buffered_{h}")
        write_file(p, h, (h + 1) * MIB, False)
        written[h] += (h + 1) * MIB
        inodes[p] = os.stat(p).st_ino
        if direct:
            p = os.path.join(out, f"direct_{h}")
            write_file(p, h, (h + 1) * 512 * KIB, True)
            written[h] += (h + 1) * 512 * KIB
            inodes[p] = os.stat(p).st_ino
    json.dump({"bytes_per_hint": written, "inodes": inodes}, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
