"""Shared helpers for the segmenter tests: renderers, pseudo/zh-like translators, comparisons."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from markdown_it import MarkdownIt
from pymd import render as render_pm

from mkdocs_zh_translate import translate_markdown
from mkdocs_zh_translate.pipeline.translator import PseudoTranslator
from mkdocs_zh_translate.segment import segment_markdown
from tests.fakes import WordTranslator

_CM = MarkdownIt("commonmark")
_TAG_RE = re.compile(r"<x\d+/>|</?g\d+>")


def render_cm(text: str) -> str:
    return _CM.render(text)


def unmark(html: str) -> str:
    return html.replace("「", "").replace("」", "")


_TRANSLATED_ATTR_RE = re.compile(r'(?:alt|title|data-title|data-description)="[^"]*"')


def protected_parts(html: str) -> tuple[list[str], list[str], list[str]]:
    """Code blocks and spans, URLs, and tags of rendered HTML (alt, title and caption text,
    which is translated, without its marks): what a translation must leave byte-identical."""
    code = re.findall(r"<pre>.*?</pre>|<code>.*?</code>", html, re.DOTALL)
    urls = re.findall(r'(?:href|src)="([^"]*)"', html)
    tags = [re.sub(_TRANSLATED_ATTR_RE, lambda m: unmark(m.group(0)), t) for t in re.findall(r"<[^>]+>", html)]
    return code, urls, tags


def kinds_texts(text: str) -> list[tuple[str, str]]:
    return [(s.kind, s.text) for s in segment_markdown(text).segments]


def identity(text: str) -> str:
    page = segment_markdown(text)
    return page.splice([s.text for s in page.segments])


def pseudo(text: str, *, heading_ids: bool = True) -> str:
    return translate_markdown(text, PseudoTranslator(), heading_ids=heading_ids)


class _Structure(HTMLParser):
    """Start tags with the attributes that carry links and ids: the page's skeleton."""

    KEEP = ("href", "src", "id", "class", "title", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        kept = [(k, v) for k, v in attrs if k in ("href", "src", "id", "class")]
        self.tags.append(f"{tag}{kept}")


def structure(html: str) -> list[str]:
    parser = _Structure()
    parser.feed(html)
    return parser.tags


# Elements that are blocks to Python-Markdown's output: a segment must open and close inside
# one of them, never across two.
_BLOCK_ELEMENTS = frozenset(
    "p h1 h2 h3 h4 h5 h6 li dt dd td th summary details div blockquote ul ol dl table tr pre".split()
)


class _Marks(HTMLParser):
    """For each block element: how many pseudo marks open and close in its own text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[list[int]] = [[0, 0]]  # [marks opened, a mark open now]
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK_ELEMENTS:
            self._check_open(f"<{tag}>")
            self.stack.append([0, 0])
        elif tag == "br" and not self.stack[-1][1]:
            self.stack[-1][0] = 0  # a hard line break ends a sentence: the next line is a segment

    def handle_endtag(self, tag: str) -> None:
        if tag in _BLOCK_ELEMENTS and len(self.stack) > 1:
            self._check_open(f"</{tag}>")
            opens, _ = self.stack.pop()
            if opens > 1:
                self.problems.append(f"{opens} segments in one <{tag}>")

    def _check_open(self, where: str) -> None:
        if self.stack[-1][1]:
            self.problems.append(f"a segment runs across {where}")

    def handle_data(self, data: str) -> None:
        top = self.stack[-1]
        for ch in data:
            if ch == "「":
                top[0] += 1
                top[1] = 1
            elif ch == "」":
                if not top[1]:
                    self.problems.append("a segment closes in another block than it opened")
                top[1] = 0


def segment_block_problems(source: str) -> list[str]:
    """Where the segments of ``source`` disagree with the blocks Python-Markdown renders.

    The page is pseudo-translated (each segment wrapped in 「」) and rendered: every segment must
    open and close inside one block element (a glued segment spans a block boundary) and a block
    holds at most one segment of its own text per line of a ``<br>`` (a split segment cuts one
    block in two). The marks
    removed, the rendering must equal the English one.
    """
    out = pseudo(source)
    html = render_pm(out)
    parser = _Marks()
    parser.feed(html)
    problems = list(parser.problems)
    if unmark(html) != render_pm(source):
        problems.append("the pseudo translation renders differently")
    return problems


__all__ = [
    "WordTranslator",
    "identity",
    "kinds_texts",
    "pseudo",
    "render_cm",
    "render_pm",
    "segment_block_problems",
    "structure",
    "unmark",
]
