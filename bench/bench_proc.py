"""Running the ftlsim binary from the benchmark scripts: wall time, and the
child's own resource usage (CPU seconds, peak RSS) through os.wait4, which
sees only that process even on a shared machine."""
import os
import subprocess
import sys
import tempfile
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
    """Runs cmd; returns (stdout, wall seconds, its rusage). Its stderr goes to
    an unnamed temporary file and is shown, last 3000 characters, if it fails."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as err:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(r)
                os.dup2(w, 1)
                os.dup2(err.fileno(), 2)
                os.execv(cmd[0], cmd)
            finally:
                os._exit(127)
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
            err.seek(0)
            tail = err.read().decode(errors="replace")[-3000:]
            sys.exit(f"bench: {' '.join(cmd)} failed ({os.waitstatus_to_exitcode(status)})\n{tail}")
    return b"".join(chunks).decode(), wall, usage
