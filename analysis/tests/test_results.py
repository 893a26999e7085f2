"""Readers: bad files give InputError naming the file and line."""
import pytest

from ftlsim_analysis.errors import InputError
from ftlsim_analysis.results import (parse_number, read_compare, read_events, read_latency_cdf, read_qd_sweep,
                                     read_summary, read_sweep, read_timeseries)

HEADER = "host_bytes,trace_time_ns,waf,interval_waf,free_units,valid_ratio,gc_bytes,unit_erases,marker\n"


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_numbers_keep_their_type():
    assert parse_number("12") == 12 and isinstance(parse_number("12"), int)
    assert parse_number("1.500000") == 1.5
    assert parse_number("-3") == -3
    assert parse_number("x") is None and parse_number("nan") is None and parse_number("") is None


def test_timeseries_errors_name_file_and_line(tmp_path):
    p = write(tmp_path, "t.csv", HEADER + "1,2,1.0,1.0,3,0.5,0,0,\n1,2,1.0\n")
    with pytest.raises(InputError, match=r"t\.csv: line 3: 3 fields, the header has 9"):
        read_timeseries(p)
    p = write(tmp_path, "t.csv", HEADER + "1,2,abc,1.0,3,0.5,0,0,\n")
    with pytest.raises(InputError, match=r"line 2: waf 'abc' is not a number"):
        read_timeseries(p)
    p = write(tmp_path, "t.csv", HEADER + "10,2,1.0,1.0,3,0.5,0,0,\n5,3,1.0,1.0,3,0.5,0,0,7\n")
    with pytest.raises(InputError, match=r"line 3: host_bytes 5 is below"):
        read_timeseries(p)
    p = write(tmp_path, "t.csv", "host_bytes,waf\n1,1.0\n")
    with pytest.raises(InputError, match=r"line 1: missing column\(s\) trace_time_ns"):
        read_timeseries(p)
    with pytest.raises(InputError, match="no such file"):
        read_timeseries(str(tmp_path / "none.csv"))
    with pytest.raises(InputError, match="empty file"):
        read_timeseries(write(tmp_path, "e.csv", ""))
    rows = read_timeseries(write(tmp_path, "ok.csv", HEADER + "1,2,1.0,1.0,3,0.5,0,0,\n4,5,1.5,2.0,3,0.5,9,1,42\n"))
    assert rows[0]["marker"] is None and rows[1]["marker"] == 42 and rows[1]["waf"] == 1.5


def test_summary_and_json_errors(tmp_path):
    with pytest.raises(InputError, match="not valid JSON"):
        read_summary(write(tmp_path, "s.json", "{"))
    with pytest.raises(InputError, match='no "handles"'):
        read_summary(write(tmp_path, "s.json", '{"waf": 1, "host_bytes": 1, "nand_bytes": 1, "erases": 0, '
                                               '"gc_onset": null, "host_bytes_by_placement_id": []}'))


def test_sweep_errors(tmp_path):
    with pytest.raises(InputError, match="config_id must be first"):
        read_sweep(write(tmp_path, "s.csv", "waf,config_id,host_bytes,gc_bytes,erases,gc_onset_host_bytes,"
                                            "gc_onset_marker,invalid_pid_requests,error\n"))
    head = "config_id,placement,waf,host_bytes,gc_bytes,erases,gc_onset_host_bytes,gc_onset_marker," \
           "invalid_pid_requests,error\n"
    with pytest.raises(InputError, match="line 2: no waf and no error"):
        read_sweep(write(tmp_path, "s.csv", head + "x,single,,,,,,,,\n"))


def test_timed_files_checked(tmp_path):
    with pytest.raises(InputError, match=r"line 3: cum_fraction 1.5 is not in \(0, 1\]"):
        read_latency_cdf(write(tmp_path, "c.csv", "op,latency_ns,cum_fraction\nread,1,0.5\nread,2,1.5\n"))
    with pytest.raises(InputError, match="falls within op read"):
        read_latency_cdf(write(tmp_path, "c.csv", "op,latency_ns,cum_fraction\nread,5,0.5\nread,2,0.7\n"))
    with pytest.raises(InputError, match="line 2: count 'x'"):
        read_events(write(tmp_path, "e.csv", "interval_start_ns,event,count,bytes,lat_mean_ns,lat_p50_ns,"
                                             "lat_p99_ns,lat_max_ns\n0,host_read,x,0,0,0,0,0\n"))
    d = tmp_path / "q"
    d.mkdir()
    (d / "qd_sweep.csv").write_text("qd,ops,count,qps,mb_s,lat_mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns\n"
                                    "0,read,1,1,1,1,1,1,1,1\n")
    with pytest.raises(InputError, match="qd 0 is below 1"):
        read_qd_sweep(str(d / "qd_sweep.csv"))
    (d / "qd_sweep.csv").write_text("qd,placement,ops,count,qps,mib_per_s,lat_mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns\n"
                                    "1,fdp,read,1,1,1,1,1,1,1,1\n2,,read,1,1,1,1,1,1,1,1\n")
    with pytest.raises(InputError, match=r"qd_sweep\.csv: line 3: empty placement"):
        read_qd_sweep(str(d / "qd_sweep.csv"))


