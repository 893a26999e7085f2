"""Writing the tools' outputs without losing anything (issue #22, the rules of
ftlsim's core/atomic_file.h and core/output_dir.h, docs/bad_input.md).

Output files (OutputSet): every output of one command is checked before any
is written. Each one's folder is opened once, component by component with
O_DIRECTORY | O_NOFOLLOW (a symbolic link anywhere in the path is refused,
never followed), and every later step is relative to that open folder: the
name there must be absent or a regular file (not a symbolic link, a folder,
a FIFO or device) that is not an input of the command (by device and inode:
every file the command read through input_file.open_input is noted); then
each output is written to a temporary made in that folder with O_EXCL and
renamed over its name (os.replace with dir_fd), so a failed command leaves
no half-written file. Nothing is made on devtmpfs (/dev), where a file or
folder takes the name of a device that is not there (refuse_devtmpfs). A
regular file that is not an input is replaced: a figure overwriting its own
earlier figure is expected.

Output folders (OwnedFolder, report.py and sweep.py): a folder the tool did
not make is refused unless it is empty; one it made holds its manifest,
MANIFEST, listing every file the tool wrote there with its inode, size and
modification time, and a file there is replaced only if the manifest proves
the tool wrote it (and it is unchanged since). Nothing is ever deleted.

escape(): names and messages as ftlsim prints them (core/escape.cpp): `\\n`,
`\\r`, `\\t`, `\\xNN` for other controls, DEL and bytes that are not UTF-8."""
import errno
import io
import json
import os
import secrets
import stat
import time

from .errors import InputError

MANIFEST = ".ftlsim_analysis_manifest"
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# Where the mounts are read (tests point it at a fixture).
MOUNTINFO = "/proc/self/mountinfo"

# (st_dev, st_ino) -> path of every input file the command has opened
# (input_file.open_input notes them; errors.run_main starts each command with none).
_inputs = {}
# Called with the path of each output file published (OwnedFolder records them).
on_publish = None


def note_input(st, path):
    _inputs[(st.st_dev, st.st_ino)] = path


def reset_inputs():
    _inputs.clear()


def input_named(st):
    """The input path of the file with stat `st`, or None."""
    return _inputs.get((st.st_dev, st.st_ino))


def _utf8_length(b, i):
    """Length of the valid UTF-8 sequence at b[i] (RFC 3629), 0 if none."""
    c = b[i]
    lo, hi = 0x80, 0xBF
    if 0xC2 <= c <= 0xDF:
        n = 2
    elif 0xE0 <= c <= 0xEF:
        n = 3
        lo = 0xA0 if c == 0xE0 else lo
        hi = 0x9F if c == 0xED else hi
    elif 0xF0 <= c <= 0xF4:
        n = 4
        lo = 0x90 if c == 0xF0 else lo
        hi = 0x8F if c == 0xF4 else hi
    else:
        return 0
    if len(b) - i < n or not lo <= b[i + 1] <= hi:
        return 0
    return n if all(0x80 <= b[i + k] <= 0xBF for k in range(2, n)) else 0


