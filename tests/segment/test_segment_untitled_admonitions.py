"""``untitled_admonitions`` reads the parse alone: it must name exactly the types whose default
title ``segment_markdown`` offers as a segment to insert, wherever the admonition sits."""

from __future__ import annotations

import pytest

from mkdocs_zh_translate.segment import segment_markdown, untitled_admonitions

PAGES = [
    "!!! note\n    Body.\n\n!!!tip\n    Body.\n\n??? Warning \"Titled\"\n    Body.\n",
    "- item\n\n    !!! info\n        In a list.\n\n> !!! danger\n>     In a quote.\n",
    '=== "Tab"\n\n    ???+ example\n        In a tab.\n',
    '<div markdown="1">\n\n!!! bug\n    In an HTML block.\n\n</div>\n',
    "```\n!!! note\n```\n\n    !!! note\n    indented code\n",
    "/// quote\nBlocks.\n///\n\n/// details\nNo type.\n///\n\n/// note | Titled\nx\n///\n",
    "!!! my-type extra-class\n    A custom type.\n",
]


@pytest.mark.parametrize("page", PAGES)
def test_untitled_admonitions_match_the_titles_the_segmenter_inserts(page: str) -> None:
    inserted = {s.text.lower() for s in segment_markdown(page).segments if s.restore.insert_title}
    assert untitled_admonitions(page) == inserted


def test_untitled_admonitions_found() -> None:
    assert untitled_admonitions(PAGES[1]) == {"info", "danger"}
    assert untitled_admonitions(PAGES[4]) == set()
