"""Headless matplotlib and the one way every figure is written: a PNG and,
beside it, a CSV of the numbers drawn (same path, .csv instead of .png)."""
import os

import matplotlib

matplotlib.use("Agg")  # headless: no display needed, before pyplot is imported
import matplotlib.pyplot as plt  # noqa: E402

from .errors import InputError  # noqa: E402

GIB = float(1 << 30)
MIB = float(1 << 20)
DPI = 100


def new_figure(nrows=1, ncols=1, width=7.0, height=4.0, **kwargs):
    """A figure with a grid of axes (always a 2-D array of axes). Constrained
    layout: titles, labels, colour bars and legends outside the axes get room
    of their own instead of running into the next panel."""
    kwargs.setdefault("layout", "constrained")
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, height), squeeze=False, **kwargs)
    return fig, axes


def csv_path_for(png_path):
    """The CSV beside a PNG: x.png -> x.csv."""
    root, ext = os.path.splitext(png_path)
    if ext.lower() != ".png":
        raise InputError(f"{png_path}: the output must be a .png file")
    return root + ".csv"


def save(fig, png_path, header, rows, may_replace=None):
    """Writes the figure to png_path and `rows` (sequences matching `header`)
    to the CSV beside it, as one set (output_file.OutputSet: both paths are
    checked before either is written; neither may be a symbolic link, a
    folder or an input of the command); closes the figure. None is written
    as an empty field. Returns the CSV path."""
    from .output_file import OutputSet, csv_writer
    csv_path = csv_path_for(png_path)
    out = OutputSet()
    # No software version or date in the PNG: the same numbers give the same file.
    out.add(png_path, lambda f: fig.savefig(f, format="png", dpi=DPI, bbox_inches="tight",
                                            metadata={"Software": None}), may_replace)
    out.add(csv_path, csv_writer(header, rows), may_replace)
    try:
        out.commit()
    finally:
        plt.close(fig)
    return csv_path


def colors(n):
    """n distinct colours, the same for the same position in every figure."""
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    return [cycle[i % len(cycle)] for i in range(n)]


# One colour per placement ID, the same in every panel and figure: tab10 and
# then tab20's light tones, without their greys, which mark handles that hold
# no single ID (handle_color). IDs past the list wrap around.
ID_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf",
             "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5"]


def greys(n):
    """n distinct greys from dark (0.15) to light (0.75), dark and light
    alternating so that neighbours in a stack differ most; none is an ID
    colour."""
    levels = [0.15 + 0.6 * i / max(1, n - 1) for i in range(n)]
    order = [levels[(i // 2) if i % 2 == 0 else n - 1 - i // 2] for i in range(n)]
    return [f"{v:.3f}" for v in order]


def id_color(pid):
    """The colour of placement ID pid, in every figure."""
    return ID_COLORS[pid % len(ID_COLORS)]


def check_unique_labels(labels):
    """Raises InputError if two runs share a label (their lines could not be told apart)."""
    seen = set()
    for label in labels:
        if label in seen:
            raise InputError(f"two runs are labelled '{label}'; give distinct labels")
        seen.add(label)
