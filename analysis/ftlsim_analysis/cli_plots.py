"""Command lines of the figure entry points (analysis/plot_*.py). Each main
takes argv (None: sys.argv[1:]) and raises InputError for bad input; the
entry point turns that into one line on stderr and exit code 2."""
import argparse
import os

from .errors import InputError
from .handles import plot_handles
from .ids import plot_ids
from .output_file import escape
from .latency import plot_events, plot_latency_cdf
from .qd import plot_qd
from .results import (read_events, read_id_timeseries, read_latency_cdf, read_qd_sweep, read_summary, read_sweep,
                      read_timeseries)
from .source import describe, op_counts, qd_sweep_source, summary_beside
from .sweep_plots import default_x, parse_where, plot_sweep_heatmap, plot_sweep_lines
from .waf import X_AXES, plot_waf


class _Parser(argparse.ArgumentParser):
    """argparse that raises InputError (one line, exit 2) instead of printing usage."""

    def error(self, message):
        raise InputError(f"{message} (see --help)")


def run_spec(text):
    """'LABEL=PATH' or 'PATH' -> (label, path). An argument that exists as a
    path is a path even if it contains '=' (sweep folders do); the default
    label is the path's last component."""
    if os.path.exists(text) or "=" not in text:
        return escape(os.path.basename(os.path.normpath(text))), text
    label, _, path = text.partition("=")
    return escape(label), path


def run_specs(texts):
    """run_spec() of each RUN argument; a compare folder (compare.csv beside
    its runs a/ and b/) gives both of its runs, labelled LABEL/a and LABEL/b."""
    out = []
    for text in texts:
        label, path = run_spec(text)
        sides = [os.path.join(path, side) for side in ("a", "b")]
        if os.path.isfile(os.path.join(path, "compare.csv")) and all(os.path.isdir(s) for s in sides):
            out += [(f"{label}/{side}", s) for side, s in zip(("a", "b"), sides)]
        else:
            out.append((label, path))
    return out


# The file that marks each kind of ftlsim output folder, and what it holds,
# for a figure given the wrong kind.
_FOLDER_KINDS = (
    ("compare.csv", "a compare folder", "its runs are {path}/a and {path}/b"),
    ("sweep.csv", "a sweep folder", "plot_sweep.py draws it, and each configuration folder ({first}) is a run"),
    ("qd_sweep.csv", "a qd-sweep folder", "plot_qd.py draws it"),
)


def _file_in(path, name):
    """path/name for a folder (or a path that does not exist), else path
    itself: a file, or a FIFO or device that reading then refuses. A folder
    of another kind of output without `name` is refused saying what it is."""
    if not os.path.isdir(path) and os.path.lexists(path):
        return path
    file = os.path.join(path, name)
    if os.path.isdir(path) and not os.path.lexists(file):
        for marker, kind, holds in _FOLDER_KINDS:
            if marker != name and os.path.isfile(os.path.join(path, marker)):
                folders = sorted(e.name for e in os.scandir(path) if e.is_dir(follow_symlinks=False))
                shown = path.rstrip("/") or "/"
                first = os.path.join(shown, folders[0]) if folders else os.path.join(shown, "ID")
                raise InputError(f"{file}: no such file; {path} is {kind} ({marker}): "
                                 + holds.format(path=shown, first=first))
    return file


def _interval_ns(text):
    """--interval-ns: a whole number of ns from 1 to 2^63-1."""
    if not text.isascii() or not text.isdigit() or len(text) > 19 or not 1 <= int(text) < 1 << 63:
        raise argparse.ArgumentTypeError(f"'{text[:32]}' is not a whole number of ns from 1 to 2^63-1")
    return int(text)


def _csv_list(text):
    return [t for t in (s.strip() for s in text.split(",")) if t] if text else None


def _done(png):
    print(f"wrote      {escape(png)}, {escape(os.path.splitext(png)[0])}.csv")


