"""The ``review serve`` queue: the site's segments that need a person, worst first, as one page.

Every text in it is untrusted (English from the pages, Chinese from PO files and the model) and
goes through :func:`html.escape`; links are built from the page's own URL and a number.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from urllib.parse import quote

_STATE_WORDS = {
    "stale": "stale review",
    "machine": "machine",
    "suggested": "suggested",
    "missing": "no translation",
}


def _cell(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def render_queue(items: Sequence[dict[str, object]]) -> str:
    """The queue page: one row per segment, linking to the segment on its rendered page."""
    rows = []
    for rank, item in enumerate(items, 1):
        url = f"{item.get('url', '')}#zh-seg={quote(str(item['index']))}"
        confidence = item.get("confidence")
        state = _cell(item["state"])
        rows.append(
            "<tr>"
            f"<td>{rank}</td>"
            f'<td class="state state-{state}">{_cell(_STATE_WORDS.get(str(item["state"]), item["state"]))}</td>'
            f"<td>{'' if confidence is None else _cell(confidence)}</td>"
            f'<td><a class="zh-queue-link" href="{_cell(url)}">{_cell(item["page"])}</a></td>'
            f'<td lang="en">{_cell(item["english"])}</td>'
            f'<td lang="zh">{_cell(item["text"])}</td>'
            "</tr>"
        )
    body = "\n".join(rows) or '<tr><td colspan="6">Nothing to review: every segment is reviewed.</td></tr>'
    return (
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Review queue</title></head>"
        '<body class="zh-review-queue"><p><a href="/">Back to the site</a></p><h1>Review queue</h1>'
        f"<p>{len(items)} segment(s) need a person: stale reviews first, then unreviewed machine "
        "translations, least confident first. Press <kbd>j</kbd>/<kbd>k</kbd> to move, "
        "<kbd>Enter</kbd> to open.</p>"
        '<table><thead><tr><th>#</th><th>State</th><th>Confidence</th><th>Page</th>'
        "<th>English</th><th>Chinese</th></tr></thead>"
        f"<tbody>{body}</tbody></table></body></html>"
    )
