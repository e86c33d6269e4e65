"""``review report``: one self-contained HTML page, source | translation | state, per page.

Every string that came from a PO file or the docs is escaped: PO files may come from outside
contributors, and a report that runs their ``<script>`` would be an attack on the reviewer.
The page has no external resources and no JavaScript at all.
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from .status import ReviewFile, Status, count, state_of
from .units import entry_key

_CSS = """
body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;width:100%;margin-bottom:2em;table-layout:fixed}
th,td{border:1px solid #ccc;padding:.4em .6em;vertical-align:top;text-align:left;
white-space:pre-wrap;word-wrap:break-word}
th{background:#f3f3f3} td.state{width:7em} td.ref{width:12em;font-size:.85em;color:#555}
tr.machine td{background:#fff8dc} tr.rejected td{background:#f5c6cb}
tr.stale td{background:#ffe4e1} tr.suggested td{background:#e7f0fd} tr.missing td{background:#f8d7da}
tr.reviewed td.state{color:#1a7f37} .prev{color:#8a6d3b;font-size:.9em} .summary td{text-align:right}
"""

_STATE_LABEL = {
    "reviewed": "reviewed",
    "rejected": "reviewed, but rejected by the build",
    "machine": "machine (unreviewed)",
    "stale": "stale: source changed",
    "suggested": "suggested (from translation memory)",
    "missing": "missing",
}


def _name(path: Path, root: Path | None) -> str:
    """``path`` relative to ``root`` with ``/`` separators (its name alone on another drive)."""
    if root is None:
        return path.as_posix()
    try:
        return Path(os.path.relpath(path, root)).as_posix()
    except ValueError:  # another drive (Windows)
        return path.name


def _e(text: str | None) -> str:
    return html.escape(text or "", quote=True)


def render_report(
    files: Sequence[ReviewFile], status: Status, title: str, root: Path | None = None,
    models: Mapping[tuple[Path, tuple[str | None, str]], tuple[str, str]] | None = None,
) -> str:
    """The report page. ``root``: the project directory the PO files are named relative to
    (the report is shared and published: no absolute path of the machine that made it).
    ``models``: (the cached machine text, the model that wrote it) per PO file and entry key;
    a machine entry holding that text is shown with its model."""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        '<table class="summary"><tr><th>page</th><th>reviewed</th><th>rejected</th><th>machine</th>'
        "<th>stale</th><th>suggested</th><th>missing</th><th>done</th></tr>",
    ]
    for c in [*status.pages, status.total]:
        out.append(
            f"<tr><td style=\"text-align:left\">{_e(c.label)}</td>"
            f"<td>{c.reviewed}</td><td>{c.rejected}</td><td>{c.machine}</td>"
            f"<td>{c.stale}</td><td>{c.suggested}</td><td>{c.missing}</td><td>{c.percent:.1f}%</td></tr>"
        )
    out.append("</table>")
    for file in files:
        counts = count(file)
        out.append(
            f"<h2>{_e(file.label)}</h2><p>{_e(_name(file.path, root))}: {counts.reviewed} of {counts.total} "
            "reviewed</p>"
        )
        out.append(
            '<table><tr><th class="ref">where</th><th>source</th><th>translation</th><th class="state">state</th></tr>'
        )
        for entry in file.po:
            if entry.obsolete:
                continue
            state = state_of(entry, file)
            where = ", ".join(f"{p}:{n}" if n else p for p, n in entry.occurrences)
            prev = ""
            if state == "stale" and entry.previous_msgid is not None:
                prev = f'<div class="prev">was: {_e(entry.previous_msgid)}</div>'
            if state == "suggested" and entry.previous_msgid is not None:
                prev = f'<div class="prev">reviewed for: {_e(entry.previous_msgid)}</div>'
            ctx = f'<div class="prev">context: {_e(entry.msgctxt)}</div>' if entry.msgctxt else ""
            if state == "machine" and models is not None:
                prev += _model_line(models.get((file.path, entry_key(entry))), entry.msgstr)
            if state == "rejected":
                reasons = "; ".join(file.rejected[entry_key(entry)])
                prev += f'<div class="prev">rejected: {_e(reasons)}</div>'
            out.append(
                f'<tr class="{state}"><td class="ref">{_e(where)}</td><td>{_e(entry.msgid)}{ctx}{prev}</td>'
                f'<td lang="zh">{_e(entry.msgstr)}</td><td class="state">{_e(_STATE_LABEL[state])}</td></tr>'
            )
        out.append("</table>")
    out.append("</body></html>\n")
    return "\n".join(out)


def _model_line(cached: tuple[str, str] | None, msgstr: str) -> str:
    """Which model wrote a machine entry: the cache's model when the entry holds its text."""
    if cached is None or cached[0] != msgstr:
        return '<div class="prev">model: unknown (not the cached text)</div>'
    return f'<div class="prev">model: {_e(cached[1])}</div>'
