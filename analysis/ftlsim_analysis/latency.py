"""Timed-mode figures: plot_latency_cdf (latency distributions per operation
type, from latency_cdf.csv) and plot_events (throughput and latency per
interval for each event kind, from events.csv)."""
import numpy as np

from .errors import InputError
from .figure import check_unique_labels, colors, new_figure, save
from .source import title as default_title

_LINESTYLES = ["-", "--", ":", "-."]
# At most this many intervals in an events figure: as many as ftlsim writes
# in one events.csv (timing::EventSeries::kMaxIntervals). Every interval is
# a point of each line, so a span cut into 1 ns intervals would take
# gigabytes before anything is drawn.
MAX_INTERVALS = 100_000
# What one event of each events.csv kind is (docs/timing.md): host kinds
# count requests of any size, gc_copy 4 KiB page copies, erase block erases.
EVENT_UNITS = {"host_read": "requests", "host_write": "requests", "host_trim": "requests",
               "gc_copy": "4 KiB copies", "erase": "block erases"}


# One colour per op / event kind in every timed-mode figure: a read is blue
# in the CDF and in the time series alike.
KIND_COLORS = {"read": "#1f77b4", "write": "#ff7f0e", "trim": "#9467bd", "host_read": "#1f77b4",
               "host_write": "#ff7f0e", "host_trim": "#9467bd", "gc_copy": "#2ca02c", "erase": "#d62728"}


def kind_colors(kinds):
    """{kind: colour}: KIND_COLORS, other kinds from the colours left over."""
    spare = [c for c in colors(10) if c not in KIND_COLORS.values()]
    out, k = {}, 0
    for kind in kinds:
        if kind in KIND_COLORS:
            out[kind] = KIND_COLORS[kind]
        else:
            out[kind] = spare[k % len(spare)]
            k += 1
    return out


def event_unit(kind):
    return EVENT_UNITS.get(kind, "events")


def _chosen(available, wanted, what):
    """`wanted` (None = all available, in first-seen order), checked against `available`."""
    if wanted is None:
        return list(available)
    unknown = [w for w in wanted if w not in available]
    if unknown:
        raise InputError(f"--{what} {','.join(unknown)}: not in the data (present: {', '.join(available) or 'none'})")
    return list(wanted)


def plot_latency_cdf(runs, png_path, ops=None, tail=False, title=None, counts=None, source=None):
    """plot_latency_cdf draws and writes the figure of draw_latency_cdf (same
    arguments); returns the CSV rows."""
    fig, header, rows = draw_latency_cdf(runs, ops=ops, tail=tail, title=title, counts=counts, source=source)
    save(fig, png_path, header, rows)
    return rows


