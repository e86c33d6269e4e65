"""Quadratic pages (issue 23, item 9): docs are trusted, but no page may stall a build.

Without the guard every step of ``md`` (segmenting, translating, splicing) is linear in the
page: a table of n columns, runs of ``[``, ``<a `` and backticks. With the guard, the renders
cost what Python-Markdown costs (quadratic on some of these pages, as in the English build):
the guard's cost is judged as a multiple of one render of the English page, at n, 2n and 4n.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mkdocs_zh_translate.pipeline.guard import BUDGET, PageGuard, python_markdown_renderer, structure
from mkdocs_zh_translate.pipeline.markdown import translate_markdown
from mkdocs_zh_translate.pipeline.translator import PseudoTranslator
from tests.growth import assert_bounded_multiple, assert_linear, fastest, growth_ratios


def _table(n: int) -> str:
    """A table of n columns, a header and two rows."""
    row = "| " + " | ".join(f"cell text {i}" for i in range(n)) + " |\n"
    head = "| " + " | ".join(f"Col {i}" for i in range(n)) + " |\n"
    return "# Wide\n\n" + head + "|" + "---|" * n + "\n" + row + row


def _backticks(n: int) -> str:
    """Backtick runs of growing length (` a `` a ``` a ...): n characters in all."""
    runs, size = [], 0
    while size < n:
        runs.append("`" * (len(runs) + 1) + "a")
        size += len(runs) + 1
    return "Some text " + " ".join(runs) + " end.\n"


PAGES: dict[str, tuple[Callable[[int], str], int, int]] = {
    # name: (page of size n, n without the guard, n with it); the wide table was quadratic in
    # the segmenter; Python-Markdown is quadratic on the runs (with the guard: smaller n)
    "wide table": (_table, 400, 400),
    "[ runs": (lambda n: "Some text " + "[" * n + " end.\n", 2000, 400),
    "<a runs": (lambda n: "Some text " + "<a " * n + " end.\n", 2000, 300),
    "backtick runs": (_backticks, 8000, 4000),
}


def _md(text: str, guard: PageGuard | None = None) -> str:
    return translate_markdown(text, PseudoTranslator(), guard=guard)


@pytest.mark.parametrize("name", list(PAGES))
def test_page_without_guard_grows_linearly(name: str) -> None:
    make, n, _ = PAGES[name]
    assert_linear(f"{name} (no guard)", lambda: growth_ratios(make, n, _md, repeats=2))


@pytest.mark.parametrize("name", list(PAGES))
def test_page_with_guard_costs_a_few_renders(name: str) -> None:
    """A page that passes the guard: the whole ``md`` of it (segmenting, translating, the
    guard's two renders, splicing) costs a few of Python-Markdown's renders of it, however long."""
    make, _, n = PAGES[name]
    render = python_markdown_renderer()

    def ratio(k: int) -> float:
        text = make(k * n)
        out: list[str] = []  # the page of the last timed run: it passed the guard (translated)
        guarded = fastest(lambda: out.append(_md(text, PageGuard(render))), 2)
        assert "「" in out[-1]
        return guarded / fastest(lambda: render(text), 2)

    # Bound 10: on a 400-column table, segmenting, pseudo-translating and splicing 1,200 cells
    # cost ~2 renders and the guard 2 more; measured 8.4x / 7.4x / 5.5x at n / 2n / 4n on an idle
    # machine (per-cell costs weigh most at n). The quadratic search this guards against cost
    # 11.5x / 13.5x / 31.9x.
    assert_bounded_multiple(f"{name} (guard)", ratio, 10)


# Cell content that makes each render of a table costly (Python-Markdown's link and raw-HTML
# patterns scan ahead from every `[` and `<a`; a backtick run looks for a run of its length).
FILLERS: dict[str, Callable[[int], str]] = {
    "[ runs": lambda k: "[" * k,
    "<a runs": lambda k: "<a " * k,
    "backtick runs": lambda k: _backticks(k).strip(),
}


def _breaking_table(rows: int, filler: str) -> tuple[str, Any, list[str | None]]:
    """A table whose every other row's translation loses its link (spliced raw, as an unknown
    construct would be): one region, so every probe of the guard's search renders all of it."""
    from tests.pipeline.test_pipeline_guard import RawPage

    texts = [f"Read the [part {i}](p{i}.md) now" for i in range(rows)]
    source = "| A | B |\n|---|---|\n" + "".join(f"| {filler} | {t} |\n" for t in texts)
    translations: list[str | None] = [
        f"Read the part {i} now" if i % 2 == 0 else f"「{t}」" for i, t in enumerate(texts)
    ]
    return source, RawPage.of(source, texts), translations


