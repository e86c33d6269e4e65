"""What a page costs the translation pass beside segmenting it (issue 21).

* With stored guard verdicts, the guard splices the whole page to key its verdict: that splice
  is the page the build ships when nothing is reverted, so the page is spliced once, not twice.
* A pass's guard verdicts are written to the machine cache in one transaction, not one per
  page (a commit each: 10 ms on a busy disk); the pass's own later pages already see them.
* The memos' keys read the site's syntax, which holds every emoji shortcode pymdownx.emoji
  replaces (~20,000 on a Material site): its text is made once per pass, not once per page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.cache import MachineCache
from mkdocs_zh_translate.pipeline.guard import PageGuard, python_markdown_renderer
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
from mkdocs_zh_translate.pipeline.pages import PageJob
from mkdocs_zh_translate.pipeline.service import TranslationService
from mkdocs_zh_translate.segment import SegmentedPage, SiteSyntax
from tests.fakes import site_translator
from tests.growth import assert_scales, fastest
from tests.pipeline.test_guard_verdicts import Store, _broken
from tests.pipeline.test_pipeline_guard import SOURCE, TEXTS, RawPage, good


@dataclass(frozen=True)
class CountedPage(RawPage):
    """A RawPage that counts its splices."""

    splices: list[int] = field(default_factory=list)

    def splice(self, translations: Sequence[str | None], *, heading_ids: bool = True) -> str:
        self.splices.append(1)
        return super().splice(translations)


def _page() -> CountedPage:
    raw = RawPage.of(SOURCE, TEXTS)
    return CountedPage(raw.source, raw.segments, raw.blocks)


def _service(store: Store) -> TranslationService:
    guard = PageGuard(python_markdown_renderer(), verdicts=store, fingerprint="toc")
    return TranslationService(lambda: None, guard=guard)  # type: ignore[arg-type,return-value]


def test_a_page_with_a_stored_verdict_is_spliced_once() -> None:
    store = Store()
    for translations in (good(), _broken()):
        _service(store).splice(SOURCE, _page(), translations)  # type: ignore[arg-type]  # the first build
        page = _page()
        markdown, outcome = _service(store).splice(SOURCE, page, translations)  # type: ignore[arg-type]
        assert outcome.reused
        expected = list(translations)
        for i in outcome.reverted:
            expected[i] = None
        assert markdown == RawPage.of(SOURCE, TEXTS).splice(expected)
        # the verdict's key, and the shipped page when nothing was reverted
        assert len(page.splices) == (1 if not outcome.reverted else 2), outcome.reverted
    assert _broken()[1] is not None and store.data  # the broken page was reverted, from a verdict


def test_the_first_build_ships_the_page_the_verdict_keyed() -> None:
    page = _page()
    markdown, outcome = _service(Store()).splice(SOURCE, page, good())  # type: ignore[arg-type]
    assert not outcome.reverted and markdown == RawPage.of(SOURCE, TEXTS).splice(good())
    # the key's splice and the guard's render of the whole translated page; no third
    assert len(page.splices) == 2
    # a page the guard reverts in part ships with the English segment back (not the key's page)
    markdown, outcome = _service(Store()).splice(SOURCE, _page(), _broken())  # type: ignore[arg-type]
    expected = _broken()
    expected[1] = None
    assert outcome.reverted == [1] and markdown == RawPage.of(SOURCE, TEXTS).splice(expected)


def test_the_sites_syntax_is_keyed_once_per_pass(tmp_path: Path) -> None:
    machine = MachineCache(tmp_path / "cache")

    def pass_seconds(k: int) -> float:
        """CPU seconds of one pass over 8k tiny pages, on a site that replaces 10,000k emoji."""
        syntax = SiteSyntax(emoji=frozenset(f":e{i}:" for i in range(10_000 * k)))
        jobs = [PageJob(f"p{i}.md", f"p{i}.md", f"Page {i} text.\n") for i in range(8 * k)]

        def run() -> object:
            memo: dict[str, SegmentedPage] = {}  # as the plugin's: every page goes through its key
            spec = TranslatorSpec("pseudo", None)
            site = site_translator(machine, LazyTranslator(), spec, syntax=syntax, segmented=memo, spliced={}
            )
            return site.translate_pages(jobs)

        run()  # the cache filled: every pass after this one is a cached rebuild
        return fastest(run, repeats=2)

    try:
        assert_scales("a pass over 8k pages of a site with 10,000k emoji shortcodes", pass_seconds)
    finally:
        machine.close()


def test_a_passs_verdicts_are_written_in_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writes: list[int] = []  # per write of verdicts: how many
    real = MachineCache._set

    def counting(self: MachineCache, items: dict[str, str]) -> None:
        verdicts = [key for key in items if key.startswith("guard:")]
        if verdicts:
            writes.append(len(verdicts))
        real(self, items)

    monkeypatch.setattr(MachineCache, "_set", counting)
    pages = {f"p{i}.md": f"# Page {i}\n\nSee [the guide](guide.md) *now*.\n" for i in range(3)}
    jobs = [PageJob(k, k, v) for k, v in pages.items()]

    def build() -> tuple[dict[str, str], int]:
        machine = MachineCache(tmp_path / "cache")
        guard = PageGuard(python_markdown_renderer(), verdicts=machine, fingerprint="toc")
        site = site_translator(machine, LazyTranslator(), TranslatorSpec("pseudo", None), guard=guard)
        results, _, _ = site.translate_pages(jobs)
        reused = guard.reused
        machine.close()
        return {k: r.markdown for k, r in results.items()}, reused

    first, reused = build()
    assert reused == 0 and writes == [3]  # the three pages' verdicts, together
    writes.clear()
    second, reused = build()  # a new process: every verdict was saved
    assert reused == 3 and second == first and writes == []
