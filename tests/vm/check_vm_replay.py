#!/usr/bin/env python3
"""Checks the console of tests/vm/guest_replay.sh (one boot of the test VM).

Expected numbers come from outside the replay: the traces' bytes per
placement ID from `ftlsim info --json` (the trace reader, not the replay
engine), the RU size the VM was started with, and nvme-cli's own reading of
the device (RUH status, FDP statistics, host events) before and after each
step. ftlsim's readings of the same log pages are checked against
nvme-cli's.

The geth replay uses reclaim group 0 (PID = handle), the small one --rg 1:
PID = (1 << (16 - RGIF)) | handle, with RGIF as nvme-cli reports it.

usage: check_vm_replay.py CONSOLE GETH_INFO_JSON SMALL_INFO_JSON RU_BYTES RGS HANDLES
Prints one line per check and "N passed, M failed"; exit 1 on a failure.
"""
import json
import re
import sys

LBA = 512  # the namespaces' LBA size (QEMU's default; run_vm.sh sets no other)


def sections(text):
    files, rcs = {}, {}
    name, buf = None, []
    for line in text.splitlines():
        if name is not None:
            if line == "@@END":
                files[name] = "\n".join(buf)
                name, buf = None, []
            else:
                buf.append(line)
            continue
        if line.startswith("@@FILE "):
            name = line[len("@@FILE "):]
        elif line.startswith("@@RC "):
            _, cmd, rc, secs = line.split()
            rcs[cmd] = (int(rc), float(secs))
    return files, rcs


def cli_status(text):
    """nvme fdp status: {pid: ruamw}"""
    out, pid = {}, None
    for line in text.splitlines():
        m = re.match(r"Placement Identifier (\d+);", line)
        if m:
            pid = int(m.group(1))
        m = re.search(r"\(RUAMW\): (\d+)", line)
        if m and pid is not None:
            out[pid] = int(m.group(1))
    return out


def cli_stats(text):
    def get(key):
        m = re.search(r"\(" + key + r"\): (\d+)", text)
        return int(m.group(1)) if m else None
    return {"hbmw": get("HBMW"), "mbmw": get("MBMW")}


def cli_events(text):
    """nvme fdp events -E: [(type, pid)]"""
    out, etype = [], None
    for line in text.splitlines():
        m = re.search(r"Event Type: 0x([0-9a-fA-F]+)", line)
        if m:
            etype = int(m.group(1), 16)
            out.append([etype, None])
        m = re.search(r"Placement Identifier \(PID\): 0x([0-9a-fA-F]+)", line)
        if m and out:
            out[-1][1] = int(m.group(1), 16)
    return [tuple(e) for e in out]


def new_events(before, after):
    for k in range(min(len(before), len(after)), 0, -1):
        if before[-k:] == after[:k]:
            return after[k:]
    return after


