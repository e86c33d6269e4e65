"""A hard line break (two spaces before the newline) is a sentence boundary.

Lines ending in two spaces make one paragraph with ``<br>``s, often a list written without
list syntax. Translated as one text, each number went with the sentence before it
(``「To calculate this:  \\n1.」「Identify…」``) and the numbered lines ran together; the model
must see one line at a time, each with its own number, and the breaks must survive.
"""

from __future__ import annotations

from seghelp import kinds_texts, pseudo, segment_block_problems

from mkdocs_zh_translate import translate_markdown
from tests.fakes import CountingTranslator
from tests.growth import assert_linear, growth_ratios
from tests.segment.test_segment_realsites import render

SOURCE = (
    "To calculate this:  \n"
    "1. Identify all the claims in the response.  \n"
    "2. Check each claim to see if it can be inferred from the retrieved context.  \n"
    "3. Count them.\n"
)


def test_each_broken_line_is_translated_on_its_own_with_its_number() -> None:
    counting = CountingTranslator()
    out = translate_markdown(SOURCE, counting)
    assert counting.seen == [
        "To calculate this:",
        "1. Identify all the claims in the response.",
        "2. Check each claim to see if it can be inferred from the retrieved context.",
        "3. Count them.",
    ]
    assert out == SOURCE.upper()
    assert render(out).count("<br />") == 3


def test_the_pseudo_page_marks_each_line_and_renders_the_english_one() -> None:
    out = pseudo(SOURCE)
    assert out.startswith("「To calculate this:」  \n「1. Identify all the claims in the response.」  \n")
    assert segment_block_problems(SOURCE) == []


def test_a_break_inside_emphasis_does_not_cut_and_a_backslash_is_no_break() -> None:
    from mkdocs_zh_translate.segment import split_lines

    source = "*One  \ntwo* three  \nfour\\\nfive\n"
    assert kinds_texts(source) == [("paragraph", "<g1>One  \ntwo</g1> three  \nfour<x2/>five")]
    assert split_lines("<g1>One  \ntwo</g1> three  \nfour<x2/>five") == ["<g1>One  \ntwo</g1> three  \n", "four<x2/>five"]
    assert segment_block_problems(source) == []


def test_lines_split_in_linear_time() -> None:
    from mkdocs_zh_translate.segment import split_lines

    assert_linear("hard breaks", lambda: growth_ratios(lambda n: "<g1>a  \n" * n + "</g1>b  \n" * n, 20000, split_lines))
