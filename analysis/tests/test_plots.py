"""Each figure function on small hand-written fixtures: a non-empty PNG, and
a CSV beside it holding exactly the numbers of the fixture (or numbers
computed by hand from them)."""
import pytest
from conftest import assert_png, fixture, read_csv

from ftlsim_analysis.errors import InputError
from ftlsim_analysis.handles import plot_handles
from ftlsim_analysis.latency import infer_interval_ns, plot_events, plot_latency_cdf
from ftlsim_analysis.qd import knee_qd, plot_qd
from ftlsim_analysis.results import (read_events, read_latency_cdf, read_qd_sweep, read_summary, read_sweep,
                                     read_timeseries)
from ftlsim_analysis.sweep_plots import ordered_values, plot_sweep_heatmap, plot_sweep_lines
from ftlsim_analysis.waf import plot_waf


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
    assert read_csv(tmp_path / "m.csv")[0]["marker"] == "10"


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
    # 100 writes of 409,600 bytes in 1 ms: 100,000 per second, 409.6 MB/s.
    assert got[("host_write", 0)][2:5] == [100, pytest.approx(100000.0), pytest.approx(409.6)]
    assert got[("host_write", 1000000)][5:7] == [250000, 2400000]
    assert got[("host_read", 1000000)][2:] == [0, 0.0, 0.0, None, None]
    assert got[("gc_copy", 2000000)][2] == 0
    rows = plot_events(events, str(tmp_path / "f.png"), events=["host_write", "gc_copy"])
    assert {r[0] for r in rows} == {"host_write", "gc_copy"}
    csv_rows = read_csv(tmp_path / "f.csv")
    assert list(csv_rows[0]) == ["event", "interval_start_ns", "count", "rate_per_s", "mb_s", "lat_p50_ns",
                                 "lat_p99_ns"]
    with pytest.raises(InputError, match="--events host_trim"):
        plot_events(events, str(tmp_path / "f.png"), events=["host_trim"])
    # One interval: no length to infer, so counts per interval.
    one = [r for r in events if r["interval_start_ns"] == 0]
    rows = plot_events(one, str(tmp_path / "o.png"))
    assert [(r[0], r[2], r[3]) for r in rows] == [("host_write", 100, None), ("host_read", 50, None)]


def test_plot_qd(tmp_path):
    rows, knee = read_qd_sweep(fixture("qd", "qd_sweep.csv"))
    assert knee == 8
    # By hand: max QPS 65,000; 90% is 58,500; the first QD reaching it is 8 (60,000).
    assert knee_qd(rows) == 8
    other, none = read_qd_sweep(fixture("qd_noknee", "qd_sweep.csv"))
    assert none is None
    assert knee_qd(other) == 4  # 18,000 = exactly 90% of 20,000 counts as reaching it
    out = plot_qd([("dev", rows, knee), ("all", other, None)], str(tmp_path / "q.png"))
    assert_png(tmp_path / "q.png")
    assert [(r[0], r[2]) for r in out if r[9] == 1] == [("dev", 8), ("all", 4)]
    assert [(r[2], r[3], r[8]) for r in out if r[0] == "dev"][:2] == [(1, 10000, 103000), (2, 19000, 120000)]
    csv_rows = read_csv(tmp_path / "q.csv")
    assert len(csv_rows) == 10 and csv_rows[3]["is_knee"] == "1" and csv_rows[3]["qd"] == "8"
