"""Each figure function on small hand-written fixtures: a non-empty PNG, and
a CSV beside it holding exactly the numbers of the fixture (or numbers
computed by hand from them)."""
import matplotlib.pyplot as plt
import pytest
from conftest import assert_png, fixture, read_csv

from ftlsim_analysis.errors import InputError
from ftlsim_analysis.handles import plot_handles
from ftlsim_analysis.figure import GIB
from ftlsim_analysis.latency import draw_events, fmt_duration, infer_interval_ns, plot_events, plot_latency_cdf
from ftlsim_analysis.qd import PERCENTILES, draw_qd, knee_qd, plot_qd
from ftlsim_analysis.results import (read_events, read_latency_cdf, read_qd_sweep, read_summary, read_sweep,
                                     read_timeseries)
from ftlsim_analysis.sweep_plots import (CELL_FONTSIZE, draw_sweep_heatmap, ordered_values, plot_sweep_heatmap,
                                         plot_sweep_lines)
from ftlsim_analysis.waf import draw_waf, plot_waf


def _waf_runs():
    return [(name, read_timeseries(fixture(f"run_{name}", "timeseries.csv")),
             read_summary(fixture(f"run_{name}", "summary.json"))["gc_onset"]) for name in ("a", "b")]


def test_plot_waf_host_bytes(tmp_path):
    png = tmp_path / "waf.png"
    plot_waf(_waf_runs(), str(png))
    assert_png(png)
    rows = read_csv(tmp_path / "waf.csv")
    assert list(rows[0]) == ["run", "kind", "host_bytes", "waf", "interval_waf"]
    points = [(r["run"], int(r["host_bytes"]), float(r["waf"]), float(r["interval_waf"]))
              for r in rows if r["kind"] == "point"]
    assert points == [("a", 1073741824, 1.0, 1.0), ("a", 2147483648, 1.0, 1.0), ("a", 3221225472, 1.1, 1.3),
                      ("a", 4294967296, 1.25, 1.7), ("b", 1073741824, 1.0, 1.0), ("b", 2147483648, 1.0, 1.0),
                      ("b", 3221225472, 1.05, 1.15), ("b", 4294967296, 1.1875, 1.6)]
    onsets = [(r["run"], int(r["host_bytes"])) for r in rows if r["kind"] == "gc_onset"]
    assert onsets == [("a", 2684354560), ("b", 2952790016)]  # summary.json gc_onset.host_bytes


def test_plot_waf_markers_leave_out_rows_without_one(tmp_path):
    rows = plot_waf(_waf_runs(), str(tmp_path / "m.png"), x="marker")
    assert_png(tmp_path / "m.png")
    assert [(r[0], r[2]) for r in rows if r[1] == "point"] == [("a", 10), ("a", 20), ("a", 30), ("b", 20), ("b", 30)]
    # a's onset came after marker 10; b's onset had no marker before it: no line.
    assert [(r[0], r[2]) for r in rows if r[1] == "gc_onset"] == [("a", 10)]
    csv_rows = read_csv(tmp_path / "m.csv")
    assert csv_rows[0]["marker"] == "10"
    assert list(csv_rows[0]) == ["run", "kind", "marker", "waf", "interval_waf", "host_bytes", "panel", "x_drawn"]
    # One row per marker here: every row is drawn at its own marker, no second panel.
    # a's onset (2.5 GiB, marker 10) lies half way from the row of 10 (2 GiB)
    # to the row of 20 (3 GiB), and before marker 11 at the latest: 10.5.
    assert [(r["kind"], r["panel"], r["x_drawn"]) for r in csv_rows] == [
        ("point", "markers", "10"), ("point", "markers", "20"), ("point", "markers", "30"),
        ("gc_onset", "markers", "10.5"), ("point", "markers", "20"), ("point", "markers", "30")]


def _onset_lines(fig):
    """{run: [onset Line2D, one per panel]} (plot_waf gives them the gid "gc_onset <run>")."""
    out = {}
    for ax in fig.axes:
        for line in ax.get_lines():
            if (line.get_gid() or "").startswith("gc_onset "):
                out.setdefault(line.get_gid()[len("gc_onset "):], []).append(line)
    return out


