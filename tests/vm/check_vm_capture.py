#!/usr/bin/env python3
"""Checks the console of tests/vm/guest_capture.sh: captures with write hints
on ext4 and F2FS on the VM's NVMe namespace.

What /run/hinted_write wrote (its own printout) is the expectation:
- both: the capture and its conversion succeeded, no hint record was lost,
  every write of the trace was matched to a hint record, and the trace holds
  at least the bytes the program wrote;
- ext4 (Linux 6.12): the O_DIRECT files carry their F_SET_RW_HINT, so trace
  placement ID h (1..5) holds exactly direct_h's bytes; buffered writeback
  carries no hint there (the writes land in ID 0 with the file system's);
- F2FS: it tags writes with its own temperature hints, so the trace has
  more than one placement ID; the bytes per ID are printed, not compared.
usage: check_vm_capture.py CONSOLE
"""
import json
import re
import sys

from vm_checks import Checks


def sections(text):
    files, rcs, name, buf = {}, {}, None, []
    for line in text.splitlines():
        if name is not None:
            if line == "@@END":
                files[name], name, buf = "\n".join(buf), None, []
            else:
                buf.append(line)
        elif line.startswith("@@FILE "):
            name = line[7:]
        elif line.startswith("@@RC "):
            _, cmd, rc, secs = line.split()
            rcs[cmd] = (int(rc), float(secs))
    return files, rcs


def main():
    files, rcs = sections(open(sys.argv[1], encoding="utf-8", errors="replace").read())
    checks = Checks()
    check = checks.check

    for fs in ("ext4", "f2fs"):
        rc, secs = rcs.get(f"capture_{fs}", (None, 0))
        out = files.get(f"capture_{fs}.out", "")
        print(f"      {fs}: capture exit {rc}, {secs:.1f} s in the guest")
        check(f"{fs}: capture succeeded", rc == 0, out[-500:])
        check(f"{fs}: no hint record lost", re.search(r"hinttrace: \d+ records, 0 lost", out) is not None, out[-300:])
        m = re.search(r"(\d+) writes, .*hints: (\d+) writes matched, (\d+) unmatched", out)
        check(f"{fs}: every write matched a hint record", m is not None and m.group(1) == m.group(2) and m.group(3) == "0"
              and int(m.group(1)) > 0, m.group(0) if m else out[-300:])
        wrote = {}
        for line in files.get(f"{fs}.expected", "").splitlines():
            kind, h, n = line.split()
            wrote[(kind, int(h))] = int(n)
        try:
            info = json.loads(files.get(f"{fs}.info.json", ""))
        except ValueError:
            check(f"{fs}: ftlsim info of the trace", False, files.get(f"{fs}.info.json", "")[:200])
            continue
        by_pid = {p["pid"]: p["write_bytes"] for p in info["pids"]}
        print(f"      {fs}: bytes per placement ID {by_pid}")
        check(f"{fs}: the program wrote its 12 files", len(wrote) == 12, str(wrote))
        check(f"{fs}: the trace holds at least the bytes written", sum(by_pid.values()) >= sum(wrote.values()),
              f"{sum(by_pid.values())} < {sum(wrote.values())}")
        if fs == "ext4":
            for h in range(1, 6):
                check(f"ext4: placement ID {h} = direct_{h}'s {wrote.get(('direct', h))} B",
                      by_pid.get(h) == wrote.get(("direct", h)), f"{by_pid.get(h)}")
        else:
            check("f2fs: its own temperature hints give more than one placement ID", len(by_pid) > 1, str(by_pid))
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
