"""Figures that cannot mislead (#26 item 7), checked on the figures
themselves: one colour per placement ID in every panel, units on the axes,
titles naming trace and device, onset labels in the axis' unit, the
queue-depth knee only where throughput flattens, n on latency figures,
requests and GC copies told apart, legends and colour bars clear."""
import copy

import matplotlib.pyplot as plt
import pytest
from conftest import fixture

from ftlsim_analysis import cli_plots
from ftlsim_analysis.figure import GIB, ID_COLORS, MIB, greys, id_color
from ftlsim_analysis.handles import draw_handles, handle_ids
from ftlsim_analysis.latency import draw_events, draw_latency_cdf
from ftlsim_analysis.qd import draw_qd, knee_qd
from ftlsim_analysis.results import (read_events, read_latency_cdf, read_qd_sweep, read_summary, read_sweep,
                                     read_timeseries)
from ftlsim_analysis.source import describe
from ftlsim_analysis.sweep_plots import draw_sweep_heatmap, option_axis
from ftlsim_analysis.waf import draw_waf


@pytest.fixture
def close_figures():
    yield
    plt.close("all")


def _summary(name):
    return read_summary(fixture(f"run_{name}", "summary.json"))


def _six_ids(placement, handles=8):
    """run_b's summary with the geth trace's five IDs (0-3, 5) under `placement`."""
    s = copy.deepcopy(_summary("b"))
    s["config"]["fdp"].update(placement=placement, handles=handles)
    sizes = {0: 1, 1: 4, 2: 3, 3: 24, 5: 1}
    s["host_bytes_by_placement_id"] = [{"pid": p, "name": f"t{p}", "bytes": b * (1 << 27)} for p, b in sizes.items()]
    s["host_bytes"] = sum(b * (1 << 27) for b in sizes.values())
    if placement == "single":
        s["handles"] = [{"name": "ruh0", "host_bytes": s["host_bytes"], "gc_out_bytes": 1 << 28}]
    else:
        s["handles"] = [{"name": f"ruh{h}", "host_bytes": sizes.get(h, 0) * (1 << 27), "gc_out_bytes": 1 << 26}
                        for h in range(handles)]
    return s


def _colours_by_gid(fig):
    out = {}
    for ax in fig.axes:
        for patch in ax.patches:
            if patch.get_gid():
                out.setdefault(patch.get_gid(), set()).add(patch.get_facecolor()[:3])
    return out


def _rgb(colour):
    import matplotlib.colors
    return matplotlib.colors.to_rgb(colour)


def test_a_placement_id_has_one_colour_in_both_panels_and_every_figure(close_figures):
    single, fdp = _six_ids("single"), _six_ids("fdp")
    # By the policies (docs/fdp.md): single writes every ID through ruh0, fdp ID i through ruh i.
    assert handle_ids(single) == {"ruh0": [0, 1, 2, 3, 5]}
    assert handle_ids(fdp) == {"ruh0": [0], "ruh1": [1], "ruh2": [2], "ruh3": [3], "ruh5": [5]}
    fig, _, _ = draw_handles([("single", single), ("fdp", fdp)])
    got = _colours_by_gid(fig)
    for pid in (0, 1, 2, 3, 5):
        left = got[f"pid {pid}"]
        assert len(left) == 1, f"ID {pid} drawn in {len(left)} colours on the left"
        # The handle holding only this ID, both of its parts, in the same colour.
        assert got[f"fdp ruh{pid} host"] == left == {_rgb(id_color(pid))}
        if f"fdp ruh{pid} GC copying" in got:
            assert got[f"fdp ruh{pid} GC copying"] == left
    # single's ruh0 holds all five IDs: not ID 0's colour, which would say it is ID 0.
    assert got["single ruh0 host"] != got["pid 0"]
    assert all(len(got[g]) == 1 for g in got)
    # The same ID in another figure (fdp alone, IDs listed in another order) keeps its colour.
    fdp2 = copy.deepcopy(fdp)
    fdp2["host_bytes_by_placement_id"].reverse()
    fig2, _, _ = draw_handles([("other", fdp2)])
    assert _colours_by_gid(fig2)["pid 5"] == got["pid 5"]
    # map: two IDs per handle -> greys, distinct from each other and from every ID colour.
    merged = _six_ids("map:0=0,1=0,2=1,3=1,5=2", handles=3)
    assert handle_ids(merged) == {"ruh0": [0, 1], "ruh1": [2, 3], "ruh2": [5]}
    fig3, _, _ = draw_handles([("m", merged)])
    g3 = _colours_by_gid(fig3)
    assert g3["m ruh2 host"] == {_rgb(id_color(5))}
    greys = [next(iter(g3[f"m ruh{h} host"])) for h in (0, 1)]
    assert greys[0] != greys[1] and not set(greys) & {_rgb(c) for c in ID_COLORS}
    legend = [t.get_text() for t in fig3.axes[1].get_legend().get_texts()]
    assert "ruh0: IDs 0, 1: host" in legend and "ruh2 = ID 5: host" in legend


