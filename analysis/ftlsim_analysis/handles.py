"""plot_handles: where the bytes went, per run. Left: host bytes per
placement ID (the trace's tags). Right: each handle's WAF share, split into
its host writes and the GC copying it causes, stacked so a bar's height is
the run's WAF."""
from .errors import InputError
from .figure import GIB, check_unique_labels, colors, new_figure, save


def handle_parts(summary):
    """[(handle name, host share, GC share)] of one summary.json: host share =
    host_bytes / all host bytes, GC share = gc_out_bytes / all host bytes (the
    copying out of RUs the handle filled). Their sum over handles is the WAF."""
    host = summary["host_bytes"]
    if host == 0:
        return [(h["name"], 0.0, 0.0) for h in summary["handles"]]
    return [(h["name"], h["host_bytes"] / host, h["gc_out_bytes"] / host) for h in summary["handles"]]


def plot_handles(runs, png_path, title=None):
    """Draws, for every run, a stacked bar of host bytes per placement ID and a
    stacked bar of WAF shares per handle (host part solid, GC part hatched), and
    writes png_path and its CSV.

    runs: [(label, summary.json as read_summary returns it)], labels distinct.
    CSV columns: run, group ("placement_id" or "handle"), name, host_bytes,
    gc_out_bytes (empty for placement IDs), host_share, gc_share (empty for
    placement IDs). Returns the CSV rows."""
    if not runs:
        raise InputError("no runs to plot")
    check_unique_labels([label for label, _ in runs])
    fig, axes = new_figure(1, 2, width=10, height=4.2)
    left, right = axes[0]
    rows = []
    labels = [label for label, _ in runs]

    pid_names = []  # stable colour per placement ID across runs
    for _, s in runs:
        for p in s["host_bytes_by_placement_id"]:
            key = (p["pid"], p.get("name", ""))
            if key not in pid_names:
                pid_names.append(key)
    pid_color = dict(zip(pid_names, colors(len(pid_names))))
    labelled = set()  # legend entries already made
    for i, (label, s) in enumerate(runs):
        bottom = 0.0
        for p in s["host_bytes_by_placement_id"]:
            key = (p["pid"], p.get("name", ""))
            v = p["bytes"] / GIB
            name = f"{p['pid']}" + (f" ({key[1]})" if key[1] else "")
            left.bar(i, v, bottom=bottom, color=pid_color[key], edgecolor="white",
                     label=None if key in labelled else name)
            labelled.add(key)
            bottom += v
            rows.append([label, "placement_id", name, p["bytes"], None, None, None])
    left.set_xticks(range(len(runs)))
    left.set_xticklabels(labels)
    left.set_ylabel("host writes (GiB)")
    left.set_title("host writes per placement ID", fontsize=10)
    left.legend(title="placement ID", fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=2)

    handle_names = []
    for _, s in runs:
        for h in s["handles"]:
            if h["name"] not in handle_names:
                handle_names.append(h["name"])
    handle_color = dict(zip(handle_names, colors(len(handle_names))))
    labelled = set()  # (handle, part) legend entries already made
    for i, (label, s) in enumerate(runs):
        bottom = 0.0
        by_name = {h["name"]: h for h in s["handles"]}
        for name, host_share, gc_share in handle_parts(s):
            c = handle_color[name]
            for part, share, style in (("host", host_share, {}),
                                       ("GC copying", gc_share, {"alpha": 0.5, "hatch": "//"})):
                if share <= 0:
                    continue
                right.bar(i, share, bottom=bottom, color=c, edgecolor="white",
                          label=None if (name, part) in labelled else f"{name} {part}", **style)
                labelled.add((name, part))
                bottom += share
            h = by_name[name]
            rows.append([label, "handle", name, h["host_bytes"], h["gc_out_bytes"], host_share, gc_share])
        right.text(i, bottom, f"WAF {s['waf']:.4f}", ha="center", va="bottom", fontsize=8)
    right.set_xticks(range(len(runs)))
    right.set_xticklabels(labels)
    right.set_ylabel("WAF share (bytes / host bytes)")
    right.set_title("WAF by handle: host writes + GC copying", fontsize=10)
    right.set_ylim(0, right.get_ylim()[1] * 1.08)  # room for the WAF labels
    right.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    if title:
        fig.suptitle(title)
    save(fig, png_path, ["run", "group", "name", "host_bytes", "gc_out_bytes", "host_share", "gc_share"], rows)
    return rows