def draw_latency_cdf(runs, ops=None, tail=False, title=None, counts=None, source=None):
    """Draws the latency distribution of each chosen op of each run as steps
    (latency in microseconds, log scale): the cumulative fraction, or with
    tail=True the fraction above each latency, 1 - cum, on a log scale (the
    last bucket, where it is 0, cannot be shown there; a line with nothing
    else, every request in its first bucket, is a vertical line at that
    latency, "none slower than"). Each line's legend
    entry states its number of requests n (from `counts`), the legend sits
    outside the axes, and the default title names the trace and device
    (`source`). Returns (figure, CSV header, CSV rows).

    runs: [(label, {op: [(latency_ns, cum_fraction)]}) as read_latency_cdf
    returns], labels distinct. ops: op names to show (None: all present in
    any run). Colour is the op, line style the run. counts: {run label: {op:
    requests}} (summary.json timing.ops.<op>.count); a run or op missing
    there is labelled "n not recorded".
    CSV columns: run, op, latency_ns, cum_fraction, tail_fraction."""
    if not runs:
        raise InputError("no runs to plot")
    check_unique_labels([label for label, _ in runs])
    present = list(dict.fromkeys(op for _, cdf in runs for op in cdf))
    chosen = _chosen(present, ops, "ops")
    op_color = kind_colors(chosen)
    fig, axes = new_figure(width=7, height=4.2)
    ax = axes[0][0]
    rows = []
    drawn = False  # a line with a point on the axes' scale
    for k, (label, cdf) in enumerate(runs):
        for op in chosen:
            points = cdf.get(op, [])
            if not points:
                continue
            xs = [lat / 1e3 for lat, _ in points]
            cums = [c for _, c in points]
            ys = [max(0.0, 1.0 - c) for c in cums] if tail else cums
            top = next((x for x, c in zip(xs, cums) if c >= 1.0), xs[-1])  # where every request is done
            if tail:  # log scale: leave out the zero at the top bucket
                keep = [i for i, y in enumerate(ys) if y > 0]
                xs, ys = [xs[i] for i in keep], [ys[i] for i in keep]
            n = ((counts or {}).get(label) or {}).get(op)
            name = (op if len(runs) == 1 else f"{label}: {op}") + (f" (n = {n:,})" if n is not None
                                                                  else " (n not recorded)")
            style = dict(color=op_color[op], linestyle=_LINESTYLES[k % len(_LINESTYLES)])
            if xs:
                ax.plot(xs, ys, drawstyle="steps-post", label=name, **style)
                drawn = True
            else:  # no request slower than the first bucket (one latency for all): no tail to draw
                ax.axvline(top, label=f"{name}: none slower than {top:,.4g} us", **style)
            for lat, c in points:
                rows.append([label, op, lat, c, max(0.0, 1.0 - c)])
    if not rows:
        raise InputError("none of the chosen ops has latency data in "
                         + ", ".join(label for label, _ in runs)
                         + " (no request took device time: none, or only trims and reads of unmapped LBAs)")
    ax.set_xscale("log")
    if tail:
        ax.set_yscale("log")
        if not drawn:  # only the vertical lines of runs without a tail: a range for the log scale
            ax.set_ylim(1e-4, 1.5)
        ax.set_ylabel("fraction of requests slower (1 - CDF)")
    else:
        ax.set_ylabel("cumulative fraction of requests")
        ax.set_ylim(0, 1.02)
    ax.set_xlabel("latency (us)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))  # clear of the curves
    ax.set_title(title or default_title("latency tail" if tail else "latency CDF", source), fontsize=10)
    return fig, ["run", "op", "latency_ns", "cum_fraction", "tail_fraction"], rows


def infer_interval_ns(rows):
    """The interval of events.csv: the smallest gap between distinct interval
    starts (None when there is only one interval)."""
    starts = sorted({r["interval_start_ns"] for r in rows})
    gaps = [b - a for a, b in zip(starts, starts[1:]) if b > a]
    return min(gaps) if gaps else None


def fmt_duration(ns):
    """A duration in ns as text in the largest unit that keeps it >= 1: "1 ms", "32 ms", "1.024 s"."""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.4g} {unit}"
    return f"{ns} ns"


def events_title(interval_ns):
    """What plot_events draws, for its title: rates per second averaged over
    each interval, or, the interval unknown, totals of the one interval."""
    if interval_ns is None:
        return "events, MiB and latency of the one interval"
    return f"events/s, MiB/s and latency in {fmt_duration(interval_ns)} intervals"


def plot_events(rows, png_path, events=None, interval_ns=None, title=None, source=None, name="events.csv"):
    """plot_events draws and writes the figure of draw_events (same
    arguments); returns the CSV rows."""
    fig, header, out = draw_events(rows, events=events, interval_ns=interval_ns, title=title, source=source,
                                   name=name)
    save(fig, png_path, header, out)
    return out


