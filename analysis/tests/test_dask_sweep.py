"""analysis/sweep.py on a local Dask cluster gives the rows `ftlsim` gives
when run directly with the same options: the same configurations, ids and
numbers (compared field by field as numbers, and as text), the same error
rows, and byte-identical per-configuration files."""
import filecmp
import os
import shutil
import subprocess

import pytest
from conftest import DEVICE, read_csv, run_script

from ftlsim_analysis.results import parse_number

# Ranges, a map: placement (a quoted CSV field and a sanitized id), and
# --ru-size 8M, impossible for FDP on DEVICE: error rows.
OPTIONS = DEVICE + ["--gc-thres", "85:95:5", "--ru-size", "256K,8M",
                    "--placement", "single,fdp;map:0=0,1=0,2=1"]


def direct_sweep(ftlsim, trace, options, out):
    proc = subprocess.run([ftlsim, "--trace", trace, *options, "-j", "2", "--no-progress", "--out", str(out)],
                          capture_output=True, text=True)
    return proc.returncode


def without_key(path):
    """sweep.csv text with the config_key column (ftlsim's resume key, which
    sweep.py leaves empty) cut off; it is the last column."""
    with open(path) as f:
        lines = f.read().splitlines()
    assert lines[0].endswith(",config_key")
    return [line.rsplit(",", 1)[0] for line in lines]


def assert_same_rows(mine, theirs):
    """Field by field: numbers equal as numbers, everything else as text;
    then the whole text but config_key."""
    a, b = read_csv(mine), read_csv(theirs)
    assert len(a) == len(b) > 0
    assert list(a[0]) == list(b[0])
    for ra, rb in zip(a, b):
        assert ra["config_key"] == "" and len(rb["config_key"]) == 16
        for col in rb:
            if col == "config_key":
                continue
            na, nb = parse_number(ra[col]), parse_number(rb[col])
            if nb is not None and col != "config_id":
                assert na == nb, (col, ra[col], rb[col])
            else:
                assert ra[col] == rb[col], col
    assert without_key(mine) == without_key(theirs)


def without_config_key(path):
    with open(path) as f:
        return [line for line in f if not line.startswith('  "config_key": ')]


def assert_same_folders(mine, theirs, files=("summary.json", "timeseries.csv"), keyed=True):
    """Each configuration's files byte for byte; keyed=False: summary.json but
    its config_key (a timing-swept sweep keys its configurations with the
    lists it sweeps, a single run, which sweep.py runs, with its values)."""
    names = sorted(d for d in os.listdir(theirs) if os.path.isdir(os.path.join(theirs, d)))
    assert names == sorted(d for d in os.listdir(mine) if os.path.isdir(os.path.join(mine, d)))
    for d in names:
        for f in files:
            if f == "summary.json" and not keyed:
                assert without_config_key(os.path.join(mine, d, f)) == without_config_key(
                    os.path.join(theirs, d, f)), (d, f)
                continue
            assert filecmp.cmp(os.path.join(mine, d, f), os.path.join(theirs, d, f), shallow=False), (d, f)


def both_sweeps(tmp_path, ftlsim, trace, scheduler, options):
    """ftlsim's own sweep into tmp_path/direct and sweep.py's into
    tmp_path/dask, both of which must succeed; returns (dask, direct)."""
    direct = tmp_path / "direct"
    assert direct_sweep(ftlsim, trace, options, direct) == 0
    out = tmp_path / "dask"
    proc = run_script("sweep.py", "--trace", trace, "--out", out, "--scheduler", scheduler, "--ftlsim", ftlsim,
                      *options)
    assert proc.returncode == 0, proc.stderr
    return out, direct


@pytest.fixture(scope="module")
def scheduler():
    """A local cluster started here, reached by address like a remote one."""
    import logging

    from dask.distributed import LocalCluster
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                           silence_logs=logging.ERROR)
    yield cluster.scheduler_address
    cluster.close()


def test_scheduler_sweep_matches_ftlsim(tmp_path, ftlsim, tiny_trace, scheduler):
    direct = tmp_path / "direct"
    assert direct_sweep(ftlsim, tiny_trace, OPTIONS, direct) == 2  # ftlsim: some configurations failed
    out = tmp_path / "dask"
    proc = run_script("sweep.py", "--trace", tiny_trace, "--out", out, "--scheduler", scheduler, "--ftlsim", ftlsim,
                      *OPTIONS)
    assert proc.returncode == 2, proc.stderr
    rows = read_csv(direct / "sweep.csv")
    # The 6 FDP ones with --ru-size 8M (`single` is FEMU's line path, which has no RUs to size).
    assert len(rows) == 18 and sum(1 for r in rows if r["error"]) == 6
    assert all(r["placement"] != "single" for r in rows if r["error"])
    assert "6 of 18 configurations failed" in proc.stderr
    assert proc.stderr.count("\n") == 1  # one line
    assert any(r["placement"] == "map:0=0,1=0,2=1" for r in rows)
    assert_same_rows(out / "sweep.csv", direct / "sweep.csv")
    assert_same_folders(out, direct)


