"""Plots, the reproducible report and the Dask sweep for ftlsim results.

Modules:
  results      readers of ftlsim's output files (summary.json, timeseries.csv,
               sweep.csv, compare.csv, events.csv, latency_cdf.csv, qd_sweep.csv)
  figure       headless matplotlib set-up and the PNG + CSV writer every figure uses
  waf, sweep_plots, handles, latency, qd
               one function per figure
  values       ftlsim's list/range expansion, config ids and sweep.csv rows
  runner       locating and running ftlsim; the result cache of the report
  dask_sweep, worker_task
               the distributed sweep (analysis/sweep.py)
  report, report_html
               `make report` (analysis/report.py)
"""

