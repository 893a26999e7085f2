"""ftlsim's sweep semantics in Python, for analysis/sweep.py: the model
options, how a list or range expands, the order of configurations, config
ids, and sweep.csv rows built from each configuration's summary.json.

This mirrors src/cli/model_settings.cpp (SETTINGS: names, kinds and order) and
src/sweep/sweep_values.cpp (expand_values), sweep_product.cpp (product order,
config_id, make_unique) and sweep_csv.cpp (sweep_csv). What stays true: for
the same options, analysis/sweep.py and a direct `ftlsim` sweep list the
same configurations in the same order under the same ids, and write the
same sweep.csv text (tests/test_dask_sweep.py checks this against ftlsim,
and test_values.py checks SETTINGS against `ftlsim --help`).
"""
import math
import re

from .errors import InputError

# (option name without dashes, kind), in ftlsim's product order: in a sweep
# the last one varies fastest. Kinds: int, real, size, word, placement.
SETTINGS = [
    ("preset", "word"), ("rules", "word"), ("channels", "int"), ("luns", "int"), ("planes", "int"),
    ("blocks", "int"), ("pages", "int"), ("page-size", "size"), ("logical", "size"), ("op", "real"),
    ("sizing", "word"), ("gc-thres", "real"), ("gc-thres-high", "real"), ("victim", "word"),
    ("d-choices", "int"), ("seed", "int"),
    ("gc-check", "word"), ("rg-gc", "word"), ("gc-order", "word"), ("declined", "word"),
    ("forced-passes", "word"), ("gc-trigger", "word"), ("trim-partial", "word"), ("trim-range", "word"),
    ("rg", "int"), ("ru-size", "size"), ("ruh", "int"), ("ruh-type", "word"), ("pi-gc", "word"),
    ("ii-gc", "word"), ("ru-open", "word"), ("rg-split", "word"), ("rg-of", "word"),
    ("pid-format", "word"), ("single", "word"),
    ("ru-time-limit", "word"),
    ("placement", "placement"),
    ("interval", "size"),
    ("write-spill", "word"), ("gc-spill", "word"),
]
SETTING_NAMES = [name for name, _ in SETTINGS]
# The timing options (src/timing/timing_settings.cpp), after the model
# options in the product order (they vary faster still); with --timing only.
# Durations take lists, not ranges, and compare by their nanoseconds.
TIMING_SETTINGS = [
    ("qd", "int"), ("speed", "real"), ("read-time", "duration"), ("program-time", "duration"),
    ("erase-time", "duration"), ("xfer-time", "duration"), ("event-interval", "duration"),
]
TIMING_NAMES = [name for name, _ in TIMING_SETTINGS]
MAX_ITEMS = 10000
MAX_CONFIGURATIONS = 100000
MAX_CONFIG_ID_BYTES = 128
U64_MAX = (1 << 64) - 1
SLOT_BYTES = 4096

_DIGITS = re.compile(r"^[0-9]+")
_REAL = re.compile(r"^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")
_SHIFTS = {"": 0, "b": 0, "k": 10, "m": 20, "g": 30, "t": 40, "p": 50}
_NOUN = {"int": "is not a whole number", "real": "is not a number",
         "size": "is not a size (examples: 4096, 4K, 16M, 64G)"}


def _trim(s):
    return s.strip(" \t")


def parse_whole(s):
    """A whole number as std::from_chars reads uint64 (digits only); None otherwise."""
    if not s or not s.isascii() or not s.isdigit():
        return None
    v = int(s)
    return v if v <= U64_MAX else None


def parse_real(s):
    """A finite decimal number as std::from_chars reads a double; None otherwise."""
    if not _REAL.match(s):
        return None
    v = float(s)
    return v if math.isfinite(v) else None


def parse_size(s):
    """Bytes of a size such as 4096, 4K, 16MiB, 64GB (all binary); None if malformed."""
    m = _DIGITS.match(s)
    if not m:
        return None
    value, suffix = int(m.group(0)), s[m.end():]
    if len(suffix) == 3 and suffix[1:] in ("iB", "ib"):
        suffix = suffix[0]
    elif len(suffix) == 2 and suffix[1] in "Bb":
        suffix = suffix[0]
    shift = _SHIFTS.get(suffix.lower()) if len(suffix) <= 1 else None
    if shift is None or value > U64_MAX or value > U64_MAX >> shift:
        return None
    return value << shift


