"""`make report`: from one trace, run (or take from the cache) the
non-FDP vs FDP comparison, the WAF-over-time runs, an RU-size x GC
threshold sweep and (unless --no-timing) both sides of the comparison in
timed mode, draw the figures and write OUT/index.html with the tables,
figures, exact commands, versions and run times.

Runs are cached by configuration (runner.RunCache), so building the report
again, or with --no-run, draws and writes from the cached results without
simulating. Every number in the report is read from ftlsim's own output
files (compare.csv, sweep.csv, summary.json, timeseries.csv); the report also
checks that the runs which share a configuration agree exactly.
"""
import argparse
import datetime
import os
import platform
import shlex
import subprocess
import sys
import time

import matplotlib
import numpy

from . import report_html as H
from . import output_file
from .errors import InputError
from .input_file import check_input
from .output_file import OwnedFolder, write_text
from .handles import plot_handles
from .latency import events_title, fmt_duration, infer_interval_ns, plot_events, plot_latency_cdf
from .results import read_compare, read_events, read_latency_cdf, read_summary, read_sweep, read_timeseries
from .source import describe, op_counts, title as default_title
from .runner import REPO, Identity, RunCache, display, find_ftlsim, trace_info
from .sweep_plots import ordered_values, plot_sweep_heatmap, plot_sweep_lines
from .values import expand_values, parse_size
from .waf import plot_waf

# For the shipped geth/Pebble trace (traces/geth-ethstate.ftr): the Ethereum
# FDP study's device scaled to it, at the study's headline GC threshold (60),
# under FEMU's rules. For traces/demo.ftr use the options in
# analysis/README.md.
DEFAULTS = {
    "device": "--preset femu-eth-512m",
    "gc_thres": "60",
    "a": "--placement single",
    "b": "--placement fdp",
    "waf_placements": "single,fdp,oracle",
    "sweep_placement": "single,fdp",
    "sweep_gc_thres": "50:90:10",
    "sweep_ru_size": "1M,2M,4M,8M,16M",
    "timing_opts": "--qd 32",
}
# Every file the report writes in its folder (besides the cache, runs/).
OUTPUT_FILES = ["index.html", "study_table.csv"] + [
    f"fig/{name}.{ext}" for name in ("waf_over_time", "waf_over_markers", "handles", "sweep_heatmap",
                                     "waf_vs_gc_thres", "waf_vs_ru_size", "latency_cdf", "events")
    for ext in ("png", "csv")]
# Event kinds drawn in the timed-mode time series, when present.
EVENTS_SHOWN = ["host_read", "host_write", "gc_copy"]
# Rows of the study's table (metric of compare.csv, label, how to show it).
STUDY_ROWS = [("waf", "WAF", "ratio"), ("gc_bytes", "GC copies", "bytes"), ("erases", "erases (blocks)", "int"),
              ("gc_onset_host_bytes", "GC onset (host writes)", "bytes"),
              ("gc_onset_marker", "GC onset (marker)", "int"),
              ("host_bytes", "host writes", "bytes")]


def format_bytes(n):
    """As ftlsim prints sizes: '13.53 GiB', '512 B'."""
    units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
    v, u = float(n), 0
    while v >= 1024.0 and u + 1 < len(units):
        v /= 1024.0
        u += 1
    return f"{int(n)} B" if u == 0 else f"{v:.2f} {units[u]}"


def show(value, kind):
    if value is None:
        return "-"
    if kind == "ratio":
        return f"{value:.4f}"
    if kind == "bytes":
        return format_bytes(value)
    if kind == "pct":
        return f"{value:+.1f}%"
    return f"{int(value)}"


def _sweep_written(proc, out):
    """A sweep with some impossible configurations exits 2 after writing a
    complete sweep.csv: keep it (but not a sweep.csv that a fatal error left
    with rows never run)."""
    path = os.path.join(out, "sweep.csv")
    if proc.returncode != 2 or "configurations failed" not in proc.stderr or not os.path.exists(path):
        return False
    return all(r["status"] != "missing" for r in read_sweep(path).rows)