def test_handles_without_an_id_each_get_a_grey_of_their_own(close_figures):
    oracle = _six_ids("oracle", handles=8)  # handles chosen by lifetime: no placement ID to colour them by
    assert handle_ids(oracle) == {}
    got = _colours_by_gid(draw_handles([("o", oracle)])[0])
    shades = [got[f"o ruh{h} host"] for h in range(8) if f"o ruh{h} host" in got]
    assert len(shades) == 5 and all(len(c) == 1 for c in shades)  # ruh 0-3 and 5 wrote bytes here
    shades = [next(iter(c)) for c in shades]
    assert len(set(shades)) == 5 and all(r == g == b for r, g, b in shades)  # distinct greys
    assert greys(9) and len(set(greys(9))) == 9


def test_fdp_ids_past_the_handles_go_to_ruh0():
    s = _six_ids("fdp", handles=4)  # ID 5 >= 4 handles: invalid, written through ruh0 (docs/fdp.md)
    assert handle_ids(s)["ruh0"] == [0, 5]
    # ConfFDP's format (docs/cli.md --pid-format): handle = ID & 0xff, an invalid handle to the last one.
    s["config"]["fdp"]["pid_format"] = "confdp"
    assert handle_ids(s) == {"ruh0": [0], "ruh1": [1], "ruh2": [2], "ruh3": [3, 5]}


def test_axis_labels_carry_units(close_figures):
    assert option_axis("gc-thres", ["50", "60"]) == ("--gc-thres (%)", ["50", "60"])
    assert option_axis("gc-thres-high", ["95"])[0] == "--gc-thres-high (%)"
    # Sizes in one binary unit, the largest that keeps every value >= 1.
    assert option_axis("ru-size", ["1M", "2M", "16M"]) == ("--ru-size (MiB)", ["1", "2", "16"])
    assert option_axis("ru-size", ["256K", "1M"]) == ("--ru-size (KiB)", ["256", "1024"])
    assert option_axis("logical", ["1G", "2G"]) == ("--logical (GiB)", ["1", "2"])
    assert option_axis("placement", ["single", "fdp"]) == ("--placement", ["single", "fdp"])
    s = read_sweep(fixture("sweep", "sweep.csv"))
    fig, _, _ = draw_sweep_heatmap(s, "ru-size", "gc-thres", change_vs="single")
    panels = [ax for ax in fig.axes if ax.images]
    assert {ax.get_xlabel() for ax in panels} == {"--ru-size (MiB)"}
    assert {ax.get_ylabel() for ax in panels} == {"--gc-thres (%)"}
    assert [t.get_text() for t in panels[0].get_xticklabels()] == ["16", "64"]
    fig, _, _ = draw_waf([("a", read_timeseries(fixture("run_a", "timeseries.csv")), None)])
    assert [ax.get_ylabel() for ax in fig.axes] == ["cumulative WAF\n(NAND writes / host writes)",
                                                    "interval WAF\n(NAND writes / host writes)"]
    assert fig.axes[1].get_xlabel() == "host writes (GiB)"
    rows, _ = read_qd_sweep(fixture("qd", "qd_sweep.csv"))
    fig, _, _ = draw_qd([("dev", rows)])
    fig.canvas.draw()
    left, right = fig.axes[0], fig.axes[1]
    # QPS up to 65,000: thousands on the axis, and no "1e4" factor in a corner.
    assert left.get_ylabel() == "QPS (thousand requests/s)" and left.yaxis.get_offset_text().get_text() == ""
    assert "65" in [t.get_text() for t in left.get_yticklabels()] or max(left.get_yticks()) >= 65000
    assert right.get_ylabel() == "latency (us)"
    assert left.get_xlabel() == right.get_xlabel() == "queue depth (requests in flight)"


