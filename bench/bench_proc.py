"""Running the ftlsim binary from the benchmark scripts: wall time, and the
child's own resource usage (CPU seconds, peak RSS) through os.wait4, which
sees only that process even on a shared machine."""
import os
import subprocess
import sys
import time


def run(cmd):
    """Runs cmd; returns (wall seconds, stdout). Exits the benchmark if it fails."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate()
    wall = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed ({proc.returncode}): {err.strip()}")
    return wall, out


def run_usage(cmd):
    """Runs cmd (stderr discarded); returns (stdout, wall seconds, its rusage)."""
    start = time.monotonic()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(w, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.execv(cmd[0], cmd)
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 65536)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed")
    return b"".join(chunks).decode(), wall, usage
