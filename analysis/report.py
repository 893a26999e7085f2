#!/usr/bin/python3
"""Builds report/index.html from one trace (`make report`): the non-FDP vs
FDP comparison, WAF over time and an RU-size x GC-threshold sweep, with
tables, figures, exact commands, versions and run times. Simulation results
are cached by configuration; a rebuild (or --no-run) only redraws.

  analysis/report.py --trace traces/demo.ftr [--out report] [--ftlsim ./ftlsim] [options; see --help]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftlsim_analysis.errors import missing_module, run_main  # noqa: E402

try:
    from ftlsim_analysis.report import main  # noqa: E402
except ModuleNotFoundError as e:  # a python3 without matplotlib (or dask): one line, not a traceback
    sys.exit(missing_module("report.py", e))

if __name__ == "__main__":
    sys.exit(run_main("report.py", main))
