"""Readers of ftlsim's output files.

Every reader checks what it reads and raises InputError naming the file and
the line (CSV) for a missing file, a missing column, a wrong field count or a
field that is not a number where one is needed. Numbers keep their type: a
field written as an integer is read as int, anything else as float, so a CSV
written back from them shows the same numbers.

Formats (see README "The output files" and src/sim/report.cpp,
src/sweep/sweep_csv.cpp, src/cli/cmd_compare.cpp; the timed-mode files
follow the timed-mode output contract):
  summary.json      one JSON object
  timeseries.csv    host_bytes,trace_time_ns,waf,interval_waf,free_units,
                    valid_ratio,gc_bytes,unit_erases,marker (marker may be empty)
  sweep.csv         config_id, one column per swept option, waf, host_bytes,
                    gc_bytes, erases, gc_onset_host_bytes, gc_onset_marker,
                    invalid_pid_requests, waf_share_<handle>..., error, and
                    since sweeps resume: status (done, error, missing),
                    config_key
  compare.csv       metric,a,b,change_pct (empty cells allowed; the rows
                    named in COMPARE_TEXT_METRICS hold text: each side's trace)
  events.csv        interval_start_ns,event,count,bytes,lat_mean_ns,
                    lat_p50_ns,lat_p99_ns,lat_max_ns
  latency_cdf.csv   op,latency_ns,cum_fraction
  qd_sweep.csv      placement,qd,ops,count,qps,mib_per_s,lat_mean_ns,p50_ns,p95_ns,
                    p99_ns,p99_9_ns (older ftlsim: no placement column, and
                    mb_s in 10^6 bytes/s instead of mib_per_s; both are read)
  qd_sweep.json     {"rows": [...], "knee_qd": N}
"""
import csv
import json
import math
import os
import re

from .errors import InputError
from .values import SETTINGS
from .input_file import U64_LIMIT, json_int, json_list, json_number, json_object, json_str, open_input, shown

_INT = re.compile(r"^-?[0-9]+$")

TIMESERIES_COLUMNS = ["host_bytes", "trace_time_ns", "waf", "interval_waf", "free_units", "valid_ratio",
                      "gc_bytes", "unit_erases", "marker"]
EVENTS_COLUMNS = ["interval_start_ns", "event", "count", "bytes", "lat_mean_ns", "lat_p50_ns", "lat_p99_ns",
                  "lat_max_ns"]
LATENCY_CDF_COLUMNS = ["op", "latency_ns", "cum_fraction"]
ID_TIMESERIES_COLUMNS = ["host_bytes", "kind", "id", "name", "id_host_bytes", "id_gc_bytes", "waf_share"]
ID_KINDS = ("pid", "precondition", "handle")
QD_COLUMNS = ["qd", "ops", "count", "qps", "mib_per_s", "lat_mean_ns", "p50_ns", "p95_ns", "p99_ns", "p99_9_ns"]
# qd_sweep.csv of ftlsim before rates were binary: decimal MB/s in mb_s.
_QD_LEGACY_RATE = "mb_s"
COMPARE_COLUMNS = ["metric", "a", "b", "change_pct"]
# sweep.csv: the columns after the swept options, before waf_share_<handle>...
# (ru_not_fully_written is newer than the others: files without it are read).
SWEEP_RESULT_COLUMNS = ["waf", "host_bytes", "gc_bytes", "erases", "gc_onset_host_bytes", "gc_onset_marker",
                        "invalid_pid_requests", "ru_not_fully_written", "logical_bytes", "physical_bytes",
                        "over_provisioning", "iops", "lat_mean_ns", "lat_p50_ns", "lat_p99_ns", "lat_p99_9_ns"]
# Columns older files, sweeps without --logical fit (logical_bytes to
# over_provisioning) or without --timing (iops and the latencies) lack.
_SWEEP_OPTIONAL = {"ru_not_fully_written", "logical_bytes", "physical_bytes", "over_provisioning", "iops",
                   "lat_mean_ns", "lat_p50_ns", "lat_p99_ns", "lat_p99_9_ns"}


def parse_number(text):
    """int for an integer literal, else a finite float; None if not a number
    or if it is 2^64 or more in magnitude (ftlsim writes nothing that large:
    a 400-digit count is damage, and arithmetic on it would overflow)."""
    text = text.strip()
    if _INT.match(text):
        if len(text.lstrip("-")) > 20:  # before int(): Python refuses to convert over 4300 digits
            return None
        v = int(text)
        return v if abs(v) < U64_LIMIT else None
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) and abs(v) < U64_LIMIT else None


