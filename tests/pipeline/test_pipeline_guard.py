"""The page guard reverts exactly the segments whose translation breaks the page structure.

The splice already escapes what a model introduces, so broken pages come from constructs the
segmenter does not know. These tests simulate that with a page whose splice is a plain text
substitution (what an unrecognised construct amounts to): a translation that drops a link,
breaks a code span or breaks a fence must cost that segment, and only that segment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from mkdocs_zh_translate.pipeline.guard import PageGuard, make_guard, python_markdown_renderer, structure
from mkdocs_zh_translate.segment import segment_markdown


@dataclass(frozen=True)
class Seg:
    text: str
    start: int
    end: int
    line: int


@dataclass(frozen=True)
class RawPage:
    """Segments spliced in as raw Markdown (no placeholders, no escaping)."""

    source: str
    segments: list[Seg]
    blocks: tuple[int, ...] = ()  # the segmenter's top-level blocks of ``source`` (see ``of``)

    @classmethod
    def of(cls, source: str, texts: Sequence[str]) -> RawPage:
        segs, cursor = [], 0
        for text in texts:
            start = source.index(text, cursor)
            segs.append(Seg(text, start, start + len(text), source.count("\n", 0, start) + 1))
            cursor = start + len(text)
        return cls(source, segs, segment_markdown(source).blocks)

    def splice(self, translations: Sequence[str | None]) -> str:
        out, cursor = [], 0
        for seg, tr in zip(self.segments, translations):
            out += [self.source[cursor : seg.start], seg.text if tr is None else tr]
            cursor = seg.end
        return "".join([*out, self.source[cursor:]])


SOURCE = (
    "# Install\n\n"
    "Read the [guide](guide.md) first.\n\n"
    "Run `pip install x` now.\n\n"
    "Then wait.\n\n"
    "```\nprint(1)\n```\n\n"
    "Last words.\n\n"
    "![logo](logo.png)\n"
)
TEXTS = [
    "Install",
    "Read the [guide](guide.md) first.",
    "Run `pip install x` now.",
    "Then wait.",
    "Last words.",
]


def good() -> list[str | None]:
    return [f"「{t}」" for t in TEXTS]


@pytest.fixture
def guard() -> PageGuard:
    return make_guard(python_markdown_renderer())


def test_a_faithful_translation_passes_with_two_renders(guard: PageGuard) -> None:
    page = RawPage.of(SOURCE, TEXTS)
    result = guard.check(SOURCE, page, good())
    assert result.reverted == [] and not result.reason
    assert result.translations == good()
    assert result.renders == 2


@pytest.mark.parametrize(
    ("index", "broken", "what"),
    [
        (1, "「Read the guide first.」", "href/src 'guide.md' lost"),
        (2, "「Run `pip install x now.」", "inline code 'pip install x' lost"),
        (3, "「Then wait.」\n\n```", "<pre> block"),
    ],
    ids=["drops-a-link", "breaks-a-code-span", "breaks-a-fence"],
)
def test_the_breaking_segment_alone_goes_back_to_english(guard: PageGuard, index: int, broken: str, what: str) -> None:
    page = RawPage.of(SOURCE, TEXTS)
    translations = good()
    translations[index] = broken
    result = guard.check(SOURCE, page, translations, label="docs/install.md")
    assert result.reverted == [index]
    assert not result.whole_page
    expected = good()
    expected[index] = None
    assert result.translations == expected
    assert result.reason.startswith("docs/install.md: ") and what in result.reason
    assert f"line {page.segments[index].line}" in result.reason
    # the page now has the English structure
    html = python_markdown_renderer()(page.splice(result.translations))
    assert structure(html) == structure(python_markdown_renderer()(SOURCE))


def test_two_breaking_segments_are_both_found(guard: PageGuard) -> None:
    page = RawPage.of(SOURCE, TEXTS)
    translations = good()
    translations[1] = "「Read the guide first.」"
    translations[4] = "「Last [words](x.md).」"
    result = guard.check(SOURCE, page, translations)
    assert result.reverted == [1, 4]
    assert [t is None for t in result.translations] == [False, True, False, False, True]


def test_segments_that_break_only_together_cost_the_whole_page() -> None:
    # A renderer in which two translations are harmless alone and break the page together.
    base = python_markdown_renderer()

    def render(text: str) -> str:
        html = base(text)
        return html + "<pre>oops</pre>" if "AAA" in text and "BBB" in text else html

    guard = make_guard(render)
    page = RawPage.of(SOURCE, TEXTS)
    translations = good()
    translations[2] = "「Run `pip install x` now AAA.」"
    translations[3] = "「Then BBB wait.」"
    result = guard.check(SOURCE, page, translations, label="p.md")
    assert result.whole_page
    assert result.translations == [None] * len(TEXTS)
    assert "whole page" in result.reason and "<pre> block '<pre>oops</pre>' added" in result.reason


def test_call_form_returns_only_the_translations(guard: PageGuard) -> None:
    page = RawPage.of(SOURCE, TEXTS)
    translations = good()
    translations[2] = "「Run `pip install x now.」"
    out = guard(SOURCE, page, translations)
    assert out[2] is None and out[:2] == good()[:2]
    assert guard.reverted == 1 and guard.pages == 1


def test_untranslated_segments_cost_no_render(guard: PageGuard) -> None:
    page = RawPage.of(SOURCE, TEXTS)
    result = guard.check(SOURCE, page, [None] * len(TEXTS))
    assert result.renders == 0 and result.reverted == []


def test_real_segmenter_pages_pass_untouched(guard: PageGuard) -> None:
    page = segment_markdown(SOURCE)
    translations: list[str | None] = [f"「{s.text}」" for s in page.segments]
    result = guard.check(SOURCE, page, translations)
    assert result.reverted == [] and result.translations == translations


def test_structure_sees_math_and_ids() -> None:
    a = structure('<h2 id="x">T</h2><span class="arithmatex">\\(a+b\\)</span><code>k</code>')
    b = structure('<h2 id="y">T</h2><span class="arithmatex">\\(a+c\\)</span><code>k</code>')
    diffs = a.differences(b)
    assert any(d.startswith("id 'x' lost") for d in diffs)
    assert any(d.startswith("math") for d in diffs)
    assert not any(d.startswith("inline code") for d in diffs)


def test_autodoc_stub_sees_a_translated_directive() -> None:
    from mkdocs_zh_translate.pipeline.guard import autodoc_stub

    render = python_markdown_renderer(["toc", autodoc_stub()])
    source = "# API\n\n::: pkg.mod\n    options:\n      show_source: false\n\nProse.\n"
    page = RawPage.of(source, ["API", "::: pkg.mod", "Prose."])
    guard = make_guard(render)
    result = guard.check(source, page, ["「API」", "「::: pkg.mod」", "「Prose.」"])
    assert result.reverted == [1]
    assert "zh-guard-autodoc:0:pkg.mod:" in result.reason


def test_structure_counts_autorefs_references() -> None:
    a = structure('<p><autoref identifier="pkg.Thing">Thing</autoref></p>')
    b = structure("<p>[Thing][pkg.Thing]</p>")
    assert a.differences(b) == ["href/src 'autoref:pkg.Thing' lost"]


def _directive_page() -> tuple[str, RawPage, list[str | None]]:
    prose = [f"Sentence number {n} is plain." for n in range(30)]
    texts = [*prose[:15], "::: pkg.mod", *prose[15:]]
    source = "\n\n".join(texts) + "\n"
    return source, RawPage.of(source, texts), [f"「{t}」" for t in texts]


def test_suspects_first_keep_the_search_short(monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_zh_translate.pipeline import guard as guard_module
    from mkdocs_zh_translate.pipeline.guard import autodoc_stub

    source, page, translations = _directive_page()
    monkeypatch.setattr(guard_module._regions, "region_starts", lambda page: [])  # one region: the whole page
    guard = make_guard(python_markdown_renderer([autodoc_stub()]))
    result = guard.check(source, page, translations)
    assert result.reverted == [15]
    monkeypatch.setattr(guard_module._guard, "suspects", lambda *args: [])
    plain = make_guard(python_markdown_renderer([autodoc_stub()])).check(source, page, translations)
    assert plain.reverted == [15]
    # english, all, all but the suspects, the two suspects (the directive and the sentence just
    # above it), final check; plain bisection over 31 segments needs about twice as many
    assert result.renders <= 6 and plain.renders >= 2 * result.renders - 2


def test_regions_keep_the_renders_small(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bisection over regions renders a few pages' worth of Markdown in all; bisection over the
    whole page renders the whole page for every probe."""
    from mkdocs_zh_translate.pipeline import guard as guard_module
    from mkdocs_zh_translate.pipeline.guard import autodoc_stub

    source, page, translations = _directive_page()
    result = make_guard(python_markdown_renderer([autodoc_stub()])).check(source, page, translations)
    assert result.reverted == [15] and not result.whole_page
    monkeypatch.setattr(guard_module._regions, "region_starts", lambda page: [])
    monkeypatch.setattr(guard_module._guard, "suspects", lambda *args: [])
    plain = make_guard(python_markdown_renderer([autodoc_stub()])).check(source, page, translations)
    assert plain.reverted == [15]
    # english, all, final check (3 pages) + halves that shrink at each level (about 3 more)
    assert result.rendered <= 7 * len(source), result.rendered / len(source)
    assert plain.rendered >= 1.5 * result.rendered, (plain.rendered, result.rendered)