def main():
    console, geth_info, small_info, ru_bytes, rgs, handles = sys.argv[1:7]
    rgs, handles = int(rgs), int(handles)
    files, rcs = sections(open(console, encoding="utf-8", errors="replace").read())
    geth = {p["pid"]: p["write_bytes"] for p in json.load(open(geth_info))["pids"]}
    small = {p["pid"]: p["write_bytes"] for p in json.load(open(small_info))["pids"]}
    R = int(ru_bytes) // LBA  # RU size in logical blocks
    W = sum(geth.values())
    passed, failed = 0, 0

    def check(name, ok, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f"ok    {name}")
        else:
            failed += 1
            print(f"FAIL  {name}: {detail}")

    def rc(name):
        return rcs.get(name, (None, 0))[0]

    def out(name):
        return files.get(name + ".out", "")

    def js(name):
        try:
            return json.loads(files.get(name + ".json", ""))
        except ValueError:
            return None

    def moved(before, after):
        return (before - after) % R  # blocks written into the handle's RUs, modulo the RU

    st = {s: cli_status(files.get(s + ".status", "")) for s in ("s0", "s1", "s2", "s3", "s4", "s5", "s6")}
    ss = {s: cli_stats(files.get(s + ".stats", "")) for s in ("s0", "s1", "s2", "s3", "s4", "s5", "s6")}
    ev = {s: cli_events(files.get(s + ".events", "")) for s in ("s3", "s4")}
    for name, (code, secs) in sorted(rcs.items()):
        print(f"      {name}: exit {code}, {secs:.1f} s in the guest")

    # 1. the conventional controller is refused for --placement nvme
    check("conventional namespace refused", rc("conv_refused") not in (0, None) and
          "does not support Flexible Data Placement" in out("conv_refused"), out("conv_refused")[:300])

    # 1b. the FDP configuration as ftlsim read it: what the VM was started with
    m = re.search(r"FDP Attributes: 0x([0-9a-fA-F]+)", files.get("configs", ""))
    rgif = int(m.group(1), 16) & 0xF if m else None
    n0 = js("ng")
    if n0 is not None and n0.get("device_fdp"):
        d0 = n0["device_fdp"]
        got = (d0["reclaim_groups"], d0["handles"], d0["ru_bytes"], d0["rgif"])
        check("FDP configurations log: reclaim groups, handles, RU size, RGIF (nvme-cli)",
              got == (rgs, handles, int(ru_bytes), rgif), f"{got} != {(rgs, handles, int(ru_bytes), rgif)}")
    rg1 = (1 << (16 - rgif)) if rgif else 0  # PID of handle 0 in reclaim group 1

    # 2. block device /dev/nvmeXn1: everything lands in placement handle 0
    b = js("blk")
    check("block path: replay complete", rc("blk") == 0 and b is not None and not b["partial"], out("blk")[-400:])
    if b is not None:
        check("block path: bytes written = trace", b["ops"]["write"]["bytes"] == W, f'{b["ops"]["write"]["bytes"]} != {W}')
        v = b.get("verify") or {}
        check("block path: --verify read back every unit", v.get("mismatches") == 0 and v.get("written_units", 0) > 0, str(v))
    check("block path: HBMW grew by the bytes written (nvme-cli)",
          None not in (ss["s0"]["hbmw"], ss["s1"]["hbmw"]) and ss["s1"]["hbmw"] - ss["s0"]["hbmw"] == W,
          f'{ss["s0"]} -> {ss["s1"]}, want +{W}')
    if st["s0"] and st["s1"]:
        check("block path: handle 0 took every write", moved(st["s0"][0], st["s1"][0]) == (W // LBA) % R,
              f"moved {moved(st['s0'][0], st['s1'][0])}, want {(W // LBA) % R}")
        check("block path: no other handle moved", all(st["s0"][p] == st["s1"][p] for p in st["s0"] if p != 0),
              f"{st['s0']} -> {st['s1']}")
    else:
        check("block path: nvme-cli RUH status read", False, files.get("s0.status", "")[:200])

    # 3. passthrough /dev/ngXnY with placement
    n = js("ng")
    check("passthrough: replay complete", rc("ng") == 0 and n is not None and not n["partial"], out("ng")[-400:])
    if n is not None and n.get("device_fdp"):
        d = n["device_fdp"]
        check("passthrough: HBMW delta (ftlsim) = trace bytes", d["delta"]["hbmw"] == W, f'{d["delta"]["hbmw"]} != {W}')
        check("passthrough: HBMW delta (nvme-cli) = trace bytes", ss["s2"]["hbmw"] - ss["s1"]["hbmw"] == W,
              f'{ss["s1"]} -> {ss["s2"]}')
        check("passthrough: ftlsim's statistics = nvme-cli's",
              d["after"]["hbmw"] == ss["s2"]["hbmw"] and d["after"]["mbmw"] == ss["s2"]["mbmw"],
              f'{d["after"]} vs {ss["s2"]}')
        # QEMU counts the rest of an RU again as media writes each time a write
        # fills it (docs/replay.md): per crossed RU boundary between 1 block
        # and one I/O (--max-io, 1 MiB). The number of boundaries a handle's
        # writes cross does not depend on their order.
        crossings = sum((R - st["s1"][p] + geth.get(p, 0) // LBA) // R for p in st["s1"])
        extra = (ss["s2"]["mbmw"] - ss["s1"]["mbmw"]) - (ss["s2"]["hbmw"] - ss["s1"]["hbmw"])
        print(f"      passthrough: {crossings} RU boundaries crossed, MBMW - HBMW = {extra} B")
        check("passthrough: MBMW - HBMW within QEMU's RU-boundary accounting",
              crossings * LBA <= extra <= crossings * (1 << 20), f"{extra} for {crossings} boundaries")
        before = {r["pid"]: r["ruamw"] for r in d["ruh_before"]}
        after = {r["pid"]: r["ruamw"] for r in d["ruh_after"]}
        check("passthrough: ftlsim's RUH status = nvme-cli's (before and after)",
              before == st["s1"] and after == st["s2"], f"{before} / {st['s1']}; {after} / {st['s2']}")
        for pid in sorted(st["s1"]):
            want = (geth.get(pid, 0) // LBA) % R
            got = moved(st["s1"][pid], st["s2"][pid])
            check(f"passthrough: handle {pid} moved as trace ID {pid}'s {geth.get(pid, 0)} B predict",
                  got == want, f"moved {got} blocks, want {want}")
        hs = {h["pid"]: h for h in d["handle_checks"]}
        check("passthrough: ftlsim's per-handle table agrees (all ok, sent = trace)",
              all(h["match"] for h in hs.values()) and all(hs[p]["sent_bytes"] == geth.get(p, 0) for p in hs),
              json.dumps(d["handle_checks"])[:400])
        pr = n.get("prediction") or {}
        check("passthrough: --predict gives the model's per-handle bytes",
              pr.get("host_bytes") == W and {h["name"]: h["host_bytes"] for h in pr.get("handles", [])}.get("ruh3") == geth.get(3),
              json.dumps(pr)[:300])
        check("passthrough: one table has device and model WAF",
              re.search(r"^WAF\s+device \d+\.\d{4} .*model \d+\.\d{4}$", out("ng"), re.M) is not None, out("ng")[-600:])
    else:
        check("passthrough: device FDP report present", False, out("ng")[-300:])

    # 4. a placement ID without a handle: refused, or sent with --allow-unlisted-pids
    check(f"RUH status lists every handle of every reclaim group ({rgs} x {handles})",
          sorted(st["s1"]) == sorted(g * rg1 + h for g in range(rgs) for h in range(handles)), str(sorted(st["s1"])))
    check("unlisted placement ID refused by default", rc("small_refused") not in (0, None) and
          "trace placement ID 9" in out("small_refused"), out("small_refused")[:300])
    s = js("small")
    check("unlisted + RUH update: replay complete", rc("small") == 0 and s is not None and not s["partial"],
          out("small")[-400:])
    if s is not None and s.get("device_fdp"):
        d = s["device_fdp"]
        check("unlisted: reported", d["unlisted_pids"] == [9], str(d["unlisted_pids"]))
        before = {r["pid"]: r["ruamw"] for r in d["ruh_before"]}
        after = {r["pid"]: r["ruamw"] for r in d["ruh_after"]}
        check("unlisted: ftlsim's RUH status before = nvme-cli's", before == st["s3"], f"{before} / {st['s3']}")
        # --rg 1: IDs 0, 1, 2 to handles 0, 1, 2 of group 1; ID 9 has no handle and
        # lands in handle 0 of group 0 (PID 0), where QEMU puts an invalid PID
        used = [rg1 | 0, rg1 | 1, rg1 | 2]
        expect = {used[0]: small.get(0, 0), used[1]: small.get(1, 0), used[2]: small.get(2, 0), 0: small.get(9, 0)}
        for pid in sorted(before):
            want = (expect.get(pid, 0) // LBA) % R
            check(f"unlisted: PID {pid:#06x} moved by {expect.get(pid, 0)} B" + (" (ID 9)" if pid == 0 else ""),
                  moved(before[pid], after[pid]) == want, f"moved {moved(before[pid], after[pid])}, want {want}")
        new = new_events(ev["s3"], ev["s4"])
        inval_cli = sum(1 for t, _ in new if t == 3)
        inval_ftl = sum(1 for e in d["events"] if e["type"] == 3)
        print(f"      invalid placement identifier events: ftlsim {inval_ftl}, nvme-cli {inval_cli}")
        check("unlisted: invalid-PID events counted as the device logged them", inval_ftl == inval_cli,
              f"ftlsim {inval_ftl}, nvme-cli {inval_cli}")
        u = d.get("ruh_update") or {}
        check("RUH update: the PIDs used (not the unlisted one)", sorted(u.get("pids", [])) == used, str(u.get("pids")))
        upd = {r["pid"]: r["ruamw"] for r in u.get("ruh_status", [])}
        check("RUH update: every updated handle has an empty RU (RUAMW = RU size)",
              all(upd.get(p) == R for p in used), f"{upd}, RU {R} blocks")
        check("RUH update: nvme-cli sees the same", all(st["s4"].get(p) == R for p in used), str(st["s4"]))
        check("RUH update: untouched handles unchanged", all(upd[p] == after[p] for p in upd if p not in used),
              f"{after} -> {upd}")
        partly = [p for p in used if after[p] < R]
        got = sorted(e["pid"] for e in d["events"] if e["type"] == 0)
        check("RUH update: one 'RU not fully written' event per partly written RU (ftlsim)", got == partly,
              f"{got} != {partly}")
        check("RUH update: nvme-cli lists the same events",
              sorted(pid for t, pid in new if t == 0) == got, f"{new}")
        # QEMU's accounting: the unwritten rest of an RU closed early counts as media writes
        mb = u.get("stats", {}).get("mbmw", 0) - d["after"]["mbmw"]
        check("RUH update: MBMW grew by the unwritten rest of the closed RUs (QEMU's accounting)",
              mb == sum(after[p] for p in partly) * LBA, f"{mb} != {sum(after[p] for p in partly) * LBA}")
    else:
        check("unlisted: device FDP report present", False, out("small")[-300:])

    # 5. safety refusals on the namespace (after mkfs.ext4 on it; then mounted)
    for name, what in (("sig_blk", "ext4 file system signature"), ("sig_ng", "ext4 file system signature"),
                       ("mounted_blk", "is mounted at /mnt"), ("mounted_ng", "is mounted at /mnt")):
        check(f"safety: {name} refused ({what})", rc(name) not in (0, None) and what in out(name), out(name)[:300])
    check("safety: passthrough refused while another process holds the block device (in use)",
          rc("holder") == 1 and rc("busy_ng") not in (0, None) and "busy" in out("busy_ng"),
          f"holder exit {rc('holder')}; " + out("busy_ng")[:300])
    for name in ("part_blk", "part_ng"):
        check(f"safety: {name} refused (partition and dos partition table signature)", rc(name) not in (0, None) and
              "partition" in out(name) and "dos partition table signature" in out(name), out(name)[:300])
    check("safety: the refusals wrote nothing (HBMW unchanged)",
          ss["s5"]["hbmw"] is not None and ss["s5"]["hbmw"] == ss["s6"]["hbmw"], f'{ss["s5"]} -> {ss["s6"]}')

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
