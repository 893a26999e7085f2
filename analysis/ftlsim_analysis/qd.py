"""plot_qd: QPS and latency percentiles against queue depth (from
`ftlsim qd-sweep`'s qd_sweep.csv), with the saturation knee marked; one
group of lines per run, placement (the CSV's placement column, when
`qd-sweep --placement` was given several) and op filter."""
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, NullFormatter

from .errors import InputError
from .figure import check_unique_labels, colors, new_figure, save
from .source import title as default_title

# qd_sweep.json of ftlsim before #26 records neither trace nor device: the default title says so.
QD_SOURCE_UNKNOWN = "trace and device not recorded in qd_sweep.json (name them with --title)"

# (CSV column, name, line style, point marker); with one series each
# percentile also gets a colour of its own (PERCENTILE_COLORS).
PERCENTILES = [("p50_ns", "p50", ":", "v"), ("p95_ns", "p95", "-.", "s"), ("p99_ns", "p99", "--", "D"),
               ("p99_9_ns", "p99.9", "-", "^")]
PERCENTILE_COLORS = ["#2ca02c", "#1f77b4", "#ff7f0e", "#d62728"]  # green, blue, orange, red: low to high
KNEE_DASHES = [(0, (5, 3)), (0, (2, 2)), (0, (8, 2, 1, 2)), (0, (1, 1.5))]
CSV_HEADER = ["run", "placement", "ops", "qd", "qps", "mib_per_s", "p50_ns", "p95_ns", "p99_ns", "p99_9_ns", "is_knee"]


KNEE_SHARE = 0.95  # of the best QPS


def knee_qd(rows):
    """Where throughput flattens: the smallest queue depth k whose QPS
    reaches KNEE_SHARE (95%) of the best QPS measured, provided a queue depth
    of 2k or more was measured too. Then doubling the queue depth (or more)
    past k added at most 1/0.95 - 1 = 5.3% throughput. None when there is no
    such depth: the curve was still rising at the deepest queue swept (k is
    the last, or too close to it to tell), or there are no rows.

    The same rule as ftlsim qd-sweep's printed knee and qd_sweep.json's
    knee_qd (src/timing/qd_sweep.h, kKneeShare)."""
    if not rows:
        return None
    best = max(r["qps"] for r in rows)
    k = min(r["qd"] for r in rows if r["qps"] >= KNEE_SHARE * best)
    return k if any(r["qd"] >= 2 * k for r in rows) else None


def _series(runs):
    """[(run label, placement or None, ops, legend name, rows by qd, knee)]."""
    check_unique_labels([label for label, _ in runs])
    out = []
    for label, rows in runs:
        if not rows:
            raise InputError(f"run {label}: qd_sweep.csv has no rows")
        placements = list(dict.fromkeys(r.get("placement") for r in rows))
        if None in placements and len(placements) > 1:
            raise InputError(f"run {label}: some rows have a placement and some not")
        groups = [(p, ops) for p in placements for ops in dict.fromkeys(r["ops"] for r in rows
                                                                         if r.get("placement") == p)]
        several_ops = len({ops for _, ops in groups}) > 1
        for p, ops in groups:
            sub = sorted((r for r in rows if r.get("placement") == p and r["ops"] == ops), key=lambda r: r["qd"])
            qds = [r["qd"] for r in sub]
            if len(set(qds)) != len(qds):
                raise InputError(f"run {label}: queue depth listed twice for "
                                 + (f"placement {p}, " if p is not None else "") + f"ops {ops}")
            k = knee_qd(sub)
            parts = [label] if (len(runs) > 1 or p is None) else []
            parts += [p] if p is not None else []
            name = " ".join(parts) + (f" ({ops})" if several_ops else "")
            out.append((label, p, ops, name, sub, k))
    return out


def _n_text(rows):
    """The number of requests timed per queue depth: 'n = 1,000 per QD'."""
    counts = sorted({int(r["count"]) for r in rows})
    return f"n = {counts[0]:,} per QD" if len(counts) == 1 else f"n = {counts[0]:,} to {counts[-1]:,} per QD"


