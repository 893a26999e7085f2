"""Small HTML building blocks for report/index.html: everything escaped,
one self-contained page (inline CSS, images by relative path)."""
import html

CSS = """
body { font-family: sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f3f3f3; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em; white-space: pre-wrap; }
figure { margin: 1em 0; } figcaption { font-size: 0.9em; color: #444; }
img { max-width: 100%; border: 1px solid #eee; }
.bad { color: #b00; font-weight: bold; } .good { color: #060; }
"""


def esc(text):
    return html.escape(f"{text}", quote=True)


def _is_number(text):
    t = f"{text}".replace(",", "").replace("%", "").replace("+", "").strip()
    try:
        float(t.split(" ")[0])
        return True
    except ValueError:
        return False


def table(header, rows, numeric=True):
    """A table; cells that read as numbers are right-aligned when numeric."""
    out = ["<table>", "<tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr>"]
    for row in rows:
        cells = []
        for c in row:
            cls = ' class="num"' if numeric and _is_number(c) else ""
            cells.append(f"<td{cls}>{esc(c)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def figure(png, caption, csv=None):
    """An image with its caption and a link to the CSV of its numbers."""
    link = f' (<a href="{esc(csv)}">numbers as CSV</a>)' if csv else ""
    return (f'<figure><img src="{esc(png)}" alt="{esc(caption)}">'
            f"<figcaption>{esc(caption)}{link}</figcaption></figure>")


def pre(text):
    return f"<pre>{esc(text)}</pre>"


def para(text):
    return f"<p>{esc(text)}</p>"


def link(href, text):
    return f'<a href="{esc(href)}">{esc(text)}</a>'


def page(title, sections):
    """The whole document: sections are (heading or None, [HTML fragments])."""
    body = [f"<h1>{esc(title)}</h1>"]
    for heading, parts in sections:
        if heading:
            body.append(f"<h2>{esc(heading)}</h2>")
        body.extend(parts)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{esc(title)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")
