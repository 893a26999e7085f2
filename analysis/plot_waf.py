#!/usr/bin/python3
"""WAF over the run (cumulative and interval), several runs overlaid, GC onset marked.

Writes a PNG and the numbers it draws as a CSV beside it. --help lists the
options; analysis/README.md shows examples."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftlsim_analysis.errors import missing_module, run_main  # noqa: E402

try:
    from ftlsim_analysis.cli_plots import waf_main  # noqa: E402
except ModuleNotFoundError as e:  # a python3 without matplotlib (or dask): one line, not a traceback
    sys.exit(missing_module("plot_waf", e))

if __name__ == "__main__":
    sys.exit(run_main("plot_waf", waf_main))
