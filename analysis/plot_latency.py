#!/usr/bin/python3
"""Timed mode: latency CDFs per op type (cdf) and per-interval throughput/latency (events).

Writes a PNG and the numbers it draws as a CSV beside it. --help lists the
options; analysis/README.md shows examples."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftlsim_analysis.errors import entry  # noqa: E402


def _load_main():
    # Imported inside entry(): a Ctrl-C during the import of matplotlib (or a
    # missing module) is one line, not a traceback.
    from ftlsim_analysis.cli_plots import latency_main
    return latency_main


if __name__ == "__main__":
    sys.exit(entry("plot_latency", _load_main))
