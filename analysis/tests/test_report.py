"""The report builds from a tiny trace; its numbers are those of separate,
direct ftlsim runs of the same configurations; building it again runs no
simulation (the cache), and --no-run without a cache refuses."""
import json
import os
import stat
import subprocess

import pytest
from conftest import DEVICE, assert_png, read_csv, run_script

from ftlsim_analysis.errors import run_main
from ftlsim_analysis.report import format_bytes
from ftlsim_analysis.report import main as report_main

GC_THRES = "90"
REPORT_OPTIONS = ["--device", " ".join(DEVICE), "--gc-thres", GC_THRES, "--waf-placements", "single,fdp",
                  "--sweep-placement", "single,fdp", "--sweep-gc-thres", "85,90,95", "--sweep-ru-size", "256K,1M,8M"]
FIGURES = ["waf_over_time", "waf_over_markers", "handles", "sweep_heatmap", "waf_vs_gc_thres", "waf_vs_ru_size",
           "latency_cdf", "events"]


@pytest.fixture(scope="module")
def built(tmp_path_factory, ftlsim, tiny_trace):
    """The report built once through a wrapper that logs every ftlsim call."""
    d = tmp_path_factory.mktemp("report")
    log = d / "calls.log"
    wrapper = d / "ftlsim-logged"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{ftlsim}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    out = d / "report"
    args = ["--trace", tiny_trace, "--out", out, "--ftlsim", wrapper, *REPORT_OPTIONS]
    first = run_script("report.py", *args, cwd=d)
    assert first.returncode == 0, first.stderr
    return {"dir": d, "out": out, "log": log, "args": args, "first": first}


def simulations(log):
    """ftlsim calls that simulate (not --version or info)."""
    lines = log.read_text().splitlines() if log.exists() else []
    return [c for c in lines if c != "--version" and not c.startswith("info ")]


def direct_summary(ftlsim, trace, tmp_path, placement):
    out = tmp_path / placement
    subprocess.run([ftlsim, "--trace", trace, *DEVICE, "--gc-thres", GC_THRES, "--placement", placement,
                    "--no-progress", "--out", str(out)], check=True, capture_output=True)
    with open(out / "summary.json") as f:
        return json.load(f)


def test_report_files(built):
    out = built["out"]
    assert (out / "index.html").stat().st_size > 1000
    for name in FIGURES:
        assert_png(out / "fig" / f"{name}.png")
        assert len(read_csv(out / "fig" / f"{name}.csv")) > 0
    # compare, WAF over time, the sweep, the two timed-mode runs
    assert len(simulations(built["log"])) == 5


def test_report_numbers_match_direct_runs(built, ftlsim, tiny_trace, tmp_path):
    a = direct_summary(ftlsim, tiny_trace, tmp_path, "single")
    b = direct_summary(ftlsim, tiny_trace, tmp_path, "fdp")
    table = {r["metric"]: r for r in read_csv(built["out"] / "study_table.csv")}
    for side, s in (("a", a), ("b", b)):
        assert float(table["waf"][side]) == pytest.approx(s["nand_pages"] / s["host_pages"], abs=5e-7)
        assert int(table["gc_bytes"][side]) == s["gc_pages"] * 4096
        assert int(table["erases"][side]) == s["erases"]
        assert int(table["host_bytes"][side]) == s["host_bytes"]
        assert int(table["gc_onset_host_bytes"][side]) == s["gc_onset"]["host_bytes"]
        assert int(table["gc_onset_marker"][side]) == s["gc_onset"]["marker"]
    assert float(table["waf"]["change_pct"]) == pytest.approx(100 * (b["waf"] - a["waf"]) / a["waf"], abs=1e-3)
    html = (built["out"] / "index.html").read_text()
    for s in (a, b):
        assert f"<td class=\"num\">{s['nand_pages'] / s['host_pages']:.4f}</td>" in html
        assert format_bytes(s["gc_pages"] * 4096) in html
    assert "DIFFERENT" not in html and "identical host pages" in html
    # The per-handle figure draws the direct run's handle bytes.
    handles = [r for r in read_csv(built["out"] / "fig" / "handles.csv")
               if r["run"] == "fdp" and r["group"] == "handle"]
    assert [(r["name"], int(r["host_bytes"]), int(r["gc_out_bytes"])) for r in handles] == [
        (h["name"], h["host_bytes"], h["gc_out_bytes"]) for h in b["handles"]]


def test_report_sweep_matches_direct_sweep(built, ftlsim, tiny_trace, tmp_path):
    direct = tmp_path / "sweep"
    proc = subprocess.run([ftlsim, "--trace", tiny_trace, *DEVICE, "--placement", "single,fdp", "--ru-size",
                           "256K,1M,8M", "--gc-thres", "85,90,95", "--no-progress", "--out", str(direct)],
                          capture_output=True, text=True)
    assert proc.returncode == 2  # the 8M RUs are impossible on this device
    expected = {(r["placement"], r["gc-thres"], r["ru-size"]): r for r in read_csv(direct / "sweep.csv")}
    cells = [r for r in read_csv(built["out"] / "fig" / "sweep_heatmap.csv") if r["panel"].startswith("placement=")]
    assert len(cells) == len(expected) == 18
    for c in cells:
        e = expected[(c["panel"][len("placement="):], c["gc-thres"], c["ru-size"])]
        assert c["value"] == "" if e["error"] else float(c["value"]) == float(e["waf"])
        assert c["error"] == e["error"]
    html = (built["out"] / "index.html").read_text()
    ok = expected[("single", "90", "1M")]
    assert f"{float(ok['waf']):.4f}" in html


