#!/usr/bin/python3
"""Runs an ftlsim sweep on a Dask distributed cluster (a local one by
default): one task, one ftlsim process, per configuration; the rows are
gathered into one sweep.csv, as `ftlsim` writes it for the same options.

  analysis/sweep.py --trace T [--trace T2 ...] --out DIR [--scheduler tcp://host:port]
                    [--workers N] [--ftlsim PATH] FTLSIM-MODEL-OPTIONS...
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftlsim_analysis.errors import missing_module, run_main  # noqa: E402

try:
    from ftlsim_analysis.dask_sweep import main  # noqa: E402
except ModuleNotFoundError as e:  # a python3 without matplotlib (or dask): one line, not a traceback
    sys.exit(missing_module("sweep.py", e))

if __name__ == "__main__":
    sys.exit(run_main("sweep.py", main))
