"""Shared fixtures: the ftlsim binary, a tiny generated trace and the small
device the report and sweep tests use, and PNG checks."""
import os
import subprocess
import sys

import pytest

ANALYSIS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ANALYSIS)
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
PYTHON = "/usr/bin/python3"

# 8 dies x 32 pages of 4 KiB x 64 lines = 64 MiB raw, 40 MiB logical.
DEVICE = ["--channels", "8", "--luns", "1", "--blocks", "64", "--pages", "32", "--logical", "40M",
          "--gc-thres-high", "97", "--ruh", "4"]


@pytest.fixture(scope="session")
def ftlsim():
    """The binary under test: $FTLSIM_BINARY (set by ctest), else the repo's
    ./ftlsim. Missing is a failure, not a skip."""
    from ftlsim_analysis.runner import find_ftlsim
    return find_ftlsim()


@pytest.fixture(scope="session")
def tiny_trace(tmp_path_factory, ftlsim):
    """Three tagged streams over 40 MiB: a fill, 20,000 random 4 KiB writes,
    a marker every 2,000. On DEVICE, GC runs, fdp and single differ, and
    --ru-size 8M is impossible (an error row in sweeps)."""
    path = str(tmp_path_factory.mktemp("trace") / "tiny.ftr")
    subprocess.run([ftlsim, "gen", "--pattern", "streams", "--logical", "40M", "--streams",
                    "0.6:0.1,0.3:0.3,0.1:0.6", "--fill", "--writes", "20000", "--markers", "2000", "--seed", "1",
                    "-o", path], check=True, capture_output=True)
    return path


def fixture(*parts):
    return os.path.join(FIXTURES, *parts)


def script(name):
    return os.path.join(ANALYSIS, name)


def run_script(name, *args, cwd=None, env=None):
    """Runs analysis/<name> with Debian's Python; returns the CompletedProcess."""
    return subprocess.run([PYTHON, script(name), *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          env=env)


def assert_png(path):
    """A real, non-blank image: PNG signature, sensible size, more than one colour."""
    import matplotlib.image
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", path
    img = matplotlib.image.imread(path)
    assert img.shape[0] > 100 and img.shape[1] > 100, img.shape
    assert img.std() > 0.01, f"{path} is blank"


def read_csv(path):
    import csv
    with open(path, newline="") as f:
        return list(csv.DictReader(f))