def escape(text):
    """`text` (str, file names decoded with surrogateescape, or bytes)
    printable on one line, as ftlsim's escape_for_terminal."""
    if isinstance(text, str):
        try:
            b = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            b = text.encode("utf-8", "backslashreplace")
    else:
        b = bytes(text)
    out, i = [], 0
    while i < len(b):
        c = b[i]
        if 0x20 <= c < 0x7F:
            out.append(chr(c))
            i += 1
            continue
        if c in (0x0A, 0x0D, 0x09):
            out.append({0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"}[c])
            i += 1
            continue
        n = 0 if c < 0x80 else _utf8_length(b, i)
        c1 = n == 2 and c == 0xC2 and b[i + 1] <= 0x9F
        if n == 0 or c1:
            k = 2 if c1 else 1
            out.extend(f"\\x{x:02x}" for x in b[i:i + k])
            i += k
            continue
        out.append(b[i:i + n].decode("utf-8"))
        i += n
    return "".join(out)


def on_devtmpfs(fd):
    """True when the open folder fd is on devtmpfs: its device number among
    MOUNTINFO's mounts of that type (statfs cannot tell it from tmpfs)."""
    dev = os.fstat(fd).st_dev
    try:
        with open(MOUNTINFO, encoding="utf-8", errors="surrogateescape") as f:
            lines = f.read().splitlines()
    except OSError:
        return False
    for line in lines:
        fields = line.split(" ")
        try:
            sep = fields.index("-", 6)  # after the optional fields
        except ValueError:
            continue
        fstype = fields[sep + 1] if sep + 1 < len(fields) else ""
        major, _, minor = fields[2].partition(":")
        if fstype == "devtmpfs" and major.isdigit() and minor.isdigit() and \
                os.makedev(int(major), int(minor)) == dev:
            return True
    return False


def refuse_devtmpfs(fd, shown, folder):
    """InputError when nothing may be made in the open folder fd (`folder`,
    for the message): it is on devtmpfs, as ftlsim refuses (core/io_identity.h)."""
    if on_devtmpfs(fd):
        raise InputError(f"{shown}: {folder} is on devtmpfs, where the kernel makes device nodes: what is made "
                         "there lives in memory and takes the name of a device that is not there (a mistyped "
                         "or absent disk); give a folder on a disk")


def _strip(path):
    """The path without trailing '/' and '/.' (`dir/.` names `dir`); '..' as the last component is refused."""
    p = os.fspath(path)
    while len(p) > 1 and (p.endswith("/") or p.endswith("/.")):
        p = p[:-1] if p.endswith("/") else p[:-2]
    if p in ("", "."):
        return p or "."
    if os.path.basename(p) == "..":
        raise InputError(f"{path}: ends in '..'; name the folder itself")
    return p


def open_folder(path, shown, create=False):
    """An fd of folder `path`, each component opened with O_NOFOLLOW
    (relative paths from the working directory, '..' as the kernel takes
    it). create: make missing components. InputError (naming `shown`) for
    a symbolic link, a non-folder, a missing folder or one that cannot be
    opened. Returns (fd, made): made the folders created, outermost first."""
    absolute = path.startswith("/")
    fd = os.open("/" if absolute else ".", _DIR_FLAGS)
    made, walked = [], "/" if absolute else ""
    try:
        for part in path.split("/"):
            if part in ("", "."):
                continue
            walked = os.path.join(walked, part) if walked else part
            try:
                nfd = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise InputError(f"{shown}: the folder {walked} does not exist") from None
                refuse_devtmpfs(fd, shown, os.path.dirname(walked) or ("/" if absolute else "."))
                try:
                    os.mkdir(part, 0o777, dir_fd=fd)
                    made.append(walked)
                    nfd = os.open(part, _DIR_FLAGS, dir_fd=fd)
                except OSError as e:
                    raise InputError(f"{shown}: cannot create the folder {walked}: {e.strerror}") from None
            except OSError as e:
                if e.errno == errno.ELOOP or (e.errno == errno.ENOTDIR and _is_link(part, fd)):
                    raise InputError(f"{shown}: {walked} is a symbolic link; give the path without it "
                                     "(outputs never follow a symbolic link)") from None
                if e.errno == errno.ENOTDIR:
                    raise InputError(f"{shown}: {walked} is not a folder") from None
                raise InputError(f"{shown}: cannot open the folder {walked}: {e.strerror}") from None
            os.close(fd)
            fd = nfd
    except BaseException:
        os.close(fd)
        raise
    return fd, made


def _is_link(name, dir_fd):
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _lstat(name, dir_fd):
    try:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def check_name(shown, name, dir_fd, may_replace=None):
    """Refuses (InputError) an output `name` in the open folder dir_fd that
    is a symbolic link, not a regular file, or an input of the command; an
    existing regular file is refused also if may_replace(st) is false.
    Returns its stat, or None if absent."""
    from .input_file import file_kind
    st = _lstat(name, dir_fd)
    if st is None:
        return None
    if stat.S_ISLNK(st.st_mode):
        raise InputError(f"{shown}: is a symbolic link; refusing to write through it (remove it or give "
                         "another name)")
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{shown}: is a folder; give a file name")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{shown}: exists and is not a regular file ({file_kind(st.st_mode)}); give another name")
    other = input_named(st)
    if other is not None:
        same = "" if other == shown else f" {other}"
        raise InputError(f"{shown}: is an input of this command{same}; writing it would destroy it: give "
                         "another output name")
    if may_replace is not None and not may_replace(st):
        raise InputError(f"{shown}: already exists and was not written by this tool; remove it or give "
                         "another name")
    return st


class OutputSet:
    """Output files written as one set: add() each (path and a function
    writing its bytes to a binary file object), then commit(): every path is
    checked before anything is written, then each is written to a temporary
    in its folder and renamed into place."""

    def __init__(self):
        self.items = []  # (path, write, may_replace)

    def add(self, path, write, may_replace=None):
        self.items.append((os.fspath(path), write, may_replace))

    def commit(self):
        folders = []  # (fd, name, path, write)
        temps = []  # (fd, tmp name)
        try:
            seen = {}
            pending = []
            for path, write, may_replace in self.items:
                stripped = path.rstrip("/")
                name = os.path.basename(stripped)
                if path.endswith("/") or name in ("", ".", ".."):
                    raise InputError(f"{path}: not a file name")
                parent = os.path.dirname(stripped) or "."
                try:
                    fd, _ = open_folder(parent, path)
                    folders.append((fd, name, path, write))
                except InputError as e:
                    if "does not exist" not in str(e):
                        raise
                    pending.append((parent, name, path, write))  # made once everything is checked
                    continue
                check_name(path, name, fd, may_replace)
                refuse_devtmpfs(fd, path, parent)
                dst = os.fstat(fd)
                key = (dst.st_dev, dst.st_ino, name)
                if key in seen:
                    raise InputError(f"{path}: the same file as the output {seen[key]}")
                seen[key] = path
            for parent, name, path, write in pending:
                fd, _ = open_folder(parent, path, create=True)
                folders.append((fd, name, path, write))
            # Temporaries first (proving every folder writable), then the contents, then the renames.
            for fd, name, path, _ in folders:
                tmp = f".{name}.{secrets.token_hex(4)}.tmp"
                try:
                    tfd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666,
                                  dir_fd=fd)
                except OSError as e:
                    raise InputError(f"{path}: cannot write in its folder: {e.strerror}") from None
                temps.append((fd, tmp))
                os.close(tfd)
            for (fd, name, path, write), (_, tmp) in zip(folders, temps):
                try:
                    tfd = os.open(tmp, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
                    with os.fdopen(tfd, "wb") as f:
                        write(f)
                except OSError as e:
                    raise InputError(f"{path}: cannot write: {e.strerror}") from None
            for (fd, name, path, _), (_, tmp) in zip(folders, temps):
                check_name(path, name, fd)  # again, in the same open folder: nothing swapped in meanwhile
                try:
                    os.replace(tmp, name, src_dir_fd=fd, dst_dir_fd=fd)
                except OSError as e:
                    raise InputError(f"{path}: cannot publish: {e.strerror}") from None
                temps = [(f, t) for f, t in temps if t != tmp or f != fd]
                if on_publish is not None:
                    on_publish(path)
        finally:
            for fd, tmp in temps:
                try:
                    os.unlink(tmp, dir_fd=fd)
                except OSError:
                    pass
            for fd, *_ in folders:
                os.close(fd)


def text_writer(text):
    """A write function for OutputSet.add that writes `text` as UTF-8
    (file names decoded with surrogateescape keep their bytes)."""
    def write(f):
        f.write(text.encode("utf-8", "surrogateescape"))
    return write


def write_text(path, text, may_replace=None):
    """One text output file, checked and published as OutputSet does."""
    out = OutputSet()
    out.add(path, text_writer(text), may_replace)
    out.commit()


def csv_writer(header, rows):
    """A write function for OutputSet.add writing a CSV of `rows` (None as
    an empty field)."""
    import csv

    def write(f):
        t = io.TextIOWrapper(f, encoding="utf-8", errors="surrogateescape", newline="")
        w = csv.writer(t, lineterminator="\n")
        w.writerow(header)
        for row in rows:
            if len(row) != len(header):
                raise AssertionError(f"row {row!r} does not match header {header!r}")
            w.writerow(["" if v is None else v for v in row])
        t.flush()
        t.detach()
    return write


class OwnedFolder:
    """An output folder of `tool` (report.py, sweep.py), checked when made:
    `path` (trailing '/' and '/.' dropped) must not be, or lie under, a
    symbolic link; absent (then created, with missing parents), empty, or
    holding the tool's MANIFEST. check(rels) refuses, before anything is
    written, a file among rels (paths relative to the folder) that exists
    but is not proven by the manifest; record(rel) adds a file written."""

    def __init__(self, path, tool):
        self.tool = tool
        self._saved = 0.0
        self.path = _strip(path)
        self.shown = os.fspath(path)
        parent, name = os.path.dirname(self.path) or ".", os.path.basename(self.path)
        if name in (".", ""):
            parent, name = self.path, None
        pfd, _ = open_folder(parent, self.shown, create=True)
        try:
            if name is not None:
                st = _lstat(name, pfd)
                if st is not None and stat.S_ISLNK(st.st_mode):
                    raise InputError(f"{self.path}: is a symbolic link; give the folder itself (an output folder "
                                     "is never followed through a link)")
                if st is not None and not stat.S_ISDIR(st.st_mode):
                    raise InputError(f"{self.shown}: exists and is not a folder")
                refuse_devtmpfs(pfd, self.shown, parent)
                if st is None:
                    try:
                        os.mkdir(name, 0o777, dir_fd=pfd)
                    except OSError as e:
                        raise InputError(f"{self.shown}: cannot create the folder: {e.strerror}") from None
                fd = os.open(name, _DIR_FLAGS, dir_fd=pfd)
            else:
                refuse_devtmpfs(pfd, self.shown, parent)
                fd = os.dup(pfd)
        finally:
            os.close(pfd)
        try:
            self.files = self._claim(fd)
        finally:
            os.close(fd)

    def _claim(self, fd):
        entries = os.listdir(fd)
        if MANIFEST not in entries:
            if entries:
                listed = ", ".join(escape(e) for e in sorted(entries)[:5]) + (", ..." if len(entries) > 5 else "")
                raise InputError(f"{self.shown}: the folder is not empty and {self.tool} did not make it (it holds "
                                 f"{listed}; no {MANIFEST}); give a new or empty folder")
            self._write_manifest({})
            return {}
        st = _lstat(MANIFEST, fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"{self.shown}/{MANIFEST}: not a regular file")
        try:
            mfd = os.open(MANIFEST, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=fd)
            with os.fdopen(mfd, "rb") as f:
                m = json.loads(f.read(16 << 20))
            files = m["files"]
            ok = m.get("tool") == self.tool and isinstance(files, dict) and all(
                isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) for x in v) for v in files.values())
        except (OSError, ValueError, KeyError, TypeError):
            ok = False
        if not ok:
            raise InputError(f"{self.shown}/{MANIFEST}: not a manifest of {self.tool}; give a new or empty folder")
        return files

    @staticmethod
    def _identity(st):
        return [st.st_ino, st.st_size, st.st_mtime_ns]

    def proven(self, rel, st):
        return self.files.get(rel) == self._identity(st)

    def check(self, rels):
        """InputError for the first of rels (relative paths) that exists
        and is not proven by the manifest, is a link, a folder or an input."""
        for rel in rels:
            parent, name = os.path.dirname(rel), os.path.basename(rel)
            try:
                fd, _ = open_folder(os.path.join(self.path, parent) if parent else self.path,
                                    os.path.join(self.shown, rel))
            except InputError as e:
                if "does not exist" in str(e):
                    continue
                raise
            try:
                check_name(os.path.join(self.shown, rel), name, fd, lambda st, rel=rel: self.proven(rel, st))
            finally:
                os.close(fd)

    def may_replace(self, rel):
        return lambda st: self.proven(rel, st)

    def record(self, path, save=True):
        """Adds the file at `path` (inside the folder; others are ignored) to
        the manifest, and writes the manifest (with save False, at most once
        a second; call save() at the end)."""
        rel = os.path.relpath(path, self.path)
        if rel.startswith(".." + os.sep) or rel == "..":
            return
        st = os.stat(os.path.join(self.path, rel), follow_symlinks=False)
        self.files[rel] = self._identity(st)
        if save or time.monotonic() - self._saved >= 1.0:
            self.save()

    def save(self):
        self._write_manifest(self.files)
        self._saved = time.monotonic()

    def _write_manifest(self, files):
        global on_publish
        saved, on_publish = on_publish, None
        try:
            write_text(os.path.join(self.path, MANIFEST),
                       json.dumps({"tool": self.tool, "files": files}, indent=1, sort_keys=True) + "\n")
        finally:
            on_publish = saved