class CsvTable:
    """A CSV file read whole: header, and rows as (line number, {column: text})."""

    def __init__(self, path, required=()):
        self.path = path
        self.rows = []
        try:
            with open_input(path) as f:
                reader = csv.reader(f)
                try:
                    self.header = next(reader)
                except StopIteration:
                    raise InputError(f"{path}: empty file (no header line)") from None
                except csv.Error as e:
                    raise InputError(f"{path}: line 1: {e}") from None
                missing = [c for c in required if c not in self.header]
                if missing:
                    raise InputError(f"{path}: line 1: missing column(s) {', '.join(missing)} "
                                     f"(header: {','.join(self.header)})")
                try:
                    for fields in reader:
                        if not fields:
                            continue
                        if len(fields) != len(self.header):
                            raise InputError(f"{path}: line {reader.line_num}: {len(fields)} fields, the header has "
                                             f"{len(self.header)}")
                        self.rows.append((reader.line_num, dict(zip(self.header, fields))))
                except csv.Error as e:
                    raise InputError(f"{path}: line {reader.line_num}: {e}") from None
        except UnicodeDecodeError:
            raise InputError(f"{path}: not a text file") from None

    def number(self, line, row, column, optional=False):
        """The field as int or float; None for an empty field if `optional`."""
        text = row[column]
        if optional and text.strip() == "":
            return None
        v = parse_number(text)
        if v is None:
            raise InputError(f"{self.path}: line {line}: {column} {shown(text)} is not a number below 2^64")
        return v


def read_json(path):
    """A JSON file as Python objects."""
    with open_input(path) as f:
        try:
            return json.load(f)
        except (ValueError, UnicodeDecodeError, RecursionError) as e:  # ValueError: JSONDecodeError, over 4300 digits
            raise InputError(f"{path}: not valid JSON: {str(e).splitlines()[0] if str(e) else type(e).__name__}") \
                from None


def read_summary(path):
    """summary.json; checks the fields the figures and the report use."""
    s = read_json(path)
    if not isinstance(s, dict):
        raise InputError(f"{path}: not a summary.json (not a JSON object)")
    for key in ("waf", "host_bytes", "nand_bytes", "erases", "gc_onset", "handles", "host_bytes_by_placement_id"):
        if key not in s:
            raise InputError(f"{path}: not a summary.json (no \"{key}\")")
    check_summary(path, s)
    return s


def check_summary(path, s):
    """Checks the type and range of every summary.json value the figures and
    the report use; raises InputError naming the field."""
    json_number(path, "waf", s["waf"])
    for key in ("host_bytes", "nand_bytes", "erases"):
        json_int(path, key, s[key])
    onset = s["gc_onset"]
    if onset is not None:
        json_object(path, "gc_onset", onset)
        for key in ("host_bytes", "trace_time_ns"):
            if key in onset:
                json_int(path, f"gc_onset.{key}", onset[key])
        if onset.get("marker") is not None:
            json_int(path, "gc_onset.marker", onset["marker"])
    for i, h in enumerate(json_list(path, "handles", s["handles"])):
        where = f"handles[{i}]"
        json_object(path, where, h)
        json_str(path, f"{where}.name", h.get("name"))
        for key in ("host_bytes", "gc_out_bytes"):
            json_int(path, f"{where}.{key}", h.get(key))
    for i, p in enumerate(json_list(path, "host_bytes_by_placement_id", s["host_bytes_by_placement_id"])):
        where = f"host_bytes_by_placement_id[{i}]"
        json_object(path, where, p)
        json_int(path, f"{where}.pid", p.get("pid"))
        json_int(path, f"{where}.bytes", p.get("bytes"))
        if "name" in p:
            json_str(path, f"{where}.name", p["name"])
    timing = s.get("timing")
    if timing is not None:
        for op, o in json_object(path, "timing.ops", json_object(path, "timing", timing).get("ops", {})).items():
            where = f"timing.ops.{op}"
            json_object(path, where, o)
            json_int(path, f"{where}.count", o.get("count"))
            for key in ("iops", "mib_per_s", "mb_s"):
                if key in o or key == "iops":
                    json_number(path, f"{where}.{key}", o.get(key))
            lat = json_object(path, f"{where}.lat_ns", o.get("lat_ns"))
            for key in ("mean", "p50", "p99", "p99.9", "max"):
                json_number(path, f"{where}.lat_ns.{key}", lat.get(key))