@pytest.mark.parametrize(
    "source",
    [
        "Intro.\n\n```\ncode\n\nNot a region start\n```\n\nAfter.\n",
        "Intro.\n\n/// note\n\nInside a block.\n\n///\n\nAfter.\n",
        "Intro.\n\n<div markdown>\n\nInside.\n\n</div>\n\nAfter.\n",
        "Intro.\n\n- item\n\n    indented\n\nAfter.\n",
        "Intro.\n\n<https://example.com> is a link.\n\nAfter.\n",
    ],
    ids=["fence", "pymdownx-block", "html-block", "indented", "autolink"],
)
def test_regions_start_only_at_the_margin_outside_constructs(source: str) -> None:
    from mkdocs_zh_translate.pipeline.guard import region_starts

    starts = region_starts(segment_markdown(source))
    assert [source[s:].split("\n", 1)[0] for s in starts][-1] == "After."
    assert all(source[s - 2 : s] == "\n\n" for s in starts)
    assert not any(source[s:].startswith(("Not", "Inside", "indented")) for s in starts)


def _site_translate(tmp_path, render, page_text: str):  # type: ignore[no-untyped-def]
    from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
    from mkdocs_zh_translate.pipeline.cache import MachineCache
    from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
    from mkdocs_zh_translate.pipeline.pages import PageJob
    from tests.fakes import site_translator

    machine = MachineCache(tmp_path / "cache")
    try:
        site = site_translator(machine, LazyTranslator(), TranslatorSpec("pseudo", None), guard=make_guard(render)
        )
        results, _strings, stats = site.translate_pages([PageJob("docs/p.md", "docs/p.md", page_text, 2)])
    finally:
        machine.close()
    return results["docs/p.md"], stats


