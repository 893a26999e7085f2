"""A Ctrl-C at any moment of an analysis tool is one line, "<tool>:
interrupted", and exit code 130, never a traceback: also in the first
second, while the tool imports matplotlib, numpy or dask (the handler used
to come after those imports). The interrupt is made deterministic: a module
`argparse` put first on the path sends SIGINT to its own process when the
tool imports it, which every tool does among its first imports."""
import os
import signal
import subprocess

import pytest
from conftest import PYTHON, script

TOOLS = ["plot_waf.py", "plot_sweep.py", "plot_handles.py", "plot_latency.py", "plot_qd.py", "plot_ids.py",
         "report.py", "sweep.py"]


@pytest.fixture(scope="module")
def interrupting_path(tmp_path_factory):
    d = tmp_path_factory.mktemp("interrupt")
    (d / "argparse.py").write_text("import os\nimport signal\nimport time\n\n"
                                   "os.kill(os.getpid(), signal.SIGINT)\n"
                                   "time.sleep(30)  # the KeyboardInterrupt comes here\n")
    return str(d)


@pytest.mark.parametrize("tool", TOOLS)
def test_ctrl_c_while_the_tool_imports_its_modules(tool, interrupting_path):
    env = dict(os.environ, PYTHONPATH=interrupting_path)
    # SIGINT at its default in the tool, whatever this process inherited (a
    # background job starts with it ignored, and Python then keeps it so).
    proc = subprocess.run([PYTHON, script(tool), "--help"], capture_output=True, text=True, env=env, timeout=60,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    prog = tool[:-3] if tool.startswith("plot_") else tool
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr == f"{prog}: interrupted\n"
    assert proc.returncode == 130
    assert proc.stdout == ""
