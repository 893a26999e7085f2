"""Finding and running ftlsim, and the report's result cache.

The cache keeps each ftlsim run in a folder named after a hash of what
decides its output: the ftlsim arguments (without --out), the trace's
SHA-256, `ftlsim --version` and the binary's SHA-256. A folder counts as a
result only once run.json is written, after ftlsim succeeded, so an
interrupted run is redone, never half-used. A second report build with the
same inputs therefore reads the cache and runs no simulation.
"""
import datetime
import hashlib
import json
import os
import shlex
import subprocess
import time

from .errors import InputError, RunError
from .input_file import json_int, json_number, json_object, json_str, open_input
from .output_file import write_text
from .results import read_json

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def display(argv):
    """A command as it can be typed again in the working directory: paths
    under it relative, the program as ./NAME when it is right there."""
    cwd = os.getcwd() + os.sep
    shown = [a[len(cwd):] if a.startswith(cwd) else a for a in argv]
    if shown and os.sep not in shown[0]:
        shown[0] = "." + os.sep + shown[0]
    return shlex.join(shown)


def find_ftlsim(explicit=None):
    """Absolute path of the ftlsim binary: `explicit`, else $FTLSIM_BINARY,
    else ./ftlsim or build/release/src/cli/ftlsim of this repository."""
    candidates = [explicit] if explicit else [os.environ.get("FTLSIM_BINARY"), os.path.join(REPO, "ftlsim"),
                                              os.path.join(REPO, "build", "release", "src", "cli", "ftlsim")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    tried = ", ".join(c for c in candidates if c)
    raise InputError(f"no ftlsim binary (tried {tried}); build it with `make release` or give --ftlsim")


def sha256_file(path, chunk=1 << 22):
    """Hex SHA-256 of a file's bytes."""
    h = hashlib.sha256()
    with open_input(path, binary=True) as f:
        while True:
            b = f.read(chunk)
            if not b:
                break
            h.update(b)
    return h.hexdigest()


def ftlsim_version(ftlsim):
    """`ftlsim --version` output, e.g. 'ftlsim 0.1.0'."""
    try:
        proc = subprocess.run([ftlsim, "--version"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise RunError(f"{ftlsim} --version failed: {e}") from None
    return proc.stdout.strip()


def trace_info(ftlsim, trace):
    """`ftlsim info TRACE --json` as a dict (records, metadata, ...)."""
    proc = subprocess.run([ftlsim, "info", trace, "--json"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise InputError(proc.stderr.strip().removeprefix("ftlsim: error: ") or f"ftlsim info {trace} failed")
    return json.loads(proc.stdout)


class Identity:
    """What a cached result depends on besides its arguments: the binary and
    the trace, each by version/content."""

    def __init__(self, ftlsim, trace):
        self.ftlsim = ftlsim
        self.trace = trace
        self.version = ftlsim_version(ftlsim)
        self.ftlsim_sha256 = sha256_file(ftlsim)
        self.trace_sha256 = sha256_file(trace)

    def as_dict(self):
        return {"ftlsim_version": self.version, "ftlsim_sha256": self.ftlsim_sha256,
                "trace": self.trace, "trace_sha256": self.trace_sha256}


class CachedRun:
    """One ftlsim run in the cache: `out` is its --out folder, `meta` the
    contents of run.json (command, exit code, seconds, stdout, ...)."""

    def __init__(self, folder, meta):
        self.folder = folder
        self.out = os.path.join(folder, "out")
        self.meta = meta


class RunCache:
    """ftlsim runs cached under `root`, keyed by arguments and Identity."""

    def __init__(self, root, identity, allow_run=True, log=print):
        self.root = root
        self.identity = identity
        self.allow_run = allow_run
        self.log = log

    def key(self, args):
        blob = json.dumps({"args": list(args), **self.identity.as_dict()}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def run(self, name, args, untracked=(), ok_codes=(0,), accept=None):
        """The cached result of `ftlsim ARGS UNTRACKED --out FOLDER/out`,
        running it if absent. `name` prefixes the folder (compare, sweep, ...);
        `untracked` are arguments that do not change the result (-j) and are
        not part of the key. A run that
        exits with a code in ok_codes, or for which accept(proc, out) is true,
        is stored; otherwise RunError (exit 1 of ftlsim) or InputError (exit 2)
        with ftlsim's message. With allow_run False a missing result is an
        InputError instead of a run."""
        folder = os.path.join(self.root, f"{name}-{self.key(args)}")
        meta_path = os.path.join(folder, "run.json")
        if os.path.exists(meta_path):
            meta = json_object(meta_path, "(the whole file)", read_json(meta_path))
            json_str(meta_path, "finished", meta.get("finished"))
            json_number(meta_path, "seconds", meta.get("seconds"))
            json_int(meta_path, "exit_code", meta.get("exit_code"), minimum=0)
            meta["cached"] = True
            self.log(f"cached     {name}: {folder} (ran {meta['finished']}, {meta['seconds']:.2f} s)")
            return CachedRun(folder, meta)
        if not self.allow_run:
            raise InputError(f"no cached result for {name} ({folder}); run without --no-run first")
        # An interrupted earlier attempt is not removed: ftlsim replaces its own
        # out/ (proven by its manifest) and refuses anything else in the way.
        os.makedirs(folder, exist_ok=True)
        out = os.path.join(folder, "out")
        argv = [self.identity.ftlsim, *args, *untracked, "--no-progress", "--out", out]
        self.log(f"running    {name}: {display(argv)}")
        start = time.monotonic()
        proc = subprocess.run(argv, capture_output=True, text=True)
        seconds = time.monotonic() - start
        good = proc.returncode in ok_codes or (accept is not None and accept(proc, out))
        if not good:
            message = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"
            raise (InputError if proc.returncode == 2 else RunError)(f"{name}: {message}")
        meta = {"name": name, "argv": argv, "cwd": os.getcwd(), "exit_code": proc.returncode,
                "seconds": seconds, "stdout": proc.stdout, "stderr": proc.stderr,
                "finished": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
                **self.identity.as_dict()}
        write_text(meta_path, json.dumps(meta, indent=1))
        meta["cached"] = False
        return CachedRun(folder, meta)
