"""plot_latency.py on inputs at the edge of what it can draw: an events
figure cut into more intervals than ftlsim writes (--interval-ns 1, or a
crafted events.csv whose inferred interval is 1 ns) is refused in one line
before any memory is taken (it used to grow by about 650 MB/s until the
kernel killed it); a latency tail where every request took one latency (a
genuine ftlsim output: no GC, open loop below saturation) is drawn (it used
to end in a matplotlib traceback: no positive values to log-scale)."""
import csv
import resource
import shutil
import subprocess

from conftest import PYTHON, assert_png, fixture, script

from ftlsim_analysis.latency import MAX_INTERVALS


def _limited():
    # A run that takes memory in proportion to the intervals fails here, not
    # on the machine: 3 GiB of address space is 10 times what a figure needs.
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def _plot(*args):
    return subprocess.run([PYTHON, script("plot_latency.py"), *map(str, args)], capture_output=True, text=True,
                          timeout=300, preexec_fn=_limited)


def _refused(proc, *needles):
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert proc.stderr.startswith("plot_latency: error: ") and proc.stderr.count("\n") == 1, proc.stderr[-2000:]
    for n in needles:
        assert n in proc.stderr, proc.stderr


def _events(path, starts):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["interval_start_ns", "event", "count", "bytes", "lat_mean_ns", "lat_p50_ns", "lat_p99_ns",
                    "lat_max_ns"])
        for s in starts:
            w.writerow([s, "host_write", 10, 40960, 200000, 200000, 210000, 220000])


def test_interval_ns_1_is_refused_at_once(tmp_path):
    # The fixture's rows span 3 ms: 3,000,001 intervals of 1 ns.
    proc = _plot("events", fixture("timed"), "-o", tmp_path / "y.png", "--interval-ns", 1)
    _refused(proc, f"{fixture('timed', 'events.csv')}: its rows span 3 ms: 3,000,001 intervals of 1 ns (--interval-ns), "
             f"more than the {MAX_INTERVALS:,} a figure draws", "give a larger --interval-ns")
    assert not (tmp_path / "y.png").exists()


def test_an_inferred_interval_of_1_ns_is_refused(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    _events(run / "events.csv", [0, 1, 400_000_000])  # the smallest gap, 1 ns, is the inferred interval
    proc = _plot("events", run, "-o", tmp_path / "y.png")
    _refused(proc, f"{run / 'events.csv'}: its rows span 400 ms: 400,000,001 intervals of 1 ns (the interval "
             "inferred: the smallest gap between interval starts)")
    assert not (tmp_path / "y.png").exists()


def test_the_bound_is_ftlsims(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    _events(run / "events.csv", [0, 1, MAX_INTERVALS - 1])  # exactly MAX_INTERVALS intervals of 1 ns: drawn
    proc = _plot("events", run, "-o", tmp_path / "y.png")
    assert proc.returncode == 0, proc.stderr
    assert_png(tmp_path / "y.png")
    _events(run / "events.csv", [0, 1, MAX_INTERVALS])
    _refused(_plot("events", run, "-o", tmp_path / "z.png"), f"{MAX_INTERVALS + 1:,} intervals")


def test_a_tail_where_every_request_took_one_latency_is_drawn(tmp_path, ftlsim):
    # The finding's run: open loop far below saturation, no GC, every write
    # 200 us: latency_cdf.csv has one row per op, at cum_fraction 1.
    trace, out = tmp_path / "k.ftr", tmp_path / "k"
    subprocess.run([ftlsim, "gen", "--pattern", "uniform", "--logical", "64M", "--writes", "1000", "--iat", "1ms",
                    "-o", trace], check=True, capture_output=True)
    subprocess.run([ftlsim, "--trace", trace, "--preset", "femu-eth-512m", "--timing", "--no-progress", "--out", out],
                   check=True, capture_output=True)
    with open(out / "latency_cdf.csv") as f:
        rows = list(csv.reader(f))[1:]
    assert rows and all(float(r[2]) == 1.0 for r in rows), rows  # the case: nothing slower than the first bucket
    for tail in (["--tail"], []):
        png = tmp_path / f"x{len(tail)}.png"
        proc = _plot("cdf", out, "-o", png, *tail)
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == ""
        assert_png(png)
    # Beside a run that has a tail, the one without is still drawn.
    shutil.copytree(fixture("timed"), tmp_path / "timed")
    proc = _plot("cdf", f"flat={out}", f"tailed={tmp_path / 'timed'}", "-o", tmp_path / "both.png", "--tail")
    assert proc.returncode == 0, proc.stderr
    assert_png(tmp_path / "both.png")
