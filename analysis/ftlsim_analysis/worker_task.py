"""One configuration of a distributed sweep: the task a Dask worker runs.

Standard library only: analysis/sweep.py ships this module to the workers by
value (cloudpickle), so a remote worker needs Python, Dask, the ftlsim
binary and the trace at the same paths, but not this package.
"""
import os
import socket
import subprocess
import tempfile
import time

ERROR_PREFIX = "ftlsim: error: "


# The files an ftlsim run writes into its --out folder, and a timed run's two more.
RUN_FILES = ("summary.json", "timeseries.csv")
TIMED_FILES = ("events.csv", "latency_cdf.csv")


def run_config(ftlsim, args, cwd):
    """Runs `ftlsim ARGS --out TMP` in `cwd` (if that folder exists on this
    machine; else the worker's own) and returns a dict:
      ok:        True if ftlsim exited 0
      files:     {name: text} of the files the run wrote (summary.json,
                 timeseries.csv, and a timed run's events.csv and
                 latency_cdf.csv) (ok)
      error:     the message of an input or configuration error (exit 2),
                 without the "ftlsim: error: " prefix (not ok)
      seconds, host: wall time of the run, and the machine it ran on
    Raises RuntimeError for any other failure (ftlsim missing, a crash, exit
    1: a system error), which fails the whole sweep."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ftlsim-task-") as tmp:
        out = os.path.join(tmp, "out")
        try:
            proc = subprocess.run([ftlsim, *args, "--no-progress", "--out", out], capture_output=True, text=True,
                                  cwd=cwd if cwd and os.path.isdir(cwd) else None)
        except OSError as e:
            raise RuntimeError(f"cannot run {ftlsim} on {socket.gethostname()}: {e}") from None
        result = {"seconds": time.monotonic() - start, "host": socket.gethostname()}
        if proc.returncode == 0:
            result["files"] = {}
            for name in RUN_FILES + TIMED_FILES:
                path = os.path.join(out, name)
                if os.path.exists(path):
                    with open(path) as f:
                        result["files"][name] = f.read()
            result["ok"] = True
            return result
        message = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
        if proc.returncode == 2 and message.startswith(ERROR_PREFIX):
            result["ok"] = False
            result["error"] = message[len(ERROR_PREFIX):]
            return result
        raise RuntimeError(f"{ftlsim} {' '.join(args)} failed with exit code {proc.returncode} on "
                           f"{socket.gethostname()}: {proc.stderr.strip()[-500:]}")
