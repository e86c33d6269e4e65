"""Shared helpers for the segmenter tests: renderers, pseudo/zh-like translators, comparisons."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html.parser import HTMLParser

from markdown_it import MarkdownIt

from mkdocs_zh_translate.segment import segment_markdown, translate_markdown
from mkdocs_zh_translate.translator import PseudoTranslator

from pymd import render as render_pm

_CM = MarkdownIt("commonmark")
_TAG_RE = re.compile(r"<x\d+/>|</?g\d+>")


def render_cm(text: str) -> str:
    return _CM.render(text)


def unmark(html: str) -> str:
    return html.replace("「", "").replace("」", "")


def kinds_texts(text: str) -> list[tuple[str, str]]:
    return [(s.kind, s.text) for s in segment_markdown(text).segments]


def identity(text: str) -> str:
    page = segment_markdown(text)
    return page.splice([s.text for s in page.segments])


def pseudo(text: str, *, heading_ids: bool = True) -> str:
    return translate_markdown(text, PseudoTranslator(), heading_ids=heading_ids)


class WordTranslator:
    """A stand-in for a Chinese model: every English word becomes CJK, spaces between CJK go,
    placeholders stay. Its output puts CJK right against emphasis, links and URLs, which is
    exactly where Markdown breaks."""

    name = "words"

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [self._one(t) for t in texts]

    @staticmethod
    def _one(text: str) -> str:
        parts = re.split(r"(<x\d+/>|</?g\d+>)", text)
        out = []
        for part in parts:
            if _TAG_RE.fullmatch(part):
                out.append(part)
            else:
                words = re.sub(r"[A-Za-z][A-Za-z'-]*", "词", part)
                words = re.sub(r"(?<=[词，。])\s+(?=[词])", "", words)
                out.append(words.replace(". ", "。").replace(", ", "，"))
        joined = "".join(out).replace("\n", " ")
        # Chinese has no spaces between words, nor around the formatting inside a sentence.
        return re.sub(r"(?<=[词。，>:])[ ]+(?=[词<])|(?<=[词。，])[ ]+(?=[<:])", "", joined)


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


__all__ = ["render_cm", "render_pm", "unmark", "kinds_texts", "identity", "pseudo", "WordTranslator", "structure"]
