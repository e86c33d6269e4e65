"""The memo of segmented pages a SiteTranslator may share with the next build (issue 21).

The plugin keeps one across ``mkdocs serve`` reloads: a reload segments only the pages whose
Markdown changed, and anything else segmenting reads (the site's syntax, its heading slugify)
changing segments every page again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pymdownx.slugs import slugify

from mkdocs_zh_translate.pipeline import pages as pages_module
from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.cache import MachineCache
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
from mkdocs_zh_translate.pipeline.pages import PageJob
from mkdocs_zh_translate.segment import SegmentedPage, SiteSyntax
from tests.fakes import site_translator

PAGES = {"a.md": "# Alpha\n\nFirst page.\n", "b.md": "# Beta\n\nSecond page.\n"}


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = pages_module.segment_markdown

    def counting(text: str, **options: Any) -> SegmentedPage:
        seen.append(text)
        return real(text, **options)

    monkeypatch.setattr(pages_module, "segment_markdown", counting)
    return seen


def _build(tmp_path: Path, memo: dict[str, SegmentedPage], pages: dict[str, str], **options: Any) -> dict[str, str]:
    machine = MachineCache(tmp_path / "cache")
    site = site_translator(machine, LazyTranslator(), TranslatorSpec("pseudo", None), segmented=memo, **options)
    results, _, _ = site.translate_pages([PageJob(k, k, v) for k, v in pages.items()])
    machine.close()
    return {k: r.markdown for k, r in results.items()}


def test_an_unchanged_page_is_not_segmented_again(tmp_path: Path, calls: list[str]) -> None:
    memo: dict[str, SegmentedPage] = {}
    first = _build(tmp_path, memo, PAGES)
    assert len(calls) == 2
    edited = {**PAGES, "b.md": "# Beta\n\nSecond page, edited.\n"}
    second = _build(tmp_path, memo, edited)
    assert calls[2:] == [edited["b.md"]]  # only the edited page
    assert second["a.md"] == first["a.md"] and "edited" in second["b.md"]


def test_another_syntax_or_slugify_segments_every_page_again(tmp_path: Path, calls: list[str]) -> None:
    memo: dict[str, SegmentedPage] = {}
    _build(tmp_path, memo, PAGES, slugify=slugify(case="lower"))
    _build(tmp_path, memo, PAGES, slugify=slugify(case="lower"))  # a new, equal partial: reused
    assert len(calls) == 2
    _build(tmp_path, memo, PAGES, slugify=slugify(case="none"))
    assert len(calls) == 4
    _build(tmp_path, memo, PAGES, slugify=slugify(case="none"), syntax=SiteSyntax(fancy_lists=True))
    assert len(calls) == 6


def test_the_memo_keeps_no_more_than_the_site_and_a_few_spare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages_module, "_MEMO_SPARE", 1)
    memo: dict[str, SegmentedPage] = {}
    for n in range(4):
        _build(tmp_path, memo, {"a.md": f"# Page\n\nVersion {n}.\n"})
    assert len(memo) == 2  # the current page and one spare