def placement_runs(run):
    """[(placement, folder)] of a placement sweep's successful configurations
    (or the single run, when only one placement was given)."""
    sweep_csv = os.path.join(run.out, "sweep.csv")
    if not os.path.exists(sweep_csv):
        return [(None, run.out)]
    s = read_sweep(sweep_csv)
    return [(r["values"].get("placement", r["config_id"]), os.path.join(run.out, r["config_id"]))
            for r in s.rows if not r["error"]]


def side_label(option_text, fallback):
    """'--placement fdp' -> 'fdp'; other option lists keep the side's name."""
    words = shlex.split(option_text)
    return words[1] if len(words) == 2 and words[0] == "--placement" else fallback


def _git_describe():
    try:
        head = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True)
    except OSError:
        return "unknown (no git)"
    if head.returncode != 0:
        return "unknown (not a git checkout)"
    return head.stdout.strip() + (" with local changes" if dirty.stdout.strip() else "")


def _parse_args(argv):
    p = argparse.ArgumentParser(prog="report.py", allow_abbrev=False, description=__doc__.split("\n\n")[0],
                                epilog="An OPTIONS value that is a single word starting with '-' must be "
                                       "attached: --device=--wrap.")
    p.add_argument("--trace", required=True, metavar="FILE", help="trace to replay (.ftr)")
    p.add_argument("--out", default="report", metavar="DIR", help="report folder (default: report)")
    p.add_argument("--ftlsim", metavar="PATH", help="ftlsim binary (default: $FTLSIM_BINARY, else ./ftlsim)")
    p.add_argument("--cache", metavar="DIR", help="result cache (default: OUT/runs)")
    p.add_argument("--no-run", action="store_true", help="never simulate: fail if a result is not cached")
    p.add_argument("--device", default=DEFAULTS["device"], metavar="OPTIONS",
                   help=f"ftlsim device/FDP options common to every run (default: \"{DEFAULTS['device']}\")")
    p.add_argument("--gc-thres", default=DEFAULTS["gc_thres"], metavar="PCT",
                   help=f"GC threshold of the comparison and WAF-over-time runs (default: {DEFAULTS['gc_thres']})")
    p.add_argument("--a", default=DEFAULTS["a"], metavar="OPTIONS",
                   help=f"comparison side a, the baseline (default: \"{DEFAULTS['a']}\")")
    p.add_argument("--b", default=DEFAULTS["b"], metavar="OPTIONS",
                   help=f"comparison side b (default: \"{DEFAULTS['b']}\")")
    p.add_argument("--waf-placements", default=DEFAULTS["waf_placements"], metavar="LIST",
                   help=f"placements of the WAF-over-time figure (default: {DEFAULTS['waf_placements']})")
    p.add_argument("--sweep-placement", default=DEFAULTS["sweep_placement"], metavar="LIST",
                   help="placements of the sweep, the first the reference of the change panel "
                        f"(default: {DEFAULTS['sweep_placement']})")
    p.add_argument("--sweep-gc-thres", default=DEFAULTS["sweep_gc_thres"], metavar="LIST",
                   help=f"GC thresholds of the sweep (default: {DEFAULTS['sweep_gc_thres']})")
    p.add_argument("--sweep-ru-size", default=DEFAULTS["sweep_ru_size"], metavar="LIST",
                   help=f"RU sizes of the sweep (default: {DEFAULTS['sweep_ru_size']})")
    p.add_argument("--timing-opts", default=DEFAULTS["timing_opts"], metavar="OPTIONS",
                   help="timed-mode options of the latency runs, added to --timing "
                        f"(default: \"{DEFAULTS['timing_opts']}\")")
    p.add_argument("--no-timing", action="store_true", help="leave out the timed-mode (latency) runs")
    p.add_argument("-j", "--jobs", type=int, default=2, help="ftlsim threads per sweep (default: 2)")

    def error(message):
        raise InputError(f"{message} (see --help)")

    p.error = error
    a = p.parse_args(argv)
    for option, text, kind in (("--sweep-placement", a.sweep_placement, "placement"),
                               ("--sweep-gc-thres", a.sweep_gc_thres, "real"),
                               ("--sweep-ru-size", a.sweep_ru_size, "size")):
        if len(expand_values(option, kind, text)) < 2:
            raise InputError(f"{option} {text}: the sweep needs at least two values")
    if a.jobs < 1:
        raise InputError("--jobs must be at least 1")
    return a


