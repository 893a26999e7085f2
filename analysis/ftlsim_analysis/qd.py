"""plot_qd: QPS and latency percentiles against queue depth (from
`ftlsim qd-sweep`'s qd_sweep.csv), with the saturation knee marked."""
from .errors import InputError
from .figure import check_unique_labels, colors, new_figure, save

PERCENTILES = [("p50_ns", "p50", ":"), ("p95_ns", "p95", "-."), ("p99_ns", "p99", "--"), ("p99_9_ns", "p99.9", "-")]


def knee_qd(rows):
    """The smallest queue depth whose QPS reaches 90% of the largest QPS
    measured (the timed-mode contract's definition); None for no rows."""
    if not rows:
        return None
    best = max(r["qps"] for r in rows)
    return min(r["qd"] for r in rows if r["qps"] >= 0.9 * best)


def plot_qd(runs, png_path, title=None):
    """Draws QPS (left) and latency percentiles p50/p95/p99/p99.9 in
    microseconds (right, log scale) against queue depth (log2 scale), one
    series per run and op filter, the knee as a dashed line, and writes
    png_path and its CSV.

    runs: [(label, rows as read_qd_sweep returns them, knee_qd or None)];
    labels distinct. The knee is the given knee_qd when the run has one op
    filter and a knee, else knee_qd(rows) per op filter.
    CSV columns: run, ops, qd, qps, mb_s, p50_ns, p95_ns, p99_ns, p99_9_ns,
    is_knee (1 on the knee's row). Returns the CSV rows."""
    if not runs:
        raise InputError("no runs to plot")
    check_unique_labels([label for label, _, _ in runs])
    series = []
    for label, rows, knee in runs:
        ops_values = list(dict.fromkeys(r["ops"] for r in rows))
        if not ops_values:
            raise InputError(f"run {label}: qd_sweep.csv has no rows")
        for ops in ops_values:
            sub = sorted((r for r in rows if r["ops"] == ops), key=lambda r: r["qd"])
            qds = [r["qd"] for r in sub]
            if len(set(qds)) != len(qds):
                raise InputError(f"run {label}: queue depth listed twice for ops {ops}")
            k = knee if (knee is not None and len(ops_values) == 1) else knee_qd(sub)
            name = label if len(ops_values) == 1 else f"{label} ({ops})"
            series.append((label, ops, name, sub, k))
    fig, axes = new_figure(1, 2, width=11, height=4.2)
    left, right = axes[0]
    out = []
    for (label, ops, name, sub, k), color in zip(series, colors(len(series))):
        qds = [r["qd"] for r in sub]
        left.plot(qds, [r["qps"] for r in sub], marker="o", color=color, label=name)
        if k is not None:
            left.axvline(k, color=color, linestyle="--", linewidth=1)
            left.plot([], [], color=color, linestyle="--", linewidth=1, label=f"{name}: knee at QD {k}")
        for col, pname, style in PERCENTILES:
            right.plot(qds, [r[col] / 1e3 for r in sub], color=color, linestyle=style, marker=".",
                       label=f"{name} {pname}")
        for r in sub:
            out.append([label, ops, r["qd"], r["qps"], r["mb_s"], r["p50_ns"], r["p95_ns"], r["p99_ns"],
                        r["p99_9_ns"], 1 if r["qd"] == k else 0])
    for ax in (left, right):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("queue depth")
        ax.grid(True, which="both", alpha=0.3)
    left.set_ylabel("QPS (requests/s)")
    right.set_ylabel("latency (us)")
    right.set_yscale("log")
    left.legend(fontsize="small")
    right.legend(fontsize="x-small", ncol=2)
    left.set_title("throughput", fontsize=10)
    right.set_title("latency percentiles", fontsize=10)
    if title:
        fig.suptitle(title)
    save(fig, png_path, ["run", "ops", "qd", "qps", "mb_s", "p50_ns", "p95_ns", "p99_ns", "p99_9_ns", "is_knee"],
         out)
    return out