def format_size_exact(n):
    """The shortest exact form with a binary suffix: 16777216 -> '16M'."""
    for shift, suffix in ((50, "P"), (40, "T"), (30, "G"), (20, "M"), (10, "K")):
        unit = 1 << shift
        if n != 0 and n % unit == 0:
            return f"{n // unit}{suffix}"
    return f"{n}"


def _bad(option, item, why):
    raise InputError(f"{option}: '{item}' {why}")


def _parse(kind, s):
    return {"int": parse_whole, "real": parse_real, "size": parse_size}[kind](s)


def _expand_range(option, kind, item, out):
    parts = item.split(":")
    if len(parts) != 3:
        _bad(option, item, "is not a range START:STOP:STEP")
    parts = [_trim(p) for p in parts]
    for p in parts:
        if _parse(kind, p) is None:
            _bad(option, item, f"is not a range START:STOP:STEP: '{p}' {_NOUN[kind]}")
    start, stop, step = (_parse(kind, p) for p in parts)
    if kind == "real":
        if not step > 0:
            _bad(option, item, "has a step that is not above 0")
        if start > stop:
            _bad(option, item, "has START above STOP")
        count = math.floor((stop - start) / step + 1e-9) + 1  # tolerance as in ftlsim
        if count > MAX_ITEMS:
            _bad(option, item, f"gives more than {MAX_ITEMS} values")
        out.extend("%.12g" % (start + i * step) for i in range(int(count)))
        return
    if step == 0:
        _bad(option, item, "has a step that is not above 0")
    if start > stop:
        _bad(option, item, "has START above STOP")
    if (stop - start) // step + 1 > MAX_ITEMS:
        _bad(option, item, f"gives more than {MAX_ITEMS} values")
    out.extend(format_size_exact(v) if kind == "size" else f"{v}" for v in range(start, stop + 1, step))


def expand_values(option, kind, text):
    """The items of an option's text: a list 'a,b,c' whose number and size
    items may be ranges START:STOP:STEP (inclusive); for placements, a 'map:'
    item runs to the next ';'. Raises InputError as ftlsim does for an empty
    item, a malformed number/size/range, a repeated item (the same value,
    however written: _value_of) or too many items."""
    items = []
    if _trim(text) == "":
        _bad(option, text, "is empty")

    def add(item):
        item = _trim(item)
        if item == "":
            raise InputError(f"{option} {text}: an item of the list is empty")
        if kind in ("word", "placement"):
            items.append(item)
        elif kind == "duration":
            ns = _duration_ns(item)
            if ns is None:
                _bad(option, item, "is not a duration (examples: 40us, 2ms, 500ns)")
            if ns == 0 and option == "--event-interval":  # the setting's own check (timing_settings.cpp)
                raise InputError("--event-interval must be above 0")
            items.append(item)
        elif kind == "size" and item.startswith("fit:"):
            _fit_fraction(option, item)  # --logical fit:P%, a word among sizes (src/sweep/sweep_values.cpp)
            items.append(item)
        elif ":" in item:
            _expand_range(option, kind, item, items)
        else:
            if _parse(kind, item) is None:
                if kind == "size" and option == "--logical" and item.endswith("%"):
                    _bad(option, item, f"is not a size; a fill level is written fit:{item} (each item of a list)")
                _bad(option, item, _NOUN[kind])
            items.append(item)

    if kind == "placement":
        for group in text.split(";"):
            while True:
                if _trim(group).startswith("map:"):
                    add(_trim(group))
                    break
                head, comma, rest = group.partition(",")
                add(head)
                if not comma:
                    break
                group = rest
    else:
        for item in text.split(","):
            add(item)
    if len(items) > MAX_ITEMS:
        raise InputError(f"{option}: more than {MAX_ITEMS} values")
    seen = {}  # value -> the first item that has it
    for item in items:
        value = _value_of(option, kind, item)
        if value not in seen:
            seen[value] = item
            continue
        first = seen[value]
        if first == item:
            _bad(option, item, "is listed twice")
        _bad(option, item, f"is the same value as '{first}', listed before it: a sweep runs each configuration once")
    return items


