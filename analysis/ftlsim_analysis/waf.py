"""plot_waf: cumulative and interval WAF over the run, several runs overlaid,
GC onset marked (the WAF-over-time figure of the Ethereum FDP study)."""
from .errors import InputError
from .figure import GIB, check_unique_labels, colors, new_figure, save

# x axis choices: the timeseries column, how it is shown, its scale.
X_AXES = {
    "host_bytes": ("host writes (GiB)", 1 / GIB),
    "marker": ("last marker seen (e.g. block number)", 1.0),
    "time": ("trace time (s)", 1e-9),
}


def _x_of(row, x):
    if x == "host_bytes":
        return row["host_bytes"]
    if x == "marker":
        return row["marker"]
    return row["trace_time_ns"]


def _onset_x(onset, x):
    """Where GC onset lies on the x axis (None if GC never ran or, for markers,
    no marker preceded it)."""
    if onset is None:
        return None
    return {"host_bytes": onset.get("host_bytes"), "marker": onset.get("marker"),
            "time": onset.get("trace_time_ns")}[x]


def plot_waf(runs, png_path, x="host_bytes", title=None):
    """Draws cumulative WAF (top) and interval WAF (bottom, as steps: each
    row's value holds since the previous row) against `x` for every run, and a
    dashed line at each run's GC onset, and writes png_path and its CSV.

    runs: [(label, timeseries rows as read_timeseries returns them,
            summary["gc_onset"] (None if GC never ran))], labels distinct.
    x:    "host_bytes" (shown in GiB), "marker" (rows before the first marker
          are left out) or "time" (trace time, shown in seconds).
    CSV columns: run, kind ("point" or "gc_onset"), <x> in the file's own unit
    (bytes, marker value or ns), waf, interval_waf (empty for gc_onset).
    Returns the CSV rows. Raises InputError for an unknown x or no runs."""
    if x not in X_AXES:
        raise InputError(f"--x {x}: choose one of {', '.join(X_AXES)}")
    if not runs:
        raise InputError("no runs to plot")
    check_unique_labels([label for label, _, _ in runs])
    x_label, scale = X_AXES[x]
    fig, axes = new_figure(2, 1, width=8, height=6, sharex=True)
    top, bottom = axes[0][0], axes[1][0]
    rows = []
    drawn = 0
    for (label, series, onset), color in zip(runs, colors(len(runs))):
        points = [r for r in series if _x_of(r, x) is not None]
        xs = [_x_of(r, x) * scale for r in points]
        top.plot(xs, [r["waf"] for r in points], color=color, label=label)
        bottom.plot(xs, [r["interval_waf"] for r in points], color=color, drawstyle="steps-pre", label=label)
        drawn += len(points)
        for r in points:
            rows.append([label, "point", _x_of(r, x), r["waf"], r["interval_waf"]])
        ox = _onset_x(onset, x)
        if ox is not None:
            for ax in (top, bottom):
                ax.axvline(ox * scale, color=color, linestyle="--", linewidth=1)
            top.plot([], [], color=color, linestyle="--", linewidth=1, label=f"{label}: GC onset")
            rows.append([label, "gc_onset", ox, None, None])
    if drawn == 0:
        raise InputError(f"no timeseries row has a value for --x {x}"
                         + (" (the traces carry no markers)" if x == "marker" else ""))
    top.set_ylabel("cumulative WAF")
    bottom.set_ylabel("interval WAF")
    bottom.set_xlabel(x_label)
    for ax in (top, bottom):
        ax.grid(True, alpha=0.3)
    top.legend(fontsize="small", loc="upper left")
    top.set_title(title or "WAF over the run")
    save(fig, png_path, ["run", "kind", x, "waf", "interval_waf"], rows)
    return rows
