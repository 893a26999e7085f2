"""Issue #22, items 5 and 11: every figure tool refuses, with one line and
exit code 2 and without blocking, an input that is not a regular file (a
FIFO, a folder, a character device) and a JSON or CSV field of the wrong
type or range (null, a string, a 400-digit or 5000-digit number). Each case
runs the script as a user would, with a timeout: before the fix a FIFO made
the tools wait for a writer forever."""
import json
import os
import shutil
import signal
import subprocess

import pytest
from conftest import ANALYSIS, PYTHON, fixture
from test_cli import MAINS

from ftlsim_analysis.errors import run_main

# The 8 (tool, file of a run folder) combinations of the issue: each tool's
# command line on a copy of its fixture folder, and the file replaced.
COMBINATIONS = [
    ("plot_waf.py", "run_a", "timeseries.csv", []),
    ("plot_waf.py", "run_a", "summary.json", []),
    ("plot_sweep.py", "sweep", "sweep.csv", ["--x", "ru-size", "--y", "gc-thres"]),
    ("plot_handles.py", "run_a", "summary.json", []),
    ("plot_latency.py", "timed", "latency_cdf.csv", ["cdf"]),
    ("plot_latency.py", "timed", "events.csv", ["events"]),
    ("plot_qd.py", "qd", "qd_sweep.csv", []),
    ("plot_qd.py", "qd", "qd_sweep.json", []),
]
KINDS = {"fifo": "a FIFO (named pipe)", "folder": "a directory", "device": "a character device"}


def _args(tool, sub, folder):
    return ([sub[0], folder] + sub[1:]) if tool == "plot_latency.py" else [folder] + sub


class _Blocked(Exception):
    pass


def _alarm(signum, frame):
    raise _Blocked()


