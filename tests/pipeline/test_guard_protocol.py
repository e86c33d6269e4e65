"""A page guard is whatever has the members of ``service.Guard``: the pipeline checks, saves
and memoises through them, never by asking whether the guard is a ``PageGuard``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.cache import MachineCache
from mkdocs_zh_translate.pipeline.guard import GuardResult
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
from mkdocs_zh_translate.pipeline.pages import PageJob
from mkdocs_zh_translate.pipeline.service import GuardOutcome
from mkdocs_zh_translate.segment import SegmentedPage
from tests.fakes import site_translator


class KeepsFirstEnglish:
    """A guard of a front end's own: the first segment of every page stays English."""

    fingerprint = "mine"
    over_budget = 0

    def __init__(self) -> None:
        self.checked: list[str] = []
        self.saves = 0

    def check(self, english_markdown: str, page: SegmentedPage, translations: Sequence[str | None], *,
              label: str = "page", line_offset: int = 0) -> GuardResult:
        self.checked.append(label)
        kept = [None, *translations[1:]] if translations else []
        return GuardResult(kept, reverted=[0] if translations and translations[0] else [], reason="mine")

    def save(self) -> None:
        self.saves += 1


def test_a_guard_of_ones_own_is_checked_saved_and_memoised(tmp_path: Path) -> None:
    guard = KeepsFirstEnglish()
    memo: dict[str, tuple[str, GuardOutcome]] = {}
    machine = MachineCache(tmp_path / "cache")
    jobs = [PageJob("a.md", "a.md", "# Alpha\n\nFirst page.\n")]
    for _ in range(2):
        site = site_translator(machine, LazyTranslator(), TranslatorSpec("pseudo", None), guard=guard, spliced=memo)
        results, _s, _stats = site.translate_pages(jobs)
    machine.close()
    assert results["a.md"].markdown == "# Alpha\n\n「First page.」\n"  # the heading kept English
    assert guard.checked == ["a.md"]  # the second pass found the page in the memo, by its fingerprint
    assert guard.saves == 2  # once per pass
