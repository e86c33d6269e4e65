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


def protected_parts(html: str) -> tuple[list[str], list[str], list[str]]:
    """Code blocks and spans, URLs, and tags of rendered HTML (alt text, which is translated,
    without its marks): what a translation must leave byte-identical."""
    code = re.findall(r"<pre>.*?</pre>|<code>.*?</code>", html, re.DOTALL)
    urls = re.findall(r'(?:href|src)="([^"]*)"', html)
    tags = [re.sub(r'alt="[^"]*"', lambda m: unmark(m.group(0)), t) for t in re.findall(r"<[^>]+>", html)]
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


__all__ = ["WordTranslator", "identity", "kinds_texts", "pseudo", "render_cm", "render_pm", "structure", "unmark"]
