"""plot_handles: where the bytes went, per run. Left: host bytes per
placement ID (the trace's tags). Right: each handle's WAF share, split into
its host writes and the GC copying it causes, stacked so a bar's height is
the run's WAF."""
from .errors import InputError
from .figure import GIB, check_unique_labels, greys, id_color, new_figure, save
from .source import describe, title as default_title


def handle_ids(summary):
    """{handle name: sorted placement IDs written through it}, from the
    placement policy (config.fdp.placement) and the IDs the trace wrote:
    single -> every ID to ruh0; fdp -> ID i to ruhi, IDs >= the handle count to
    ruh0 (invalid, as ftlsim counts them), or with pid_format confdp ID i to
    ruh(i & 0xff), an invalid handle to the last; map:P=H,... -> as listed,
    unlisted to ruh0. Other policies (oracle, interval), map: under confdp
    and several RGs: {} (handles carry no ID, or the mapping is not known
    here)."""
    fdp = (summary.get("config") or {}).get("fdp") or {}
    policy, n = fdp.get("placement"), fdp.get("handles")
    pids = sorted(p["pid"] for p in summary["host_bytes_by_placement_id"])
    if policy is None or (fdp.get("reclaim_groups") or 1) != 1:
        return {}
    if policy == "single":
        return {"ruh0": pids}
    confdp = fdp.get("pid_format") == "confdp"  # ConfFDP: handle = ID & 0xff, an invalid one the last
    if policy == "fdp" and n:
        if confdp:
            target = {p: p & 0xFF if (p & 0xFF) < n else n - 1 for p in pids}
        else:
            target = {p: p if p < n else 0 for p in pids}
    elif policy.startswith("map:") and not confdp:
        listed = dict(item.split("=") for item in policy[4:].split(",") if "=" in item)
        target = {p: int(listed.get(str(p), 0)) for p in pids}
    else:
        return {}
    out = {}
    for p, h in target.items():
        out.setdefault(f"ruh{h}", []).append(p)
    return out


def handle_color(ids, grey):
    """A handle holding exactly one placement ID takes that ID's colour
    (figure.id_color); any other handle `grey`, a grey of its own."""
    return id_color(ids[0]) if len(ids) == 1 else grey


def handle_legend(name, ids):
    """'ruh3 = ID 3', 'ruh0: IDs 0-3, 5', 'ruh7' (no ID known)."""
    if len(ids) == 1:
        return f"{name} = ID {ids[0]}"
    if not ids:
        return name
    return f"{name}: IDs {', '.join(map(str, ids))}"


def handle_parts(summary):
    """[(handle name, host share, GC share)] of one summary.json: host share =
    host_bytes / all host bytes, GC share = gc_out_bytes / all host bytes (the
    copying out of RUs the handle filled). Their sum over handles is the WAF."""
    host = summary["host_bytes"]
    if host == 0:
        return [(h["name"], 0.0, 0.0) for h in summary["handles"]]
    return [(h["name"], h["host_bytes"] / host, h["gc_out_bytes"] / host) for h in summary["handles"]]


def plot_handles(runs, png_path, title=None, source=None):
    """plot_handles draws and writes the figure of draw_handles (same
    arguments); returns the CSV rows."""
    fig, header, rows = draw_handles(runs, title=title, source=source)
    save(fig, png_path, header, rows)
    return rows


def draw_handles(runs, title=None, source=None):
    """Draws, for every run, a stacked bar of host bytes per placement ID and a
    stacked bar of WAF shares per handle (host part solid, GC part hatched).
    A placement ID has one colour in both panels and every figure
    (figure.id_color); a handle holding exactly one ID (handle_ids) has that
    ID's colour, any other handle a grey. The default title names the trace
    and device (`source`; None: source.describe of the summaries). Returns (figure, CSV header, CSV
    rows).

    runs: [(label, summary.json as read_summary returns it)], labels distinct.
    CSV columns: run, group ("placement_id" or "handle"), name, host_bytes,
    gc_out_bytes (empty for placement IDs), host_share, gc_share (empty for
    placement IDs)."""
    if not runs:
        raise InputError("no runs to plot")
    check_unique_labels([label for label, _ in runs])
    fig, axes = new_figure(1, 2, width=10, height=4.2)
    left, right = axes[0]
    rows = []
    labels = [label for label, _ in runs]

    labelled = set()  # legend entries already made
    for i, (label, s) in enumerate(runs):
        bottom = 0.0
        for p in s["host_bytes_by_placement_id"]:
            key = (p["pid"], p.get("name", ""))
            v = p["bytes"] / GIB
            name = f"{p['pid']}" + (f" ({key[1]})" if key[1] else "")
            left.bar(i, v, bottom=bottom, color=id_color(p["pid"]), edgecolor="white", gid=f"pid {p['pid']}",
                     label=None if key in labelled else name)
            labelled.add(key)
            bottom += v
            rows.append([label, "placement_id", name, p["bytes"], None, None, None])
    left.set_xticks(range(len(runs)))
    left.set_xticklabels(labels)
    left.set_ylabel("host writes (GiB)")
    left.set_title("host writes per placement ID", fontsize=10)
    left.legend(title="placement ID", fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=2)

    # A handle's colour: its one placement ID's, else a grey of its own (per
    # name and IDs held, across runs: single's ruh0 is not fdp's ruh0).
    mixed = []
    for _, s in runs:
        ids_of = handle_ids(s)
        for h in s["handles"]:
            legend = handle_legend(h["name"], ids_of.get(h["name"], []))
            if len(ids_of.get(h["name"], [])) != 1 and legend not in mixed:
                mixed.append(legend)
    grey_of = dict(zip(mixed, greys(len(mixed))))
    labelled = set()  # (legend text, part) entries already made
    for i, (label, s) in enumerate(runs):
        bottom = 0.0
        by_name = {h["name"]: h for h in s["handles"]}
        ids_of = handle_ids(s)
        for name, host_share, gc_share in handle_parts(s):
            ids = ids_of.get(name, [])
            legend = handle_legend(name, ids)
            c = handle_color(ids, grey_of.get(legend))
            for part, share, style in (("host", host_share, {}),
                                       ("GC copying", gc_share, {"alpha": 0.5, "hatch": "//"})):
                if share <= 0:
                    continue
                right.bar(i, share, bottom=bottom, color=c, edgecolor="white", gid=f"{label} {name} {part}",
                          label=None if (legend, part) in labelled else f"{legend}: {part}", **style)
                labelled.add((legend, part))
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
    if source is None:
        source = describe([s for _, s in runs])
    fig.suptitle(title or default_title("Where the bytes went", source))
    return fig, ["run", "group", "name", "host_bytes", "gc_out_bytes", "host_share", "gc_share"], rows
