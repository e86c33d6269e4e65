"""Render Markdown the way an MkDocs site does: Python-Markdown with the usual extensions."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import markdown

DATA = Path(__file__).resolve().parent / "data"
PAGES = sorted((DATA / "pages").glob("*.md"))

EXTENSIONS = [
    "admonition",
    "pymdownx.details",
    "pymdownx.superfences",
    "pymdownx.tabbed",
    "attr_list",
    "footnotes",
    "tables",
    "toc",
    "def_list",
    "abbr",
    "md_in_html",
    "pymdownx.tasklist",
    "pymdownx.emoji",
    "pymdownx.keys",
    "pymdownx.arithmatex",
    "pymdownx.snippets",
]
CONFIG = {
    "pymdownx.tabbed": {"alternate_style": True},
    "pymdownx.arithmatex": {"generic": True},
    "pymdownx.snippets": {"base_path": [str(DATA / "snippets")], "check_paths": True},
}
_FRONT_MATTER_RE = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)


_RENDERER: list[markdown.Markdown] = []


def render(text: str) -> str:
    """HTML of a page body (front matter removed, as MkDocs does before rendering).

    One Markdown instance, reset before each page (Python-Markdown's way of converting several
    documents): making one loads these sixteen extensions (7 ms), converting a short example
    costs 0.2 ms, and the segment tests render thousands of examples."""
    body = _FRONT_MATTER_RE.sub("", text)
    if not _RENDERER:
        _RENDERER.append(markdown.Markdown(extensions=EXTENSIONS, extension_configs=CONFIG))
    return _RENDERER[0].reset().convert(body)


class _Visible(HTMLParser):
    """Collect visible text, skipping code, math, scripts and styles."""

    SKIP = frozenset({"code", "pre", "script", "style"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0
        self._stack: list[bool] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = dict(attrs).get("class") or ""
        skip = tag in self.SKIP or "arithmatex" in classes
        if tag in ("br", "img", "hr", "input", "meta", "link"):
            return
        self._stack.append(skip)
        self._skip += skip

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "img", "hr", "input") or not self._stack:
            return
        self._skip -= self._stack.pop()

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    return "".join(parser.parts)