def read_timeseries(path):
    """timeseries.csv as a list of dicts; marker is None where empty. Requires
    host_bytes to be non-decreasing (it is cumulative)."""
    t = CsvTable(path, TIMESERIES_COLUMNS)
    out = []
    for line, row in t.rows:
        r = {c: t.number(line, row, c) for c in TIMESERIES_COLUMNS if c != "marker"}
        r["marker"] = t.number(line, row, "marker", optional=True)
        if out and r["host_bytes"] < out[-1]["host_bytes"]:
            raise InputError(f"{path}: line {line}: host_bytes {r['host_bytes']} is below the previous row's "
                             f"{out[-1]['host_bytes']}")
        out.append(r)
    return out


def read_id_timeseries(path):
    """id_timeseries.csv (ftlsim --id-series) as a list of dicts: host_bytes,
    kind ("pid", "precondition" or "handle"), id (an int; None for
    precondition), name, id_host_bytes, id_gc_bytes, waf_share. Requires
    host_bytes to be non-decreasing (rows come in timeseries order)."""
    t = CsvTable(path, ID_TIMESERIES_COLUMNS)
    out = []
    for line, row in t.rows:
        r = {c: t.number(line, row, c) for c in ("host_bytes", "id_host_bytes", "id_gc_bytes", "waf_share")}
        r["kind"] = row["kind"]
        if r["kind"] not in ID_KINDS:
            raise InputError(f"{path}: line {line}: kind '{r['kind'][:32]}' is not pid, precondition or handle")
        r["id"] = t.number(line, row, "id", optional=r["kind"] == "precondition")
        if r["id"] is not None and (not isinstance(r["id"], int) or r["id"] < 0):
            raise InputError(f"{path}: line {line}: id {r['id']} is not a whole number >= 0")
        r["name"] = row["name"]
        if out and r["host_bytes"] < out[-1]["host_bytes"]:
            raise InputError(f"{path}: line {line}: host_bytes {r['host_bytes']} is below the previous row's "
                             f"{out[-1]['host_bytes']}")
        out.append(r)
    if not out:
        raise InputError(f"{path}: no rows")
    return out


class SweepResults:
    """sweep.csv: `axes` (swept option names in product order), `handles`
    (the waf_share_<handle> names) and `rows`: dicts with 'config_id',
    'values' {axis: text}, the result columns as numbers (None where empty),
    'status' ('done', 'error' or 'missing': not run, the sweep was
    interrupted; files without a status column give done or error) and
    'error' (text, '' when done; for a missing row, a note saying so)."""

    def __init__(self, path):
        t = CsvTable(path, ["config_id", "error"] + [c for c in SWEEP_RESULT_COLUMNS if c not in _SWEEP_OPTIONAL])
        h = t.header
        if h[0] != "config_id" or h.index("waf") > h.index("error"):
            raise InputError(f"{path}: line 1: not a sweep.csv (config_id must be first, error after waf)")
        waf_at = h.index("waf")
        self.path = path
        self.axes = h[1:waf_at]
        self.handles = [c[len("waf_share_"):] for c in h if c.startswith("waf_share_")]
        self.columns = [c for c in SWEEP_RESULT_COLUMNS if c in h]  # the result columns this file has
        self.rows = []
        kinds = dict(SETTINGS)
        seen, ids = {}, {}  # swept values / config_id -> line
        for line, row in t.rows:
            r = {"config_id": row["config_id"], "values": {a: row[a] for a in self.axes}, "error": row["error"]}
            for c in SWEEP_RESULT_COLUMNS + [f"waf_share_{x}" for x in self.handles]:
                r[c] = t.number(line, row, c, optional=True) if c in row else None
            r["status"] = row.get("status") or ("error" if r["error"] else "done")
            if r["status"] not in ("done", "error", "missing"):
                raise InputError(f"{path}: line {line}: status '{r['status']}' is not done, error or missing")
            if r["status"] == "missing":
                r["error"] = r["error"] or "not run (the sweep was interrupted)"
            elif r["error"] == "" and r["waf"] is None:
                raise InputError(f"{path}: line {line}: no waf and no error")
            for c in SWEEP_RESULT_COLUMNS + [f"waf_share_{x}" for x in self.handles]:
                if r.get(c) is not None and r[c] < 0:
                    raise InputError(f"{path}: line {line}: {c} {shown(row[c])} is negative")
            for a in self.axes:
                if kinds.get(a) in ("int", "real") and _sweep_value_key(row[a]) is None:
                    raise InputError(f"{path}: line {line}: {a} {shown(row[a])} is not a number")
            key = tuple(_sweep_value_key(row[a]) if kinds.get(a) in ("int", "real") else row[a] for a in self.axes)
            if key in seen or row["config_id"] in ids:
                first = seen.get(key) or ids[row["config_id"]]
                raise InputError(f"{path}: line {line}: the same configuration as line {first} "
                                 f"({row['config_id']}); a sweep runs each configuration once")
            seen[key] = ids[row["config_id"]] = line
            self.rows.append(r)