def draw_qd(runs, title=None, source=None):
    """The figure of plot_qd: returns (figure, CSV header, CSV rows)."""
    if not runs:
        raise InputError("no runs to plot")
    series = _series(runs)
    fig, axes = new_figure(1, 2, width=12, height=4.6)
    left, right = axes[0]
    out = []
    one = len(series) == 1
    for i, ((label, placement, ops, name, sub, k), color) in enumerate(zip(series, colors(len(series)))):
        qds = [r["qd"] for r in sub]
        left.plot(qds, [r["qps"] for r in sub], marker="o", color=color, label=name)
        if k is not None:
            knee_row = next(r for r in sub if r["qd"] == k)
            dashes = KNEE_DASHES[i % len(KNEE_DASHES)]
            left.axvline(k, color=color, linestyle=dashes, linewidth=1)
            # A ring on the curve: knees of several series at one queue depth stay apart.
            left.plot([k], [knee_row["qps"]], marker="o", markersize=13, markerfacecolor="none",
                      markeredgecolor=color, markeredgewidth=1.5, linestyle=dashes,
                      label=f"{name}: knee at QD {k}")
        else:
            left.plot([], [], linestyle="none", label=f"{name}: no knee, QPS still rising at QD {qds[-1]}")
        for j, (col, pname, style, mark) in enumerate(PERCENTILES):
            right.plot(qds, [r[col] / 1e3 for r in sub], color=PERCENTILE_COLORS[j] if one else color,
                       linestyle=style, marker=mark, markersize=4,
                       label=pname if one else f"{name} {pname}")
        for r in sub:
            out.append([label, placement, ops, r["qd"], r["qps"], r["mib_per_s"], r["p50_ns"], r["p95_ns"], r["p99_ns"],
                        r["p99_9_ns"], 1 if r["qd"] == k else 0])
    all_qds = sorted({r["qd"] for s in series for r in s[4]})
    for ax in (left, right):
        ax.set_xscale("log", base=2)
        if len(all_qds) <= 12:  # the measured queue depths as plain numbers, not 2^k
            ax.set_xticks(all_qds)
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
            ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("queue depth (requests in flight)")
        ax.grid(True, which="both", alpha=0.3)
    best = max(r["qps"] for s in series for r in s[4])
    scale, unit = next((f, u) for f, u in ((1e6, "million"), (1e3, "thousand"), (1, "")) if best >= f or f == 1)
    left.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v / scale:g}"))  # no "1e6" in the corner
    left.set_ylabel(f"QPS ({unit + ' ' if unit else ''}requests/s)")
    left.set_ylim(bottom=0)
    right.set_ylabel("latency (us)")
    right.set_yscale("log")
    left.legend(fontsize="small", loc="best")  # the corner with the fewest points under it
    # Latency legends outside the panel, clear of the lines; n = requests timed at each QD.
    if one:
        right.legend(title=f"{series[0][3]}, {_n_text(series[0][4])}", fontsize="small", title_fontsize="small",
                     loc="upper left", bbox_to_anchor=(1.01, 1.0))
    else:
        # Two keys instead of one entry per line: colour = series, style = percentile.
        key_title = "placement" if len(runs) == 1 and all(s[1] is not None for s in series) else None
        by_series = right.legend([Line2D([], [], color=c) for c in colors(len(series))],
                                 [f"{s[3]}, {_n_text(s[4])}" for s in series], fontsize="small", loc="upper left",
                                 bbox_to_anchor=(1.01, 1.0), title=key_title, title_fontsize="small")
        right.add_artist(by_series)
        right.legend([Line2D([], [], color="0.25", linestyle=st, marker=mk, markersize=4)
                      for _, _, st, mk in PERCENTILES], [p for _, p, _, _ in PERCENTILES],
                     fontsize="small", loc="lower left", bbox_to_anchor=(1.01, 0.0), title="percentile",
                     title_fontsize="small")
    left.set_title(f"throughput; knee: the first QD at {KNEE_SHARE:.0%} of the best QPS,\n"
                   "if 2x that QD or more was swept", fontsize=9)
    right.set_title("latency percentiles", fontsize=10)
    fig.suptitle(title or default_title("QPS and latency against queue depth",
                                        QD_SOURCE_UNKNOWN if source is None else source), fontsize=11)
    return fig, CSV_HEADER, out


def plot_qd(runs, png_path, title=None, source=None):
    """Draws QPS (left) and latency percentiles p50/p95/p99/p99.9 in
    microseconds (right, log scale) against queue depth (log2 scale), one
    series per run, placement and op filter, the knee as a ring on the QPS
    curve and a vertical line, and writes png_path and its CSV. With one
    series each percentile has its own colour, style and marker; with
    several, the colour is the series and style and marker the percentile,
    with a key for each.

    runs: [(label, rows as read_qd_sweep returns them)]; labels distinct;
    rows may carry a "placement". The knee is knee_qd of each series' rows
    (a series without one says so in the legend).
    CSV columns: run, placement (empty without a placement column), ops, qd,
    qps, mib_per_s, p50_ns, p95_ns, p99_ns, p99_9_ns, is_knee (1 on the knee's
    row). The default title names the trace and device when `source` gives
    them (qd_main reads them from qd_sweep.json). Returns the CSV rows."""
    fig, header, out = draw_qd(runs, title=title, source=source)
    save(fig, png_path, header, out)
    return out