def waf_main(argv=None):
    p = _Parser(prog="plot_waf.py", description="Cumulative and interval WAF over the run, several runs overlaid, "
                "GC onset marked. A RUN is an ftlsim --out folder (timeseries.csv; summary.json for the GC "
                "onset) given as DIR or LABEL=DIR; a compare folder gives its runs a and b.")
    p.add_argument("runs", nargs="+", metavar="RUN")
    p.add_argument("-o", "--out", required=True, metavar="PNG", help="output .png (the CSV goes beside it)")
    p.add_argument("--x", default="host_bytes", choices=list(X_AXES), help="x axis (default: host_bytes)")
    p.add_argument("--title")
    a = p.parse_args(argv)
    runs = []
    specs = run_specs(a.runs)
    for label, path in specs:
        series = read_timeseries(_file_in(path, "timeseries.csv"))
        summary_path = os.path.join(path if os.path.isdir(path) else os.path.dirname(path), "summary.json")
        onset = read_summary(summary_path)["gc_onset"] if os.path.exists(summary_path) else None
        runs.append((label, series, onset))
    plot_waf(runs, a.out, x=a.x, title=a.title, source=describe([summary_beside(path) for _, path in specs]))
    _done(a.out)


def sweep_main(argv=None):
    p = _Parser(prog="plot_sweep.py", description="A metric of sweep.csv against one swept option (lines, one per "
                "--group value) or, with --y, against two (heatmaps, one per --facet value).")
    p.add_argument("sweep", metavar="SWEEP", help="sweep.csv or the sweep's --out folder")
    p.add_argument("-o", "--out", required=True, metavar="PNG")
    p.add_argument("--x", help="swept option on the x axis, e.g. gc-thres (default: the one swept option that "
                   "no other argument names, placement last)")
    p.add_argument("--y", help="second swept option: draw heatmaps (e.g. ru-size)")
    p.add_argument("--group", help="lines: one per value of this option (default: placement, unless it is --x or "
                   "--facet)")
    p.add_argument("--facet", help="panels: one per value of this option (heatmaps: default placement, unless it "
                   "is --x or --y; lines: none by default)")
    p.add_argument("--change-vs", metavar="VALUE", help="heatmaps: add the change in %% against this --facet value")
    p.add_argument("--metric", default="waf", help="column to draw (default: waf)")
    p.add_argument("--where", action="append", metavar="OPTION=VALUE", help="fix another swept option (repeatable)")
    p.add_argument("--title")
    a = p.parse_args(argv)
    sweep = read_sweep(_file_in(a.sweep, "sweep.csv"))
    where = parse_where(a.where)
    if a.x is None:
        a.x = default_x(sweep, [a.y, a.group, a.facet, *where])
    # placement groups or facets by default, unless it is an axis already
    # (given explicitly, --group or --facet must differ from the axes).
    if a.y:
        facet = a.facet if a.facet is not None else None if "placement" in (a.x, a.y) else "placement"
        plot_sweep_heatmap(sweep, a.x, a.y, a.out, metric=a.metric, facet=facet, change_vs=a.change_vs,
                           where=where, title=a.title)
    else:
        group = a.group if a.group is not None else None if "placement" in (a.x, a.facet) else "placement"
        if a.change_vs is not None:
            raise InputError(f"--change-vs {a.change_vs}: heatmaps only (give --y)")
        plot_sweep_lines(sweep, a.x, a.out, group=group, metric=a.metric, where=where, title=a.title, facet=a.facet)
    _done(a.out)


def handles_main(argv=None):
    p = _Parser(prog="plot_handles.py", description="Host bytes per placement ID and each handle's WAF share "
                "(host writes + GC copying), stacked, per run. A RUN is an ftlsim --out folder or its "
                "summary.json, as DIR or LABEL=DIR; a compare folder gives its runs a and b.")
    p.add_argument("runs", nargs="+", metavar="RUN")
    p.add_argument("-o", "--out", required=True, metavar="PNG")
    p.add_argument("--title")
    a = p.parse_args(argv)
    runs = []
    for label, path in run_specs(a.runs):
        file = _file_in(path, "summary.json")
        summary = read_summary(file)
        if not summary["handles"]:
            raise InputError(f"{file}: \"handles\" is empty: the run recorded no handle, so there is nothing to draw")
        runs.append((label, summary))
    plot_handles(runs, a.out, title=a.title)
    _done(a.out)