def _sweep_value_key(text):
    from .sweep_plots import value_key
    return value_key(text)


def read_sweep(path):
    return SweepResults(path)


# compare.csv rows whose a and b cells are text, not numbers.
COMPARE_TEXT_METRICS = ("trace",)


def read_compare(path):
    """compare.csv as {metric: {'a': x, 'b': x, 'change_pct': x}} (None where empty), in file order;
    the rows of COMPARE_TEXT_METRICS keep their cells as text."""
    t = CsvTable(path, COMPARE_COLUMNS)
    out = {}
    for line, row in t.rows:
        if row["metric"] in COMPARE_TEXT_METRICS:
            out[row["metric"]] = {"a": row["a"], "b": row["b"], "change_pct": None}
            continue
        out[row["metric"]] = {c: t.number(line, row, c, optional=True) for c in ("a", "b", "change_pct")}
    return out


def read_events(path):
    """events.csv (timed mode) as a list of dicts."""
    t = CsvTable(path, EVENTS_COLUMNS)
    out = []
    for line, row in t.rows:
        r = {c: t.number(line, row, c) for c in EVENTS_COLUMNS if c != "event"}
        r["event"] = row["event"]
        if r["interval_start_ns"] < 0 or r["count"] < 0:
            raise InputError(f"{path}: line {line}: negative interval start or count")
        out.append(r)
    return out


def read_latency_cdf(path):
    """latency_cdf.csv (timed mode) as {op: [(latency_ns, cum_fraction), ...]}.
    Requires, per op, rising latencies and cumulative fractions in (0, 1] that
    do not fall."""
    t = CsvTable(path, LATENCY_CDF_COLUMNS)
    out = {}
    for line, row in t.rows:
        lat = t.number(line, row, "latency_ns")
        cum = t.number(line, row, "cum_fraction")
        if not 0 < cum <= 1 + 1e-9:
            raise InputError(f"{path}: line {line}: cum_fraction {cum} is not in (0, 1]")
        points = out.setdefault(row["op"], [])
        if points and (lat <= points[-1][0] or cum < points[-1][1]):
            raise InputError(f"{path}: line {line}: latency or cum_fraction falls within op {row['op']}")
        points.append((lat, cum))
    return out


def read_qd_sweep(path):
    """qd_sweep.csv as a list of dicts, plus knee_qd from qd_sweep.json beside
    it (None if that file is absent): returns (rows, knee_qd). A file with a
    placement column (several placements in one run) gives each row a
    "placement" and knee_qd None: the knee is one per placement, computed
    from the rows (qd.knee_qd)."""
    t = CsvTable(path)
    legacy = _QD_LEGACY_RATE in t.header and "mib_per_s" not in t.header
    columns = [_QD_LEGACY_RATE if legacy and c == "mib_per_s" else c for c in QD_COLUMNS]
    missing = [c for c in columns if c not in t.header]
    if missing:
        raise InputError(f"{path}: line 1: missing column(s) {', '.join(missing)} (header: {','.join(t.header)})")
    has_placement = "placement" in t.header
    rows = []
    for line, row in t.rows:
        r = {c: t.number(line, row, c) for c in columns if c != "ops"}
        if legacy:
            r["mib_per_s"] = r.pop(_QD_LEGACY_RATE) * 1e6 / 2**20
        r["ops"] = row["ops"]
        if has_placement:
            if not row["placement"].strip():
                raise InputError(f"{path}: line {line}: empty placement")
            r["placement"] = row["placement"]
        if r["qd"] < 1:
            raise InputError(f"{path}: line {line}: qd {r['qd']} is below 1")
        for c in columns:
            if c not in ("ops", "qd") and r.get(c) is not None and r[c] < 0:
                raise InputError(f"{path}: line {line}: {c} {shown(row[c])} is negative")
        rows.append(r)
    knee = None
    side = os.path.join(os.path.dirname(path), "qd_sweep.json")
    if os.path.exists(side) and not has_placement:
        j = read_json(side)
        knee = j.get("knee_qd") if isinstance(j, dict) else None
        if knee is not None:
            json_int(side, "knee_qd", knee, minimum=1)
    return rows, knee