def test_rebuild_uses_the_cache(built):
    before = len(simulations(built["log"]))
    again = run_script("report.py", *built["args"], cwd=built["dir"])
    assert again.returncode == 0, again.stderr
    assert len(simulations(built["log"])) == before  # nothing simulated
    assert again.stdout.count("cached ") == 5
    assert "5 of 5 runs from the cache" in (built["out"] / "index.html").read_text()


def test_no_run_without_cache_and_bad_input(built, tmp_path, capsys):
    """In this process (the script itself ran above): one line, exit 2."""
    def run(*args):
        code = run_main("report.py", report_main, [str(a) for a in args])
        return code, capsys.readouterr().err
    args = list(built["args"])
    args[args.index("--out") + 1] = tmp_path / "fresh"
    code, err = run(*args, "--no-run")
    assert code == 2 and "no cached result for compare" in err and err.count("\n") == 1, err
    assert not os.path.exists(tmp_path / "fresh" / "index.html")
    ftlsim = args[args.index("--ftlsim") + 1]
    code, err = run("--trace", tmp_path / "none.ftr", "--out", tmp_path / "r", "--ftlsim", ftlsim)
    assert code == 2 and "none.ftr: no such file" in err
    code, err = run("--trace", "x.ftr", "--sweep-gc-thres", "90")
    assert code == 2 and "needs at least two values" in err


def test_report_latency_matches_direct_timed_run(built, ftlsim, tiny_trace, tmp_path):
    out = tmp_path / "timed"
    subprocess.run([ftlsim, "--trace", tiny_trace, *DEVICE, "--gc-thres", GC_THRES, "--placement", "fdp", "--timing",
                    "--qd", "32", "--no-progress", "--out", str(out)], check=True, capture_output=True)
    with open(out / "summary.json") as f:
        write = json.load(f)["timing"]["ops"]["write"]
    html = (built["out"] / "index.html").read_text()
    assert f"<td class=\"num\">{write['count']}</td>" in html
    assert f"<td class=\"num\">{write['lat_ns']['p99'] / 1e3:.1f}</td>" in html
    drawn = [(int(r["latency_ns"]), float(r["cum_fraction"]))
             for r in read_csv(built["out"] / "fig" / "latency_cdf.csv") if r["run"] == "fdp" and r["op"] == "write"]
    direct = [(int(r["latency_ns"]), float(r["cum_fraction"])) for r in read_csv(out / "latency_cdf.csv")
              if r["op"] == "write"]
    assert drawn == direct and len(direct) > 3


def test_rebuild_keeps_what_the_report_did_not_write(built):
    """Issue #22 (D7): in its own folder the report replaces only the files
    its manifest proves: a user's file beside them stays, and a page edited
    since the last build is refused, not overwritten (last: it leaves the
    folder refused)."""
    out = built["out"]
    (out / "fig" / "notes.txt").write_text("mine\n")
    again = run_script("report.py", *built["args"], cwd=built["dir"])
    assert again.returncode == 0, again.stderr
    assert (out / "fig" / "notes.txt").read_text() == "mine\n"
    with open(out / "index.html", "a") as f:
        f.write("<!-- my notes -->\n")
    edited = (out / "index.html").read_text()
    refused = run_script("report.py", *built["args"], cwd=built["dir"])
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "index.html: already exists and was not written by this tool" in refused.stderr
    assert (out / "index.html").read_text() == edited


def test_report_and_latency_figures_of_a_trace_with_no_device_time(ftlsim, tmp_path):
    """A trace whose requests take no device time (here none) has no
    latencies: the report is still built whole and says so (it stopped after
    five figures, without index.html), and plot_latency names the file."""
    trace = tmp_path / "empty.ftr"
    subprocess.run([ftlsim, "gen", "--pattern", "seq", "--logical", "16M", "--writes", "0", "-o", str(trace)],
                   check=True, capture_output=True)
    out = tmp_path / "report"
    r = run_script("report.py", "--trace", trace, "--out", out, "--ftlsim", ftlsim, *REPORT_OPTIONS, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    page = (out / "index.html").read_text()
    assert "No request took device time" in page
    assert not (out / "fig" / "latency_cdf.png").exists()
    timed = [p for p in (out / "runs").iterdir() if p.name.startswith("timed-a-")]
    assert len(timed) == 1
    run_out = timed[0] / "out"
    cdf = run_script("plot_latency.py", "cdf", run_out, "-o", tmp_path / "a.png")
    assert cdf.returncode == 2
    assert cdf.stderr.count("\n") == 1
    assert f"{run_out}/latency_cdf.csv: no latencies" in cdf.stderr
    events = run_script("plot_latency.py", "events", run_out, "-o", tmp_path / "b.png")
    assert events.returncode == 2
    assert f"{run_out}/events.csv has no rows" in events.stderr
