"""The known-alignment markup set (tools/markup_set.py) and the markup benchmark's scoring.

The references are what every tag-placement number of issue 24 is measured against, so they are
checked against the synthetic task itself, not against stored strings: stripped of their tags
they are the task's translation of the stripped sentence, and they hold the source's tags in
the source's order and nesting.
"""

from __future__ import annotations

import re

import pytest

from benchmarks.markup import score_set
from mkdocs_zh_translate.segment import TAG_RE, strip_tags, validate
from tools.export_tiny import placeholders_of, pseudo_translate
from tools.markup_set import MarkupCase, markup_set, score, tokens, training_sources, well_nested


@pytest.fixture(scope="module")
def cases() -> list[MarkupCase]:
    return markup_set(300)


def test_references_are_the_task_translation_with_the_source_tags_in_place(cases: list[MarkupCase]) -> None:
    for case in cases:
        plain = " ".join(strip_tags(case.source).split())
        assert tokens(strip_tags(case.reference)) == tokens(pseudo_translate(plain)), case
        assert placeholders_of(case.reference) == placeholders_of(case.source), case
        assert well_nested(case.source) and well_nested(case.reference), case
        assert validate(case.source, case.reference) == [], case


def test_placeholders_are_numbered_in_reading_order_like_the_segmenter(cases: list[MarkupCase]) -> None:
    for case in cases:
        ids = [int(next(g for g in m.groups() if g)) for m in TAG_RE.finditer(case.source)]
        firsts = list(dict.fromkeys(ids))
        assert firsts == list(range(1, len(firsts) + 1)), case.source
        assert set(case.kinds) == set(firsts)
        assert case.droppable == {i for i, kind in case.kinds.items() if kind == "emphasis"}


def test_the_set_mixes_kinds_counts_nesting_and_adjacency(cases: list[MarkupCase]) -> None:
    counts = {len(c.kinds) for c in cases}
    assert counts == {0, 1, 2, 3, 4}
    assert {k for c in cases for k in c.kinds.values()} == {"code", "url", "footnote", "emphasis", "link", "image"}
    nested = [c for c in cases if re.search(r"<g(\d+)>(?:(?!</g\1>).)*<g", c.source)]
    adjacent = [c for c in cases if re.search(r"(?:/>|</g\d+>)(?:<x|<g)|<g\d+><g", c.source)]
    assert len(nested) > 10 and len(adjacent) > 10
    assert max(len(c.source) for c in cases) <= 200


def test_the_set_is_deterministic_and_held_back_from_training() -> None:
    first = markup_set(60, seed=3)
    assert first == markup_set(60, seed=3)
    assert first != markup_set(60, seed=4)
    assert len({c.source for c in first}) == 60
    seen = training_sources(0)
    for case in first:
        assert case.source not in seen and " ".join(strip_tags(case.source).split()) not in seen


# --- scoring (hand-made cases) ------------------------------------------------------------------

REF = "甲<g1>乙丙</g1>丁 MkDocs<x2/>。"


def test_exact_ignores_spaces_but_not_tags_or_words() -> None:
    assert score("甲 <g1>乙丙</g1> 丁MkDocs <x2/> 。", REF).exact
    moved = score("<g1>甲乙丙</g1>丁 MkDocs<x2/>。", REF)
    assert (moved.exact, moved.text, moved.tags, moved.tags_placed) == (False, True, 3, 2)
    wrong_word = score("甲<g1>乙戊</g1>丁 MkDocs<x2/>。", REF)  # </g1> now follows another word
    assert (wrong_word.exact, wrong_word.text, wrong_word.tags_placed) == (False, False, 2)
    far = score("戊乙<x1/>丙丁", "甲乙<x1/>丙丁")  # a word wrong away from the tag does not move it
    assert (far.exact, far.text, far.tags_placed) == (False, False, 1)


def test_a_tag_is_placeable_when_its_neighbours_are_neighbours_in_the_output() -> None:
    moved = score("<g1>甲乙丙</g1>丁 MkDocs<x2/>。", REF)
    assert (moved.placeable, moved.placed_placeable) == (3, 2)  # right words: all placeable, <g1> misplaced
    wrong_word = score("甲<g1>乙戊</g1>丁 MkDocs<x2/>。", REF)  # nobody can put </g1> after 丙
    assert (wrong_word.tags, wrong_word.placeable, wrong_word.placed_placeable) == (3, 2, 2)


def test_a_tag_missing_or_twice_is_not_placed() -> None:
    assert score("甲<g1>乙丙</g1>丁 MkDocs。", REF).tags_placed == 2
    twice = score("甲<g1>乙丙</g1>丁<x2/> MkDocs<x2/>。", REF)
    assert (twice.exact, twice.tags_placed) == (False, 2)


def test_adjacent_tags_in_the_wrong_order_are_placed_but_not_exact() -> None:
    ref = "甲<g1>乙</g1><x2/>丙"
    swapped = score("甲<g1>乙<x2/></g1>丙", ref)
    assert (swapped.exact, swapped.tags_placed) == (False, 3)
    assert score("甲<g1>乙</g1><x2/>丙", ref).exact


def test_english_output_scores_nothing() -> None:
    english = score("Use <g1>the site</g1> with MkDocs<x2/>.", REF)
    assert (english.exact, english.text, english.tags_placed) == (False, False, 0)


def test_benchmark_rows_count_steps_errors_and_placement() -> None:
    cases = [
        MarkupCase("Open <g1>the page</g1>.", "开<g1>页面</g1>。", frozenset({1})),
        MarkupCase("Use <x1/> now.", "用<x1/>现。"),
        MarkupCase("See it.", "看它。"),
        MarkupCase("Run <x1/> here.", "跑<x1/>这。"),
    ]
    results: dict[str, tuple[str, str | None]] = {
        "Open <g1>the page</g1>.": ("开<g1>页面</g1>。", None),
        "Use <x1/> now.": ("用现<x1/>。", "runs"),
        "See it.": ("看它。", None),
        "Run <x1/> here.": ("Run <x1/> here.", "english"),
    }
    raw = {"Open <g1>the page</g1>.": "开<g1>页面</g1>。", "Use <x1/> now.": "用现。", "Run <x1/> here.": ""}
    row = score_set("m", "tags", cases, results, raw, seconds=2.0)
    assert (row.sentences, row.with_markup) == (4, 3)
    assert (row.whole, row.pieces, row.english) == (0.5, 0.25, 0.25)
    assert row.ph_err == round(2 / 3, 4)  # the atom lost, the empty output
    assert row.exact == round(1 / 3, 4)
    assert row.text == 0.75  # English is not the reference's words
    assert row.placed_given_text == 0.5  # of the two with the right words, one placed
    assert row.tag_acc == 0.5  # g1 open and close placed; both atoms misplaced
    assert row.tag_placeable == round(2 / 3, 4)  # the English one has no neighbours to go between
    assert row.sent_per_s == 2.0