def test_default_titles_name_the_trace_and_the_device(close_figures, monkeypatch):
    a = _summary("a")
    assert describe([a]) == "fixture.ftr on femu-default"
    full = copy.deepcopy(a)
    full["config"]["geometry"] = {"logical_bytes": 512 * 1 << 20, "physical_bytes": 784 * 1 << 20}
    full["config"]["gc"] = {"thres_pcent": 60}
    full["trace"] = "traces/geth-ethstate.ftr"
    assert describe([full, full]) == ("geth-ethstate.ftr on femu-default: 512 MiB logical, 784 MiB physical; "
                                      "GC threshold 60%")
    assert describe([full, None]).endswith("(some runs: not recorded)")
    assert describe([None]) == "trace and device not recorded"
    # Two devices are named; from three on (a sweep of --gc-thres under
    # --sizing thres), the capacities' ranges, so the title stays one line.
    sized = []
    for physical_mib in (848, 1024, 568, 848):
        s = copy.deepcopy(full)
        s["config"]["geometry"]["physical_bytes"] = physical_mib << 20
        sized.append(s)
    assert describe(sized[:2]) == ("geth-ethstate.ftr on femu-default: 512 MiB logical, 848 MiB physical / "
                                   "femu-default: 512 MiB logical, 1 GiB physical; GC threshold 60%")
    assert describe(sized) == ("geth-ethstate.ftr on femu-default: 512 MiB logical, 568 MiB to 1 GiB physical "
                               "(3 devices); GC threshold 60%")
    fig, _, _ = draw_handles([("a", a), ("b", _summary("b"))])
    assert fig._suptitle.get_text() == "Where the bytes went\nfixture.ftr on femu-default"
    # The command lines pass the runs' summary.json to the figure.
    seen = {}
    monkeypatch.setattr(cli_plots, "plot_waf", lambda runs, png, **kw: seen.update(kw))
    cli_plots.waf_main(["a=" + fixture("run_a"), "-o", "x.png"])
    assert seen["source"] == "fixture.ftr on femu-default" and seen["title"] is None
    events = read_events(fixture("timed", "events.csv"))
    fig, _, _ = draw_events(events, source="t.ftr on dev")
    assert fig.axes[0].get_title() == "events/s, MiB/s and latency in 1 ms intervals\nt.ftr on dev"
    # qd_sweep.json records neither: the title says so instead of naming nothing.
    rows, _ = read_qd_sweep(fixture("qd", "qd_sweep.csv"))
    fig, _, _ = draw_qd([("dev", rows)])
    assert "not recorded" in fig._suptitle.get_text()


def test_onset_labels_in_the_axis_unit(close_figures):
    series = read_timeseries(fixture("run_a", "timeseries.csv"))
    # Onset at 512 MiB on an axis in GiB: labelled 0.5 GiB, not 512 MiB.
    fig, _, _ = draw_waf([("a", series, {"host_bytes": 512 * int(MIB), "trace_time_ns": 1, "marker": None})])
    assert [t.get_text() for t in fig.axes[0].texts] == ["a: 0.5 GiB"]
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "a: GC onset at 0.5 GiB" in legend
    # After the last marker the panel is in MiB (rows 1 and 2 GiB past it would make it GiB):
    # an onset there is labelled in that panel's unit.
    tail = read_timeseries(fixture("run_tail", "timeseries.csv"))
    fig, _, _ = draw_waf([("y", tail, {"host_bytes": int(5.5 * GIB), "trace_time_ns": 1, "marker": 30})],
                         x="marker")
    assert "(GiB)" in fig.axes[3].get_xlabel()
    assert [t.get_text() for t in fig.axes[1].texts] == ["y: +0.5 GiB"]


def _curve(points):
    return [{"qd": q, "qps": v} for q, v in points]


def test_knee_only_where_throughput_flattens():
    # Still doubling at the deepest queue: no knee (the old rule marked 64's neighbour).
    assert knee_qd(_curve([(q, 1000 * q) for q in (1, 2, 4, 8, 16, 32, 64)])) is None
    # Saturating: best 100, 95% = 95, first reached at 16 (96); 32 >= 2 x 16 was swept.
    assert knee_qd(_curve([(1, 10), (2, 20), (4, 40), (8, 80), (16, 96), (32, 99), (64, 100)])) == 16
    # 95% first reached at the last QD: nothing past it shows a flat curve.
    assert knee_qd(_curve([(1, 10), (2, 20), (4, 40), (8, 80), (16, 100)])) is None
    # Reached at 8, but the deepest queue is 12 < 16: too close to tell.
    assert knee_qd(_curve([(1, 10), (2, 20), (4, 40), (8, 96), (12, 100)])) is None
    # Throughput falling past a peak: the knee is the peak's QD.
    assert knee_qd(_curve([(1, 50), (2, 100), (4, 90), (8, 70)])) == 2
    # 94.9% is not 95%.
    assert knee_qd(_curve([(1, 949), (2, 1000), (4, 1000)])) == 2
    assert knee_qd(_curve([(1, 950), (2, 1000)])) == 1
    assert knee_qd(_curve([(4, 100)])) is None and knee_qd([]) is None


