"""Constructs that broke pages of the real-world corpus (tests/realsites), each reproduced in a
few lines written here: the segments must follow what Python-Markdown and the site's extensions
do with them, so that the pseudo translation renders the English page once 「」 are removed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import markdown
import pytest

from mkdocs_zh_translate.segment import SiteSyntax, segment_markdown
from mkdocs_zh_translate.segment._fancylists import markers_as_digits
from tests.growth import assert_linear, growth_ratios
from tests.segment.test_segment_realsites import check, render, texts


def test_a_horizontal_rule_tag_ends_its_html_block_on_its_line() -> None:
    # `<hr>` has no closing tag: waiting for one made the rest of the page raw HTML, so the
    # reference definitions below were translated as text and every `[text][ref]` link was lost.
    source = (
        "See [the backlog][backlog].\n\n<hr>\n<div class=\"sponsors\">\n  <div id=\"gold\"></div>\n</div>\n<hr>\n\n"
        "Some *more* text.\n\n<hr/>\nA paragraph right after the rule.\n\n[backlog]: https://example.org/backlog/\n"
    )
    assert texts(source) == ["See <g1>the backlog</g1>.", "Some <g1>more</g1> text.", "A paragraph right after the rule."]
    out = check(source, kept=("[backlog]: https://example.org/backlog/", "<hr>", "<hr/>"))
    assert 'href="https://example.org/backlog/"' in render(out)


def test_a_url_right_after_a_tag_gets_no_space() -> None:
    # magiclink never links a URL that follows `>`, so the English page had no link there either;
    # a space put before it showed inside the element.
    source = '**Docs**: <a href="https://example.org/" target="_blank">https://example.org</a>\n'
    out = check(source)
    assert '<a href="https://example.org/" target="_blank">https://example.org</a>' in out


def test_a_fence_closes_only_with_its_own_run_as_superfences_does() -> None:
    # CommonMark ends a ``` fence at ````; superfences reads on to the next ```, so the line in
    # between is code (never translated) and the paragraph after the fence is prose again.
    source = "```\ncode\n````\nstill code\n```\n\nAfter the fence.\n\n````md\n```py\nx\n```\n````\n\nEnd text.\n"
    assert texts(source) == ["After the fence.", "End text."]
    check(source, kept=("still code",))
    assert "<p>After the fence.</p>" in render(source)


def test_an_unclosed_fence_after_a_longer_run_stays_commonmark() -> None:
    source = "```\ncode\n````\n\nText after.\n"
    assert texts(source) == ["Text after."]
    check(source)


FANCY_SYNTAX = SiteSyntax(fancy_lists=True)
GROWTH = {
    "fences closed by longer runs": (lambda n: "```py\n````\n" * n, 2000),
    "fences closed by indented runs": (lambda n: "```py\n  ```\n" * n, 2000),
    "fences closed by exact runs": (lambda n: "```\n````\n```\n\ntext\n\n" * n, 1000),
    "horizontal rule tags": (lambda n: "<hr>\ntext *a*\n" * n, 2000),
    "fancy markers": (lambda n: "mmmmcdxliv. item\n- b.  x\n" * n, 2000),
}
# The marker scan alone, on long prefixes a backtracking pattern would retry (a numeral's
# repetitions are bounded, so a long one costs nothing: the segment-level case covers them).
SCAN_GROWTH = {
    "fancy marker quotes": (lambda n: "> " * n + "x\n", 100000),
    "fancy marker indents": (lambda n: " \t" * n + "iv\n", 100000),
}


@pytest.mark.parametrize("name", list(GROWTH) + list(SCAN_GROWTH))
def test_corpus_rules_grow_linearly(name: str) -> None:
    if name in SCAN_GROWTH:
        run: Callable[[str], object] = markers_as_digits
        make, n = SCAN_GROWTH[name]
    else:
        run = partial(segment_markdown, syntax=FANCY_SYNTAX)
        make, n = GROWTH[name]
    assert_linear(name, lambda: growth_ratios(make, n, run, repeats=5))


def test_tab_titles_stay_english_when_the_site_takes_tab_ids_from_them() -> None:
    # pymdownx.tabbed's `slugify` makes each tab's id from its title, and a tab title has no
    # syntax to pin an id with: translated, the id changes and links that select the tab break.
    source = '=== "Official installer"\n\n    Run the installer.\n\n/// tab | Git + SSH\nClone the repository.\n///\n'
    assert texts(source) == ["Official installer", "Run the installer.", "Git + SSH", "Clone the repository."]
    page = segment_markdown(source, syntax=SiteSyntax(tab_ids_from_titles=True))
    assert [s.text for s in page.segments] == ["Run the installer.", "Clone the repository."]
    out = page.splice([f"「{s.text}」" for s in page.segments])
    assert '=== "Official installer"' in out and "/// tab | Git + SSH" in out


FANCY = """\
Steps to follow:

a.  Install the tool.
b.  Change the settings.

    ```
    b.  not an item in code
    ```

iv. Roman items too.
v.  And the next one.

VIIIII. Restarted at ten.

B)  Uppercase before a parenthesis.

#.  A generic item.

A. Smith wrote this line, and it stays a paragraph.

> c.  Quoted item text.
"""


def test_fancylists_markers_start_list_items_where_the_site_has_fancylists() -> None:
    # pymdownx.fancylists makes `b.`, `iv.`, `B)` and `#.` list markers: without knowing that,
    # an item was read as prose continuing the item above, its marker translated with it.
    syntax = SiteSyntax(fancy_lists=True)
    page = segment_markdown(FANCY, syntax=syntax)
    assert [s.text for s in page.segments] == [
        "Steps to follow:",
        "Install the tool.",
        "Change the settings.",
        "Roman items too.",
        "And the next one.",
        "Restarted at ten.",
        "Uppercase before a parenthesis.",
        "A generic item.",
        "A. Smith wrote this line, and it stays a paragraph.",
        "Quoted item text.",
    ]
    assert all(s.kind == "list_item" for s in page.segments[1:8]) and page.segments[8].kind == "paragraph"
    out = page.splice([f"「{s.text}」" for s in page.segments])
    assert out.replace("「", "").replace("」", "") == FANCY
    fancy = markdown.Markdown(extensions=["pymdownx.fancylists", "pymdownx.superfences", "pymdownx.saneheaders"])
    english = fancy.convert(FANCY)
    assert english.count("<li>") == 8
    assert fancy.reset().convert(out).replace("「", "").replace("」", "") == english
    # without fancylists the same page keeps its letters in the prose they belong to
    assert "Install the tool." not in [s.text for s in segment_markdown(FANCY).segments]


def test_admonition_and_fence_syntax_inside_code_stays_code() -> None:
    # Markdown about Markdown: fences holding `!!!` lines and shorter fences, inside
    # admonitions, tabs and list items, each indented to its container.
    source = (
        '!!! example "Writing a note"\n\n    ````md\n    !!! note\n\n        ```py\n        x = 1\n        ```\n    ````\n\n'
        "    Renders as a note.\n\n"
        '=== "Source"\n\n    ```\n    !!! tip "Title"\n        Body.\n    ```\n\n'
        "1.  A step.\n\n    ```\n    ??? question\n    ```\n"
    )
    assert texts(source) == ["Writing a note", "Renders as a note.", "Source", "A step."]
    check(source, kept=("    !!! note", '    !!! tip "Title"', "    ??? question"))


def test_a_fence_closes_only_at_its_own_indentation_as_superfences_does() -> None:
    # CommonMark ends a fence at a closing run indented up to three spaces more; superfences
    # reads that run as code and closes at the next one level with the opener.
    source = "- item\n\n    ```\n    code\n      ```\n    still code\n    ```\n\nAfter.\n\n```\nx\n  ```\nmore code\n```\n\nEnd.\n"
    assert texts(source) == ["item", "After.", "End."]
    check(source, kept=("    still code", "more code"))
