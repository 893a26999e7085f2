"""tools/geth_patch/capture_post.py on small hand-made logs and hint files.

The IDs expected here are worked out by hand from the event logs: a bio gets
the tier of the Pebble file its inode was at the bio's time, the freezer's ID
inside the freezer window, and 0 otherwise. Malformed input is refused with
the file and line named, and the hint file is left as it was.
"""
import os
import stat
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "geth_patch",
                      "capture_post.py")
HEADER = "time_ns,dev,sector,sectors,hint,stream,ino,pid,comm\n"


def row(t, ino, hint=0, sectors=8):
    return f"{t},7:0,0,{sectors},{hint},0,{ino},1,geth\n"


class CapturePost(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text, mode=0o644):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(path, mode)
        return path

    def run_post(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)

    def hints_of(self, path):
        with open(path, encoding="utf-8") as f:
            lines = [line for line in f if not line.startswith("#")][1:]
        return [int(line.split(",")[4]) for line in lines]

    def test_inode_hints_follow_each_inode_life(self):
        # Inode 10: a flush table (ID 2) removed at t=300, then reused by a
        # WAL (ID 1). Inode 11: a freezer file first seen at t=5 s. Inode 12:
        # never in the log (file-system metadata): 0.
        log = self.write("ev.jsonl",
                         '{"t_ns": 100, "ev": "create", "file": "000001.sst", "ino": 10, "id": 2}\n'
                         '{"t_ns": 300, "ev": "remove", "file": "000001.sst"}\n'
                         '{"t_ns": 400, "ev": "create", "file": "000002.log", "ino": 10, "id": 1}\n'
                         '{"t_ns": 5000000000, "ev": "ancient", "file": "a.cdat", "ino": 11}\n')
        hints = self.write("h.csv", "# comment kept\n" + HEADER + row(200, 10, hint=3) + row(500, 10) +
                           row(3_500_000_000, 11) + row(600, 12, hint=4) + row(2_000_000_000, 11))
        r = self.run_post("inode-hints", "--events", log, "--ancient-id", "6", hints)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.hints_of(hints), [2, 1, 6, 0, 0])
        self.assertIn("4 of 5 hint rows changed", r.stderr)  # the last row was 0 already
        self.assertIn("2 rows carried a different non-zero hint", r.stderr)
        with open(hints, encoding="utf-8") as f:
            self.assertEqual(f.readline(), "# comment kept\n")
        # The rewritten file keeps the original's permissions (not mkstemp's 0600).
        self.assertEqual(stat.S_IMODE(os.stat(hints).st_mode), 0o644)

    def test_ancient_hints_move_freezer_bios_only(self):
        log = self.write("ev.jsonl",
                         '{"t_ns": 1000, "ev": "create", "file": "000001.sst", "ino": 10, "id": 5}\n'
                         '{"t_ns": 5000000000, "ev": "ancient", "file": "a.cdat", "ino": 11}\n')
        hints = self.write("h.csv", HEADER + row(2000, 10, hint=5) + row(4_000_000_000, 11, hint=5) +
                           row(2_000_000_000, 11, hint=5), mode=0o640)
        r = self.run_post("ancient-hints", "--events", log, "--id", "6", hints)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.hints_of(hints), [5, 6, 5])  # the last is before the window (t0 - 2 s)
        self.assertIn("1 of 3 hint rows moved to ID 6", r.stderr)
        self.assertEqual(stat.S_IMODE(os.stat(hints).st_mode), 0o640)

    def refused(self, log_text, hints_text, message):
        log = self.write("ev.jsonl", log_text)
        hints = self.write("h.csv", hints_text)
        r = self.run_post("inode-hints", "--events", log, hints)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertIn(message, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        with open(hints, encoding="utf-8") as f:
            self.assertEqual(f.read(), hints_text)  # untouched
        self.assertEqual(sorted(os.listdir(self.dir)), ["ev.jsonl", "h.csv"])  # no temporary left

    def test_bad_input_names_file_and_line(self):
        good = '{"t_ns": 1, "ev": "create", "file": "1.sst", "ino": 10, "id": 2}\n'
        hints = HEADER + row(5, 10)
        self.refused(good + '{"ev": "create", "file": "2.sst", "ino": 11, "id": 2}\n', hints,
                     "ev.jsonl: line 2: no time stamp (t_ns)")
        self.refused(good + '{"t_ns": 2, "ev": "create", "ino": 11, "id": 2}\n', hints,
                     "ev.jsonl: line 2: a 'create' event without file")
        self.refused(good + '{"t_ns": 2, "ev": "close", "file": "2.sst", "ino": 11}\n', hints,
                     "ev.jsonl: line 2: a 'close' event without id")
        self.refused(good + "[1, 2]\n", hints, "ev.jsonl: line 2: not an event")
        self.refused(good + '{"t_ns": 2, "ino": "x"}\n', hints, "ev.jsonl: line 2: ino is not an inode number")
        self.refused(good + "{not json\n", hints, "ev.jsonl: line 2: not JSON")
        self.refused(good, HEADER + row(5, 10) + "6,7:0,0\n", "h.csv: line 3: 3 fields, the header has 9")
        self.refused(good, HEADER + row(5, 10) + "6,7:0,0,8,x,0,10,1,geth\n", "h.csv: line 3: bad time_ns")


if __name__ == "__main__":
    unittest.main()