def test_fit_sweep_matches_ftlsim(tmp_path, ftlsim, tiny_trace, scheduler):
    """--logical fit:P% values sweep as in ftlsim, with its columns of the
    fitted device (whose over-provisioning moves with the fill level)."""
    options = ["--channels", "8", "--luns", "1", "--logical", "fit:50%,fit:80%"]
    out, direct = both_sweeps(tmp_path, ftlsim, tiny_trace, scheduler, options)
    rows = read_csv(out / "sweep.csv")
    assert [r["logical"] for r in rows] == ["fit:50%", "fit:80%"]
    assert all(parse_number(r["over_provisioning"]) > 0 and parse_number(r["logical_bytes"]) > 0 for r in rows)
    assert parse_number(rows[0]["logical_bytes"]) > parse_number(rows[1]["logical_bytes"])
    assert_same_rows(out / "sweep.csv", direct / "sweep.csv")
    assert_same_folders(out, direct)


def test_timed_sweep_matches_ftlsim(tmp_path, ftlsim, tiny_trace, scheduler):
    """--timing with timing axes (a queue-depth range, a list of durations,
    one of them written in another unit) sweeps as in ftlsim: the timing
    options after the model options in the product, sweep.csv's iops and
    latency columns, and each configuration's events.csv and latency_cdf.csv."""
    options = DEVICE + ["--placement", "single,fdp", "--timing", "--qd", "1:4:3", "--read-time", "40us,0.08ms"]
    out, direct = both_sweeps(tmp_path, ftlsim, tiny_trace, scheduler, options)
    rows = read_csv(out / "sweep.csv")
    assert [(r["placement"], r["qd"], r["read-time"]) for r in rows] == [
        (p, q, t) for p in ("single", "fdp") for q in ("1", "4") for t in ("40us", "0.08ms")]
    assert all(parse_number(r["iops"]) > 0 and parse_number(r["lat_p99_ns"]) > 0 for r in rows)
    assert_same_rows(out / "sweep.csv", direct / "sweep.csv")
    assert_same_folders(out, direct, ("summary.json", "timeseries.csv", "events.csv", "latency_cdf.csv"), keyed=False)


def test_default_local_cluster_two_traces(tmp_path, ftlsim, tiny_trace):
    second = tmp_path / "second.ftr"
    shutil.copy(tiny_trace, second)
    options = DEVICE + ["--gc-thres", "90", "--placement", "single,fdp"]
    out = tmp_path / "dask"
    proc = run_script("sweep.py", "--trace", tiny_trace, "--trace", second, "--out", out, "--workers", "2",
                      "--ftlsim", ftlsim, *options)
    assert proc.returncode == 0, proc.stderr
    assert "local cluster of 2 worker processes" in proc.stdout
    mine = read_csv(out / "sweep.csv")
    assert [r["config_id"] for r in mine] == ["trace=tiny_placement=single", "trace=tiny_placement=fdp",
                                              "trace=second_placement=single", "trace=second_placement=fdp"]
    for trace, name in ((tiny_trace, "tiny"), (str(second), "second")):
        direct = tmp_path / f"direct-{name}"
        assert direct_sweep(ftlsim, trace, options, direct) == 0
        theirs = read_csv(direct / "sweep.csv")
        ours = [r for r in mine if r["trace"] == trace]
        assert len(ours) == len(theirs) == 2
        for ro, rt in zip(ours, theirs):
            assert ro["config_id"] == f"trace={name}_{rt['config_id']}"
            for col in rt:
                if col not in ("config_id", "config_key"):
                    assert parse_number(ro[col]) == parse_number(rt[col]) and ro[col] == rt[col], col
            assert filecmp.cmp(out / ro["config_id"] / "summary.json", direct / rt["config_id"] / "summary.json",
                               shallow=False)


def test_bad_options_are_one_line_exit_2(tmp_path, ftlsim, tiny_trace):
    for args, message in ((["--gc-thres", "90:50:10"], "has START above STOP"),
                          (["--bogus", "1"], "--bogus: not an ftlsim model or timing option"),
                          (["--gc-thres"], "--gc-thres needs a value"),
                          (["--qd", "1,4"], "apply to timed mode; add --timing"),
                          (["--timing", "--read-time", "40us:80us:10us"],
                           "--read-time: '40us:80us:10us' is not a duration"),
                          (["--timing", "--read-time", "40us,40000ns"], "is the same value as '40us'"),
                          (["--timing", "--event-interval", "1ms,0"], "--event-interval must be above 0")):
        proc = run_script("sweep.py", "--trace", tiny_trace, "--out", tmp_path / "x", "--ftlsim", ftlsim, *args)
        assert proc.returncode == 2 and message in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    proc = run_script("sweep.py", "--trace", tiny_trace, "--out", tmp_path / "x", "--ftlsim", ftlsim,
                      "--scheduler", "tcp://127.0.0.1:1", "--timeout", "2", "--gc-thres", "90")
    assert proc.returncode == 1 and "cannot connect to the Dask scheduler" in proc.stderr, proc.stderr
