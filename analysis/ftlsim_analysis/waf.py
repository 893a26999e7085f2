"""plot_waf: cumulative and interval WAF over the run, several runs overlaid,
GC onset marked (the WAF-over-time figure of the Ethereum FDP study)."""
from .errors import InputError
from .figure import GIB, MIB, check_unique_labels, colors, new_figure, save
from .source import title as default_title

# x axis choices: the timeseries column, how it is shown, its scale.
X_AXES = {
    "host_bytes": ("host writes (GiB)", 1 / GIB),
    "marker": ("last marker seen (e.g. block number)", 1.0),
    "time": ("trace time (s)", 1e-9),
}
# Dash patterns of the GC-onset lines, one per run, so that lines at (nearly)
# the same x stay apart from each other.
ONSET_DASHES = [(0, (6, 3)), (0, (2, 2)), (0, (8, 2, 1, 2)), (0, (1, 1.5)), (0, (4, 1, 1, 1, 1, 1))]
MARKERS, AFTER = "markers", "after_last_marker"  # the two panels of the marker axis


def _x_of(row, x):
    if x == "host_bytes":
        return row["host_bytes"]
    if x == "marker":
        return row["marker"]
    return row["trace_time_ns"]


def _onset_x(onset, x):
    """Where GC onset lies on a host_bytes or time axis (None if GC never ran)."""
    if onset is None:
        return None
    return {"host_bytes": onset.get("host_bytes"), "time": onset.get("trace_time_ns")}[x]


class MarkerAxis:
    """Where the rows of one run (those with a marker, in file order) go on
    the marker axis. A row's marker is the last marker seen, so rows can
    share one: several between two markers, and every row after the last.

    A span is a run of consecutive rows with the same marker m; its first row
    sits at m. Its later rows lie after marker m and before the next marker
    record, whose value (markers are integers, here rising) is m + 1 or
    more: they are spread over [m, m + 1) by host bytes, at m + f, f the
    fraction of the host bytes from the span's first row to the next span's
    first row (m + f (m' - m) if the next span's marker m' is closer than 1;
    at m if markers do not rise). So a row never leaves the marker interval
    it truly lies in. The last span has no next marker: its later rows go
    to a second panel, AFTER, at their host bytes past the span's first
    row."""

    def __init__(self, points):
        self.points = points
        self.spans = [k for k, r in enumerate(points) if k == 0 or r["marker"] != points[k - 1]["marker"]]

    def _in_span(self, s, h):
        """(panel, x) of host bytes h in span s (h at or past its first row)."""
        first = self.points[self.spans[s]]
        m, h0 = first["marker"], first["host_bytes"]
        if h <= h0:
            return MARKERS, m
        if s + 1 == len(self.spans):
            return AFTER, h - h0
        nxt = self.points[self.spans[s + 1]]
        if nxt["marker"] <= m or nxt["host_bytes"] <= h0:
            return MARKERS, m
        frac = min(1.0, (h - h0) / (nxt["host_bytes"] - h0))
        return MARKERS, m + frac * min(1, nxt["marker"] - m)

    def rows(self):
        """[(row, panel, x)] for every row with a marker, in order."""
        out = []
        for s, k0 in enumerate(self.spans):
            k1 = self.spans[s + 1] if s + 1 < len(self.spans) else len(self.points)
            for r in self.points[k0:k1]:
                out.append((r, *self._in_span(s, r["host_bytes"])))
        return out

    def place(self, host_bytes, marker):
        """(panel, x) of an event (GC onset) at host_bytes whose last marker
        seen was `marker`; None without a marker. An event before the first
        row showing its marker (or with a marker no row shows) sits at it."""
        if marker is None:
            return None
        at = [s for s in range(len(self.spans)) if self.points[self.spans[s]]["marker"] == marker
              and self.points[self.spans[s]]["host_bytes"] <= host_bytes]
        return (MARKERS, marker) if not at else self._in_span(at[-1], host_bytes)


