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
from ftlsim_analysis.errors import entry  # noqa: E402


def _load_main():
    # Imported inside entry(): a Ctrl-C during the import of matplotlib (or a
    # missing module) is one line, not a traceback.
    from ftlsim_analysis.dask_sweep import main
    return main


if __name__ == "__main__":
    sys.exit(entry("sweep.py", _load_main))