@pytest.mark.parametrize("name", list(FILLERS))
def test_guard_search_is_bounded_by_the_english_render(name: str) -> None:
    """The guard's search on a costly page that breaks: at most its budget (BUDGET times the
    English page's render) plus the render under way, as the page and the number of breaking
    segments grow; it used to bisect on (16 renders of the table for 8 rows, 57 for 32)."""
    render = python_markdown_renderer()
    filler = FILLERS[name](40 if name == "<a runs" else 100)
    warned: list[str] = []

    def ratio(k: int) -> float:
        source, page, translations = _breaking_table(8 * k, filler)

        def guard() -> None:
            result = PageGuard(render, floor_s=0.0).check(source, page, translations, label="wide.md")
            warned.append(result.reason)

        # The budget is counted against the English render *and* the parse of its HTML (what
        # the guard's first step costs), so that is the unit here too.
        return fastest(guard, 2) / fastest(lambda: structure(render(source)), 2)

    # The guard spends BUDGET times one sample of the English render (a single reading, not a
    # fastest-of: 8-10x here idle, up to 13.6x on a loaded CI machine), plus that render and
    # the one under way. The bound is 2 x BUDGET: the search that bisected on cost 16 renders
    # of the table at 8 rows, 57 at 32 (and grows with the rows); a bounded one does not grow.
    assert_bounded_multiple(f"{name}: the guard's search", ratio, 2 * BUDGET)
    assert any("wide.md" in w and "over budget" in w for w in warned), warned[-1:]


def test_guard_budget_counts_the_clock_it_is_given() -> None:
    """Counted work, not time: a renderer that costs len(markdown)**2 units on the guard's clock
    (a quadratic renderer, modelled). The guard stops its search once BUDGET times the English
    render is spent, plus the render under way; the page goes back to English whole."""
    base = python_markdown_renderer()
    spent = [0.0]
    costs: list[float] = []

    def render(markdown: str) -> str:
        costs.append(len(markdown) ** 2 / 1e6)
        spent[0] += costs[-1]
        return base(markdown)

    source, page, translations = _breaking_table(64, "[" * 20)
    result = PageGuard(render, floor_s=0.0, clock=lambda: spent[0]).check(source, page, translations, label="t.md")
    english = costs[0]
    assert spent[0] <= BUDGET * english + max(costs)
    assert result.whole_page and result.translations == [None] * len(translations)
    assert "t.md" in result.reason and "over budget" in result.reason
    unbounded = PageGuard(render, floor_s=float("inf"), clock=lambda: spent[0])
    spent[0] = 0.0
    again = unbounded.check(source, page, translations)  # without a budget: the full search
    assert sorted(again.reverted) == list(range(0, 64, 2)) and spent[0] > 2 * BUDGET * english


def test_ordinary_pages_search_as_before() -> None:
    """The floor: on a page whose renders take milliseconds, the search finds each breaking
    segment as it did without a budget."""
    source, page, translations = _breaking_table(16, "plain words")
    result = PageGuard(python_markdown_renderer()).check(source, page, translations)
    assert result.reverted == list(range(0, 16, 2)) and not result.whole_page
