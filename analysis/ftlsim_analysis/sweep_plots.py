"""plot_sweep_lines and plot_sweep_heatmap: a metric of sweep.csv against one
swept option (one line per placement policy), or against two (a heatmap per
policy, optionally with the change against a reference policy)."""
import math
import re

import numpy as np

from .errors import InputError
from .figure import colors, new_figure, save
from .source import describe_sweep, title as default_title
from .values import SETTINGS

_SIZE = re.compile(r"^([0-9]+)([kKmMgGtTpP]?)(i?[bB])?$")
_SHIFT = {"": 0, "k": 10, "m": 20, "g": 30, "t": 40, "p": 50}
# What each sweep.csv result column measures, in which unit (axis and colour-bar labels).
METRIC_LABELS = {
    "waf": "WAF (NAND writes / host writes)",
    "host_bytes": "host writes (bytes)",
    "gc_bytes": "GC copying (bytes)",
    "erases": "NAND block erases (count)",
    "gc_onset_host_bytes": "GC onset: host writes before it (bytes)",
    "gc_onset_marker": "GC onset: last marker seen",
    "invalid_pid_requests": "writes with an invalid placement ID (count)",
    "ru_not_fully_written": "RUs closed before fully written (count)",
    "logical_bytes": "logical capacity (bytes)",
    "physical_bytes": "physical capacity (bytes)",
    "over_provisioning": "over-provisioning (physical / logical - 1)",
    "iops": "throughput (host requests/s)",
    "lat_mean_ns": "mean latency of host requests (us)",
    "lat_p50_ns": "p50 latency of host requests (us)",
    "lat_p99_ns": "p99 latency of host requests (us)",
    "lat_p99_9_ns": "p99.9 latency of host requests (us)",
}
# Columns drawn (and written to the figure's CSV) in another unit: the
# latencies in microseconds (a 2 ms p99 reads 2000, not 2e6 behind a factor).
_DRAWN_DIVISOR = {"lat_mean_ns": 1000, "lat_p50_ns": 1000, "lat_p99_ns": 1000, "lat_p99_9_ns": 1000}


def drawn_value(row, metric):
    """A sweep row's `metric` in the unit it is drawn in (None stays None)."""
    v = row[metric]
    return v if v is None or metric not in _DRAWN_DIVISOR else v / _DRAWN_DIVISOR[metric]


def drawn_column(metric):
    """The figure CSV's name of `metric`'s column: lat_p99_ns is drawn as lat_p99_us."""
    return metric[:-3] + "_us" if metric in _DRAWN_DIVISOR else metric
CELL_FONTSIZE = 9  # heatmap cell text, points
# The unit of each swept numeric option (ftlsim --help), for axis labels;
# size options (values.SETTINGS kind "size") are drawn in one binary unit.
OPTION_UNITS = {"gc-thres": "%", "gc-thres-high": "%", "op": "fraction, physical / logical - 1",
                "channels": "count", "luns": "per channel", "planes": "per LUN", "blocks": "per plane",
                "pages": "per block", "d-choices": "count", "rg": "reclaim groups", "ruh": "handles"}
