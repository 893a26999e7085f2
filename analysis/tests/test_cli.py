"""The figure entry points: each runs on fixture files and writes its PNG
and CSV; bad input is one line on stderr and exit code 2. The mains run in
this process (importing matplotlib once); one case per outcome also runs the
script itself, as a user would."""
import os
import shutil

import pytest
from conftest import ANALYSIS, assert_png, fixture, read_csv, run_script

from ftlsim_analysis import cli_plots
from ftlsim_analysis.errors import run_main

MAINS = {"plot_waf.py": cli_plots.waf_main, "plot_sweep.py": cli_plots.sweep_main,
         "plot_handles.py": cli_plots.handles_main, "plot_latency.py": cli_plots.latency_main,
         "plot_qd.py": cli_plots.qd_main, "plot_ids.py": cli_plots.ids_main}


def run_in_process(capsys, name, *args):
    code = run_main(name[:-3], MAINS[name], [str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_scripts_run_with_debian_python():
    for name in list(MAINS) + ["sweep.py", "report.py"]:
        path = os.path.join(ANALYSIS, name)
        assert os.access(path, os.X_OK), name
        with open(path) as f:
            assert f.readline() == "#!/usr/bin/python3\n", name


def test_script_as_a_command(tmp_path):
    proc = run_script("plot_waf.py", fixture("run_a"), "-o", tmp_path / "w.png")
    assert proc.returncode == 0 and proc.stdout.startswith("wrote "), proc.stderr
    assert_png(tmp_path / "w.png")
    proc = run_script("plot_waf.py", tmp_path / "nowhere", "-o", tmp_path / "x.png")
    assert proc.returncode == 2 and proc.stderr.startswith("plot_waf: error: ") and proc.stderr.count("\n") == 1


@pytest.mark.parametrize("name,args,csv_rows", [
    ("plot_waf.py", ["a=" + fixture("run_a"), "b=" + fixture("run_b"), "--x", "time"], 10),
    ("plot_sweep.py", [fixture("sweep"), "--x", "ru-size", "--y", "gc-thres", "--change-vs", "single"], 12),
    ("plot_handles.py", [fixture("run_a", "summary.json"), fixture("run_b")], 8),
    ("plot_latency.py", ["cdf", fixture("timed"), "--ops", "read"], 3),
    ("plot_latency.py", ["events", fixture("timed", "events.csv"), "--events", "gc_copy,erase"], 8),
    ("plot_qd.py", ["ssd=" + fixture("qd"), fixture("qd_noknee", "qd_sweep.csv")], 10),
    ("plot_qd.py", [fixture("qd_placement")], 8),
    ("plot_waf.py", [fixture("run_tail"), "--x", "marker"], 6),
    ("plot_ids.py", [fixture("run_ids")], 8),  # ruh0 wrote nothing: not drawn
])
def test_entry_points(tmp_path, capsys, name, args, csv_rows):
    png = tmp_path / "fig.png"
    code, out, err = run_in_process(capsys, name, *args, "-o", png)
    assert code == 0, err
    assert out.startswith("wrote ")
    assert_png(png)
    assert len(read_csv(tmp_path / "fig.csv")) == csv_rows


def test_placement_groups_and_facets_by_default_unless_it_is_an_axis(tmp_path, capsys):
    """plot_sweep.py --x placement (or --y placement) draws without --group
    none / --facet none; they used to be refused as "--group placement is
    the x axis too" and "--x, --y and --facet must name different options"
    though the user had given neither."""
    sweep = fixture("sweep")
    png = tmp_path / "p.png"
    code, _, err = run_in_process(capsys, "plot_sweep.py", sweep, "--x", "placement", "--where", "ru-size=64M",
                                  "--where", "gc-thres=90", "-o", png)
    assert code == 0, err
    rows = read_csv(tmp_path / "p.csv")
    assert [(r["placement"], r["waf"]) for r in rows] == [("single", "1.5"), ("fdp", "1.2")]  # the fixture's
    code, _, err = run_in_process(capsys, "plot_sweep.py", sweep, "--x", "gc-thres", "--y", "placement",
                                  "--where", "ru-size=64M", "-o", png)
    assert code == 0, err
    rows = read_csv(tmp_path / "p.csv")
    assert {r["panel"] for r in rows} == {"waf"} and len(rows) == 4  # one panel: 2 gc-thres x 2 placements
    # Asked for explicitly, the same option twice is still refused; and a
    # change against a facet value needs a facet.
    for args, message in ((["--x", "placement", "--group", "placement"], "--group placement is the x axis too"),
                          (["--x", "gc-thres", "--y", "placement", "--facet", "placement"],
                           "--x, --y and --facet must name different options"),
                          (["--x", "gc-thres", "--y", "placement", "--change-vs", "single"],
                           "--change-vs single: there is no --facet to compare across"),
                          (["--x", "gc-thres", "--change-vs", "single"], "--change-vs single: heatmaps only")):
        code, _, err = run_in_process(capsys, "plot_sweep.py", sweep, *args, "--where", "ru-size=64M", "-o", png)
        assert code == 2 and message in err and err.count("\n") == 1, err


def test_facet_in_line_plots_takes_placement_from_the_groups(tmp_path, capsys):
    """plot_sweep.py --x gc-thres --facet placement: a panel per placement and,
    placement being the facet, one line per panel unless --group is given."""
    png = tmp_path / "f.png"
    code, _, err = run_in_process(capsys, "plot_sweep.py", fixture("sweep"), "--x", "gc-thres", "--facet",
                                  "placement", "--where", "ru-size=16M", "-o", png)
    assert code == 0, err
    rows = read_csv(tmp_path / "f.csv")
    assert list(rows[0]) == ["placement", "gc-thres", "group", "waf", "error"]
    assert [(r["placement"], r["gc-thres"], r["waf"]) for r in rows] == [
        ("single", "90", "1.4"), ("single", "95", "1.25"), ("fdp", "90", "1.05"), ("fdp", "95", "1.0")]
    code, _, err = run_in_process(capsys, "plot_sweep.py", fixture("sweep"), "--x", "gc-thres", "--facet",
                                  "placement", "--group", "ru-size", "-o", png)
    assert code == 0, err
    assert len(read_csv(tmp_path / "f.csv")) == 8


def test_x_defaults_to_the_one_swept_option_left(tmp_path, capsys):
    """Without --x, the x axis is the one swept option that no other argument
    names (placement draws the lines unless nothing else is left); with two
    or more left, one line names them and asks for --x."""
    png = tmp_path / "x.png"
    code, _, err = run_in_process(capsys, "plot_sweep.py", fixture("sweep"), "--where", "ru-size=16M", "-o", png)
    assert code == 0, err
    rows = read_csv(tmp_path / "x.csv")
    assert [(r["gc-thres"], r["placement"], r["waf"]) for r in rows] == [
        ("90", "single", "1.4"), ("95", "single", "1.25"), ("90", "fdp", "1.05"), ("95", "fdp", "1.0")]
    code, _, err = run_in_process(capsys, "plot_sweep.py", fixture("sweep"), "--where", "ru-size=64M", "--where",
                                  "gc-thres=90", "-o", png)
    assert code == 0, err
    assert [(r["placement"], r["waf"]) for r in read_csv(tmp_path / "x.csv")] == [("single", "1.5"), ("fdp", "1.2")]
    code, _, err = run_in_process(capsys, "plot_sweep.py", fixture("sweep"), "--y", "ru-size", "-o", png)
    assert code == 0, err
    assert {r["gc-thres"] for r in read_csv(tmp_path / "x.csv")} == {"90", "95"}
    code, _, err = run_in_process(capsys, "plot_sweep.py", fixture("sweep"), "-o", png)
    assert code == 2 and err.count("\n") == 1, err
    assert "several options vary (gc-thres, ru-size): name the x axis with --x" in err


def test_a_compare_folder_names_its_runs(tmp_path, capsys):
    """A figure of one run given a compare folder (compare.csv, runs a/ and
    b/) says so and names the runs; a sweep folder names its first configuration."""
    cmp = tmp_path / "cmp"
    for run in ("a", "b"):
        shutil.copytree(fixture("run_a"), cmp / run)
    (cmp / "compare.csv").write_text("metric,a,b\n")
    for name, args in (("plot_ids.py", [cmp]), ("plot_sweep.py", [cmp, "--x", "gc-thres"])):
        code, _, err = run_in_process(capsys, name, *args, "-o", tmp_path / "x.png")
        assert code == 2 and err.count("\n") == 1, err
        assert f"{cmp} is a compare folder (compare.csv): its runs are {cmp}/a and {cmp}/b" in err, err
    sweep = tmp_path / "sw"
    shutil.copytree(fixture("sweep"), sweep)
    for config in ("gc-thres=70", "gc-thres=60"):
        shutil.copytree(fixture("run_a"), sweep / config)
    code, _, err = run_in_process(capsys, "plot_waf.py", str(sweep) + "/", "-o", tmp_path / "x.png")
    assert code == 2 and f"each configuration folder ({sweep}/gc-thres=60) is a run" in err, err
    # The run's own folder draws as before.
    code, _, err = run_in_process(capsys, "plot_waf.py", cmp / "a", "-o", tmp_path / "x.png")
    assert code == 0, err


def test_figures_of_several_runs_take_a_compare_folder_as_its_two_runs(tmp_path, capsys):
    """plot_waf.py, plot_handles.py and plot_latency.py cdf given a compare
    folder draw both of its runs, labelled LABEL/a and LABEL/b (they used to
    refuse it, naming cmp/a and cmp/b)."""
    cmp = tmp_path / "cmp"
    shutil.copytree(fixture("run_a"), cmp / "a")
    shutil.copytree(fixture("run_b"), cmp / "b")
    (cmp / "compare.csv").write_text("metric,a,b\n")
    png = tmp_path / "x.png"
    code, _, err = run_in_process(capsys, "plot_waf.py", cmp, "-o", png)
    assert code == 0, err
    by_run = {}
    for r in read_csv(tmp_path / "x.csv"):
        by_run.setdefault(r["run"], []).append(r)
    assert list(by_run) == ["cmp/a", "cmp/b"]
    # The same rows as the two runs given one by one, under their labels.
    code, _, err = run_in_process(capsys, "plot_waf.py", "cmp/a=" + str(cmp / "a"), "cmp/b=" + str(cmp / "b"), "-o",
                                  tmp_path / "y.png")
    assert code == 0, err
    assert read_csv(tmp_path / "y.csv") == by_run["cmp/a"] + by_run["cmp/b"]
    code, _, err = run_in_process(capsys, "plot_waf.py", "study=" + str(cmp), fixture("run_a"), "-o", png)
    assert code == 0, err
    assert list(dict.fromkeys(r["run"] for r in read_csv(tmp_path / "x.csv"))) == ["study/a", "study/b", "run_a"]
    code, _, err = run_in_process(capsys, "plot_handles.py", cmp, "-o", png)
    assert code == 0, err
    timed = tmp_path / "tcmp"
    for side in ("a", "b"):
        shutil.copytree(fixture("timed"), timed / side)
    (timed / "compare.csv").write_text("metric,a,b\n")
    code, _, err = run_in_process(capsys, "plot_latency.py", "cdf", timed, "-o", png)
    assert code == 0, err
    assert list(dict.fromkeys(r["run"] for r in read_csv(tmp_path / "x.csv"))) == ["tcmp/a", "tcmp/b"]


@pytest.mark.parametrize("name,args,message", [
    ("plot_waf.py", ["nowhere"], "plot_waf: error: nowhere/timeseries.csv: no such file"),
    ("plot_sweep.py", [fixture("sweep"), "--x", "gc-thres"], "'ru-size' also varies"),
    ("plot_handles.py", [fixture("run_a", "timeseries.csv")], "not valid JSON"),
    ("plot_latency.py", ["cdf", fixture("timed"), "--ops", "trim"], "--ops trim: not in the data"),
    ("plot_qd.py", [fixture("timed", "events.csv")], "missing column(s) qd"),
    ("plot_waf.py", [], "required"),
    ("plot_ids.py", [fixture("run_a")], "run_a/id_timeseries.csv: no such file (run ftlsim with --id-series"),
    ("plot_ids.py", [fixture("timed", "events.csv")], "missing column(s) host_bytes"),
    ("plot_waf.py", [fixture("sweep")], "sweep/timeseries.csv: no such file; " + fixture("sweep")
     + " is a sweep folder (sweep.csv): plot_sweep.py draws it, and each configuration folder ("
     + fixture("sweep", "ID") + ") is a run"),
    ("plot_handles.py", [fixture("qd")], "qd/summary.json: no such file; " + fixture("qd")
     + " is a qd-sweep folder (qd_sweep.csv): plot_qd.py draws it"),
    ("plot_qd.py", [fixture("sweep")], "is a sweep folder (sweep.csv)"),
    ("plot_sweep.py", [fixture("qd"), "--x", "qd"], "is a qd-sweep folder (qd_sweep.csv)"),
])
def test_bad_input_is_one_line(tmp_path, capsys, name, args, message):
    code, _, err = run_in_process(capsys, name, *args, "-o", tmp_path / "x.png")
    assert code == 2
    assert message in err and err.count("\n") == 1, err
    assert not (tmp_path / "x.png").exists()
