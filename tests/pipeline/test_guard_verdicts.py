"""Stored page-guard verdicts: reused for the same inputs, never for changed ones (issue 21).

A cached rebuild or a ``mkdocs serve`` reload guards every page again; the verdict of a page
whose Markdown, translations and renderer are unchanged is the stored one, and any change to
those three makes the guard render again.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs_zh_translate.pipeline.cache import MachineCache
from mkdocs_zh_translate.pipeline.guard import PageGuard, extensions_fingerprint, python_markdown_renderer
from tests.pipeline.test_pipeline_guard import SOURCE, TEXTS, RawPage, good


class Store:
    """A VerdictStore in memory."""

    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def get_verdict(self, key: str) -> str | None:
        return self.data.get(key)

    def set_verdict(self, key: str, value: str) -> None:
        self.data[key] = value

    def save_verdicts(self) -> None:
        pass  # kept at once


def _guard(store: object, fingerprint: str = "toc") -> PageGuard:
    return PageGuard(python_markdown_renderer(), verdicts=store, fingerprint=fingerprint)  # type: ignore[arg-type]


def _broken() -> list[str | None]:
    translations = good()
    translations[1] = "「Read the guide first.」"  # the link is lost
    return translations


def test_an_unchanged_page_reuses_its_verdict_without_rendering() -> None:
    store = Store()
    first = _guard(store).check(SOURCE, RawPage.of(SOURCE, TEXTS), _broken(), label="docs/a.md")
    assert first.reverted == [1] and first.renders > 2 and not first.reused
    again = _guard(store)  # the next build: a new guard, the same store
    second = again.check(SOURCE, RawPage.of(SOURCE, TEXTS), _broken(), label="docs/a.md")
    assert second.reused and second.renders == 0 and again.renders == 0
    assert (second.translations, second.reverted, second.whole_page, second.reason) == (
        first.translations,
        first.reverted,
        first.whole_page,
        first.reason,
    )
    assert again.reverted == 1  # counted like a verdict it computed


def test_a_changed_page_is_guarded_again() -> None:
    store = Store()
    _guard(store).check(SOURCE, RawPage.of(SOURCE, TEXTS), good())
    changed = SOURCE.replace("Then wait.", "Then wait.\n\n```\nstray fence")
    guard = _guard(store)
    result = guard.check(changed, RawPage.of(changed, TEXTS), good())
    assert not result.reused and guard.renders >= 2


def test_a_changed_translation_is_guarded_again_and_reverted() -> None:
    store = Store()
    assert _guard(store).check(SOURCE, RawPage.of(SOURCE, TEXTS), good()).reverted == []
    guard = _guard(store)
    result = guard.check(SOURCE, RawPage.of(SOURCE, TEXTS), _broken())
    assert not result.reused and result.reverted == [1]


def test_other_extensions_are_guarded_again() -> None:
    store = Store()
    _guard(store, fingerprint=extensions_fingerprint(["toc"])).check(SOURCE, RawPage.of(SOURCE, TEXTS), good())
    same = _guard(store, fingerprint=extensions_fingerprint(["toc"]))
    assert same.check(SOURCE, RawPage.of(SOURCE, TEXTS), good()).reused
    for extensions, configs in ((["toc", "tables"], {}), (["toc"], {"toc": {"permalink": True}})):
        guard = _guard(store, fingerprint=extensions_fingerprint(extensions, configs))
        assert not guard.check(SOURCE, RawPage.of(SOURCE, TEXTS), good()).reused, (extensions, configs)


def test_the_fingerprint_names_functions_and_extension_instances_stably() -> None:
    from markdown.extensions.toc import TocExtension

    def slug(value: str, separator: str) -> str:
        return value

    configs = {"toc": {"slugify": slug}}
    one = extensions_fingerprint([TocExtension(permalink=True)], configs)
    assert one == extensions_fingerprint([TocExtension(permalink=True)], configs)  # new objects, same key
    assert one != extensions_fingerprint([TocExtension(permalink=False)], configs)

    def other(value: str, separator: str) -> str:
        return value

    assert one != extensions_fingerprint([TocExtension(permalink=True)], {"toc": {"slugify": other}})
    # pymdownx.slugs.slugify(case=...) is a functools.partial: its options are part of the key
    from pymdownx.slugs import slugify

    lower = extensions_fingerprint(["toc"], {"toc": {"slugify": slugify(case="lower")}})
    assert lower == extensions_fingerprint(["toc"], {"toc": {"slugify": slugify(case="lower")}})
    assert lower != extensions_fingerprint(["toc"], {"toc": {"slugify": slugify(case="none")}})


def test_a_malformed_stored_verdict_is_a_miss() -> None:
    store = Store()
    _guard(store).check(SOURCE, RawPage.of(SOURCE, TEXTS), _broken())
    for key in store.data:
        store.data[key] = '{"r": [99], "w": false, "s": ""}'  # an index the page does not have
    guard = _guard(store)
    result = guard.check(SOURCE, RawPage.of(SOURCE, TEXTS), _broken())
    assert not result.reused and result.reverted == [1]


def test_verdicts_persist_in_the_machine_cache(tmp_path: Path) -> None:
    cache = MachineCache(tmp_path / "cache")
    _guard(cache).check(SOURCE, RawPage.of(SOURCE, TEXTS), _broken())
    cache.close()
    reopened = MachineCache(tmp_path / "cache")
    result = _guard(reopened).check(SOURCE, RawPage.of(SOURCE, TEXTS), _broken())
    reopened.close()
    assert result.reused and result.reverted == [1]
