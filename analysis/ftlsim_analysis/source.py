"""What a figure's default title names: the trace and the device of the runs
drawn, from their summary.json ("trace", "config")."""
import json
import os

from .errors import InputError
from .figure import GIB, MIB
from .input_file import open_input


def _size(b):
    return f"{b / GIB:.4g} GiB" if b >= GIB else f"{b / MIB:.4g} MiB"


def device_text(config):
    """'femu-eth-512m: 512 MiB logical, 784 MiB physical' from summary.json's
    config (the preset named, and the capacities the run really had)."""
    geo = config.get("geometry") or {}
    parts = []
    if geo.get("logical_bytes"):
        parts.append(f"{_size(geo['logical_bytes'])} logical")
    if geo.get("physical_bytes"):
        parts.append(f"{_size(geo['physical_bytes'])} physical")
    preset = config.get("preset") or "device"
    return preset + (f": {', '.join(parts)}" if parts else "")


def _span(values, unit):
    """'512 MiB logical', or '568 MiB to 1 GiB physical' for several sizes."""
    low, high = min(values), max(values)
    return f"{_size(low)} {unit}" if low == high else f"{_size(low)} to {_size(high)} {unit}"


def devices_text(configs):
    """The devices of `configs` (summary.json configs) for a title: each one's
    device_text, ' / ' between them; from three distinct devices on (a sweep
    of geometry, or --sizing thres over --gc-thres), the presets and the range
    of each capacity: 'confdp-eth-512m: 512 MiB logical, 568 MiB to 1 GiB
    physical (5 devices)', so that the title stays one line."""
    texts = list(dict.fromkeys(device_text(c) for c in configs))
    if len(texts) <= 2:
        return " / ".join(texts)
    presets = list(dict.fromkeys(c.get("preset") or "device" for c in configs))
    geos = [c.get("geometry") or {} for c in configs]
    parts = []
    for key, unit in (("logical_bytes", "logical"), ("physical_bytes", "physical")):
        values = [g[key] for g in geos if g.get(key)]
        if values:
            parts.append(_span(values, unit))
    return f"{' / '.join(presets)}{': ' + ', '.join(parts) if parts else ''} ({len(texts)} devices)"


def describe(summaries):
    """One line naming the trace(s) and device(s) of `summaries` (summary.json
    objects; None for a run without one), and the GC threshold when all runs
    share it: 'geth-ethstate.ftr on femu-eth-512m: 512 MiB logical, 784 MiB
    physical; GC threshold 60%'. Differing traces are listed, in order, and
    devices as devices_text() gives them; runs without a summary are 'trace
    and device not recorded'."""
    known = [s for s in summaries if s]
    if not known:
        return "trace and device not recorded"
    traces = list(dict.fromkeys(os.path.basename(str(s.get("trace", "?"))) for s in known))
    text = f"{' / '.join(traces)} on {devices_text([s.get('config') or {} for s in known])}"
    thres = {((s.get("config") or {}).get("gc") or {}).get("thres_pcent") for s in known}
    if len(thres) == 1 and None not in thres:
        text += f"; GC threshold {next(iter(thres)):g}%"
    # --precondition and --repeat, when every run shares them.
    pre = {((s.get("precondition") or {}) if isinstance(s.get("precondition"), dict) else {}).get("mode")
           for s in known}
    if len(pre) == 1 and None not in pre:
        text += f"; preconditioned ({next(iter(pre))})"
    passes = {len(s["passes"]) if isinstance(s.get("passes"), list) else 1 for s in known}
    if len(passes) == 1 and next(iter(passes)) > 1:
        text += f"; trace x {next(iter(passes))}"
    if len(known) < len(summaries):
        text += " (some runs: not recorded)"
    return text


def summary_beside(path, name="summary.json"):
    """summary.json (or `name`) of the run folder `path` is, or holds (a
    file in it): the parsed object, or None if there is none or it cannot be
    read."""
    folder = path if os.path.isdir(path) else os.path.dirname(path) or "."
    file = os.path.join(folder, name)
    # A regular file of sensible size only: a FIFO would block, and a title needs no more.
    if not os.path.isfile(file) or os.path.getsize(file) > (64 << 20):
        return None
    try:
        with open_input(file) as f:  # noted as an input: no output may replace it
            s = json.load(f)
    except (InputError, OSError, ValueError, RecursionError):
        return None
    return s if isinstance(s, dict) else None


def qd_sweep_source(path):
    """The trace and device qd_sweep.json beside `path` records ("trace",
    "config" in summary.json's shape; ftlsim before #26 wrote neither): the
    object for describe(), or None."""
    s = summary_beside(path, "qd_sweep.json")
    return s if s and isinstance(s.get("trace"), str) and isinstance(s.get("config"), dict) else None


def title(what, source):
    """A default title: what is drawn, then the source line under it."""
    return f"{what}\n{source}" if source else what


def describe_sweep(sweep, rows=None):
    """describe() of a sweep (results.read_sweep): the summary.json of each
    configuration folder beside its sweep.csv that ran, of `rows` (those a
    figure draws) or of every row."""
    folder = os.path.dirname(sweep.path) or "."
    rows = sweep.rows if rows is None else rows
    return describe([summary_beside(os.path.join(folder, r["config_id"])) for r in rows if not r["error"]])


def op_counts(summary):
    """{op: requests timed} of a timed run's summary.json (timing.ops.<op>.count);
    {} without one."""
    ops = ((summary or {}).get("timing") or {}).get("ops") or {}
    return {op: o["count"] for op, o in ops.items() if isinstance(o, dict) and isinstance(o.get("count"), int)}