def test_latency_figures_state_n(close_figures):
    cdf = read_latency_cdf(fixture("timed", "latency_cdf.csv"))
    fig, _, _ = draw_latency_cdf([("x", cdf), ("y", cdf)], counts={"x": {"read": 1200, "write": 35}})
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend == ["x: read (n = 1,200)", "x: write (n = 35)", "y: read (n not recorded)",
                      "y: write (n not recorded)"]
    rows, _ = read_qd_sweep(fixture("qd", "qd_sweep.csv"))
    fig, _, _ = draw_qd([("dev", rows)])
    assert fig.axes[1].get_legend().get_title().get_text() == "dev, n = 1,000 per QD"


def test_requests_and_gc_copies_do_not_share_an_axis_unsaid(close_figures):
    events = read_events(fixture("timed", "events.csv"))
    fig, _, _ = draw_events(events, events=["host_write", "gc_copy"])
    top = fig.axes[0]
    assert "mixed units" in top.get_ylabel()
    # n: the events of each kind in all, by hand from the fixture (100 + 80 + 40 writes, 20 copies).
    assert [t.get_text() for t in top.get_legend().get_texts()] == ["host_write: requests, n = 220",
                                                                    "gc_copy: 4 KiB copies, n = 20"]
    fig, _, _ = draw_events(events, events=["host_write", "host_read"])
    assert fig.axes[0].get_ylabel() == "requests\nper second"


def _line_points(fig):
    """Every drawn line vertex in display pixels."""
    pts = []
    for ax in fig.axes:
        for line in ax.get_lines():
            xy = line.get_xydata()
            if len(xy):
                pts += [tuple(p) for p in ax.transData.transform(xy)]
    return pts


def _assert_legends_clear(fig):
    fig.canvas.draw()
    points = _line_points(fig)
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + \
              [a for ax in fig.axes for a in ax.artists if a.__class__.__name__ == "Legend"]
    assert legends
    for legend in legends:
        box = legend.get_window_extent()
        inside = [p for p in points if box.x0 < p[0] < box.x1 and box.y0 < p[1] < box.y1]
        assert not inside, f"legend {[t.get_text() for t in legend.get_texts()][:2]} covers {inside[:3]}"


def test_legends_clear_of_data(close_figures):
    rows, _ = read_qd_sweep(fixture("qd", "qd_sweep.csv"))
    placement, _ = read_qd_sweep(fixture("qd_placement", "qd_sweep.csv"))
    _assert_legends_clear(draw_qd([("dev", rows)])[0])
    _assert_legends_clear(draw_qd([("geth", placement)])[0])
    cdf = read_latency_cdf(fixture("timed", "latency_cdf.csv"))
    _assert_legends_clear(draw_latency_cdf([("x", cdf), ("y", cdf)])[0])
    _assert_legends_clear(draw_latency_cdf([("x", cdf)], tail=True)[0])
    _assert_legends_clear(draw_events(read_events(fixture("timed", "events.csv")))[0])
    runs = [(n, read_timeseries(fixture(f"run_{n}", "timeseries.csv")), _summary(n)["gc_onset"]) for n in "ab"]
    _assert_legends_clear(draw_waf(runs)[0])
    _assert_legends_clear(draw_handles([("a", _summary("a")), ("b", _summary("b"))])[0])


def test_colour_bars_clear_of_the_next_panel(close_figures):
    s = read_sweep(fixture("sweep", "sweep.csv"))
    fig, _, _ = draw_sweep_heatmap(s, "ru-size", "gc-thres", change_vs="single")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    panels = [ax for ax in fig.axes if ax.images]
    bars = [ax for ax in fig.axes if not ax.images]
    assert len(panels) == len(bars) == 3
    for bar, nxt in zip(bars, panels[1:]):
        b, n = bar.get_tightbbox(renderer), nxt.get_tightbbox(renderer)  # labels and ticks included
        assert b.x1 < n.x0, f"colour bar ends at {b.x1:.0f} px, the next panel begins at {n.x0:.0f} px"