def draw_events(rows, events=None, interval_ns=None, title=None, source=None, name="events.csv"):
    """Draws, per chosen event kind, events per second (top) and MiB/s (middle)
    in each interval (its count and bytes over its length: events.csv holds
    counts and bytes per interval), and the interval's p50 (dashed) and p99
    (solid) latency in microseconds (bottom, log scale, at the interval's
    middle), against simulated time. Returns (figure, CSV header,
    CSV rows); the title (default events_title, and `source`, the trace and
    device, under it) says the interval length. Kinds count different
    things (EVENT_UNITS: requests, 4 KiB GC copies, block erases): each
    legend entry names its unit and its n (events in all, the latencies'
    sample), and an axis that mixes units says so. Legends sit outside the
    axes, clear of the data.

    rows: events.csv as read_events returns it. events: kinds to show (None:
    all present). interval_ns: the interval length; None infers it as the
    smallest gap between interval starts. An interval with no row for a kind
    had none of its events: its rate is drawn as 0 and its latency left out.
    With a single interval and no interval_ns, the top panels show the
    interval's events and MiB instead of rates per second.
    CSV columns: event, interval_start_ns, count, rate_per_s, mib_per_s,
    lat_p50_ns, lat_p99_ns (rate and MiB/s empty when the interval is unknown;
    latencies empty where no events). Returns the CSV rows.
    More than MAX_INTERVALS intervals between the first start and the last
    are refused (InputError naming `name`, the file the rows came from)."""
    if not rows:
        raise InputError(f"{name} has no rows (no request took device time)")
    present = list(dict.fromkeys(r["event"] for r in rows))
    chosen = _chosen(present, events, "events")
    given = interval_ns is not None
    if interval_ns is None:
        interval_ns = infer_interval_ns(rows)
    if interval_ns is not None and interval_ns <= 0:
        raise InputError(f"--interval-ns {interval_ns} must be above 0")
    all_starts = sorted({r["interval_start_ns"] for r in rows})
    if interval_ns is not None:
        first, last = all_starts[0], all_starts[-1]
        intervals = (last - first) // interval_ns + 1
        if intervals > MAX_INTERVALS:
            how = "--interval-ns" if given else "the interval inferred: the smallest gap between interval starts"
            raise InputError(f"{name}: its rows span {fmt_duration(last - first)}: {intervals:,} intervals of "
                             f"{fmt_duration(interval_ns)} ({how}), more than the {MAX_INTERVALS:,} a figure draws "
                             f"(as many as ftlsim writes); give a larger --interval-ns")
        if any((s - first) % interval_ns for s in all_starts):
            raise InputError(f"interval starts are not multiples of the interval {interval_ns} ns apart")
        starts = list(range(first, last + 1, interval_ns))
    else:
        starts = all_starts
    by_key = {(r["event"], r["interval_start_ns"]): r for r in rows}
    fig, axes = new_figure(3, 1, width=8, height=8, sharex=True)
    top, middle, bottom = axes[0][0], axes[1][0], axes[2][0]
    out = []
    for ev, color in kind_colors(chosen).items():
        ts, rates, mbs, p50, p99 = [], [], [], [], []
        for s in starts:
            r = by_key.get((ev, s))
            count = r["count"] if r else 0
            rate = count * 1e9 / interval_ns if interval_ns else None
            mib_s = (r["bytes"] if r else 0) * 1e9 / interval_ns / 2**20 if interval_ns else None
            ts.append(s / 1e9)
            rates.append(rate if interval_ns else count)
            mbs.append(mib_s if interval_ns else (r["bytes"] if r else 0) / 2**20)
            p50.append(r["lat_p50_ns"] / 1e3 if r else np.nan)
            p99.append(r["lat_p99_ns"] / 1e3 if r else np.nan)
            out.append([ev, s, count, rate, mib_s, r["lat_p50_ns"] if r else None, r["lat_p99_ns"] if r else None])
        # Latency at each interval's middle; the rate steps span the interval, the last one too.
        mids = [t + (interval_ns or 0) / 2e9 for t in ts]
        if interval_ns:
            ts.append((starts[-1] + interval_ns) / 1e9)
            rates.append(rates[-1])
            mbs.append(mbs[-1])
        n = sum(r["count"] for r in rows if r["event"] == ev)
        top.plot(ts, rates, drawstyle="steps-post", color=color, label=f"{ev}: {event_unit(ev)}, n = {n:,}")
        middle.plot(ts, mbs, drawstyle="steps-post", color=color, label=ev)
        bottom.plot(mids, p99, color=color, label=f"{ev} p99")
        bottom.plot(mids, p50, color=color, linestyle="--", label=f"{ev} p50")
    units = list(dict.fromkeys(event_unit(ev) for ev in chosen))
    what = units[0] if len(units) == 1 else "events (mixed units: see legend)"
    top.set_ylabel(f"{what}\nper second" if interval_ns else f"{what}\nin the interval")
    middle.set_ylabel("MiB/s" if interval_ns else "MiB in the interval")
    bottom.set_ylabel("latency (us)")
    bottom.set_yscale("log")
    bottom.set_xlabel("simulated time (s)")
    for ax in (top, middle, bottom):
        ax.grid(True, which="both", alpha=0.3)
    top.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    bottom.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    top.set_title(title or default_title(events_title(interval_ns), source), fontsize=10)
    return fig, ["event", "interval_start_ns", "count", "rate_per_s", "mib_per_s", "lat_p50_ns", "lat_p99_ns"], out