def _fmt_bytes(b, unit):
    """Bytes in the unit (GIB or MIB) of the axis they are drawn on."""
    return f"{b / unit:.3g} " + ("GiB" if unit == GIB else "MiB")


def _onset_text(x, onset_x, panel, short=False, after_unit=MIB):
    """The onset's position as text, in the unit its axis shows (host_bytes:
    GiB; the after-last-marker panel: after_unit)."""
    if panel == AFTER:
        return f"+{_fmt_bytes(onset_x, after_unit)}" + ("" if short else " after the last marker's row")
    if x == "marker":
        m = f"{int(onset_x)}" if float(onset_x).is_integer() else f"{onset_x:.2f}"
        return m if short else f"marker {m}"
    if x == "host_bytes":
        return _fmt_bytes(onset_x, GIB)
    return f"{onset_x / 1e9:.4g} s"


def draw_waf(runs, x="host_bytes", title=None, source=None):
    """The figure of plot_waf: returns (figure, CSV header, CSV rows); the
    caller saves or closes the figure."""
    if x not in X_AXES:
        raise InputError(f"--x {x}: choose one of {', '.join(X_AXES)}")
    if not runs:
        raise InputError("no runs to plot")
    check_unique_labels([label for label, _, _ in runs])
    x_label, scale = X_AXES[x]
    # Where every row and onset goes: [(label, [(row, panel, x)], (panel, x) or None, onset)].
    placed = []
    for label, series, onset in runs:
        if x == "marker":
            axis = MarkerAxis([r for r in series if r["marker"] is not None])
            ox = axis.place(onset.get("host_bytes"), onset.get("marker")) if onset else None
            placed.append((label, axis.rows(), ox, onset))
        else:
            ox = _onset_x(onset, x)
            placed.append((label, [(r, MARKERS, _x_of(r, x)) for r in series],
                           None if ox is None else (MARKERS, ox), onset))
    if not any(rows for _, rows, _, _ in placed):
        raise InputError(f"no timeseries row has a value for --x {x}"
                         + (" (the traces carry no markers)" if x == "marker" else ""))
    after = [xx for _, rows, _, _ in placed for _, p, xx in rows if p == AFTER]
    after += [o[1] for _, _, o, _ in placed if o is not None and o[0] == AFTER]
    after_unit, after_name = (GIB, "GiB") if after and max(after) >= GIB else (MIB, "MiB")
    if after:
        fig, axes = new_figure(2, 2, width=10, height=6, sharex="col", sharey="row",
                               gridspec_kw={"width_ratios": [4, 1], "wspace": 0.06})
    else:
        fig, axes = new_figure(2, 1, width=8, height=6, sharex=True)
    panel_axes = {MARKERS: (axes[0][0], axes[1][0])}
    if after:
        panel_axes[AFTER] = (axes[0][1], axes[1][1])
    panel_scale = {MARKERS: scale, AFTER: 1 / after_unit}
    interpolated = x == "marker" and any(p == MARKERS and xx != r["marker"] for _, rows, _, _ in placed
                                         for r, p, xx in rows)
    csv_rows = []
    onsets = 0
    for (label, rows, ox, onset), color in zip(placed, colors(len(placed))):
        for panel, (top, bottom) in panel_axes.items():
            pts = [(r, xx) for r, p, xx in rows if p == panel]
            if panel == AFTER and pts:  # continue from the last marker's row, at 0
                pts = [(r, 0) for r, p, _ in rows if p == MARKERS][-1:] + pts
            xs = [xx * panel_scale[panel] for _, xx in pts]
            top.plot(xs, [r["waf"] for r, _ in pts], color=color, label=label if panel == MARKERS else None)
            bottom.plot(xs, [r["interval_waf"] for r, _ in pts], color=color, drawstyle="steps-pre")
        for r, p, xx in rows:
            base = [label, "point", _x_of(r, x), r["waf"], r["interval_waf"]]
            csv_rows.append(base + ([r["host_bytes"], p, xx] if x == "marker" else []))
        if ox is not None:
            panel, at = ox
            dashes = ONSET_DASHES[onsets % len(ONSET_DASHES)]
            for ax in panel_axes[panel]:
                ax.axvline(at * panel_scale[panel], color=color, linestyle=dashes, linewidth=1.2,
                           gid=f"gc_onset {label}")
            top = panel_axes[panel][0]
            # A label at the top of the line, each run's one line lower, so lines at the same x stay readable.
            where = _onset_text(x, at, panel, short=True, after_unit=after_unit)
            top.annotate(f"{label}: {where}", xy=(at * panel_scale[panel], 1),
                         xycoords=("data", "axes fraction"), xytext=(4, -3 - 13 * onsets), textcoords="offset points",
                         ha="left", va="top", fontsize=8, color=color,
                         bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85, "pad": 1})
            panel_axes[MARKERS][0].plot([], [], color=color, linestyle=dashes, linewidth=1.2,
                                        label=f"{label}: GC onset at "
                                              f"{_onset_text(x, at, panel, after_unit=after_unit)}")
            base = [label, "gc_onset", onset.get("marker") if x == "marker" else at, None, None]
            csv_rows.append(base + ([onset.get("host_bytes"), panel, at] if x == "marker" else []))
            onsets += 1
    top, bottom = panel_axes[MARKERS]
    top.set_ylabel("cumulative WAF\n(NAND writes / host writes)")
    bottom.set_ylabel("interval WAF\n(NAND writes / host writes)")
    bottom.set_xlabel("last marker seen m (e.g. block number); rows with the\nsame m spread over [m, m + 1) by host writes"
                      if interpolated else x_label)
    if after:
        at, ab = panel_axes[AFTER]
        ab.set_xlabel(f"host writes after the\nlast marker's row ({after_name})")
        at.set_title("after the last marker", fontsize=9)
        for ax in (at, ab):
            ax.tick_params(labelleft=False)
    for ax in fig.axes:
        ax.grid(True, alpha=0.3)
    legend_ax = panel_axes[AFTER][0] if after else top
    handles, labels = top.get_legend_handles_labels()
    legend_ax.legend(handles, labels, fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.suptitle(title or default_title("WAF over the run", source))
    header = ["run", "kind", x, "waf", "interval_waf"] + (["host_bytes", "panel", "x_drawn"] if x == "marker" else [])
    return fig, header, csv_rows


def plot_waf(runs, png_path, x="host_bytes", title=None, source=None):
    """Draws cumulative WAF (top) and interval WAF (bottom, as steps: each
    row's value holds since the previous row) against `x` for every run, and
    at each run's GC onset a line in the run's colour and its own dash
    pattern, labelled with the run at the top and listed with its position
    in the legend, and writes png_path and its CSV.

    runs: [(label, timeseries rows as read_timeseries returns them,
            summary["gc_onset"] (None if GC never ran))], labels distinct.
    x:    "host_bytes" (shown in GiB), "marker" (rows before the first marker
          are left out; rows sharing a marker are placed as MarkerAxis says,
          those after the last marker's row in a second panel against host
          bytes) or "time" (trace time, shown in seconds).
    CSV columns: run, kind ("point" or "gc_onset"), <x> in the file's own unit
    (bytes, marker value or ns), waf, interval_waf (empty for gc_onset); with
    x="marker" also host_bytes, panel ("markers" or "after_last_marker") and
    x_drawn (the position drawn: a marker value, possibly fractional, or the
    bytes after the last marker's row).
    source: the trace and device (source.describe), under the default title.
    Returns the CSV rows. Raises InputError for an unknown x or no runs."""
    fig, header, rows = draw_waf(runs, x=x, title=title, source=source)
    save(fig, png_path, header, rows)
    return rows
