"""The memo of spliced pages a SiteTranslator may share with the next build (issue 21).

The plugin keeps one across ``mkdocs serve`` reloads: a reload splices (and guards) only the
pages whose Markdown, translations, label or guard changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.cache import MachineCache
from mkdocs_zh_translate.pipeline.guard import PageGuard, python_markdown_renderer
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
from mkdocs_zh_translate.pipeline.pages import PageJob
from mkdocs_zh_translate.pipeline.service import GuardOutcome, TranslationService
from tests.fakes import site_translator

PAGES = {"a.md": "# Alpha\n\nFirst *page*.\n", "b.md": "# Beta\n\nSecond page.\n"}


@pytest.fixture
def spliced(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = TranslationService.splice

    def counting(self: TranslationService, english: str, *args: Any, **options: Any) -> tuple[str, GuardOutcome]:
        seen.append(english)
        return real(self, english, *args, **options)

    monkeypatch.setattr(TranslationService, "splice", counting)
    return seen


def _build(
    tmp_path: Path, memo: dict[str, tuple[str, GuardOutcome]] | None, pages: dict[str, str], **options: Any
) -> dict[str, str]:
    machine = MachineCache(tmp_path / "cache")
    site = site_translator(machine, LazyTranslator(), TranslatorSpec("pseudo", None), spliced=memo, **options
    )
    results, _, _ = site.translate_pages([PageJob(k, k, v) for k, v in pages.items()])
    machine.close()
    return {k: r.markdown for k, r in results.items()}


def test_an_unchanged_page_is_not_spliced_again(tmp_path: Path, spliced: list[str]) -> None:
    memo: dict[str, tuple[str, GuardOutcome]] = {}
    first = _build(tmp_path, memo, PAGES)
    assert len(spliced) == 2
    edited = {**PAGES, "b.md": "# Beta\n\nSecond page, edited.\n"}
    second = _build(tmp_path, memo, edited)
    assert spliced[2:] == [edited["b.md"]]  # only the edited page
    assert second == _build(tmp_path, None, edited)  # what no memo gives
    assert second["a.md"] == first["a.md"] and "edited.」" in second["b.md"]


def test_another_guard_renderer_splices_every_page_again(tmp_path: Path, spliced: list[str]) -> None:
    memo: dict[str, tuple[str, GuardOutcome]] = {}
    render = python_markdown_renderer()
    _build(tmp_path, memo, PAGES, guard=PageGuard(render, fingerprint="one"))
    _build(tmp_path, memo, PAGES, guard=PageGuard(render, fingerprint="one"))
    assert len(spliced) == 2
    _build(tmp_path, memo, PAGES, guard=PageGuard(render, fingerprint="two"))
    assert len(spliced) == 4
    _build(tmp_path, memo, PAGES, guard=PageGuard(render))  # says nothing of its renderer: no memo
    _build(tmp_path, memo, PAGES, guard=PageGuard(render))
    assert len(spliced) == 8
