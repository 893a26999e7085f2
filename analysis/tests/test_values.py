"""The Python mirror of ftlsim's sweep expansion: option list and order
against ftlsim's own --help, and expansions worked out by hand from the
rules in `ftlsim --help` (the Dask test compares whole sweeps with ftlsim)."""
import re
import subprocess

import pytest

from ftlsim_analysis.errors import InputError
from ftlsim_analysis.values import (SETTING_NAMES, TIMING_NAMES, config_id, csv_field, expand_values,
                                    format_size_exact, make_unique, parse_size)


def test_settings_in_ftlsim_product_order(ftlsim):
    help_text = subprocess.run([ftlsim, "--help"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"ordered like nested loops over\s+(.*?)\s+with the last option", help_text, re.S)
    assert m, "ftlsim --help no longer states the sweep order"
    names = [n.strip() for n in m.group(1).replace("\n", " ").split(",")]
    assert names == SETTING_NAMES
    m = re.search(r"the timing options follow them \(varying faster still\):\s+(.*?)\.\n", help_text, re.S)
    assert m, "ftlsim --help no longer states the timing options' order"
    assert [n.strip() for n in m.group(1).replace("\n", " ").split(",")] == TIMING_NAMES


def test_lists_and_ranges():
    assert expand_values("--gc-thres", "real", "50:90:10") == ["50", "60", "70", "80", "90"]
    assert expand_values("--gc-thres", "real", "0.1:0.3:0.1") == ["0.1", "0.2", "0.3"]
    assert expand_values("--gc-thres", "real", " 60 , 75") == ["60", "75"]
    assert expand_values("--ru-size", "size", "16M:64M:16M,1G") == ["16M", "32M", "48M", "64M", "1G"]
    assert expand_values("--ru-size", "size", "512K:1536K:512K") == ["512K", "1M", "1536K"]
    assert expand_values("--ruh", "int", "2:8:3") == ["2", "5", "8"]
    assert expand_values("--placement", "placement", "single,fdp;map:0=0,1=0,2=1;oracle") == [
        "single", "fdp", "map:0=0,1=0,2=1", "oracle"]
    assert expand_values("--placement", "placement", "map:0=1") == ["map:0=1"]
    assert expand_values("--victim", "word", "greedy,fifo") == ["greedy", "fifo"]
    # --logical fit:P%: a word among sizes, never a range (its ':').
    assert expand_values("--logical", "size", "fit:85%,fit:100%,64M") == ["fit:85%", "fit:100%", "64M"]


@pytest.mark.parametrize("option,kind,text,message", [
    ("--gc-thres", "real", "50,,60", "an item of the list is empty"),
    ("--gc-thres", "real", "", "is empty"),
    ("--gc-thres", "real", "abc", "'abc' is not a number"),
    ("--ruh", "int", "-1", "'-1' is not a whole number"),
    ("--ruh", "int", "+1", "'+1' is not a whole number"),
    ("--ru-size", "size", "16X", "is not a size"),
    ("--gc-thres", "real", "90:50:10", "has START above STOP"),
    ("--gc-thres", "real", "50:90:0", "has a step that is not above 0"),
    ("--gc-thres", "real", "50:90", "is not a range START:STOP:STEP"),
    ("--gc-thres", "real", "60,60", "is listed twice"),
    ("--ruh", "int", "6,6", "'6' is listed twice"),
    # The same value in other words (issue #22): as ftlsim refuses it.
    ("--gc-thres", "real", "60,60.0,70", "'60.0' is the same value as '60', listed before it"),
    ("--gc-thres", "real", "6e1,60", "'60' is the same value as '6e1'"),
    ("--gc-thres", "real", "50:70:10,60.00", "'60.00' is the same value as '60'"),
    ("--ruh", "int", "4,04", "'04' is the same value as '4'"),
    ("--logical", "size", "256M,268435456", "'268435456' is the same value as '256M'"),
    ("--ru-size", "size", "1M:4M:1M,2048K", "'2048K' is the same value as '2M'"),
    ("--placement", "placement", "map:0=1,1=2;map:1=2,0=1", "'map:1=2,0=1' is the same value as 'map:0=1,1=2'"),
    ("--ru-time-limit", "word", "off,500ms,0.5s", "'0.5s' is the same value as '500ms'"),
    ("--ruh", "int", "1:20000:1", "gives more than 10000 values"),
    ("--logical", "size", "fit:85", "--logical fit:85: fit takes a fill level in percent above 0 and at most 100"),
    ("--logical", "size", "fit:0%", "fit takes a fill level in percent above 0"),
    ("--logical", "size", "fit:101%", "fit takes a fill level in percent above 0"),
    ("--logical", "size", "fit:50%,fit:50.0%", "'fit:50.0%' is the same value as 'fit:50%'"),
    ("--logical", "size", "fit:70%,80%", "--logical: '80%' is not a size; a fill level is written fit:80%"),
])
def test_bad_values(option, kind, text, message):
    with pytest.raises(InputError, match=re.escape(message)):
        expand_values(option, kind, text)


def test_sizes_ids_and_quoting():
    assert parse_size("16MiB") == parse_size("16MB") == parse_size("16m") == 1 << 24
    assert parse_size("4096") == 4096 and parse_size("1.5G") is None and parse_size("G") is None
    assert format_size_exact(1 << 30) == "1G" and format_size_exact(1536 << 10) == "1536K"
    assert format_size_exact(1000) == "1000"
    assert config_id([("gc-thres", "60"), ("placement", "map:0=0,1=0")]) == "gc-thres=60_placement=map-0=0-1=0"
    assert config_id([]) == "default"
    # Long ids: as tests/sweep/test_sweep.cpp checks ftlsim's (prefix, '~', FNV-1a 64 of the whole id).
    long_id = config_id([("placement", "map:" + "7" * 150), ("gc-thres", "60")])
    full = "placement=map-" + "7" * 150 + "_gc-thres=60"
    h = 14695981039346656037
    for b in full.encode():
        h = ((h ^ b) * 1099511628211) % (1 << 64)
    assert long_id == full[:111] + "~" + format(h, "016x") and len(long_id) == 128
    names = ["a", "b", "a", "a-2", "a"]
    make_unique(names)
    assert names == ["a", "b", "a-3", "a-2", "a-4"]
    assert csv_field("plain") == "plain" and csv_field('x,"y"') == '"x,""y"""'