def test_site_translator_reverts_the_segment_the_guard_rejects(tmp_path) -> None:  # type: ignore[no-untyped-def]
    base = python_markdown_renderer()

    def render(text: str) -> str:  # pretend the site's renderer breaks on this one translation
        return base(text) + ("<pre>broken</pre>" if "「Bad one.」" in text else "")

    result, stats = _site_translate(tmp_path, render, "# Title\n\nGood one.\n\nBad one.\n")
    assert result.markdown == "# 「Title」 { #title }\n\n「Good one.」\n\nBad one.\n"
    assert result.translated
    assert result.warnings == [
        "docs/p.md: the translation changed the page structure (<pre> block '<pre>broken</pre>' added); "
        "1 segment(s) at line 7 kept in English"
    ]
    assert stats.guarded == 1 and "1 kept in English by the page guard" in stats.summary()


def test_site_translator_whole_page_revert_is_not_called_translated(tmp_path) -> None:  # type: ignore[no-untyped-def]
    def render(text: str) -> str:  # any two of the three translations break the page together
        return "<pre>broken</pre>" if text.count("「") >= 2 else ""

    page = "Good one.\n\nBad one.\n\nUgly one.\n"
    result, _stats = _site_translate(tmp_path, render, page)
    assert result.markdown == page
    assert not result.translated  # the banner says "not translated"
    assert len(result.warnings) == 1 and "whole page is kept in English" in result.warnings[0]


