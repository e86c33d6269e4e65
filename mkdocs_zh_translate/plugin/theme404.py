"""The text a theme writes into its own 404 page, in Chinese on the Chinese 404 page.

A theme's ``404.html`` is a template, not a page: its "Page not found" never passes through the
translator. MkDocs' built-in themes wrap theirs in ``{% trans %}`` and ship a ``zh_CN`` catalog
(the Chinese build uses it), Material's is replaced by a fixed Chinese heading
(``site.translate_material_text``); any other theme's stays English. So the English build reads
the theme's own ``404.html``, takes the text it writes outside Jinja tags and ``{% trans %}``
blocks, has it translated with the site's strings (reviewable in ``site.po``), and the Chinese
404 page gets the translations in place of that text, in text nodes only (never in attributes,
scripts or styles), escaped as plain text.

A ``404.html`` in ``theme.custom_dir`` is the site's own template: templates.py translates it with
the other override templates, not this module.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig

from ..plaintext import for_template
from . import htmledit
from .site import is_material
from .templates import strip_jinja

_TEMPLATE = "404.html"
_WORDS = re.compile(r"[A-Za-z]{2}")
_SKIPPED = frozenset({"script", "style", "code", "pre"})


class _TextNodes(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip += tag in _SKIPPED

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if not self._skip and _WORDS.search(text) and text not in self.found:
            self.found.append(text)


def own_404_text(config: MkDocsConfig) -> list[str]:
    """The English text nodes of the theme's own ``404.html`` ([] for Material, for a 404
    template in ``custom_dir`` and for a theme without one)."""
    if is_material(config):
        return []
    custom = config.theme.custom_dir
    for folder in config.theme.dirs:
        path = Path(folder) / _TEMPLATE
        if not path.is_file():
            continue
        if custom and Path(folder).resolve() == Path(custom).resolve():
            return []
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return []
        parser = _TextNodes()
        parser.feed(strip_jinja(source))
        parser.close()
        return parser.found
    return []


def _pattern(text: str) -> re.Pattern[str]:
    """``text`` as written in the rendered page, whatever whitespace the template put between
    its words (a plain alternation of literal words and single whitespace runs)."""
    return re.compile(r"\s+".join(re.escape(word) for word in text.split()))


def translate_404(output: str, template_name: str, texts: list[str], translated: dict[str, str]) -> str:
    """The Chinese ``404.html`` with each of ``texts`` replaced by its translation in text nodes."""
    # the longest first: a text that holds a shorter one is replaced whole
    found = sorted((t for t in texts if translated.get(t, t) != t), key=len, reverse=True)
    pairs = [(_pattern(t), for_template(translated[t])) for t in found]
    if template_name != _TEMPLATE or not pairs:
        return output
    edits: list[tuple[int, int, str]] = []
    previous_end, skip = 0, 0
    for tag in htmledit.tags(output):
        if not skip and tag.start > previous_end:
            gap = output[previous_end : tag.start]
            changed = gap
            for pattern, chinese in pairs:
                changed = pattern.sub(chinese.replace("\\", "\\\\"), changed)
            if changed != gap:
                edits.append((previous_end, tag.start, changed))
        if tag.name in ("script", "style"):
            skip = 0 if tag.end_tag else 1
        previous_end = tag.end
    return htmledit.apply(output, edits)
