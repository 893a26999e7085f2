"""Opening the files the tools read, and checking the JSON values they use.

open_input never blocks and accepts only regular files that fit in the
memory available, as ftlsim's
core/input_file.h: a FIFO given by mistake (or planted in an output folder)
would otherwise block open() until a writer comes, forever. A device is
refused before it is opened (opening some has effects); the opened file is
checked again (fstat), so what is read is what was checked.

json_* check the type and range of one value of a JSON file: ftlsim writes
integers below 2^64 and finite numbers, so anything else (null, a string, a
400-digit count) is refused with one line naming the file and the field,
before arithmetic on it could raise."""
import fcntl
import math
import os
import stat

from .errors import InputError
from .output_file import note_input

U64_LIMIT = 1 << 64  # ftlsim's counts are uint64: every number it writes is below this in magnitude

# The tools read an input whole: its rows or its JSON take about 2.1 times
# the file's size in memory (measured on 1 GiB CSV and JSON inputs); with
# headroom, a file is refused when this many times its size is more than the
# memory available, before a byte is read (as ftlsim refuses a run that will
# not fit).
MEMORY_PER_BYTE = 3


def memory_available():
    """MemAvailable of /proc/meminfo in bytes; None when it cannot be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _gib(n):
    return f"{n / (1 << 30):.1f} GiB"


def check_fits(path, size, available=None):
    """Raises InputError when reading `size` bytes of `path` would need more
    memory than is available (MEMORY_PER_BYTE x size)."""
    available = memory_available() if available is None else available
    if available is not None and size * MEMORY_PER_BYTE > available:
        raise InputError(f"{path}: {_gib(size)} would take about {_gib(size * MEMORY_PER_BYTE)} of memory to read, "
                         f"more than the {_gib(available)} available; no ftlsim output is that large")


def file_kind(mode):
    """'a FIFO (named pipe)', 'a directory', ...: what a non-regular file is."""
    for test, name in ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _not_regular(path, mode):
    return InputError(f"{path}: not a regular file ({file_kind(mode)}); give a file")


def open_input(path, binary=False):
    """The regular file `path` opened for reading (text mode unless binary),
    without blocking. Raises InputError: missing, not permitted, not a
    regular file (naming what it is)."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(path, st.st_mode)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except NotADirectoryError:
        raise InputError(f"{path}: no such file") from None
    except OSError as e:
        raise InputError(f"{path}: cannot open: {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # replaced between stat and open
            raise _not_regular(path, st.st_mode)
        check_fits(path, st.st_size)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        note_input(st, path)  # no output of this command may replace it (output_file)
        return os.fdopen(fd, "rb") if binary else os.fdopen(fd, "r", newline="")
    except BaseException:
        os.close(fd)
        raise


def check_input(path):
    """Refuses (InputError) a `path` that is not a readable regular file, as
    open_input does, and notes it as an input of the command."""
    open_input(path, binary=True).close()


def shown(value):
    """A value for a message: repr, cut at 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:32] + f"... ({len(text)} characters)"


def _where(path, field):
    return f"{path}: \"{field}\""


def json_int(path, field, value, minimum=0):
    """`value` as an integer in [minimum, 2^64) (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{_where(path, field)} is {shown(value)}, not a whole number")
    if not minimum <= value < U64_LIMIT:
        raise InputError(f"{_where(path, field)} {shown(value)} is out of range ({minimum} to 2^64-1)")
    return value


def json_number(path, field, value):
    """`value` as a finite number below 2^64 in magnitude (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{_where(path, field)} is {shown(value)}, not a number")
    if isinstance(value, int):
        if abs(value) >= U64_LIMIT:
            raise InputError(f"{_where(path, field)} {shown(value)} is out of range (below 2^64)")
    elif not math.isfinite(value) or abs(value) >= U64_LIMIT:
        raise InputError(f"{_where(path, field)} {shown(value)} is out of range (below 2^64)")
    return value


def _typed(path, field, value, kind, noun):
    if not isinstance(value, kind):
        raise InputError(f"{_where(path, field)} is {shown(value)}, not {noun}")
    return value


def json_str(path, field, value):
    return _typed(path, field, value, str, "a string")


def json_object(path, field, value):
    return _typed(path, field, value, dict, "an object")


def json_list(path, field, value):
    return _typed(path, field, value, list, "a list")
