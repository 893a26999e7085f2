"""Issue #22 (a hostile-user run of the analysis tools): outputs never replace
an input, never follow a symbolic link, are all checked before any is
written; report.py and sweep.py write only into a folder they made (their
manifest); every refusal is one escaped line and exit code 2, never a
traceback. Items D5-D7, C1-C3, S1, S3, S7 of the report. Every case runs the
script as a user would."""
import json
import os
import shutil
import subprocess

import pytest
from conftest import ANALYSIS, PYTHON, fixture

from ftlsim_analysis.errors import InputError


def run(tool, *args, cwd=None, env=None, timeout=120):
    argv = [PYTHON, os.path.join(ANALYSIS, tool)] + [a if isinstance(a, bytes) else str(a) for a in args]
    return subprocess.run(argv, capture_output=True, cwd=cwd, env=env, timeout=timeout)


def refused(proc, prog, *needles):
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, (proc.returncode, err)
    assert "Traceback" not in err, err
    assert err.startswith(f"{prog}: error: ") and err.count("\n") == 1, err
    for n in needles:
        assert n in err, err
    return err


@pytest.fixture
def work(tmp_path):
    """tmp_path with a run folder `run`, a sweep folder `sw` and a victim folder with two user files."""
    shutil.copytree(fixture("run_a"), tmp_path / "run")
    shutil.copytree(fixture("sweep"), tmp_path / "sw")
    (tmp_path / "vict").mkdir()
    (tmp_path / "vict" / "keep.txt").write_text("thesis\n")
    (tmp_path / "vict" / "keep2.txt").write_text("thesis 2\n")
    return tmp_path


def untouched(work):
    assert (work / "vict" / "keep.txt").read_text() == "thesis\n"
    assert (work / "vict" / "keep2.txt").read_text() == "thesis 2\n"
    assert sorted(os.listdir(work / "vict")) == ["keep.txt", "keep2.txt"]


# ---- D5: never through a symbolic link -------------------------------------

def test_png_that_is_a_symlink(work):
    os.symlink("vict/keep.txt", work / "l2.png")
    refused(run("plot_waf.py", "run", "-o", "l2.png", cwd=work), "plot_waf", "l2.png: is a symbolic link")
    untouched(work)
    assert not (work / "l2.csv").exists()


def test_csv_beside_the_png_that_is_a_symlink(work):
    os.symlink("vict/keep2.txt", work / "l3.csv")
    refused(run("plot_waf.py", "run", "-o", "l3.png", cwd=work), "plot_waf", "l3.csv: is a symbolic link")
    untouched(work)
    assert not (work / "l3.png").exists()


def test_output_through_a_symlinked_folder(work):
    os.symlink("vict", work / "vl")
    refused(run("plot_waf.py", "run", "-o", "vl/x.png", cwd=work), "plot_waf", "vl is a symbolic link")
    untouched(work)


def test_plot_sweep_output_through_a_symlink(work):
    os.symlink("vict/keep.txt", work / "s.png")
    refused(run("plot_sweep.py", "sw", "--x", "gc-thres", "--where", "ru-size=64M", "-o", "s.png", cwd=work),
            "plot_sweep", "s.png: is a symbolic link")
    untouched(work)


# ---- D6: never over an input -------------------------------------------------

def test_plot_sweep_csv_beside_is_its_own_input(work):
    before = (work / "sw" / "sweep.csv").read_bytes()
    refused(run("plot_sweep.py", "sw", "--x", "gc-thres", "--where", "ru-size=64M", "-o", "sw/sweep.png", cwd=work),
            "plot_sweep", "sw/sweep.csv: is an input of this command")
    assert (work / "sw" / "sweep.csv").read_bytes() == before
    assert not (work / "sw" / "sweep.png").exists()


def test_plot_waf_csv_beside_is_its_own_input(work):
    before = (work / "run" / "timeseries.csv").read_bytes()
    refused(run("plot_waf.py", "run", "-o", "run/timeseries.png", cwd=work), "plot_waf",
            "run/timeseries.csv: is an input of this command")
    assert (work / "run" / "timeseries.csv").read_bytes() == before
    assert not (work / "run" / "timeseries.png").exists()


def test_an_input_under_another_name(work):
    """A hard link of an input is the input (device and inode)."""
    os.link(work / "run" / "summary.json", work / "h.csv")
    before = (work / "h.csv").read_bytes()
    refused(run("plot_handles.py", "run", "-o", "h.png", cwd=work), "plot_handles",
            "h.csv: is an input of this command run/summary.json")
    assert (work / "h.csv").read_bytes() == before


def test_a_figure_replaces_its_own_earlier_figure(work):
    for _ in range(2):
        proc = run("plot_waf.py", "run", "-o", "w.png", cwd=work)
        assert proc.returncode == 0, proc.stderr
    assert sorted(n for n in os.listdir(work) if n.startswith(("w.", ".w."))) == ["w.csv", "w.png"]


