"""plot_ids: one run's host bytes, GC bytes and WAF share over the run, per
placement ID (top row) and per handle (bottom row), from the id_timeseries.csv
of `ftlsim --id-series`. The WAF shares are stacked, so the top of each
stack is the run's cumulative WAF at that point."""
from .errors import InputError
from .figure import GIB, MIB, greys, id_color, new_figure, save
from .handles import handle_color, handle_ids, handle_legend
from .source import title as default_title

CSV_HEADER = ["host_bytes", "kind", "id", "name", "id_host_bytes", "id_gc_bytes", "waf_share"]
PRECONDITION_COLOR = "0.55"  # the data --precondition wrote: a grey, not an ID colour


def _series(rows, kind):
    """{key: [(host_bytes, id_host_bytes, id_gc_bytes, waf_share)]} in key
    order, for the rows of one kind ("ids": pid and precondition; "handles")."""
    want = ("pid", "precondition") if kind == "ids" else ("handle",)
    out = {}
    for r in rows:
        if r["kind"] not in want:
            continue
        key = (r["kind"] == "precondition", r["id"] if r["id"] is not None else -1, r["name"])
        out.setdefault(key, []).append((r["host_bytes"], r["id_host_bytes"], r["id_gc_bytes"], r["waf_share"]))
    return dict(sorted(out.items()))


def _id_label(key):
    is_pre, pid, name = key
    if is_pre:
        return "precondition (the fill)"
    return f"ID {pid}" + (f" ({name})" if name else "")


def _scale(max_bytes):
    """(divisor, unit) for an axis whose largest value is max_bytes."""
    return (GIB, "GiB") if max_bytes >= GIB else (MIB, "MiB")


def draw_ids(rows, summary=None, title=None, source=None):
    """Draws the 2 x 3 figure: per placement ID (top) and per handle (bottom),
    cumulative host bytes, cumulative GC bytes (GC copies of data written
    with the ID; copies out of units the handle filled) and the WAF share
    (host + GC bytes / all host bytes), stacked. A placement ID has its colour
    of every figure (figure.id_color); a handle holding exactly one ID
    (handles.handle_ids of `summary`, the run's summary.json) has that ID's
    colour, any other handle a grey; the fill's data of --precondition a
    grey, and ruh0, through which the fill was written, a grey too. Handles
    with no host write and no GC copy are left out. Returns (figure, CSV header, CSV rows: the rows drawn)."""
    ids, handles = _series(rows, "ids"), _series(rows, "handles")
    if not ids and not handles:
        raise InputError("id_timeseries.csv has no placement ID or handle rows")
    xmax = max(r["host_bytes"] for r in rows)
    xdiv, xunit = _scale(xmax)
    ymax = max(max(r["id_host_bytes"], r["id_gc_bytes"]) for r in rows)
    ydiv, yunit = _scale(ymax)
    fig, axes = new_figure(2, 3, width=14, height=7.6, sharex=True)
    ids_of = handle_ids(summary) if summary else {}
    filled = bool(summary and summary.get("precondition"))  # the fill went through ruh0
    # Handles that never wrote nor had data copied are left out.
    handles = {k: pts for k, pts in handles.items() if any(p[1] or p[2] for p in pts)}
    mixed = [h for h in handles if len(ids_of.get(h[2], [])) != 1 or (filled and h[2] == "ruh0")]
    grey_of = dict(zip(mixed, greys(len(mixed))))
    out = []
    for row_axes, series, kind in ((axes[0], ids, "ids"), (axes[1], handles, "handles")):
        host_ax, gc_ax, share_ax = row_axes
        xs_all = sorted({p[0] for pts in series.values() for p in pts})
        stack = {x: 0.0 for x in xs_all}
        for key, pts in series.items():
            if kind == "ids":
                color = PRECONDITION_COLOR if key[0] else id_color(key[1])
                label = _id_label(key)
            else:
                held = ids_of.get(key[2], [])
                grey = grey_of.get(key, "0.5")
                with_fill = filled and key[2] == "ruh0"
                color = grey if with_fill or not held else handle_color(held, grey)
                label = handle_legend(key[2], held) + (" + the fill" if with_fill else "")
            xs = [p[0] / xdiv for p in pts]
            host_ax.plot(xs, [p[1] / ydiv for p in pts], color=color, label=label)
            gc_ax.plot(xs, [p[2] / ydiv for p in pts], color=color, label=label)
            lower = [stack[p[0]] for p in pts]
            upper = [lo + p[3] for lo, p in zip(lower, pts)]
            share_ax.fill_between(xs, lower, upper, color=color, label=label, linewidth=0, step=None)
            for p, u in zip(pts, upper):
                stack[p[0]] = u
            for p in pts:
                name = key[2]
                out.append([p[0], "handle" if kind == "handles" else ("precondition" if key[0] else "pid"),
                            None if key[0] else key[1], name, p[1], p[2], p[3]])
        what = "placement ID" if kind == "ids" else "handle"
        host_ax.set_ylabel(f"host writes ({yunit})")
        gc_ax.set_ylabel(f"GC copies ({yunit})")
        share_ax.set_ylabel("WAF share, stacked (top: WAF)")
        host_ax.set_title(f"host writes per {what}", fontsize=10)
        gc_ax.set_title("GC copies of its data" if kind == "ids" else "GC copies out of its units", fontsize=10)
        share_ax.set_title(f"WAF share per {what}: (host + GC) / all host", fontsize=10)
        share_ax.legend(title=what, fontsize="small", title_fontsize="small", loc="upper left",
                        bbox_to_anchor=(1.02, 1.0))
        for ax in row_axes:
            ax.set_xlim(0, xmax / xdiv)
            ax.set_ylim(bottom=0)
            ax.grid(True, alpha=0.3)
    for ax in axes[1]:
        ax.set_xlabel(f"host writes, all IDs ({xunit})")
    fig.suptitle(title or default_title("host writes, GC copies and WAF share per placement ID and per handle",
                                        source), fontsize=11)
    return fig, CSV_HEADER, out


def plot_ids(rows, png_path, summary=None, title=None, source=None):
    """Draws draw_ids' figure and writes png_path and its CSV; returns the CSV rows."""
    fig, header, out = draw_ids(rows, summary=summary, title=title, source=source)
    save(fig, png_path, header, out)
    return out
