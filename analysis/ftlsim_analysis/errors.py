"""Error types and the one-line error exit of every command-line entry point."""
import sys


class InputError(Exception):
    """Bad input: a missing or malformed file, a bad option. The message names
    the file and line (or the option); entry points print it on one line and
    exit with code 2, like ftlsim."""


class RunError(Exception):
    """An external program (ftlsim, a Dask worker) failed for a reason other
    than bad input. Entry points exit with code 1."""


def run_main(prog, main, argv=None):
    """Calls main(argv) and turns InputError / RunError into one line on stderr
    and exit code 2 / 1. Returns main's exit code (0 if it returns None)."""
    try:
        code = main(argv)
    except InputError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except RunError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    return 0 if code is None else code