# ---- D7: report.py and sweep.py write only into a folder they made ----------

def test_report_refuses_a_users_folder(work, ftlsim, tiny_trace):
    for name in ("index.html", "study_table.csv"):
        user = work / f"user-{name}"
        user.mkdir()
        (user / name).write_text("mine\n")
        refused(run("report.py", "--ftlsim", ftlsim, "--trace", tiny_trace, "--out", user, "--no-run"), "report.py",
                f"{user}: the folder is not empty and report.py did not make it")
        assert os.listdir(user) == [name] and (user / name).read_text() == "mine\n"


def test_sweep_refuses_a_users_folder(work, ftlsim, tiny_trace):
    (work / "us").mkdir()
    (work / "us" / "sweep.csv").write_text("mine\n")
    refused(run("sweep.py", "--ftlsim", ftlsim, "--trace", tiny_trace, "--out", work / "us", "--gc-thres", "90,95"),
            "sweep.py", "the folder is not empty and sweep.py did not make it")
    assert os.listdir(work / "us") == ["sweep.csv"] and (work / "us" / "sweep.csv").read_text() == "mine\n"


def test_sweep_reruns_in_its_own_folder_only(work, ftlsim, tiny_trace):
    """sweep.py's folder is its own (manifest): a rerun replaces its files and
    leaves a user's file there alone; a sweep.csv edited since is refused."""
    args = ["--ftlsim", ftlsim, "--trace", tiny_trace, "--out", work / "mine", "--gc-thres", "90,95", "--logical",
            "40M", "--channels", "8", "--luns", "1", "--blocks", "64", "--pages", "32", "--workers", "1"]
    first = run("sweep.py", *args, timeout=300)
    assert first.returncode == 0, first.stderr
    (work / "mine" / "notes.txt").write_text("mine\n")
    again = run("sweep.py", *args, timeout=300)
    assert again.returncode == 0, again.stderr
    assert (work / "mine" / "notes.txt").read_text() == "mine\n"
    with open(work / "mine" / "sweep.csv", "a") as f:
        f.write("# my notes\n")
    edited = (work / "mine" / "sweep.csv").read_text()
    refused(run("sweep.py", *args, timeout=300), "sweep.py",
            "mine/sweep.csv: already exists and was not written by this tool")
    assert (work / "mine" / "sweep.csv").read_text() == edited


@pytest.mark.parametrize("tool", ["report.py", "sweep.py"])
@pytest.mark.parametrize("suffix", ["", "/", "/."])
def test_out_folder_that_is_a_symlink(work, ftlsim, tiny_trace, tool, suffix):
    os.symlink("vict", work / "lnk")
    extra = ["--no-run"] if tool == "report.py" else ["--gc-thres", "90,95"]
    refused(run(tool, "--ftlsim", ftlsim, "--trace", tiny_trace, "--out", f"lnk{suffix}", *extra, cwd=work), tool,
            "lnk: is a symbolic link")
    untouched(work)
    os.symlink("vict", work / "lnk2")
    refused(run(tool, "--ftlsim", ftlsim, "--trace", tiny_trace, "--out", "lnk2/sub", *extra, cwd=work), tool,
            "lnk2 is a symbolic link")
    untouched(work)


def test_owned_folder_proves_its_files(tmp_path):
    """A file the tool wrote (in its manifest, unchanged) may be replaced;
    one edited since, or one the manifest does not list, may not."""
    from ftlsim_analysis.output_file import MANIFEST, OwnedFolder, write_text
    out = tmp_path / "o"
    owned = OwnedFolder(str(out), "report.py")
    write_text(str(out / "index.html"), "v1\n", owned.may_replace("index.html"))
    owned.record(str(out / "index.html"))
    again = OwnedFolder(str(out), "report.py")
    again.check(["index.html", "fig/x.png"])
    write_text(str(out / "index.html"), "v2\n", again.may_replace("index.html"))
    (out / "study_table.csv").write_text("mine\n")
    with pytest.raises(InputError, match="study_table.csv: already exists and was not written by this tool"):
        again.check(["study_table.csv"])
    with pytest.raises(InputError, match="index.html: already exists"):  # v2 was not recorded
        OwnedFolder(str(out), "report.py").check(["index.html"])
    with pytest.raises(InputError, match="not a manifest of sweep.py"):
        OwnedFolder(str(out), "sweep.py")
    assert (out / "study_table.csv").read_text() == "mine\n"
    assert json.loads((out / MANIFEST).read_text())["tool"] == "report.py"


# ---- C1: outputs that cannot be written: one line, nothing left behind -------

