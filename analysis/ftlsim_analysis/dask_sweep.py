"""A sweep fanned out over a Dask distributed cluster: every configuration
(of every trace) is one task running one `ftlsim` process; the client
gathers the results into one sweep.csv and one folder per configuration,
laid out as a direct `ftlsim` sweep lays them out.

With one trace the output is that of `ftlsim --trace T OPTIONS --out DIR`
(same configurations, order, ids, sweep.csv text and per-configuration
files). With several traces, `trace` is the first swept column (its value
the path as given; in config ids the file name without .ftr).
"""
import argparse
import itertools
import os
import sys
import time

from . import worker_task
from . import output_file
from .errors import InputError, RunError
from .input_file import check_input
from .output_file import OutputSet, OwnedFolder, text_writer, write_text
from .runner import find_ftlsim
from .values import (MAX_CONFIGURATIONS, SETTINGS, SETTING_NAMES, TIMING_NAMES, TIMING_SETTINGS, config_id,
                     expand_values, make_unique, sweep_csv)

# What `ftlsim` says of a timing option without --timing.
NEEDS_TIMING = "--qd, --speed, --event-interval and the NAND latency options apply to timed mode; add --timing"


class Config:
    """One configuration: its trace, id, swept values and ftlsim arguments."""

    def __init__(self, trace, cid, values, args):
        self.trace, self.id, self.values, self.args = trace, cid, values, args


def parse_model_options(tokens):
    """ftlsim model and timing options ('--gc-thres 50,60',
    '--placement=single,fdp', '--wrap', '--timing --qd 1,4') -> ({name:
    text}, flags), flags the set of the flags given (wrap, timing).
    InputError for anything else, and for timing options without --timing
    (as ftlsim)."""
    given, flags, i = {}, set(), 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in ("--wrap", "--timing"):
            flags.add(tok[2:])
            i += 1
            continue
        if not tok.startswith("--"):
            raise InputError(f"unexpected argument '{tok}' (ftlsim options are given as --name VALUE)")
        name, eq, value = tok[2:].partition("=")
        if name not in SETTING_NAMES and name not in TIMING_NAMES:
            raise InputError(f"--{name}: not an ftlsim model or timing option (known: {', '.join(SETTING_NAMES)}, "
                             f"wrap, timing, {', '.join(TIMING_NAMES)})")
        if not eq:
            if i + 1 >= len(tokens):
                raise InputError(f"--{name} needs a value")
            value = tokens[i + 1]
            i += 1
        if name in given:
            raise InputError(f"--{name} is given twice")
        given[name] = value
        i += 1
    if "timing" not in flags and any(name in TIMING_NAMES for name in given):
        raise InputError(NEEDS_TIMING)
    return given, flags


def plan(traces, given, flags):
    """The configurations of the product, in ftlsim's order (traces
    outermost, then the model options in SETTINGS order, then the timing
    options in TIMING_SETTINGS order, the last fastest)."""
    settings = SETTINGS + TIMING_SETTINGS
    items = []
    for name, kind in settings:
        items.append(expand_values(f"--{name}", kind, given[name]) if name in given else [None])
    n = len(traces)
    for it in items:
        n *= len(it)
    if n > MAX_CONFIGURATIONS:
        raise InputError(f"the sweep has more than {MAX_CONFIGURATIONS} configurations")
    swept = [i for i, it in enumerate(items) if len(it) > 1]
    configs = []
    for trace in traces:
        stem = os.path.basename(trace).removesuffix(".ftr")
        for point in itertools.product(*items):
            args = ["--trace", trace]
            for (name, _), v in zip(settings, point):
                if v is not None:
                    args.append(f"--{name}={v}")
            args += [f"--{flag}" for flag in ("wrap", "timing") if flag in flags]
            pairs = ([("trace", stem)] if len(traces) > 1 else []) + [(settings[i][0], point[i]) for i in swept]
            values = ([trace] if len(traces) > 1 else []) + [point[i] for i in swept]
            configs.append(Config(trace, config_id(pairs), values, args))
    ids = [c.id for c in configs]
    make_unique(ids)
    for c, cid in zip(configs, ids):
        c.id = cid
    axes = (["trace"] if len(traces) > 1 else []) + [settings[i][0] for i in swept]
    return axes, configs


def connect(scheduler, workers, timeout=15):
    """A Dask client: to `scheduler` (tcp://host:port, giving up after
    `timeout` seconds) or to a new local cluster of `workers` processes with
    one thread each. Returns (client, cluster or None)."""
    import logging

    from dask.distributed import Client, LocalCluster

    # The sweep reports its own errors in one line; Dask's shutdown on a
    # loaded machine can leave a timed-out internal future whose asyncio
    # "exception was never retrieved" report would add lines to stderr.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    if scheduler:
        try:
            return Client(scheduler, timeout=f"{timeout}s"), None
        except (OSError, TimeoutError) as e:
            raise RunError(f"cannot connect to the Dask scheduler {scheduler}: {e}") from None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                           silence_logs=logging.ERROR)
    return Client(cluster), cluster