def test_plot_waf_overlapping_onsets_stay_apart():
    # Two runs with GC onset at the same host bytes: the lines coincide, so
    # they must differ in dash pattern, label position and legend text.
    (la, sa, oa), (_, sb, _) = _waf_runs()
    fig, _, _ = draw_waf([("a", sa, oa), ("b", sb, dict(oa))], x="host_bytes")
    try:
        lines = _onset_lines(fig)
        assert sorted(lines) == ["a", "b"] and all(len(v) == 2 for v in lines.values())  # top and bottom
        assert lines["a"][0].get_xdata()[0] == lines["b"][0].get_xdata()[0] == 2684354560 / GIB
        # Line2D keeps the dash pattern given as linestyle here (get_linestyle says only "--").
        assert lines["a"][0]._unscaled_dash_pattern != lines["b"][0]._unscaled_dash_pattern
        labels = {t.get_text(): t for t in fig.axes[0].texts}
        assert set(labels) == {"a: 2.5 GiB", "b: 2.5 GiB"}
        assert labels["a: 2.5 GiB"].xyann != labels["b: 2.5 GiB"].xyann  # stacked, not on top of each other
        legend = [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]
        assert "a: GC onset at 2.5 GiB" in legend and "b: GC onset at 2.5 GiB" in legend
    finally:
        plt.close(fig)


def _tail_series():
    return read_timeseries(fixture("run_tail", "timeseries.csv"))