def test_qd_sweep_rates_old_and_new(tmp_path):
    # ftlsim's qd_sweep.csv gives MiB/s (mib_per_s); older files gave decimal
    # MB/s (mb_s), read as MiB/s: 1,048,576 MB/s = 1,048,576 x 10^6 bytes/s = 10^6 MiB/s.
    d = tmp_path / "q"
    d.mkdir()
    (d / "qd_sweep.csv").write_text("qd,ops,count,qps,mb_s,lat_mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns\n"
                                    "1,read,1,1,1048576,1,1,1,1,1\n")
    rows, _ = read_qd_sweep(str(d / "qd_sweep.csv"))
    assert rows[0]["mib_per_s"] == pytest.approx(1e6) and "mb_s" not in rows[0]
    (d / "qd_sweep.csv").write_text("placement,qd,ops,count,qps,mib_per_s,lat_mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns\n"
                                    "single,1,read,1,1,12.5,1,1,1,1,1\n")
    rows, _ = read_qd_sweep(str(d / "qd_sweep.csv"))
    assert rows[0]["mib_per_s"] == 12.5 and rows[0]["placement"] == "single"
    (d / "qd_sweep.csv").write_text("qd,ops,count,qps,lat_mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns\n1,read,1,1,1,1,1,1,1\n")
    with pytest.raises(InputError, match="missing column.*mib_per_s"):
        read_qd_sweep(str(d / "qd_sweep.csv"))


def test_compare_reader(tmp_path):
    c = read_compare(write(tmp_path, "c.csv", "metric,a,b,change_pct\nwaf,1.5,1.2,-20.000000\n"
                                              "gc_onset_marker,140000,,\n"))
    assert c["waf"] == {"a": 1.5, "b": 1.2, "change_pct": -20.0}
    assert c["gc_onset_marker"] == {"a": 140000, "b": None, "change_pct": None}
    # The trace rows (compare --trace-b): text, kept as written; other rows still numbers.
    c = read_compare(write(tmp_path, "t.csv", "metric,a,b,change_pct\nwaf,1.5,1.2,-20.000000\n"
                                              "trace,x.ftr,\"y,1.ftr\",\ntrace_records,10,12,\n"))
    assert c["trace"] == {"a": "x.ftr", "b": "y,1.ftr", "change_pct": None}
    assert c["trace_records"] == {"a": 10, "b": 12, "change_pct": None}
    with pytest.raises(InputError, match="t2.csv"):
        read_compare(write(tmp_path, "t2.csv", "metric,a,b,change_pct\nwaf,x.ftr,1,\n"))


def test_sweep_status_columns(tmp_path):
    head = "config_id,placement,waf,host_bytes,gc_bytes,erases,gc_onset_host_bytes,gc_onset_marker," \
           "invalid_pid_requests,waf_share_ruh0,error,status,config_key\n"
    s = read_sweep(write(tmp_path, "s.csv", head + "placement=single,single,1.500000,4096,2048,1,,,0,1.500000,,done,"
                                                   "00000000000000aa\n"
                                                   "placement=fdp,fdp,,,,,,,,,,missing,00000000000000bb\n"
                                                   "placement=oracle,oracle,,,,,,,,,\"bad, really\",error,\n"))
    assert s.axes == ["placement"] and s.handles == ["ruh0"]
    assert [(r["status"], r["waf"], r["error"]) for r in s.rows] == [
        ("done", 1.5, ""), ("missing", None, "not run (the sweep was interrupted)"), ("error", None, "bad, really")]
    with pytest.raises(InputError, match="status 'maybe'"):
        read_sweep(write(tmp_path, "s.csv", head + "x,single,1.5,1,1,1,,,0,1.5,,maybe,\n"))