def test_site_translator_every_segment_reverted_is_not_called_translated(tmp_path) -> None:  # type: ignore[no-untyped-def]
    def render(text: str) -> str:  # each translation breaks the page on its own
        return "<pre>broken</pre>" * text.count("「")

    result, _stats = _site_translate(tmp_path, render, "Good one.\n\nBad one.\n")
    assert result.markdown == "Good one.\n\nBad one.\n"
    assert not result.translated


def test_translate_markdown_runs_the_guard_and_says_what_it_kept() -> None:
    from mkdocs_zh_translate import translate_markdown
    from mkdocs_zh_translate.pipeline.guard import PageGuard
    from mkdocs_zh_translate.pipeline.translator import PseudoTranslator

    base = python_markdown_renderer()

    def render(text: str) -> str:  # the `md` front end's renderer, breaking on one translation
        return base(text) + ("<pre>broken</pre>" if "「Bad one.」" in text else "")

    warnings: list[str] = []
    out = translate_markdown(
        "Good one.\n\nBad one.\n", PseudoTranslator(), guard=PageGuard(render), label="p.md", warn=warnings.append
    )
    assert out == "「Good one.」\n\nBad one.\n"
    assert len(warnings) == 1 and warnings[0].startswith("p.md: ") and "<pre>" in warnings[0]


BLOCKS_SOURCE = (
    "Steps to follow:\n\n"
    "- First step.\n"
    "- Second step.\n\n"
    "> A quoted remark.\n\n"
    "| Name | Value |\n|---|---|\n| alpha | one |\n\n"
    "Closing words.\n"
)
BLOCKS_TEXTS = ["Steps to follow:", "First step.", "Second step.", "A quoted remark.", "Name", "alpha", "Closing words."]


@pytest.mark.parametrize(
    ("index", "broken", "what"),
    [
        (1, "「First step.」\n- 「Extra step.」", "list/quote/table structure 'ul>li' added"),
        (2, "「Second step.\nmerged into prose」\n\n「Stray.」", "list/quote/table structure 'p' added"),
        (3, "「A quoted」\n\n「remark.」", "list/quote/table structure 'p' added"),
        (0, "「Steps to follow:」\n\n> 「quoted」", "list/quote/table structure 'blockquote' added"),
        (4, "「Name」 | 「Extra」", "list/quote/table structure 'table' lost"),
    ],
    ids=["adds-a-list-item", "breaks-a-list", "breaks-a-blockquote", "adds-a-blockquote", "breaks-a-table"],
)
def test_a_segment_that_breaks_a_list_quote_or_table_goes_back(
    guard: PageGuard, index: int, broken: str, what: str
) -> None:
    page = RawPage.of(BLOCKS_SOURCE, BLOCKS_TEXTS)
    translations: list[str | None] = [f"「{t}」" for t in BLOCKS_TEXTS]
    assert guard.check(BLOCKS_SOURCE, page, translations).reverted == []  # faithful: passes
    translations[index] = broken
    result = guard.check(BLOCKS_SOURCE, page, translations, label="docs/steps.md")
    assert result.reverted == [index] and not result.whole_page
    assert result.reason.startswith("docs/steps.md: ") and what in result.reason, result.reason
    html = python_markdown_renderer()(page.splice(result.translations))
    assert structure(html) == structure(python_markdown_renderer()(BLOCKS_SOURCE))


def test_structure_records_nesting_of_lists_and_quotes() -> None:
    nested = structure("<ul><li><p>a</p><ol><li>b</li></ol></li></ul><blockquote><p>c</p></blockquote>")
    flat = structure("<ul><li><p>a</p></li><li>b</li></ul><blockquote></blockquote><p>c</p>")
    assert nested.blocks == {"ul": 1, "ul>li": 1, "ul>li>p": 1, "ul>li>ol": 1, "ul>li>ol>li": 1, "blockquote": 1,
                             "blockquote>p": 1}
    assert nested.differences(flat)[0].startswith("list/quote/table structure 'ul>li>ol' lost")
