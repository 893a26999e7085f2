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
    from . import output_file
    output_file.reset_inputs()
    try:
        code = main(argv)
    except InputError as e:
        print(f"{prog}: error: {output_file.escape(str(e))}", file=sys.stderr)
        return 2
    except RunError as e:
        print(f"{prog}: error: {output_file.escape(str(e))}", file=sys.stderr)
        return 1
    except ModuleNotFoundError as e:  # dask, imported when a sweep starts
        return missing_module(prog, e)
    except OSError as e:  # a file the checks did not foresee: still one line, never a traceback
        where = f"{e.filename}: " if e.filename is not None else ""
        print(f"{prog}: error: {output_file.escape(where + (e.strerror or str(e)))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return interrupted(prog)
    return 0 if code is None else code


def entry(prog, load_main, argv=None):
    """The whole life of a command-line tool (analysis/*.py): imports its
    main with load_main() (which imports matplotlib, numpy or dask: a second
    or more) and runs it with run_main. A Ctrl-C at any point from here on,
    the imports included, is one line and exit code 130, never a traceback;
    a module that is not installed, one line and exit code 2
    (missing_module).

    While the modules load, a Ctrl-C ends the process from the signal
    handler: a KeyboardInterrupt raised inside an import does not always
    arrive as one (numpy's import turns it into an ImportError, matplotlib's
    rcParams set-up into a ValueError), and nothing is written yet, so
    there is nothing to clean up. From run_main on, it is a
    KeyboardInterrupt again, which lets the outputs' temporaries go."""
    import signal
    quit_at_once = signal.getsignal(signal.SIGINT) is signal.default_int_handler  # not ignored by the caller
    if quit_at_once:
        signal.signal(signal.SIGINT, _exit_interrupted(prog))
    try:
        main = load_main()
    except ModuleNotFoundError as e:  # a python3 without matplotlib (or dask)
        return missing_module(prog, e)
    if quit_at_once:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    return run_main(prog, main, argv)


def _exit_interrupted(prog):
    import os
    line = f"{prog}: interrupted\n".encode()

    def handler(signum, frame):
        os.write(2, line)
        os._exit(130)
    return handler


def interrupted(prog):
    """The one line for a Ctrl-C (SIGINT): exit code 130, as a shell reports it."""
    print(f"{prog}: interrupted", file=sys.stderr)
    return 130


def missing_module(prog, error):
    """The one line for a Python module that is not installed (a python3
    without matplotlib, numpy or dask): exit code 2."""
    print(f"{prog}: error: the Python module '{error.name}' is missing (in {sys.executable}); install it with "
          "tools/install_deps.sh analysis, or run the tool with /usr/bin/python3", file=sys.stderr)
    return 2