class Report:
    """The runs, figures and tables of one report build."""

    def __init__(self, a, log=None):
        self.a = a
        self.log = log or (lambda text: print(output_file.escape(text)))  # names as ftlsim prints them
        self.start = time.monotonic()
        self.ftlsim = find_ftlsim(a.ftlsim)
        check_input(a.trace)  # a FIFO or folder refused as such, before anything is made
        self.identity = Identity(self.ftlsim, a.trace)
        self.info = trace_info(self.ftlsim, a.trace)
        self.cache = RunCache(a.cache or os.path.join(a.out, "runs"), self.identity, allow_run=not a.no_run,
                              log=self.log)
        self.fig_dir = os.path.join(a.out, "fig")
        self.checks = []  # (description, ok)
        self.argv = None  # the report's own arguments, shown under Commands

    # ---- runs ----------------------------------------------------------
    def run_all(self):
        a, t = self.a, self.a.trace
        device = shlex.split(a.device)
        jobs = ["-j", str(a.jobs)]
        self.compare = self.cache.run("compare", ["compare", "--trace", t, *device, "--gc-thres", a.gc_thres,
                                                  "--a", a.a, "--b", a.b])
        self.waf = self.cache.run("waf", ["--trace", t, *device, "--gc-thres", a.gc_thres, "--placement",
                                          a.waf_placements], untracked=jobs, accept=_sweep_written)
        self.grid = self.cache.run("sweep", ["--trace", t, *device, "--placement", a.sweep_placement, "--ru-size",
                                             a.sweep_ru_size, "--gc-thres", a.sweep_gc_thres],
                                   untracked=jobs, accept=_sweep_written)
        self.timed = []  # (side, label, run)
        if not a.no_timing:
            for side, text in (("a", a.a), ("b", a.b)):
                run = self.cache.run(f"timed-{side}", ["--trace", t, *device, "--gc-thres", a.gc_thres,
                                                       *shlex.split(text), "--timing", *shlex.split(a.timing_opts)])
                self.timed.append((side, self.labels[side], run))

    # ---- figures -------------------------------------------------------
    def figures(self):
        a = self.a
        figs = []
        waf_runs, summaries = [], []
        for placement, folder in placement_runs(self.waf):
            summary = read_summary(os.path.join(folder, "summary.json"))
            summaries.append(summary)
            waf_runs.append((placement or a.waf_placements, read_timeseries(os.path.join(folder, "timeseries.csv")),
                             summary["gc_onset"]))
        title = default_title("WAF over the run", describe(summaries))
        png = os.path.join(self.fig_dir, "waf_over_time.png")
        plot_waf(waf_runs, png, x="host_bytes", title=title)
        figs.append((png, "Cumulative and interval WAF against host writes, GC onset dashed."))
        if any(r["marker"] is not None for _, series, _ in waf_runs for r in series):
            png = os.path.join(self.fig_dir, "waf_over_markers.png")
            plot_waf(waf_runs, png, x="marker", title=title)
            figs.append((png, "The same against the trace's markers (e.g. block number), from the first marker on."))

        la, lb = self.labels["a"], self.labels["b"]
        png = os.path.join(self.fig_dir, "handles.png")
        plot_handles([(la, self.summary_a), (lb, self.summary_b)], png)
        figs.append((png, "Host writes per placement ID, and each handle's WAF share split into its host writes "
                          "and the GC copying out of its RUs (the bars sum to the WAF)."))

        grid = read_sweep(os.path.join(self.grid.out, "sweep.csv"))
        placements = ordered_values([r["values"]["placement"] for r in grid.rows])
        png = os.path.join(self.fig_dir, "sweep_heatmap.png")
        plot_sweep_heatmap(grid, "ru-size", "gc-thres", png, facet="placement", change_vs=placements[0])
        figs.append((png, f"WAF per placement over --gc-thres x --ru-size, and the change against "
                          f"{placements[0]} in percent."))
        ru = self._grid_ru_size(grid)
        png = os.path.join(self.fig_dir, "waf_vs_gc_thres.png")
        plot_sweep_lines(grid, "gc-thres", png, group="placement", where={"ru-size": ru})
        figs.append((png, f"WAF against --gc-thres at --ru-size {ru}."))
        thres = a.gc_thres if a.gc_thres in [r["values"]["gc-thres"] for r in grid.rows] else \
            ordered_values([r["values"]["gc-thres"] for r in grid.rows])[-1]
        png = os.path.join(self.fig_dir, "waf_vs_ru_size.png")
        plot_sweep_lines(grid, "ru-size", png, group="placement", where={"gc-thres": thres})
        figs.append((png, f"WAF against --ru-size at --gc-thres {thres}."))
        self.grid_table = grid
        cdfs = [(label, read_latency_cdf(os.path.join(run.out, "latency_cdf.csv"))) for _, label, run in self.timed]
        # A trace none of whose requests takes device time (none, or trims and
        # reads of unmapped LBAs) has no latencies: the section says so.
        self.latency_drawn = any(points for _, cdf in cdfs for points in cdf.values())
        if self.timed and self.latency_drawn:
            png = os.path.join(self.fig_dir, "latency_cdf.png")
            timed = {label: read_summary(os.path.join(run.out, "summary.json")) for _, label, run in self.timed}
            plot_latency_cdf(cdfs, png,
                             title=default_title(f"latency CDF (--timing {a.timing_opts})",
                                                 describe(list(timed.values()))),
                             counts={label: op_counts(s) for label, s in timed.items()})
            figs.append((png, "Latency distribution per operation type of both sides in timed mode."))
            side, label, run = self.timed[-1]
            events_csv = os.path.join(run.out, "events.csv")
            events = read_events(events_csv)
            shown = [e for e in EVENTS_SHOWN if any(r["event"] == e for r in events)]
            png = os.path.join(self.fig_dir, "events.png")
            interval = infer_interval_ns(events)
            plot_events(events, png, events=shown or None, name=events_csv,
                        title=default_title(f"{label}: {events_title(interval)}", describe([timed[label]])))
            figs.append((png, f"Side {side} ({label}) in timed mode: events per second, MiB/s and p50/p99 latency "
                              f"in each {fmt_duration(interval)} interval (events.csv)." if interval else
                              f"Side {side} ({label}) in timed mode: events, MiB and latency of its one interval "
                              "(events.csv)."))
        return figs

    def _grid_ru_size(self, grid):
        """The sweep's RU size equal to the comparison's RU, else the first."""
        sizes = ordered_values([r["values"]["ru-size"] for r in grid.rows])
        ru_bytes = self.summary_a["config"]["fdp"]["ru_bytes"]
        same = [s for s in sizes if parse_size(s) == ru_bytes]
        return same[0] if same else sizes[0]

    # ---- checks --------------------------------------------------------
    def check_consistency(self):
        """Runs that share a configuration must give the same numbers: each
        comparison side that is just '--placement P' against the WAF-over-time
        run of P and the sweep row at (gc-thres, RU size) of the comparison."""
        by_placement = dict(placement_runs(self.waf))
        grid = read_sweep(os.path.join(self.grid.out, "sweep.csv"))
        ru_bytes = self.summary_a["config"]["fdp"]["ru_bytes"]
        for side, text, summary in (("a", self.a.a, self.summary_a), ("b", self.a.b, self.summary_b)):
            p = side_label(text, None)
            if p is None:
                continue
            if p in by_placement:
                other = read_summary(os.path.join(by_placement[p], "summary.json"))
                self._check(f"compare side {side} ({text}) and the WAF-over-time run of {p}", summary, other)
            for r in grid.rows:
                v = r["values"]
                if (v["placement"] == p and v["gc-thres"] == self.a.gc_thres and parse_size(v["ru-size"]) == ru_bytes
                        and not r["error"]):
                    other = read_summary(os.path.join(self.grid.out, r["config_id"], "summary.json"))
                    self._check(f"compare side {side} ({text}) and sweep row {r['config_id']}", summary, other)

        for side, label, run in self.timed:
            timed = read_summary(os.path.join(run.out, "summary.json"))
            self._check(f"compare side {side} ({label}) and its timed-mode run",
                        self.summary_a if side == "a" else self.summary_b, timed)

    def _check(self, what, s1, s2):
        keys = ["host_pages", "gc_pages", "erases", "gc_onset", "handles"]

        def fast_part(s, k):  # a timed run's GC onset also has its simulated time
            v = s[k]
            return {n: x for n, x in v.items() if n != "sim_time_ns"} if k == "gc_onset" and v else v
        same = all(fast_part(s1, k) == fast_part(s2, k) for k in keys)
        self.checks.append((f"{what}: {'identical' if same else 'DIFFERENT'} host pages, GC pages, erases, GC "
                            f"onset and handles (WAF {s1['waf']} / {s2['waf']})", same))

    # ---- the page ------------------------------------------------------
    def build(self):
        la, lb = side_label(self.a.a, "a"), side_label(self.a.b, "b")
        self.labels = {"a": la, "b": lb} if la != lb else {"a": "a", "b": "b"}
        self.run_all()
        self.summary_a = read_summary(os.path.join(self.compare.out, "a", "summary.json"))
        self.summary_b = read_summary(os.path.join(self.compare.out, "b", "summary.json"))
        compare = read_compare(os.path.join(self.compare.out, "compare.csv"))
        figs = self.figures()
        self.check_consistency()
        study = self.study_table(compare)
        html = self.page(compare, study, figs)
        path = os.path.join(self.a.out, "index.html")
        write_text(path, html, self.owned.may_replace("index.html"))
        self.log(f"wrote      {path} ({time.monotonic() - self.start:.1f} s)")
        return all(ok for _, ok in self.checks)

    def study_table(self, compare):
        """The study's table (metric, a, b, change) from compare.csv, also
        written as OUT/study_table.csv with the raw numbers."""
        rows, raw = [], []
        for metric, label, kind in STUDY_ROWS:
            if metric not in compare:
                continue
            c = compare[metric]
            rows.append([label, show(c["a"], kind), show(c["b"], kind),
                         show(c["change_pct"], "pct") if c["change_pct"] is not None else ""])
            raw.append([metric] + ["" if c[k] is None else f"{c[k]}" for k in ("a", "b", "change_pct")])
        write_text(os.path.join(self.a.out, "study_table.csv"),
                   "metric,a,b,change_pct\n" + "".join(",".join(r) + "\n" for r in raw),
                   self.owned.may_replace("study_table.csv"))
        return rows

    def sweep_pivot(self):
        """Rows gc-thres, columns RU size; each cell 'ref -> other (change)'."""
        g = self.grid_table
        placements = ordered_values([r["values"]["placement"] for r in g.rows])
        thres = ordered_values([r["values"]["gc-thres"] for r in g.rows])
        sizes = ordered_values([r["values"]["ru-size"] for r in g.rows])
        cell = {(r["values"]["placement"], r["values"]["gc-thres"], r["values"]["ru-size"]): r for r in g.rows}
        rows = []
        for t in thres:
            row = [t]
            for s in sizes:
                wafs = [cell.get((p, t, s)) for p in placements]
                texts = ["err" if r is None or r["error"] else f"{r['waf']:.4f}" for r in wafs]
                ref = wafs[0]
                tail = ""
                if len(wafs) == 2 and all(r is not None and not r["error"] for r in wafs) and ref["waf"]:
                    tail = f" ({100.0 * (wafs[1]['waf'] - ref['waf']) / ref['waf']:+.1f}%)"
                row.append(" / ".join(texts) + tail)
            rows.append(row)
        header = ["gc-thres \\ ru-size"] + sizes
        errors = sorted({r["error"] for r in g.rows if r["error"]})
        return header, rows, placements, errors

    def latency_parts(self, rel, figs):
        """The timed-mode section: a table per op from summary.json "timing", and the figures."""
        rows = []
        for side, label, run in self.timed:
            rows += _latency_rows(f"{side}: {label}", read_summary(os.path.join(run.out, "summary.json"))["timing"])
        parts = [H.para(f"Both sides of the comparison again with --timing {self.a.timing_opts}; latencies in "
                        "microseconds, from each run's summary.json."),
                 H.table(["run", "op", "count", "IOPS", "MiB/s", "mean", "p50", "p99", "p99.9", "max"], rows)]
        for png, caption in figs:
            if os.path.basename(png) in ("latency_cdf.png", "events.png"):
                parts.append(H.figure(rel(png), caption, rel(os.path.splitext(png)[0] + ".csv")))
        if not self.latency_drawn:
            parts.append(H.para("No request took device time (the trace has none, or only trims and reads of "
                                "unmapped LBAs): no latency figures."))
        return parts

    def page(self, compare, study, figs):
        a = self.a
        rel = lambda p: os.path.relpath(p, a.out)  # noqa: E731
        runs = [self.compare, self.waf, self.grid] + [run for _, _, run in self.timed]
        sections = []
        meta = self.info.get("metadata", {})
        gen = meta.get("generator") or meta.get("source") or ""
        sections.append((None, [H.para(
            f"Trace {a.trace}: {self.info.get('records', '?')} records"
            + (f", made by: {gen}" if gen else "") + f". Device options common to every run: {a.device}. "
            f"Report built {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}.")]))

        sections.append(("Non-FDP vs FDP", [
            H.para(f"a: {a.a}    b: {a.b}    (--gc-thres {a.gc_thres}); change = (b - a) / a. "
                   "Numbers from ftlsim compare's compare.csv; raw values in "
                   "study_table.csv."),
            H.table(["metric", f"a: {a.a}", f"b: {a.b}", "change"], study),
            H.link("study_table.csv", "study_table.csv") + " · "
            + H.link(rel(os.path.join(self.compare.out, "compare.csv")), "full compare.csv")]))
        full = [[m, "" if v["a"] is None else v["a"], "" if v["b"] is None else v["b"],
                 "" if v["change_pct"] is None else f"{v['change_pct']:+.2f}%"] for m, v in compare.items()]
        sections.append(("All compared metrics", [H.table(["metric", "a", "b", "change"], full)]))

        parts = []
        for png, caption in [f for f in figs if os.path.basename(f[0]).startswith("waf_over_")]:
            parts.append(H.figure(rel(png), caption, rel(os.path.splitext(png)[0] + ".csv")))
        sections.append(("WAF over time", parts))
        handles = [f for f in figs if f[0].endswith("handles.png")]
        sections.append(("Per handle", [H.figure(rel(p), c, rel(os.path.splitext(p)[0] + ".csv")) for p, c in handles]))

        header, rows, placements, errors = self.sweep_pivot()
        parts = [H.para(f"WAF of {' / '.join(placements)}" + (" (change of the second against the first)"
                                                              if len(placements) == 2 else "")
                        + f"; placements {a.sweep_placement}, --gc-thres {a.sweep_gc_thres}, "
                          f"--ru-size {a.sweep_ru_size}."),
                 H.table(header, rows),
                 H.link(rel(os.path.join(self.grid.out, "sweep.csv")), "sweep.csv")]
        if errors:
            parts.append(H.para("Configurations marked err are impossible: " + " | ".join(errors)))
        for png, caption in figs:
            if os.path.basename(png).startswith(("sweep_", "waf_vs_")):
                parts.append(H.figure(rel(png), caption, rel(os.path.splitext(png)[0] + ".csv")))
        sections.append(("RU size x GC threshold sweep", parts))

        if self.timed:
            sections.append(("Latency (timed mode)", self.latency_parts(rel, figs)))

        sections.append(("Checks", ["<ul>" + "".join(
            f'<li class="{"good" if ok else "bad"}">{H.esc(text)}</li>' for text, ok in self.checks) + "</ul>"]
            if self.checks else [H.para("No two runs share a configuration.")]))

        cmds = []
        for r in runs:
            m = r.meta
            cmds.append(f"# {m['name']}: {m['seconds']:.2f} s on {m['finished']}"
                        + (" (cached)" if m.get("cached") else "") + f", exit code {m['exit_code']}")
            cmds.append(display(m["argv"]))
        rebuild = shlex.join(["/usr/bin/python3", os.path.relpath(os.path.join(REPO, "analysis", "report.py"))]
                             + (self.argv or []))
        sections.append(("Commands", [
            H.para(f"Run in {os.getcwd()}. Results are cached in {self.cache.root} by a hash of the arguments, "
                   "the trace's SHA-256, ftlsim --version and the binary's SHA-256."),
            H.pre("\n".join(cmds)), H.para("This report:"), H.pre(rebuild)]))

        total = time.monotonic() - self.start
        versions = [
            ["program", f"{self.identity.version} (binary SHA-256 {self.identity.ftlsim_sha256[:16]}...)"],
            ["source", _git_describe()],
            ["trace", f"{a.trace} (SHA-256 {self.identity.trace_sha256[:16]}...)"],
            ["Python", platform.python_version()], ["matplotlib", matplotlib.__version__],
            ["numpy", numpy.__version__], ["machine", f"{platform.node()}, {platform.platform()}"],
            ["simulation time", f"{sum(r.meta['seconds'] for r in runs):.2f} s (when the runs ran)"],
            ["this build", f"{total:.1f} s, {sum(1 for r in runs if r.meta.get('cached'))} of {len(runs)} runs "
                           f"from the cache"],
        ]
        sections.append(("Versions and run time", [H.table(["", ""], versions, numeric=False)]))
        return H.page(f"ftlsim report: {os.path.basename(a.trace)}", sections)


def _latency_rows(label, timing):
    """Rows of the latency table for one run's summary.json "timing" object."""
    rows = []
    for op, o in timing.get("ops", {}).items():
        lat = o["lat_ns"]
        us = [f"{lat[k] / 1e3:.1f}" for k in ("mean", "p50", "p99", "p99.9", "max")]
        rows.append([label, op, o["count"], f"{o['iops']:.0f}", f"{o.get('mib_per_s', o.get('mb_s', 0) * 1e6 / 2**20):.1f}", *us])
    return rows


def main(argv=None):
    a = _parse_args(argv)
    report = Report(a)  # checks the trace and the binary; writes nothing
    # The report folder: new, empty or made by report.py (its manifest);
    # every file it writes there is checked before the first is written.
    report.owned = OwnedFolder(a.out, "report.py")
    report.owned.check(OUTPUT_FILES)
    report.argv = list(sys.argv[1:] if argv is None else argv)
    output_file.on_publish = report.owned.record
    try:
        good = report.build()
    finally:
        output_file.on_publish = None
    if not good:
        print("report.py: error: runs with the same configuration disagree (see Checks in the report)",
              file=sys.stderr)
        return 1
    return 0
