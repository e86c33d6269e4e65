"""A borrowed English render: the guard renders only the spliced page, and judges it the same (issue 21).

The site's build has rendered each English page already; when the front end lends the
structure of that render (by the page's exact Markdown), the guard's first verdict costs one
render instead of two, and a page that differs gets the verdict it got with its own render.
"""

from __future__ import annotations

from mkdocs_zh_translate.pipeline.guard import PageGuard, python_markdown_renderer, structure
from tests.pipeline.test_pipeline_guard import SOURCE, TEXTS, RawPage, good


def _broken() -> list[str | None]:
    translations = good()
    translations[1] = "「Read the guide first.」"  # the link is lost
    return translations


def _lent() -> PageGuard:
    render = python_markdown_renderer()
    return PageGuard(render, english={SOURCE: structure(render(SOURCE))})


def test_a_faithful_translation_costs_one_render_with_the_english_render_lent() -> None:
    guard = _lent()
    result = guard.check(SOURCE, RawPage.of(SOURCE, TEXTS), good())
    assert result.renders == 1 and guard.renders == 1 and guard.borrowed == 1
    assert result.reverted == [] and result.translations == good()


def test_a_breaking_translation_gets_the_same_verdict_with_the_english_render_lent() -> None:
    own = PageGuard(python_markdown_renderer()).check(SOURCE, RawPage.of(SOURCE, TEXTS), _broken(), label="a.md")
    guard = _lent()
    lent = guard.check(SOURCE, RawPage.of(SOURCE, TEXTS), _broken(), label="a.md")
    assert guard.borrowed == 1 and lent.reverted == [1]
    assert (lent.translations, lent.reverted, lent.whole_page, lent.reason) == (
        own.translations,
        own.reverted,
        own.whole_page,
        own.reason,
    )
    assert lent.renders == own.renders  # the English page is rendered to time the search's budget


def test_other_markdown_is_rendered_by_the_guard() -> None:
    guard = _lent()
    other = SOURCE.replace("Then wait.", "Then wait a bit.")
    texts = [t.replace("Then wait.", "Then wait a bit.") for t in TEXTS]
    result = guard.check(other, RawPage.of(other, texts), [f"「{t}」" for t in texts])
    assert result.renders == 2 and guard.borrowed == 0