def test_png_that_is_a_folder(work):
    (work / "x.png").mkdir()
    refused(run("plot_waf.py", "run", "-o", "x.png", cwd=work), "plot_waf", "x.png: is a folder")
    assert not (work / "x.csv").exists()


def test_csv_that_is_a_folder_leaves_no_png(work):
    (work / "y.csv").mkdir()
    refused(run("plot_waf.py", "run", "-o", "y.png", cwd=work), "plot_waf", "y.csv: is a folder")
    assert not (work / "y.png").exists()
    assert sorted(os.listdir(work / "y.csv")) == []


def test_png_on_proc(work):
    refused(run("plot_waf.py", "run", "-o", "/proc/x.png", cwd=work), "plot_waf", "/proc/x.png: ")


def _dev_is_devtmpfs():
    """/dev is a devtmpfs mount (read here, not through the code under test)."""
    with open("/proc/self/mountinfo") as f:
        return any(line.split(" ")[4] == "/dev" and " - devtmpfs " in line for line in f)


def test_nothing_made_on_devtmpfs(tmp_path, monkeypatch):
    """With tmp_path's file system named devtmpfs in a mountinfo fixture, no
    output file or folder is made there (in-process); named tmpfs, they are."""
    from ftlsim_analysis import output_file
    from ftlsim_analysis.output_file import OwnedFolder, write_text
    st = os.stat(tmp_path)
    info = tmp_path / "mountinfo"
    for fstype in ("devtmpfs", "tmpfs"):
        info.write_text("22 1 0:5 / /dev rw - devtmpfs udev rw\n"
                        f"40 1 {os.major(st.st_dev)}:{os.minor(st.st_dev)} / /mnt rw shared:1 - {fstype} x rw\n")
        monkeypatch.setattr(output_file, "MOUNTINFO", str(info))
        before = sorted(os.listdir(tmp_path))
        cases = [lambda: write_text(str(tmp_path / f"{fstype}.csv"), "x\n"),
                 lambda: write_text(str(tmp_path / f"{fstype}-new" / "x.csv"), "x\n"),
                 lambda: OwnedFolder(str(tmp_path / f"{fstype}-out"), "report.py")]
        for case in cases:
            if fstype == "devtmpfs":
                with pytest.raises(InputError, match="is on devtmpfs, where the kernel makes device nodes"):
                    case()
            else:
                case()
        if fstype == "devtmpfs":
            assert sorted(os.listdir(tmp_path)) == before
        else:
            assert {"tmpfs.csv", "tmpfs-new", "tmpfs-out"} <= set(os.listdir(tmp_path))


@pytest.mark.skipif(not _dev_is_devtmpfs(), reason="/dev is not a devtmpfs mount here")
def test_png_in_dev(work):
    name = f"/dev/ftlsim-test-{os.getpid()}"
    try:
        for out in (name + ".png", name + "/x.png"):
            refused(run("plot_waf.py", "run", "-o", out, cwd=work), "plot_waf", "is on devtmpfs")
            assert not os.path.lexists(name + ".png") and not os.path.lexists(name + ".csv")
            assert not os.path.lexists(name)
    finally:
        for leftover in (name + ".png", name + ".csv"):
            if os.path.lexists(leftover):
                os.unlink(leftover)
        if os.path.isdir(name):
            shutil.rmtree(name)


def test_no_temporary_left_behind(work):
    (work / "z.csv").mkdir()
    run("plot_waf.py", "run", "-o", "z.png", cwd=work)
    assert not [n for n in os.listdir(work) if n.startswith(".")]


# ---- C2 and S3: names that are not UTF-8 or hold a newline --------------------

