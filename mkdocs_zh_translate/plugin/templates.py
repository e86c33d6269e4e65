"""English written into a theme's override templates (``custom_dir``), which no build can translate.

An announcement bar (``{% block announce %}New release!{% endblock %}``), a footer line or a
banner written in an override template reaches every Chinese page in English. The plugin
cannot translate templates, so it names them (once per file) and says how to add a Chinese
branch.

Heuristic: Jinja comments, statements and expressions are blanked out; what the HTML parser
then reports as text (outside ``<script>``, ``<style>``, ``<code>`` and ``<pre>``), plus the
``title``, ``aria-label``, ``placeholder`` and ``alt`` attributes, counts as English when it
holds a run of three ASCII letters. A template that already branches on the language
(``config.theme.language`` or ``lang.t(…)`` for every string) is trusted and not reported.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

_ENGLISH = re.compile(r"[A-Za-z]{3}")
_TEXT_ATTRIBUTES = frozenset({"title", "aria-label", "placeholder", "alt"})
_SKIPPED = frozenset({"script", "style", "code", "pre"})
_JINJA = (("{#", "#}"), ("{%", "%}"), ("{{", "}}"))
_LANGUAGE_AWARE = ("theme.language", "config.theme.language", "i18n_page_locale")
SAMPLES = 3


def strip_jinja(source: str) -> str:
    """``source`` with every Jinja tag replaced by one space (an unclosed one runs to the end).

    Linear: the next position of each opener is searched again only once it lies behind."""
    out: list[str] = []
    nexts = {open_: source.find(open_) for open_, _close in _JINJA}
    i = 0
    while i < len(source):
        for open_ in nexts:
            if -1 < nexts[open_] < i:
                nexts[open_] = source.find(open_, i)
        found = [(pos, open_, close) for open_, close in _JINJA if (pos := nexts[open_]) != -1]
        if not found:
            out.append(source[i:])
            break
        start, _open, close = min(found)
        out.append(source[i:start])
        out.append(" ")
        end = source.find(close, start + 2)
        i = len(source) if end == -1 else end + 2
    return "".join(out)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self._skip += 1
        for name, value in attrs:
            if name in _TEXT_ATTRIBUTES and value:
                self._keep(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._keep(data)

    def _keep(self, text: str) -> None:
        text = " ".join(text.split())
        if _ENGLISH.search(text):
            self.found.append(text)


def english_text(source: str) -> list[str]:
    """The hard-coded English strings of one template (see the module's heuristic)."""
    if any(marker in source for marker in _LANGUAGE_AWARE):
        return []
    parser = _Text()
    parser.feed(strip_jinja(source))
    parser.close()
    return parser.found


def english_in_templates(custom_dir: Path) -> list[tuple[Path, list[str]]]:
    """Each ``*.html`` under ``custom_dir`` with English text, and up to three samples of it."""
    found: list[tuple[Path, list[str]]] = []
    for path in sorted(custom_dir.rglob("*.html")) if custom_dir.is_dir() else []:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        strings = english_text(text)
        if strings:
            found.append((path, [repr(s[:40]) for s in strings[:SAMPLES]]))
    return found