def run(configs, client, ftlsim, progress=None):
    """Runs every configuration as one task on the cluster; returns per
    configuration the worker's result dict (see worker_task.run_config).
    RunError if a task fails for a reason other than bad input."""
    import cloudpickle
    from dask.distributed import as_completed

    # Ship the task function by value: remote workers need not have this package.
    cloudpickle.register_pickle_by_value(worker_task)
    cwd = os.getcwd()
    futures = [client.submit(worker_task.run_config, ftlsim, c.args, cwd, pure=False) for c in configs]
    index = {f.key: i for i, f in enumerate(futures)}
    results = [None] * len(configs)
    done = 0
    try:
        for future in as_completed(futures):
            i = index[future.key]
            try:
                results[i] = future.result()
            except Exception as e:  # a worker-side failure: the whole sweep fails
                raise RunError(f"configuration {configs[i].id}: {e}") from None
            done += 1
            if progress:
                progress(done, len(configs))
    finally:
        client.cancel([f for f in futures if not f.done()])
    return results


def run_files(timed):
    """The files each configuration's folder holds (a timed run's two more)."""
    return worker_task.RUN_FILES + (worker_task.TIMED_FILES if timed else ())


def is_timed(configs):
    return any(a == "--timing" for c in configs for a in c.args)


def output_names(configs):
    """The files of a sweep folder, relative to it."""
    return ["sweep.csv"] + [f"{c.id}/{name}" for c in configs for name in run_files(is_timed(configs))]


def write_outputs(owned, axes, configs, results):
    """DIR/<config_id>/summary.json + timeseries.csv for every successful
    configuration and DIR/sweep.csv, in the folder `owned`
    (output_file.OwnedFolder, checked before the sweep ran; each file is
    recorded in its manifest); returns the number that failed."""
    import json

    out_dir = owned.path
    outcomes = []
    timed = is_timed(configs)
    for c, r in zip(configs, results):
        if r["ok"]:
            files = OutputSet()
            for name in run_files(timed):
                rel = f"{c.id}/{name}"
                files.add(os.path.join(out_dir, rel), text_writer(r["files"][name]), owned.may_replace(rel))
            files.commit()
            outcomes.append(json.loads(r["files"]["summary.json"]))
        else:
            outcomes.append(r["error"])
    fitted = any(a.startswith("--logical=fit:") for c in configs for a in c.args)
    write_text(os.path.join(out_dir, "sweep.csv"),
               sweep_csv(axes, [c.id for c in configs], [c.values for c in configs], outcomes, fitted, timed),
               owned.may_replace("sweep.csv"))
    owned.save()
    return sum(1 for r in results if not r["ok"])


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="sweep.py", allow_abbrev=False,
        description="Run an ftlsim sweep on a Dask cluster: one task (one ftlsim process) per configuration, "
                    "gathered into DIR/sweep.csv and DIR/<config_id>/. Every other option is an ftlsim model "
                    "or timing option, with lists and ranges as ftlsim takes them (--gc-thres 50:90:10 --placement "
                    "single,fdp; --timing --qd 1,4,16).",
        epilog="Example: analysis/sweep.py --trace traces/demo.ftr --out sw --gc-thres 91:97:1 --ru-size 16M,64M "
               "--placement single,fdp --scheduler tcp://10.0.0.5:8786")
    p.add_argument("--trace", action="append", required=True, metavar="FILE",
                   help="trace to replay (repeatable: the sweep covers every trace); workers must see the same path")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="an existing Dask scheduler (default: a local "
                   "cluster)")
    p.add_argument("--workers", type=int, default=2, help="local cluster: worker processes (default: 2)")
    p.add_argument("--timeout", type=float, default=15, metavar="SECONDS",
                   help="give up connecting to --scheduler after this long (default: 15)")
    p.add_argument("--ftlsim", metavar="PATH", help="ftlsim binary, the same path on every worker (default: "
                   "$FTLSIM_BINARY, else this repository's ./ftlsim)")

    def error(message):
        raise InputError(f"{message} (see --help)")

    p.error = error
    a, rest = p.parse_known_args(argv)
    if a.workers < 1:
        raise InputError("--workers must be at least 1")
    if len(set(a.trace)) != len(a.trace):
        raise InputError("a --trace is given twice")
    for trace in a.trace:
        check_input(trace)  # a missing trace, a FIFO or a folder: refused before anything is made
    given, flags = parse_model_options(rest)
    ftlsim = find_ftlsim(a.ftlsim)
    axes, configs = plan(a.trace, given, flags)
    # The sweep folder: new, empty or made by sweep.py (its manifest); every
    # file the sweep writes there is checked before it runs.
    owned = OwnedFolder(a.out, "sweep.py")
    owned.check(output_names(configs))
    start = time.monotonic()
    client, cluster = connect(a.scheduler, a.workers, a.timeout)
    try:
        where = a.scheduler or f"a local cluster of {a.workers} worker processes"
        traces = output_file.escape(", ".join(a.trace))
        print(f"sweep      {len(configs)} configurations of {traces} on {where}", flush=True)
        tty = sys.stderr.isatty()

        def progress(done, total):
            if tty:
                print(f"\rsweep.py: {done}/{total} configurations done", end="", file=sys.stderr, flush=True)

        results = run(configs, client, ftlsim, progress)
        if tty:
            print(file=sys.stderr)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    output_file.on_publish = lambda path: owned.record(path, save=False)
    try:
        failed = write_outputs(owned, axes, configs, results)
    finally:
        output_file.on_publish = None
    hosts = sorted({r["host"] for r in results})
    print(f"wrote      {output_file.escape(a.out)}/sweep.csv and {len(configs) - failed} configuration folders "
          f"({time.monotonic() - start:.1f} s; ran on {', '.join(hosts)})")
    if failed:
        raise InputError(f"{failed} of {len(configs)} configurations failed (see the error column of "
                         f"{a.out}/sweep.csv)")