_FIT_NUMBER = re.compile(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")


def _fit_fraction(option, item):
    """fit:P% as a fraction, as ftlsim's parse_fit (src/sim/fit.cpp) reads it."""
    p = item[4:]
    if p.endswith("%") and _FIT_NUMBER.fullmatch(p[:-1]) and 0.0 < float(p[:-1]) <= 100.0:
        return float(p[:-1]) / 100.0
    raise InputError(f"{option} {item}: fit takes a fill level in percent above 0 and at most 100, e.g. fit:85%")


def _value_of(option, kind, item):
    """What a checked item stands for, as ftlsim compares a list's items
    (src/sweep/sweep_values.cpp): numbers by value (60, 60.0, 6e1), sizes in
    bytes (256M, 268435456), a placement map: by its pairs in ID order, a
    duration (--ru-time-limit) in ns (500ms, 0.5s); other words by their
    text, as ftlsim reads them."""
    if (option == "--ru-time-limit" and item != "off") or kind == "duration":
        ns = _duration_ns(item)
        return item if ns is None else ns
    if kind == "int":
        return parse_whole(item)
    if kind == "real":
        v = parse_real(item)
        return 0.0 if v == 0 else v
    if kind == "size":
        return ("fit", _fit_fraction(option, item)) if item.startswith("fit:") else parse_size(item)
    if kind == "placement" and item.startswith("map:"):
        pairs = [p.partition("=") for p in item[4:].split(",")]
        if all(parse_whole(a) is not None and eq and parse_whole(b) is not None for a, eq, b in pairs):
            return "map:" + ",".join(f"{a}={b}" for a, b in sorted((int(a), int(b)) for a, _, b in pairs))
    return item


def _duration_ns(text):
    """ns of a duration as ftlsim's parse_duration_ns reads it (40us, 2ms,
    0.5s, 500 = ns); None if malformed."""
    m = re.match(r"^(.*?)([A-Za-z]*)$", text)
    scale = {"": 1, "ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}.get(m.group(2))
    v = parse_real(m.group(1)) if scale is not None else None
    if v is None or v < 0:
        return None
    ns = math.floor(v * scale + 0.5)  # std::round: halves away from zero
    return ns if ns < 1 << 64 else None


def config_id(swept):
    """'gc-thres=60_placement=fdp' from [(name, value)]; characters of values
    other than [A-Za-z0-9.=+-] become '-'; 'default' when nothing is swept;
    a name over MAX_CONFIG_ID_BYTES is shortened as ftlsim shortens it."""
    safe = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.=+-")
    parts = [f"{name}={''.join(c if c in safe else '-' for c in value)}" for name, value in swept]
    cid = "_".join(parts) if parts else "default"
    if len(cid) > MAX_CONFIG_ID_BYTES:  # as ftlsim: a prefix, '~' and the FNV-1a 64 hash of the whole
        h = 0xcbf29ce484222325
        for b in cid.encode():
            h = ((h ^ b) * 0x100000001b3) & U64_MAX
        cid = f"{cid[:MAX_CONFIG_ID_BYTES - 17]}~{h:016x}"
    return cid


def make_unique(names):
    """Appends -2, -3, ... to repeated names, in place, as ftlsim does."""
    used = set(names)
    seen = set()
    for i, name in enumerate(names):
        if name not in seen:
            seen.add(name)
            continue
        k = 2
        while f"{name}-{k}" in used:
            k += 1
        names[i] = f"{name}-{k}"
        used.add(names[i])
        seen.add(names[i])


def csv_field(s):
    """A CSV field quoted as ftlsim quotes it (only when it holds , \" CR or LF)."""
    if not any(c in s for c in ',"\r\n'):
        return s
    return '"' + s.replace('"', '""') + '"'


def _handle_order(name):
    """ruh0, ruh1, ... by number first, then the others (the shared gc handle) by name."""
    if len(name) > 3 and name.startswith("ruh") and parse_whole(name[3:]) is not None:
        return (0, parse_whole(name[3:]), "")
    return (1, 0, name)


def _timed_cells(o):
    """sweep.csv's iops, lat_mean_ns, lat_p50_ns, lat_p99_ns, lat_p99_9_ns of
    a timed configuration's summary.json, as ftlsim computes them (timed_row:
    the timed requests together; per second of sim_time_ns; mean = sum /
    count) and formats them."""
    t = o["timing"]
    r = t["requests"]
    count, sim = r["count"], t["sim_time_ns"]
    iops = float(count) * 1e9 / float(sim) if sim else 0.0
    mean = float(r["lat_sum_ns"]) / float(count) if count else 0.0
    lat = r["lat_ns"]
    return ["%.1f" % iops, "%.0f" % mean, f"{lat['p50']}", f"{lat['p99']}", f"{lat['p99.9']}"]


# sweep.csv's named columns between the axes and the shares (src/sweep/sweep_csv.cpp).
METRIC_COLUMNS = ["waf", "host_bytes", "gc_bytes", "erases", "gc_onset_host_bytes", "gc_onset_marker",
                  "invalid_pid_requests", "ru_not_fully_written"]
FIT_COLUMNS = ["logical_bytes", "physical_bytes", "over_provisioning"]
TIMED_COLUMNS = ["iops", "lat_mean_ns", "lat_p50_ns", "lat_p99_ns", "lat_p99_9_ns"]


def sweep_csv(axes, ids, values, outcomes, fitted=False, timed=False):
    """sweep.csv text as ftlsim writes it, except config_key, which stays
    empty: ftlsim's resume key hashes every record of the trace, so a sweep
    written here is not resumed by ftlsim (src/sweep/sweep_product.h allows empty keys).
    outcomes[i] is the configuration's summary.json (a dict) or, when it
    failed, its error message (a str); status is then done or error.
    fitted: the sweep used --logical fit, so the fitted device's columns
    follow ru_not_fully_written, as in ftlsim's. timed: --timing, so the
    TIMED_COLUMNS follow those."""
    handles = []
    for o in outcomes:
        if isinstance(o, dict):
            for h in o["handles"]:
                if h["name"] not in handles:
                    handles.append(h["name"])
    handles.sort(key=_handle_order)
    named = METRIC_COLUMNS + (FIT_COLUMNS if fitted else []) + (TIMED_COLUMNS if timed else [])
    head = ["config_id"] + [csv_field(a) for a in axes] + named + [csv_field(f"waf_share_{h}") for h in handles] + [
        "error", "status", "config_key"]
    lines = [",".join(head)]
    for cid, vals, o in zip(ids, values, outcomes):
        f = [csv_field(cid)] + [csv_field(v) for v in vals]
        if isinstance(o, dict):
            host, nand = o["host_pages"], o["nand_pages"]
            f.append("%.6f" % (nand / host if host else 0.0))
            f += [f"{host * SLOT_BYTES}", f"{o['gc_pages'] * SLOT_BYTES}", f"{o['erases']}"]
            onset = o["gc_onset"]
            if onset is None:
                f += ["", ""]
            else:
                f += [f"{onset['host_bytes']}", "" if onset["marker"] is None else f"{onset['marker']}"]
            events = o["fdp_stats"]["events"]
            f.append(f"{events['invalid_placement_id']}")
            f.append(f"{events['ru_not_fully_written']}")
            if fitted:
                g = o["config"]["geometry"]
                f += [f"{g['logical_bytes']}", f"{g['physical_bytes']}", "%.6f" % g["over_provisioning"]]
            if timed:
                f += _timed_cells(o)
            by_name = {h["name"]: h for h in o["handles"]}
            host_bytes = host * SLOT_BYTES
            for name in handles:
                h = by_name.get(name)
                if h is None:
                    f.append("")
                else:
                    share = (h["host_bytes"] + h["gc_out_bytes"]) / host_bytes if host_bytes else 0.0
                    f.append("%.6f" % share)
            f += ["", "done", ""]
        else:
            f += [""] * (len(named) + len(handles)) + [csv_field(o), "error", ""]
        lines.append(",".join(f))
    return "\n".join(lines) + "\n"