def test_plot_waf_markers_rows_after_the_last_marker(tmp_path):
    series = _tail_series()
    # x: onset between the two rows of marker 10; y: onset after the last
    # marker's first row; z: onset at a marker no row shows.
    runs = [("x", series, {"host_bytes": int(3.5 * GIB), "trace_time_ns": 1, "marker": 10}),
            ("y", series, {"host_bytes": int(5.5 * GIB), "trace_time_ns": 1, "marker": 30}),
            ("z", series, {"host_bytes": int(4.5 * GIB), "trace_time_ns": 1, "marker": 25})]
    rows = plot_waf(runs, str(tmp_path / "t.png"), x="marker")
    assert_png(tmp_path / "t.png")
    points = [(r[5] // GIB, r[6], r[7]) for r in rows if r[0] == "x" and r[1] == "point"]
    # By hand: the 3 GiB row shares marker 10 with the 2 GiB row: it came after
    # marker 10 and before the next marker record, 11 at the lowest. It lies
    # half way (in host bytes) to the first row of marker 20: 10 + 0.5 = 10.5.
    # After the first row of the last marker (30, at 5 GiB), rows go to the
    # second panel at their host bytes past it: 1 GiB and 2 GiB.
    assert points == [(2, "markers", 10), (3, "markers", 10.5), (4, "markers", 20), (5, "markers", 30),
                      (6, "after_last_marker", GIB), (7, "after_last_marker", 2 * GIB)]
    for run in "xyz":  # no two points of a run share a position
        drawn = [(r[6], r[7]) for r in rows if r[0] == run and r[1] == "point"]
        assert len(set(drawn)) == len(drawn) == 6
    onsets = {r[0]: (r[2], r[5], r[6], r[7]) for r in rows if r[1] == "gc_onset"}
    # x: 10 + (3.5 - 2) / (4 - 2) = 10.75; y: 5.5 - 5 = 0.5 GiB past the last marker's row; z: at 25.
    assert onsets == {"x": (10, int(3.5 * GIB), "markers", 10.75),
                      "y": (30, int(5.5 * GIB), "after_last_marker", GIB // 2),
                      "z": (25, int(4.5 * GIB), "markers", 25)}
    csv_rows = read_csv(tmp_path / "t.csv")
    assert csv_rows[5]["panel"] == "after_last_marker" and csv_rows[5]["marker"] == "30"


def test_marker_axis_markers_that_fall_and_a_step_of_one():
    from ftlsim_analysis.waf import MarkerAxis

    def row(gib, marker):
        return {"host_bytes": gib * int(GIB), "marker": marker}
    # 7, 7, then 5 (markers that fall: the second 7 stays at 7), 5 (next
    # marker 6, one step: 5 + 0.5), 6 (the last marker's row), then two rows
    # after it (1 and 2 GiB past it).
    axis = MarkerAxis([row(1, 7), row(2, 7), row(3, 5), row(4, 5), row(5, 6), row(6, 6), row(7, 6)])
    assert [(p, x) for _, p, x in axis.rows()] == [("markers", 7), ("markers", 7), ("markers", 5),
                                                   ("markers", 5.5), ("markers", 6),
                                                   ("after_last_marker", int(GIB)),
                                                   ("after_last_marker", 2 * int(GIB))]
    assert axis.place(int(1.5 * GIB), None) is None


def test_plot_waf_markers_tail_panel_draws_distinct_x():
    series = _tail_series()
    fig, _, _ = draw_waf([("x", series, None)], x="marker")
    try:
        main_top, tail_top = fig.axes[0], fig.axes[1]
        assert list(main_top.get_lines()[0].get_xdata()) == [10, 10.5, 20, 30]
        # The tail panel starts at the last marker's row (0) and goes on in GiB.
        assert list(tail_top.get_lines()[0].get_xdata()) == [0, 1, 2]
        assert "(GiB)" in fig.axes[3].get_xlabel()
        assert "host writes" in main_top.get_xlabel() or "host writes" in fig.axes[2].get_xlabel()
    finally:
        plt.close(fig)


def test_plot_waf_rejects_bad_requests(tmp_path):
    with pytest.raises(InputError, match="--x"):
        plot_waf(_waf_runs(), str(tmp_path / "x.png"), x="blocks")
    with pytest.raises(InputError, match="labelled 'a'"):
        plot_waf(_waf_runs()[:1] * 2, str(tmp_path / "x.png"))
    with pytest.raises(InputError, match=".png"):
        plot_waf(_waf_runs(), str(tmp_path / "x.svg"))


def test_sweep_reader_and_value_order():
    s = read_sweep(fixture("sweep", "sweep.csv"))
    assert s.axes == ["gc-thres", "ru-size", "placement"]
    assert s.handles == ["ruh0", "ruh1", "gc"]
    assert len(s.rows) == 8
    bad = [r for r in s.rows if r["error"]]
    assert len(bad) == 1 and bad[0]["waf"] is None and "too few units, lower" in bad[0]["error"]
    # Sizes order by bytes, not as text or as listed (64M comes first in the file).
    assert ordered_values(["64M", "16M", "1G", "256K"]) == ["256K", "16M", "64M", "1G"]
    assert ordered_values(["single", "fdp"]) == ["single", "fdp"]


def test_plot_sweep_lines(tmp_path):
    s = read_sweep(fixture("sweep", "sweep.csv"))
    rows = plot_sweep_lines(s, "gc-thres", str(tmp_path / "l.png"), where={"ru-size": "64M"})
    assert_png(tmp_path / "l.png")
    assert [(r[0], r[1], r[2]) for r in rows] == [("90", "single", 1.5), ("95", "single", 1.25),
                                                  ("90", "fdp", 1.2), ("95", "fdp", None)]
    assert rows[3][3].startswith("invalid configuration")
    csv_rows = read_csv(tmp_path / "l.csv")
    assert list(csv_rows[0]) == ["gc-thres", "placement", "waf", "error"]
    assert csv_rows[3]["waf"] == ""
    # Another metric, by column name.
    rows = plot_sweep_lines(s, "ru-size", str(tmp_path / "e.png"), metric="erases", where={"gc-thres": "90"})
    assert [(r[0], r[1], r[2]) for r in rows] == [("16M", "single", 1664), ("64M", "single", 2048),
                                                  ("16M", "fdp", 320), ("64M", "fdp", 832)]


def test_plot_sweep_lines_in_panels_by_facet(tmp_path):
    """--facet in line plots: a panel per value of a third swept option, its
    rows those of the fixture (it used to be ignored, and the option then
    "also varies")."""
    s = read_sweep(fixture("sweep", "sweep.csv"))
    rows = plot_sweep_lines(s, "gc-thres", str(tmp_path / "f.png"), facet="ru-size")
    assert_png(tmp_path / "f.png")
    assert [tuple(r[:4]) for r in rows] == [
        ("16M", "90", "single", 1.4), ("16M", "95", "single", 1.25), ("16M", "90", "fdp", 1.05),
        ("16M", "95", "fdp", 1.0), ("64M", "90", "single", 1.5), ("64M", "95", "single", 1.25),
        ("64M", "90", "fdp", 1.2), ("64M", "95", "fdp", None)]
    assert list(read_csv(tmp_path / "f.csv")[0]) == ["ru-size", "gc-thres", "placement", "waf", "error"]
    with pytest.raises(InputError, match="--facet gc-thres is the x axis too"):
        plot_sweep_lines(s, "gc-thres", str(tmp_path / "f.png"), facet="gc-thres")
    with pytest.raises(InputError, match="--facet placement is the group too"):
        plot_sweep_lines(s, "gc-thres", str(tmp_path / "f.png"), facet="placement")


def test_plot_sweep_lines_needs_every_other_option_fixed(tmp_path):
    s = read_sweep(fixture("sweep", "sweep.csv"))
    with pytest.raises(InputError, match="'ru-size' also varies"):
        plot_sweep_lines(s, "gc-thres", str(tmp_path / "l.png"))
    with pytest.raises(InputError, match="not a swept option"):
        plot_sweep_lines(s, "victim", str(tmp_path / "l.png"))
    with pytest.raises(InputError, match="--metric"):
        plot_sweep_lines(s, "gc-thres", str(tmp_path / "l.png"), metric="speed", where={"ru-size": "64M"})


def test_plot_sweep_heatmap_with_change(tmp_path):
    s = read_sweep(fixture("sweep", "sweep.csv"))
    rows = plot_sweep_heatmap(s, "ru-size", "gc-thres", str(tmp_path / "h.png"), change_vs="single")
    assert_png(tmp_path / "h.png")
    cells = {(r[0], r[1], r[2]): r[3] for r in rows}
    assert cells[("placement=single", "90", "16M")] == 1.4
    assert cells[("placement=fdp", "90", "64M")] == 1.2
    assert cells[("placement=fdp", "95", "64M")] is None
    change = "change fdp vs single (%)"
    # By hand: 100 (1.2 - 1.5) / 1.5 = -20; 100 (1.05 - 1.4) / 1.4 = -25; 100 (1 - 1.25) / 1.25 = -20.
    assert cells[(change, "90", "64M")] == pytest.approx(-20.0)
    assert cells[(change, "90", "16M")] == pytest.approx(-25.0)
    assert cells[(change, "95", "16M")] == pytest.approx(-20.0)
    assert cells[(change, "95", "64M")] is None
    errors = {(r[0], r[1], r[2]): r[4] for r in rows}
    assert errors[(change, "95", "64M")].startswith("invalid configuration")
    assert len(rows) == 3 * 4
    with pytest.raises(InputError, match="--change-vs oracle"):
        plot_sweep_heatmap(s, "ru-size", "gc-thres", str(tmp_path / "h.png"), change_vs="oracle")


def test_heatmap_text_size_and_colour_bar_labels():
    s = read_sweep(fixture("sweep", "sweep.csv"))
    for metric, label in (("waf", "WAF (NAND writes / host writes)"), ("gc_bytes", "GC copying (bytes)")):
        fig, _, _ = draw_sweep_heatmap(s, "ru-size", "gc-thres", metric=metric, change_vs="single")
        try:
            panels = [ax for ax in fig.axes if ax.images]
            bars = [ax for ax in fig.axes if not ax.images]
            assert len(panels) == len(bars) == 3  # single, fdp, change; one colour bar each
            assert [b.get_ylabel() for b in bars] == [label, label,
                                                      f"change in {label.split(' (')[0]} vs single (%)"]
            cells = [t for ax in panels for t in ax.texts]
            assert len(cells) == 12 and {t.get_fontsize() for t in cells} == {CELL_FONTSIZE}
            assert CELL_FONTSIZE >= 9
        finally:
            plt.close(fig)


def test_plot_handles(tmp_path):
    runs = [(n, read_summary(fixture(f"run_{n}", "summary.json"))) for n in ("a", "b")]
    rows = plot_handles(runs, str(tmp_path / "h.png"))
    assert_png(tmp_path / "h.png")
    handles = {(r[0], r[2]): (r[5], r[6]) for r in rows if r[1] == "handle"}
    # By hand, over 4 GiB of host writes: ruh0 1 GiB + 0.5 GiB copied out, ruh1 3 GiB, gc 0.25 GiB copied out.
    assert handles[("b", "ruh0")] == (0.25, 0.125)
    assert handles[("b", "ruh1")] == (0.75, 0.0)
    assert handles[("b", "gc")] == (0.0, 0.0625)
    assert handles[("a", "ruh0")] == (1.0, 0.25)
    for label, s in runs:  # the stacked parts of a run sum to its WAF
        assert sum(h + g for (run, _), (h, g) in handles.items() if run == label) == s["waf"]
    pids = [(r[0], r[2], r[3]) for r in rows if r[1] == "placement_id"]
    assert pids == [("a", "0 (hot)", 1073741824), ("a", "1 (cold)", 3221225472),
                    ("b", "0 (hot)", 1073741824), ("b", "1 (cold)", 3221225472)]
    csv_rows = read_csv(tmp_path / "h.csv")
    assert len(csv_rows) == len(rows) and csv_rows[0]["gc_out_bytes"] == ""


def test_plot_latency_cdf(tmp_path):
    cdf = read_latency_cdf(fixture("timed", "latency_cdf.csv"))
    rows = plot_latency_cdf([("run", cdf)], str(tmp_path / "c.png"))
    assert_png(tmp_path / "c.png")
    assert [(r[1], r[2], r[3]) for r in rows] == [("read", 50000, 0.5), ("read", 60000, 0.9), ("read", 120000, 1),
                                                  ("write", 210000, 0.25), ("write", 400000, 0.99),
                                                  ("write", 2400000, 1)]
    rows = plot_latency_cdf([("x", cdf), ("y", cdf)], str(tmp_path / "t.png"), ops=["write"], tail=True)
    assert_png(tmp_path / "t.png")
    assert {r[1] for r in rows} == {"write"} and len(rows) == 6
    assert [r[4] for r in rows[:3]] == pytest.approx([0.75, 0.01, 0.0])
    with pytest.raises(InputError, match="--ops trim"):
        plot_latency_cdf([("run", cdf)], str(tmp_path / "c.png"), ops=["trim"])


def test_plot_events(tmp_path):
    events = read_events(fixture("timed", "events.csv"))
    assert infer_interval_ns(events) == 1000000
    rows = plot_events(events, str(tmp_path / "e.png"))
    assert_png(tmp_path / "e.png")
    got = {(r[0], r[1]): r for r in rows}
    # 4 intervals (0, 1, 2, 3 ms; the 2 ms one had no events) x 4 kinds.
    assert len(rows) == 16
    # 100 writes of 409,600 bytes in 1 ms: 100,000 per second, 409.6e6 / 2^20 = 390.625 MiB/s.
    assert got[("host_write", 0)][2:5] == [100, pytest.approx(100000.0), pytest.approx(390.625)]
    assert got[("host_write", 1000000)][5:7] == [250000, 2400000]
    assert got[("host_read", 1000000)][2:] == [0, 0.0, 0.0, None, None]
    assert got[("gc_copy", 2000000)][2] == 0
    rows = plot_events(events, str(tmp_path / "f.png"), events=["host_write", "gc_copy"])
    assert {r[0] for r in rows} == {"host_write", "gc_copy"}
    csv_rows = read_csv(tmp_path / "f.csv")
    assert list(csv_rows[0]) == ["event", "interval_start_ns", "count", "rate_per_s", "mib_per_s", "lat_p50_ns",
                                 "lat_p99_ns"]
    with pytest.raises(InputError, match="--events host_trim"):
        plot_events(events, str(tmp_path / "f.png"), events=["host_trim"])
    # One interval: no length to infer, so counts per interval.
    one = [r for r in events if r["interval_start_ns"] == 0]
    rows = plot_events(one, str(tmp_path / "o.png"))
    assert [(r[0], r[2], r[3]) for r in rows] == [("host_write", 100, None), ("host_read", 50, None)]


def test_events_title_and_axes_say_what_is_drawn():
    events = read_events(fixture("timed", "events.csv"))
    # events.csv holds counts and bytes per interval; the figure draws them
    # divided by the interval: per second, and the title names the interval.
    fig, _, rows = draw_events(events)
    try:
        top, middle = fig.axes[0], fig.axes[1]
        # The fixture mixes requests, 4 KiB GC copies and erases: the axis says so.
        assert top.get_ylabel() == "events (mixed units: see legend)\nper second" and middle.get_ylabel() == "MiB/s"
        assert top.get_title() == "events/s, MiB/s and latency in 1 ms intervals"
        # The top panel draws the CSV's rate_per_s, not its count; the last step ends with its interval (4 ms).
        host_write = next(l for l in top.get_lines() if l.get_label().startswith("host_write:"))
        assert list(host_write.get_ydata()[:-1]) == [r[3] for r in rows if r[0] == "host_write"]
        assert host_write.get_xdata()[-1] == pytest.approx(0.004)
    finally:
        plt.close(fig)
    fig, _, rows = draw_events([r for r in events if r["interval_start_ns"] == 0])
    try:  # one interval, length unknown: totals, and nothing says per second
        assert fig.axes[0].get_ylabel() == "requests\nin the interval"  # reads and writes only
        assert "/s" not in fig.axes[0].get_title() and "second" not in fig.axes[0].get_title()
        assert list(fig.axes[0].get_lines()[0].get_ydata()) == [100]
    finally:
        plt.close(fig)
    assert [fmt_duration(n) for n in (500, 1000000, 32000000, 1024000000)] == ["500 ns", "1 ms", "32 ms", "1.024 s"]


def test_plot_qd(tmp_path):
    rows, knee = read_qd_sweep(fixture("qd", "qd_sweep.csv"))
    assert knee == 8  # an old file's (ftlsim before #26 used a 90% rule): not the one drawn
    # By hand: max QPS 65,000; 95% is 61,750; the first QD reaching it is 16
    # (64,000), and 32 = 2 x 16 was swept: the knee is 16.
    assert knee_qd(rows) == 16
    other, none = read_qd_sweep(fixture("qd_noknee", "qd_sweep.csv"))
    assert none is None
    # 95% of 20,000 is 19,000: 18,000 at QD 4 falls short, 20,000 at 16 reaches it; 64 >= 32 was swept.
    assert knee_qd(other) == 16
    out = plot_qd([("dev", rows), ("all", other)], str(tmp_path / "q.png"))
    assert_png(tmp_path / "q.png")
    assert [(r[0], r[3]) for r in out if r[10] == 1] == [("dev", 16), ("all", 16)]
    assert [(r[3], r[4], r[9]) for r in out if r[0] == "dev"][:2] == [(1, 10000, 103000), (2, 19000, 120000)]
    csv_rows = read_csv(tmp_path / "q.csv")
    assert len(csv_rows) == 10 and csv_rows[4]["is_knee"] == "1" and csv_rows[4]["qd"] == "16"
    assert csv_rows[0]["placement"] == ""  # the old CSV has no placement column


def _latency_lines(fig):
    return [l for l in fig.axes[1].get_lines() if not l.get_label().startswith("_")]


def test_plot_qd_one_series_has_a_colour_per_percentile():
    rows, knee = read_qd_sweep(fixture("qd", "qd_sweep.csv"))
    fig, _, _ = draw_qd([("dev", rows)])
    try:
        lines = _latency_lines(fig)
        assert [l.get_label() for l in lines] == [p for _, p, _, _ in PERCENTILES]
        assert len({l.get_color() for l in lines}) == 4 and len({l.get_linestyle() for l in lines}) == 4
        assert list(lines[3].get_ydata()) == [103.0, 120.0, 150.0, 200.0, 400.0, 800.0]  # p99.9 in us
    finally:
        plt.close(fig)


def test_plot_qd_with_a_placement_column(tmp_path):
    rows, knee = read_qd_sweep(fixture("qd_placement", "qd_sweep.csv"))
    # qd_sweep.json beside it is not read for the knee: one per placement, from the rows.
    assert knee is None and {r["placement"] for r in rows} == {"single", "fdp"}
    # By hand: single's best 52,000 -> 95% 49,400, first reached at QD 4
    # (50,000), and QD 8 was swept: knee 4. fdp's best 60,000 -> 57,000, first
    # reached at QD 8, the last swept: still rising, no knee.
    out = plot_qd([("geth", rows)], str(tmp_path / "p.png"))
    assert_png(tmp_path / "p.png")
    assert [(r[1], r[3]) for r in out if r[10] == 1] == [("single", 4)]
    assert [(r[1], r[3], r[4]) for r in out][:2] == [("single", 1, 10000), ("single", 2, 30000)]
    csv_rows = read_csv(tmp_path / "p.csv")
    assert list(csv_rows[0])[:3] == ["run", "placement", "ops"] and csv_rows[4]["placement"] == "fdp"
    fig, _, _ = draw_qd([("geth", rows)])
    try:
        lines = _latency_lines(fig)
        # One line per placement x percentile; colour = placement, style = percentile.
        assert len(lines) == 8
        assert len({(l.get_color(), l.get_linestyle()) for l in lines}) == 8
        by_placement = {}
        for l in lines:
            by_placement.setdefault(l.get_label().split()[0], set()).add(l.get_color())
        assert set(by_placement) == {"single", "fdp"} and all(len(c) == 1 for c in by_placement.values())
        assert by_placement["single"] != by_placement["fdp"]
        fdp_p99 = next(l for l in lines if l.get_label() == "fdp p99")
        assert list(fdp_p99.get_ydata()) == [110.0, 115.0, 140.0, 270.0]
        qps = [l for l in fig.axes[0].get_lines() if l.get_label() in ("single", "fdp")]
        assert len(qps) == 2
        knees = [t.get_text() for t in fig.axes[0].get_legend().get_texts() if "knee" in t.get_text()]
        assert knees == ["single: knee at QD 4", "fdp: no knee, QPS still rising at QD 8"]
    finally:
        plt.close(fig)
    # Two runs with placements: the run label joins the name.
    out = plot_qd([("a", rows), ("b", rows)], str(tmp_path / "two.png"))
    assert len(out) == 16 and {(r[0], r[1]) for r in out} == {(a, p) for a in "ab" for p in ("single", "fdp")}


def test_plot_qd_title_names_the_trace_and_device_from_qd_sweep_json(tmp_path):
    import json
    import shutil
    from ftlsim_analysis.source import describe, qd_sweep_source
    # An old qd_sweep.json (no trace, no config): no source, the title says so.
    assert qd_sweep_source(fixture("qd", "qd_sweep.csv")) is None
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(fixture("qd", "qd_sweep.csv"), run / "qd_sweep.csv")
    (run / "qd_sweep.json").write_text(json.dumps({
        "trace": "traces/geth-ethstate.ftr", "rows": [], "knee_qd": 16,
        "config": {"preset": "femu-eth-512m", "geometry": {"logical_bytes": 512 << 20, "physical_bytes": 784 << 20},
                   "gc": {"thres_pcent": 60}}}))
    src = qd_sweep_source(str(run / "qd_sweep.csv"))
    assert describe([src]) == "geth-ethstate.ftr on femu-eth-512m: 512 MiB logical, 784 MiB physical; GC threshold 60%"
    from ftlsim_analysis.cli_plots import qd_main
    import matplotlib.pyplot as plt
    seen = {}
    real = plt.Figure.savefig

    def spy(fig, *args, **kwargs):
        seen["title"] = fig._suptitle.get_text()
        return real(fig, *args, **kwargs)

    plt.Figure.savefig = spy
    try:
        qd_main([str(run), "-o", str(tmp_path / "q.png")])
    finally:
        plt.Figure.savefig = real
    assert seen["title"].endswith("\ngeth-ethstate.ftr on femu-eth-512m: 512 MiB logical, 784 MiB physical; "
                                  "GC threshold 60%")


def test_plot_ids_hand_built(tmp_path):
    import json
    from ftlsim_analysis.figure import id_color
    from ftlsim_analysis.ids import draw_ids, plot_ids
    from ftlsim_analysis.results import read_id_timeseries
    rows = read_id_timeseries(fixture("run_ids", "id_timeseries.csv"))
    with open(fixture("run_ids", "summary.json")) as f:
        summary = json.load(f)
    fig, header, out = draw_ids(rows, summary=summary)
    try:
        ids_share, handles_share = fig.axes[2], fig.axes[5]
        # Stacked shares: the top at 2 MiB is 0.625 + 0.5 = 1.125, the WAF there (hand sum).
        for ax in (ids_share, handles_share):
            tops = [max(p.get_paths()[0].vertices[:, 1]) for p in ax.collections]
            assert max(tops) == pytest.approx(1.125)
            assert ax.get_xlim() == (0, 2)  # MiB: 2 MiB of host writes
        assert ids_share.get_xlabel() == "" and fig.axes[5].get_xlabel() == "host writes, all IDs (MiB)"
        # One colour per ID: ID 1's lines and ruh1 (which holds only ID 1) in ID 1's colour.
        assert fig.axes[0].get_lines()[0].get_color() == id_color(1)
        assert fig.axes[3].get_lines()[0].get_color() == id_color(1)
        labels = [t.get_text() for t in handles_share.get_legend().get_texts()]
        assert labels == ["ruh1 = ID 1", "ruh2 = ID 2"]  # ruh0 wrote nothing: left out
        assert fig.axes[0].get_ylabel() == "host writes (MiB)"
    finally:
        import matplotlib.pyplot as plt
        plt.close(fig)
    out = plot_ids(rows, str(tmp_path / "i.png"), summary=summary)
    assert_png(tmp_path / "i.png")
    assert [r[:3] for r in out[:2]] == [[1048576, "pid", 1], [2097152, "pid", 1]]
    assert len(read_csv(tmp_path / "i.csv")) == 8


def test_read_id_timeseries_refuses_a_bad_kind(tmp_path):
    from ftlsim_analysis.errors import InputError
    from ftlsim_analysis.results import read_id_timeseries
    bad = tmp_path / "id_timeseries.csv"
    bad.write_text("host_bytes,kind,id,name,id_host_bytes,id_gc_bytes,waf_share\n1,stream,0,,1,0,1\n")
    with pytest.raises(InputError, match="kind 'stream' is not pid, precondition or handle"):
        read_id_timeseries(str(bad))


def test_a_timed_sweep_draws_its_throughput_and_latency_columns(tmp_path):
    """sweep.csv of `--timing` has iops and lat_*_ns columns: each is a
    metric; latencies are drawn (and written to the figure's CSV) in
    microseconds, throughput in whole requests per second (they were refused
    as "not a column")."""
    header = ("config_id,qd,placement,waf,host_bytes,gc_bytes,erases,gc_onset_host_bytes,gc_onset_marker,"
              "invalid_pid_requests,ru_not_fully_written,iops,lat_mean_ns,lat_p50_ns,lat_p99_ns,lat_p99_9_ns,"
              "waf_share_ruh0,error,status,config_key\n")
    rows = [("1", "single", "4871.0", "200703", "2047999"), ("4", "single", "18025.4", "843775", "2375679"),
            ("1", "fdp", "4882.0", "200703", "2080767"), ("4", "fdp", "17862.0", "802815", "2572287")]
    text = header + "".join(f"qd={qd}_placement={p},{qd},{p},1.4,100,40,8,50,,0,0,{iops},1,2,{p99},{p999},1.4,,done,"
                            f"{i:016x}\n" for i, (qd, p, iops, p99, p999) in enumerate(rows))
    path = tmp_path / "sweep.csv"
    path.write_text(text)
    s = read_sweep(str(path))
    assert {"iops", "lat_p99_ns", "lat_p99_9_ns"} <= set(s.columns)
    out = plot_sweep_lines(s, "qd", str(tmp_path / "l.png"), metric="lat_p99_ns")
    assert [row[2] for row in out] == [200.703, 843.775, 200.703, 802.815]
    assert list(read_csv(tmp_path / "l.csv")[0]) == ["qd", "placement", "lat_p99_us", "error"]
    fig, header, out = draw_sweep_heatmap(s, "qd", "placement", metric="iops", facet=None)
    assert header == ["panel", "placement", "qd", "value", "error"]
    assert sorted(row[3] for row in out) == [4871.0, 4882.0, 17862.0, 18025.4]
    texts = {t.get_text() for ax in fig.axes for t in ax.texts}
    assert {"4871", "18025", "17862"} <= texts
    fig, _, out = draw_sweep_heatmap(s, "qd", "placement", metric="lat_p99_9_ns", facet=None)
    assert out[0][0] == "lat_p99_9_us" and sorted(row[3] for row in out)[-1] == 2572.287
    # A sweep without --timing has none of them: refused, naming its columns.
    with pytest.raises(InputError, match="--metric iops: not a column of"):
        plot_sweep_lines(read_sweep(fixture("sweep", "sweep.csv")), "gc-thres", str(tmp_path / "x.png"), metric="iops",
                         where={"ru-size": "64M"})