def test_run_folder_with_a_non_utf8_name(work):
    os.rename(work / "run", os.path.join(os.fsencode(work), b"ob\xff"))
    proc = run("plot_waf.py", b"ob\xff", "-o", b"ob\xff/w.png", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert b"ob\\xff/w.png" in proc.stdout and proc.stderr == b""
    names = os.listdir(os.path.join(os.fsencode(work), b"ob\xff"))
    assert sorted(names) == [b"summary.json", b"timeseries.csv", b"w.csv", b"w.png"]
    rows = open(os.path.join(os.fsencode(work), b"ob\xff", b"w.csv"), encoding="utf-8").read()
    assert "ob\\xff" in rows  # the default label, escaped


@pytest.mark.parametrize("tool,args", [("plot_waf.py", []), ("plot_sweep.py", ["--x", "gc-thres"]),
                                       ("plot_handles.py", [])])
@pytest.mark.parametrize("name,shown", [(b"a\nb", "a\\nb"), (b"ob\xff", "ob\\xff"), (b"t\x1b[2J", "t\\x1b[2J")])
def test_names_are_escaped_as_ftlsim_does(work, tool, args, name, shown):
    err = refused(run(tool, name, *args, "-o", "x.png", cwd=work), tool[:-3], shown)
    assert "\\udc" not in err


def test_escape_matches_core_escape():
    from ftlsim_analysis.output_file import escape
    assert escape("a\nb\tc\rd") == "a\\nb\\tc\\rd"
    assert escape(os.fsdecode(b"ob\xff")) == "ob\\xff"
    assert escape(b"\x7f\xc2\x85\xc3\xa9\xed\xa0\x80") == "\\x7f\\xc2\\x85\u00e9\\xed\\xa0\\x80"


# ---- C3: a python3 without matplotlib -------------------------------------------

@pytest.mark.parametrize("tool", ["plot_waf.py", "plot_sweep.py", "plot_handles.py", "plot_latency.py", "plot_qd.py",
                                  "plot_ids.py", "report.py"])
def test_missing_matplotlib_is_one_line(tool):
    """-S: no site-packages, as a python3 (pyenv, a venv) without the packages."""
    proc = subprocess.run([PYTHON, "-S", os.path.join(ANALYSIS, tool), "--help"], capture_output=True, timeout=60)
    refused(proc, tool[:-3] if tool.startswith("plot_") else tool, "'matplotlib' is missing",
            "tools/install_deps.sh analysis")


# ---- S1: a trace that is not a regular file, refused before anything is made ---

@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_report_trace_not_a_regular_file(work, ftlsim, kind):
    (os.mkfifo if kind == "fifo" else os.mkdir)(work / "ff")
    what = "a FIFO (named pipe)" if kind == "fifo" else "a directory"
    refused(run("report.py", "--ftlsim", ftlsim, "--trace", "ff", "--out", "rep3", "--no-run", cwd=work), "report.py",
            f"ff: not a regular file ({what})")
    assert not (work / "rep3").exists()


def test_sweep_trace_not_a_regular_file(work, ftlsim):
    os.mkfifo(work / "ff")
    refused(run("sweep.py", "--ftlsim", ftlsim, "--trace", "ff", "--out", "swd", "--gc-thres", "90,95", cwd=work),
            "sweep.py", "ff: not a regular file (a FIFO (named pipe))")
    assert not (work / "swd").exists()


# ---- S7: values no ftlsim writes ------------------------------------------------

def _edit(path, line, column, value):
    lines = path.read_text().splitlines()
    header = lines[0].split(",")
    fields = lines[line - 1].split(",")
    fields[header.index(column)] = value
    lines[line - 1] = ",".join(fields)
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("column,value,message", [("waf", "-1", "line 3: waf '-1' is negative"),
                                                  ("gc_bytes", "-5", "line 3: gc_bytes '-5' is negative"),
                                                  ("gc-thres", "abc", "line 3: gc-thres 'abc' is not a number")])
def test_sweep_csv_bad_values(work, column, value, message):
    _edit(work / "sw" / "sweep.csv", 3, column, value)
    refused(run("plot_sweep.py", "sw", "--x", "ru-size", "--y", "gc-thres", "-o", "s.png", cwd=work), "plot_sweep",
            f"sw/sweep.csv: {message}")
    assert not (work / "s.png").exists()


def test_sweep_csv_duplicated_configuration(work):
    path = work / "sw" / "sweep.csv"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines + [lines[2]]) + "\n")
    refused(run("plot_sweep.py", "sw", "--x", "ru-size", "--y", "gc-thres", "-o", "s.png", cwd=work), "plot_sweep",
            f"sw/sweep.csv: line {len(lines) + 1}: the same configuration as line 3")
    # the same values under another config_id, or 90 written as 90.0
    lines[-1] = lines[2].replace("gc-thres=90", "other", 1).replace(",90,", ",90.0,", 1)
    path.write_text("\n".join(lines) + "\n")
    refused(run("plot_sweep.py", "sw", "--x", "ru-size", "--y", "gc-thres", "-o", "s.png", cwd=work), "plot_sweep",
            f"line {len(lines)}: the same configuration as line 3")


def test_qd_sweep_negative_qps(work):
    shutil.copytree(fixture("qd"), work / "qd")
    _edit(work / "qd" / "qd_sweep.csv", 2, "qps", "-5")
    refused(run("plot_qd.py", "qd", "-o", "q.png", cwd=work), "plot_qd",
            "qd/qd_sweep.csv: line 2: qps '-5' is negative")
    assert not (work / "q.png").exists()


def test_handles_empty(work):
    s = json.loads((work / "run" / "summary.json").read_text())
    s["handles"] = []
    (work / "run" / "summary.json").write_text(json.dumps(s))
    refused(run("plot_handles.py", "run", "-o", "h.png", cwd=work), "plot_handles",
            "run/summary.json: \"handles\" is empty")
    assert not (work / "h.png").exists()