def _run(tool, args, tmp_path, capsys):
    """The tool's main in this process (matplotlib imported once), stopped by
    an alarm after 30 s: a hang fails the test instead of blocking it."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(30)
    try:
        code = run_main(tool[:-3], MAINS[tool], [str(a) for a in args] + ["-o", str(tmp_path / "x.png")])
    except _Blocked:
        pytest.fail(f"{tool} {args}: still running after 30 s (blocked on its input)")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(tool, code, out, err)


def test_a_fifo_as_a_user_would_give_it(tmp_path):
    """The script itself, once: nothing blocks, one line, exit 2."""
    run = tmp_path / "run"
    shutil.copytree(fixture("run_a"), run)
    _make("fifo", run / "timeseries.csv")
    try:
        proc = subprocess.run([PYTHON, os.path.join(ANALYSIS, "plot_waf.py"), str(run), "-o", str(tmp_path / "x.png")],
                              capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("plot_waf.py blocked on a FIFO")
    _assert_refused(proc, "plot_waf.py", "not a regular file (a FIFO (named pipe))")


def _make(kind, path):
    os.remove(path)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        os.mkdir(path)
    else:
        os.symlink("/dev/null", path)  # followed: a character device


def _assert_refused(proc, tool, *needles):
    prog = tool[:-3]
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert proc.stderr.startswith(f"{prog}: error: ") and proc.stderr.count("\n") == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for n in needles:
        assert n in proc.stderr, proc.stderr


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("tool,folder,name,sub", COMBINATIONS)
def test_non_regular_input_in_a_run_folder(tmp_path, capsys, tool, folder, name, sub, kind):
    run = tmp_path / folder
    shutil.copytree(fixture(folder), run)
    _make(kind, run / name)
    proc = _run(tool, _args(tool, sub, run), tmp_path, capsys)
    _assert_refused(proc, tool, f"{run / name}: not a regular file ({KINDS[kind]})")
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("tool,folder,name,sub", [c for c in COMBINATIONS if c[2] != "qd_sweep.json"])
def test_non_regular_input_named_directly(tmp_path, capsys, tool, folder, name, sub):
    fifo = tmp_path / name
    os.mkfifo(fifo)
    proc = _run(tool, _args(tool, sub, fifo), tmp_path, capsys)
    _assert_refused(proc, tool, f"{fifo}: not a regular file (a FIFO (named pipe))")


def test_the_report_cache_hashes_no_fifo(tmp_path):
    """runner.sha256_file (the report's trace and binary hashes) refuses a FIFO."""
    fifo = tmp_path / "t.ftr"
    os.mkfifo(fifo)
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from ftlsim_analysis.errors import run_main; "
            "from ftlsim_analysis.runner import sha256_file; sys.exit(run_main('report', lambda a: sha256_file(a[0]), "
            "sys.argv[2:]))")
    try:
        proc = subprocess.run([PYTHON, "-c", code, ANALYSIS, str(fifo)], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("sha256_file blocked on a FIFO")
    _assert_refused(proc, "report.py", "not a regular file (a FIFO (named pipe))")


HUGE = "9" * 400


def _edit_json(path, edit):
    with open(path) as f:
        s = json.load(f)
    edit(s)
    with open(path, "w") as f:
        json.dump(s, f)


def _set(*keys_and_value):
    *keys, value = keys_and_value

    def edit(s):
        for k in keys[:-1]:
            s = s[k]
        s[keys[-1]] = value
    return edit


# summary.json fields of the wrong type or range, with the field the message names.
SUMMARY_CASES = [
    (_set("handles", None), '"handles" is None, not a list'),
    (_set("handles", "ruh0"), '"handles" is \'ruh0\', not a list'),
    (_set("handles", 0, "host_bytes", "4294967296"), '"handles[0].host_bytes" is \'4294967296\', not a whole number'),
    (_set("handles", 0, "name", 7), '"handles[0].name" is 7, not a string'),
    (_set("handles", 0, "gc_out_bytes", int(HUGE)), '"handles[0].gc_out_bytes" 9999'),
    (_set("handles", 0, "gc_out_bytes", 1.5), "not a whole number"),
    (_set("host_bytes", "4294967296"), '"host_bytes" is \'4294967296\', not a whole number'),
    (_set("host_bytes", int(HUGE)), "out of range"),
    (_set("host_bytes", True), '"host_bytes" is True, not a whole number'),
    (_set("waf", "1.25"), '"waf" is \'1.25\', not a number'),
    (_set("waf", None), '"waf" is None, not a number'),
    (_set("host_bytes_by_placement_id", 0, "bytes", None), '"host_bytes_by_placement_id[0].bytes" is None'),
    (_set("host_bytes_by_placement_id", 0, "pid", "0"), '"host_bytes_by_placement_id[0].pid"'),
    (_set("host_bytes_by_placement_id", {}), "not a list"),
    (_set("gc_onset", "soon"), '"gc_onset" is \'soon\', not an object'),
    (_set("gc_onset", "host_bytes", "2684354560"), '"gc_onset.host_bytes"'),
    (_set("gc_onset", "marker", -1), "out of range"),
]


@pytest.mark.parametrize("tool", ["plot_handles.py", "plot_waf.py"])
@pytest.mark.parametrize("edit,message", SUMMARY_CASES)
def test_wrong_typed_summary_fields(tmp_path, capsys, tool, edit, message):
    run = tmp_path / "run"
    shutil.copytree(fixture("run_a"), run)
    _edit_json(run / "summary.json", edit)
    proc = _run(tool, [run], tmp_path, capsys)
    _assert_refused(proc, tool, f"{run / 'summary.json'}: ", message)


def test_json_number_beyond_pythons_digit_limit(tmp_path, capsys):
    """Python refuses to parse integers of over 4300 digits with a ValueError
    that is not a JSONDecodeError."""
    run = tmp_path / "run"
    shutil.copytree(fixture("run_a"), run)
    text = (run / "summary.json").read_text().replace('"waf": 1.25', '"waf": ' + "7" * 5000)
    (run / "summary.json").write_text(text)
    proc = _run("plot_handles.py", [run], tmp_path, capsys)
    _assert_refused(proc, "plot_handles.py", "not valid JSON")


def _edit_csv(path, column, value, row=1):
    lines = path.read_text().splitlines()
    header = lines[0].split(",")
    fields = lines[row].split(",")
    fields[header.index(column)] = value
    lines[row] = ",".join(fields)
    path.write_text("\n".join(lines) + "\n")


# (tool, fixture folder, file, extra arguments, column) of numeric CSV fields.
CSV_CASES = [
    ("plot_latency.py", "timed", "events.csv", ["events"], "count"),
    ("plot_latency.py", "timed", "events.csv", ["events"], "interval_start_ns"),
    ("plot_latency.py", "timed", "latency_cdf.csv", ["cdf"], "latency_ns"),
    ("plot_waf.py", "run_a", "timeseries.csv", [], "host_bytes"),
    ("plot_qd.py", "qd", "qd_sweep.csv", [], "qps"),
    ("plot_sweep.py", "sweep", "sweep.csv", ["--x", "ru-size", "--y", "gc-thres"], "waf"),
]


@pytest.mark.parametrize("value", [HUGE, "-" + HUGE, "9" * 5000, "1e400", "18446744073709551616", "null"])
@pytest.mark.parametrize("tool,folder,name,sub,column", CSV_CASES)
def test_out_of_range_csv_numbers(tmp_path, capsys, tool, folder, name, sub, column, value):
    run = tmp_path / folder
    shutil.copytree(fixture(folder), run)
    _edit_csv(run / name, column, value)
    proc = _run(tool, _args(tool, sub, run), tmp_path, capsys)
    _assert_refused(proc, tool, f"{run / name}: line 2: {column} ", "is not a number below 2^64")
    assert len(proc.stderr) < 300, proc.stderr  # the number is cut, not echoed whole


@pytest.mark.parametrize("knee,message", [('"4"', "is '4', not a whole number"), (HUGE, "out of range"),
                                          ("0", "out of range"), ("true", "is True")])
def test_wrong_typed_knee(tmp_path, capsys, knee, message):
    run = tmp_path / "qd"
    shutil.copytree(fixture("qd"), run)
    (run / "qd_sweep.json").write_text('{"rows": [], "knee_qd": %s}' % knee)
    proc = _run("plot_qd.py", [run], tmp_path, capsys)
    _assert_refused(proc, "plot_qd.py", f"{run / 'qd_sweep.json'}: \"knee_qd\"", message)


@pytest.mark.parametrize("value", [HUGE, "0", "-5", "1e9"])
def test_interval_ns_option(tmp_path, capsys, value):
    proc = _run("plot_latency.py", ["events", fixture("timed"), "--interval-ns", value], tmp_path, capsys)
    _assert_refused(proc, "plot_latency.py", "--interval-ns")


@pytest.mark.parametrize("sub", [["--x", "ru-size", "--y", "gc-thres"], ["--x", "ru-size", "--where", "gc-thres=90"]])
def test_header_only_sweep_csv(tmp_path, capsys, sub):
    """A sweep.csv that holds only its header line (a sweep refused or
    stopped before its first row): one line saying so. It said "no row
    matches " with nothing after it."""
    run = tmp_path / "sweep"
    shutil.copytree(fixture("sweep"), run)
    header = (run / "sweep.csv").read_text().splitlines()[0]
    (run / "sweep.csv").write_text(header + "\n")
    proc = _run("plot_sweep.py", [run] + sub, tmp_path, capsys)
    _assert_refused(proc, "plot_sweep.py", f"{run / 'sweep.csv'}: holds no configurations (only its header line)")
    assert "no row matches" not in proc.stderr


@pytest.mark.parametrize("tool,folder,name,sub", COMBINATIONS)
def test_an_input_larger_than_memory_is_refused_before_it_is_read(tool, folder, name, sub, tmp_path, capsys):
    """Hostile rerun 2, N7: a 5 GiB sparse summary.json took 10.5 GB and 17 s
    before its refusal. An input whose reading would not fit in the memory
    available is refused at once, one line, exit 2 (the file here is sparse:
    its size is what counts, MemAvailable x 2 of it)."""
    from ftlsim_analysis.input_file import MEMORY_PER_BYTE, memory_available
    available = memory_available()
    if available is None:
        pytest.skip("no MemAvailable in /proc/meminfo")
    run = tmp_path / "run"
    shutil.copytree(fixture(folder), run)
    with open(run / name, "r+b") as f:
        f.truncate(available * 2 // MEMORY_PER_BYTE * MEMORY_PER_BYTE)
    proc = _run(tool, _args(tool, sub, run), tmp_path, capsys)
    assert proc.returncode == 2, proc.stderr
    assert "of memory to read, more than the" in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr


def test_check_fits_at_the_bound():
    from ftlsim_analysis.errors import InputError
    from ftlsim_analysis.input_file import MEMORY_PER_BYTE, check_fits
    check_fits("x", 1000, available=1000 * MEMORY_PER_BYTE)
    with pytest.raises(InputError, match="x: 0.0 GiB would take about"):
        check_fits("x", 1001, available=1000 * MEMORY_PER_BYTE)