def test_an_op_has_one_colour_in_every_timed_figure(close_figures):
    cdf = read_latency_cdf(fixture("timed", "latency_cdf.csv"))
    events = read_events(fixture("timed", "events.csv"))
    by_cdf = {l.get_label().split()[0]: l.get_color() for l in draw_latency_cdf([("x", cdf)])[0].axes[0].get_lines()}
    # host_write listed first in one figure, second in the other: colour by kind, not position.
    for chosen in (["host_write", "host_read", "gc_copy"], ["gc_copy", "host_read", "host_write"]):
        top = draw_events(events, events=chosen)[0].axes[0]
        by_event = {l.get_label().split(":")[0]: l.get_color() for l in top.get_lines()}
        assert by_event["host_read"] == by_cdf["read"] and by_event["host_write"] == by_cdf["write"]
        assert len(set(by_event.values())) == 3


def test_the_cdf_command_reads_n_beside_the_file(tmp_path, monkeypatch):
    import json
    import shutil
    shutil.copy(fixture("timed", "latency_cdf.csv"), tmp_path / "latency_cdf.csv")
    summary = _summary("a")
    summary["timing"] = {"ops": {"read": {"count": 7}, "write": {"count": 9}}}
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    seen = {}
    monkeypatch.setattr(cli_plots, "plot_latency_cdf", lambda runs, png, **kw: seen.update(kw))
    cli_plots.latency_main(["cdf", f"t={tmp_path}", "-o", str(tmp_path / "c.png")])
    assert seen["counts"] == {"t": {"read": 7, "write": 9}} and seen["source"] == "fixture.ftr on femu-default"


def test_two_line_titles_clear_of_the_panels(close_figures):
    # The default title is two lines (what, then trace and device): it must not run into panel titles.
    s = read_sweep(fixture("sweep", "sweep.csv"))
    rows, _ = read_qd_sweep(fixture("qd", "qd_sweep.csv"))
    runs = [(n, read_timeseries(fixture(f"run_{n}", "timeseries.csv")), _summary(n)["gc_onset"]) for n in "ab"]
    for fig in (draw_handles([("a", _summary("a")), ("b", _summary("b"))])[0], draw_qd([("dev", rows)])[0],
                draw_sweep_heatmap(s, "ru-size", "gc-thres", change_vs="single")[0],
                draw_waf(runs, source="t.ftr on dev")[0]):
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        top = fig._suptitle.get_window_extent(renderer)
        assert "\n" in fig._suptitle.get_text()
        for ax in fig.axes:
            box = ax.get_tightbbox(renderer)  # the axes with its own title and labels
            assert box.y1 <= top.y0 + 1, f"{fig._suptitle.get_text()!r} overlaps a panel ({box.y1:.0f} > {top.y0:.0f})"


def test_a_sweep_figure_names_the_devices_of_the_rows_it_draws(tmp_path, close_figures):
    """The default title of a sweep figure describes the configurations drawn
    (those --where keeps), not every row of sweep.csv."""
    import json
    import shutil
    sweep_dir = tmp_path / "sw"
    shutil.copytree(fixture("sweep"), sweep_dir)
    base = _summary("a")
    for row in read_sweep(str(sweep_dir / "sweep.csv")).rows:
        s = copy.deepcopy(base)
        physical = (512 if "ru-size=16M" in row["config_id"] else 768) << 20
        s["config"]["geometry"] = {"logical_bytes": 256 << 20, "physical_bytes": physical}
        (sweep_dir / row["config_id"]).mkdir()
        (sweep_dir / row["config_id"] / "summary.json").write_text(json.dumps(s))
    sweep = read_sweep(str(sweep_dir / "sweep.csv"))
    fig, _, _ = draw_sweep_heatmap(sweep, "gc-thres", "placement", facet=None, where={"ru-size": "16M"})
    assert fig._suptitle.get_text().endswith("on femu-default: 256 MiB logical, 512 MiB physical")
    fig, _, _ = draw_sweep_heatmap(sweep, "gc-thres", "ru-size", facet="placement")
    assert fig._suptitle.get_text().endswith("768 MiB physical / femu-default: 256 MiB logical, 512 MiB physical")
