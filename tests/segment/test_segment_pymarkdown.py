"""Invariants on our MkDocs-style test pages, rendered with Python-Markdown as MkDocs does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pymd import PAGES, render, visible_text
from seghelp import WordTranslator, identity, pseudo, structure, unmark

from mkdocs_zh_translate import translate_markdown
from mkdocs_zh_translate.segment import segment_markdown

pytestmark = pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])


def test_identity_splice_is_byte_exact(page: Path) -> None:
    source = page.read_text(encoding="utf-8")
    assert identity(source) == source


def test_pseudo_translation_renders_the_same_html(page: Path) -> None:
    source = page.read_text(encoding="utf-8")
    out = pseudo(source)
    assert out != source
    assert unmark(render(out)) == render(source)


def test_heading_ids_match_the_english_build(page: Path) -> None:
    source = page.read_text(encoding="utf-8")
    ids = re.compile(r"<h[1-6][^>]*\bid=\"([^\"]+)\"")
    english = ids.findall(render(source))
    assert english
    assert ids.findall(render(pseudo(source))) == english
    assert ids.findall(render(translate_markdown(source, WordTranslator()))) == english


def test_chinese_like_text_keeps_every_link_emphasis_and_id(page: Path) -> None:
    source = page.read_text(encoding="utf-8")
    out = translate_markdown(source, WordTranslator())
    assert "词" in out
    assert structure(render(out)) == structure(render(source))


def test_visible_prose_is_inside_segments(page: Path) -> None:
    html = render(pseudo(page.read_text(encoding="utf-8")))
    depth = inside = total = 0
    for ch in visible_text(html):
        if ch == "「":
            depth += 1
        elif ch == "」":
            depth = max(0, depth - 1)
        elif ch.isalpha():
            total += 1
            inside += depth > 0
    assert total > 200
    assert inside / total >= 0.97, f"{inside}/{total}"


def test_code_is_never_in_a_segment(page: Path) -> None:
    source = page.read_text(encoding="utf-8")
    for segment in segment_markdown(source).segments:
        assert "never translated" not in segment.text
        assert "stays" not in segment.text or "stay literal" in segment.text