def ids_main(argv=None):
    p = _Parser(prog="plot_ids.py", description="One run's host writes, GC copies and WAF share over the run, per "
                "placement ID and per handle (id_timeseries.csv of ftlsim --id-series). RUN is an ftlsim --out "
                "folder or its id_timeseries.csv; summary.json beside it gives the title and the handles' IDs.")
    p.add_argument("run", metavar="RUN")
    p.add_argument("-o", "--out", required=True, metavar="PNG")
    p.add_argument("--title")
    a = p.parse_args(argv)
    csv_path = _file_in(a.run, "id_timeseries.csv")
    if not os.path.lexists(csv_path):
        raise InputError(f"{csv_path}: no such file (run ftlsim with --id-series --out DIR)")
    summary = summary_beside(csv_path)
    plot_ids(read_id_timeseries(csv_path), a.out, summary=summary, title=a.title, source=describe([summary]))
    _done(a.out)


def latency_main(argv=None):
    p = _Parser(prog="plot_latency.py", description="Timed-mode latency figures: `cdf` (latency_cdf.csv of one or "
                "more runs) or `events` (events.csv of one run).")
    sub = p.add_subparsers(dest="figure", required=True, parser_class=_Parser)
    c = sub.add_parser("cdf", help="latency CDF per op type")
    c.add_argument("runs", nargs="+", metavar="RUN", help="an ftlsim --timing --out folder or its "
                   "latency_cdf.csv; a compare folder gives its runs a and b")
    c.add_argument("-o", "--out", required=True, metavar="PNG")
    c.add_argument("--ops", help="ops to show, e.g. read,write (default: all)")
    c.add_argument("--tail", action="store_true", help="draw 1 - CDF on a log scale")
    c.add_argument("--title")
    e = sub.add_parser("events", help="throughput and latency per interval per event kind")
    e.add_argument("run", metavar="RUN", help="an ftlsim --timing --out folder or its events.csv")
    e.add_argument("-o", "--out", required=True, metavar="PNG")
    e.add_argument("--events", help="event kinds to show, e.g. host_write,gc_copy (default: all)")
    e.add_argument("--interval-ns", type=_interval_ns, help="interval length (default: inferred from the file)")
    e.add_argument("--title")
    a = p.parse_args(argv)
    if a.figure == "cdf":
        specs = run_specs(a.runs)
        files = [_file_in(path, "latency_cdf.csv") for _, path in specs]
        runs = [(label, read_latency_cdf(f)) for (label, _), f in zip(specs, files)]
        if not any(points for _, cdf in runs for points in cdf.values()):
            raise InputError(f"{', '.join(files)}: no latencies (no request took device time: the trace has none, "
                             "or only trims and reads of unmapped LBAs)")
        summaries = {label: summary_beside(path) for label, path in specs}
        plot_latency_cdf(runs, a.out, ops=_csv_list(a.ops), tail=a.tail, title=a.title,
                         counts={label: op_counts(s) for label, s in summaries.items()},
                         source=describe(list(summaries.values())))
    else:
        _, path = run_spec(a.run)
        events_csv = _file_in(path, "events.csv")
        plot_events(read_events(events_csv), a.out, events=_csv_list(a.events), interval_ns=a.interval_ns,
                    title=a.title, source=describe([summary_beside(path)]), name=events_csv)
    _done(a.out)


def qd_main(argv=None):
    p = _Parser(prog="plot_qd.py", description="QPS and latency percentiles against queue depth, the knee marked "
                "where QPS flattens (the first queue depth at 95% of the best QPS, if one twice as deep was "
                "swept). A RUN is an `ftlsim qd-sweep --out` folder or its qd_sweep.csv, as DIR or LABEL=DIR.")
    p.add_argument("runs", nargs="+", metavar="RUN")
    p.add_argument("-o", "--out", required=True, metavar="PNG")
    p.add_argument("--title")
    a = p.parse_args(argv)
    runs, sources = [], []
    for label, path in map(run_spec, a.runs):
        csv_path = _file_in(path, "qd_sweep.csv")
        rows, _ = read_qd_sweep(csv_path)  # the knee: qd.knee_qd, the rule ftlsim qd-sweep prints too
        runs.append((label, rows))
        sources.append(qd_sweep_source(csv_path))
    plot_qd(runs, a.out, title=a.title, source=describe(sources) if any(sources) else None)
    _done(a.out)
