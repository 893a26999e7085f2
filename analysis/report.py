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
from ftlsim_analysis.errors import entry  # noqa: E402


def _load_main():
    # Imported inside entry(): a Ctrl-C during the import of matplotlib (or a
    # missing module) is one line, not a traceback.
    from ftlsim_analysis.report import main
    return main


if __name__ == "__main__":
    sys.exit(entry("report.py", _load_main))