_SIZE_UNITS = [(1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB"), (1, "bytes")]


def metric_label(metric):
    """The axis / colour-bar label of a sweep.csv column: what it measures and its unit."""
    if metric.startswith("waf_share_"):
        return f"WAF share of {metric[len('waf_share_'):]} (bytes / host bytes)"
    return METRIC_LABELS.get(metric, metric)


def metric_name(metric):
    """metric_label without its unit, for titles: "WAF", "GC copying"."""
    return metric_label(metric).split(" (")[0]


def option_axis(option, values):
    """(axis label, tick texts) of swept option `option` taking `values` (its
    texts, in order): the option and its unit, "--gc-thres (%)". Sizes
    ("1M", "256K") are shown in the largest binary unit that keeps every
    value at least 1 ("--ru-size (MiB)", ticks "0.25", "1", "16")."""
    keys = [value_key(v) for v in values]
    if values and dict(SETTINGS).get(option) == "size" and all(k is not None for k in keys):
        smallest = min(keys)
        scale, unit = next((f, u) for f, u in _SIZE_UNITS if smallest >= f or f == 1)
        return f"--{option} ({unit})", [f"{k / scale:g}" for k in keys]
    unit = OPTION_UNITS.get(option)
    return (f"--{option} ({unit})" if unit else f"--{option}"), list(values)


def value_key(text):
    """A number for ordering an option value: sizes (16M) in bytes, numbers as
    numbers; None for names (policies)."""
    m = _SIZE.match(text)
    if m:
        return int(m.group(1)) << _SHIFT[m.group(2).lower()]
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def ordered_values(texts):
    """Distinct values, numerically ordered if all are numbers or sizes, else
    in order of first appearance (the sweep's own order)."""
    distinct = list(dict.fromkeys(texts))
    keys = [value_key(t) for t in distinct]
    if all(k is not None for k in keys):
        return [t for _, t in sorted(zip(keys, distinct))]
    return distinct


def parse_where(items):
    """["ru-size=64M", ...] -> {"ru-size": "64M"}; InputError if malformed."""
    out = {}
    for item in items or []:
        name, eq, value = item.partition("=")
        if not eq or not name:
            raise InputError(f"--where {item}: expected OPTION=VALUE, e.g. ru-size=64M")
        out[name] = value
    return out


def default_x(sweep, named):
    """The x axis when --x is not given: the one swept option that no other
    argument names (`named`: --y, --group, --facet, --where's options), placement
    only if nothing else is left (placement otherwise draws the lines).
    InputError naming the choices when there are none or several."""
    left = [axis for axis in sweep.axes if axis not in named]
    if len(left) > 1 and "placement" in left:
        left.remove("placement")
    if len(left) == 1:
        return left[0]
    if not left:
        raise InputError(f"{sweep.path}: no swept option is left for the x axis (swept: "
                         f"{', '.join(sweep.axes) or 'none'}); give --x")
    raise InputError(f"{sweep.path}: several options vary ({', '.join(left)}): name the x axis with --x")


def _select(sweep, used, where, metric):
    """Rows matching `where`; checks that the options named exist and that
    every swept option not in `used` or `where` has one value left."""
    for name in list(used) + list(where):
        if name is not None and name not in sweep.axes:
            raise InputError(f"{sweep.path}: '{name}' is not a swept option (swept: {', '.join(sweep.axes) or 'none'})")
    columns = sweep.columns + [f"waf_share_{h}" for h in sweep.handles]
    if metric not in columns:
        raise InputError(f"--metric {metric}: not a column of {sweep.path} (choose from {', '.join(columns)})")
    if not sweep.rows:
        raise InputError(f"{sweep.path}: holds no configurations (only its header line): nothing to draw")
    rows = [r for r in sweep.rows if all(r["values"][k] == v for k, v in where.items())]
    if not rows:
        raise InputError(f"{sweep.path}: no row matches --where {' '.join(f'{k}={v}' for k, v in where.items())}")
    for axis in sweep.axes:
        if axis in used or axis in where:
            continue
        left = ordered_values([r["values"][axis] for r in rows])
        if len(left) > 1:
            raise InputError(f"{sweep.path}: '{axis}' also varies ({', '.join(left)}); fix it with --where "
                             f"{axis}=VALUE")
    return rows


def plot_sweep_lines(sweep, x, png_path, group="placement", metric="waf", where=None, title=None, source=None,
                     facet=None):
    """Draws `metric` against swept option `x`, one line per value of swept
    option `group` (one line if group is None or not swept), and with `facet`
    one panel per value of that swept option (side by side, one y scale), and
    writes png_path and its CSV. x values are evenly spaced, numerically
    ordered. Configurations that failed (error column) leave a gap.

    sweep: SweepResults (results.read_sweep). where: {option: value} fixing the
    other swept options; each swept option other than x, group and facet must
    be fixed or have one value. CSV columns: [<facet>,] <x>, <group or
    "group">, <metric>, error (the facet column only with a facet). Returns
    the CSV rows."""
    where = where or {}
    if group is not None and group not in sweep.axes:
        group = None
    if facet is not None and facet not in sweep.axes:
        facet = None
    if group == x:
        raise InputError(f"--group {group} is the x axis too")
    if facet is not None and facet in (x, group):
        raise InputError(f"--facet {facet} is the {'x axis' if facet == x else 'group'} too")
    rows = _select(sweep, [x, group, facet], where, metric)
    xs = ordered_values([r["values"][x] for r in rows])
    groups = ordered_values([r["values"][group] for r in rows]) if group else [None]
    facets = ordered_values([r["values"][facet] for r in rows]) if facet else [None]
    cell = {}
    for r in rows:
        cell[(r["values"][facet] if facet else None, r["values"][x], r["values"][group] if group else None)] = r
    fig, axes = new_figure(1, len(facets), width=7 if facet is None else 1.5 + 4.2 * len(facets), height=4,
                           sharey=True)
    out = []
    x_label, x_ticks = option_axis(x, xs)
    for ax, f in zip(axes[0], facets):
        for g, color in zip(groups, colors(len(groups))):
            ys = []
            for v in xs:
                r = cell.get((f, v, g))
                y = None if r is None else drawn_value(r, metric)
                ys.append(np.nan if y is None else y)
                if r is not None:
                    out.append(([f] if facet else []) + [v, g if g is not None else "", y, r["error"]])
            ax.plot(range(len(xs)), ys, marker="o", color=color, label=g if g is not None else metric)
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(x_ticks)
        ax.set_xlabel(x_label)
        ax.grid(True, alpha=0.3)
        if facet:
            ax.set_title(f"--{facet} {f}", fontsize=10)
    axes[0][0].set_ylabel(metric_label(metric))
    if group:
        axes[0][-1].legend(title=f"--{group}", fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fixed = ", ".join(f"{k}={v}" for k, v in where.items())
    what = f"{metric_name(metric)} against --{x}" + (f" ({fixed})" if fixed else "")
    text = title or default_title(what, describe_sweep(sweep, rows) if source is None else source)
    if facet:
        fig.suptitle(text, fontsize=11)
    else:
        axes[0][0].set_title(text, fontsize=10)
    save(fig, png_path, ([facet] if facet else []) + [x, group or "group", drawn_column(metric), "error"], out)
    return out


def _cell_text(v, change):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "err"
    if change:
        return f"{v:+.1f}%"
    if isinstance(v, float):
        if abs(v) < 100:
            return f"{v:.3f}"
        return f"{v:.0f}" if abs(v) < 1e7 else f"{v:.4g}"  # 17862 requests/s, not 1.786e+04
    return f"{v}"


def plot_sweep_heatmap(sweep, x, y, png_path, metric="waf", facet="placement", change_vs=None, where=None,
                       title=None, source=None):
    """Draws the figure of draw_sweep_heatmap (same arguments) and writes
    png_path and its CSV; returns the CSV rows."""
    fig, header, out = draw_sweep_heatmap(sweep, x, y, metric=metric, facet=facet, change_vs=change_vs,
                                          where=where, title=title, source=source)
    save(fig, png_path, header, out)
    return out


def draw_sweep_heatmap(sweep, x, y, metric="waf", facet="placement", change_vs=None, where=None, title=None,
                       source=None):
    """Draws `metric` over swept options x (columns) and y (rows) as a
    heatmap, one panel per value of swept option `facet` (one panel if facet
    is None or not swept), all on one colour scale, cell values written in
    CELL_FONTSIZE points, each colour bar labelled with the metric and its
    unit (metric_label). With change_vs (a value of facet), adds for every other facet
    value a panel of the change against it in percent: 100 (v - ref) / ref.
    Cells whose configuration failed, or which are missing, are marked "err".

    CSV columns: panel ("<facet>=<value>" or "change <value> vs <ref> (%)"),
    <y>, <x>, value, error. Returns (figure, CSV header, CSV rows)."""
    where = where or {}
    if facet is not None and facet not in sweep.axes:
        facet = None
    if len({x, y, facet} - {None}) != len([a for a in (x, y, facet) if a is not None]):
        raise InputError("--x, --y and --facet must name different options")
    rows = _select(sweep, [x, y, facet], where, metric)
    xs = ordered_values([r["values"][x] for r in rows])
    ys = ordered_values([r["values"][y] for r in rows])
    facets = ordered_values([r["values"][facet] for r in rows]) if facet else [None]
    if change_vs is not None and facet is None:
        raise InputError(f"--change-vs {change_vs}: there is no --facet to compare across (one panel); give "
                         "--facet with a swept option other than --x and --y")
    if change_vs is not None and change_vs not in facets:
        raise InputError(f"--change-vs {change_vs}: not a value of --{facet} ({', '.join(map(str, facets))})")
    cell = {(r["values"][facet] if facet else None, r["values"][y], r["values"][x]): r for r in rows}

    def grid(f):
        g = np.full((len(ys), len(xs)), np.nan)
        for i, vy in enumerate(ys):
            for j, vx in enumerate(xs):
                r = cell.get((f, vy, vx))
                if r is not None and r[metric] is not None:
                    g[i, j] = drawn_value(r, metric)
        return g

    panels = [(f"{facet}={f}" if facet else drawn_column(metric), grid(f), False, f) for f in facets]
    if change_vs is not None:
        ref = grid(change_vs)
        with np.errstate(divide="ignore", invalid="ignore"):
            for f in facets:
                if f != change_vs:
                    g = np.where(ref != 0, 100.0 * (grid(f) - ref) / ref, np.nan)
                    panels.append((f"change {f} vs {change_vs} (%)", g, True, f))
    absolute = np.concatenate([p[1].ravel() for p in panels if not p[2]])
    vmin = np.nanmin(absolute) if np.isfinite(absolute).any() else 0.0
    vmax = np.nanmax(absolute) if np.isfinite(absolute).any() else 1.0
    # Room for CELL_FONTSIZE text such as "+195.0%" in every cell.
    panel_w = max(4.6, 0.8 * len(xs) + 1.8)
    panel_h = max(4.0, 0.45 * len(ys) + 1.8)
    fig, axes = new_figure(1, len(panels), width=panel_w * len(panels), height=panel_h)
    out = []
    for ax, (name, g, change, f) in zip(axes[0], panels):
        if change:
            span = np.nanmax(np.abs(g)) if np.isfinite(g).any() else 1.0
            span = span if span > 0 else 1.0
            im = ax.imshow(g, cmap="RdBu_r", vmin=-span, vmax=span, aspect="auto", origin="lower")
        else:
            im = ax.imshow(g, cmap="viridis", vmin=vmin, vmax=vmax, aspect="auto", origin="lower")
        for i, vy in enumerate(ys):
            for j, vx in enumerate(xs):
                v = None if math.isnan(g[i, j]) else float(g[i, j])
                # Dark cells (strong colours, the low end of viridis) get white text.
                dark = v is not None and (abs(v) > 0.6 * span if change
                                          else vmax > vmin and (v - vmin) / (vmax - vmin) < 0.6)
                ax.text(j, i, _cell_text(v, change), ha="center", va="center", fontsize=CELL_FONTSIZE,
                        color="white" if dark else "black")
                sources = [cell.get((f, vy, vx))] + ([cell.get((change_vs, vy, vx))] if change else [])
                error = "; ".join("missing" if r is None else r["error"] for r in sources
                                  if r is None or r["error"])
                out.append([name, vy, vx, v, error])
        x_label, x_ticks = option_axis(x, xs)
        y_label, y_ticks = option_axis(y, ys)
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(x_ticks, fontsize=9)
        ax.set_yticks(range(len(ys)))
        ax.set_yticklabels(y_ticks, fontsize=9)
        ax.set_xlabel(x_label)
        ax.set_ylabel(y_label)
        ax.set_title(name, fontsize=10)
        bar = fig.colorbar(im, ax=ax, shrink=0.9)
        bar.set_label(f"change in {metric_name(metric)} vs {change_vs} (%)" if change else metric_label(metric))
    what = f"{metric_name(metric)} over --{y} x --{x}"
    fig.suptitle(title or default_title(what, describe_sweep(sweep, rows) if source is None else source), fontsize=11)
    return fig, ["panel", y, x, "value", "error"], out
