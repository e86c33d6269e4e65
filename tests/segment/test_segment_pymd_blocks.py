"""Which lines end a paragraph, and which container markers open a block: as Python-Markdown
(with MkDocs' usual extensions) reads them, checked against its own rendering.

``segment_block_problems`` pseudo-translates the page and renders it: a segment glued across
two rendered blocks, or two segments cutting one block, is reported.
"""

from __future__ import annotations

import pytest
from seghelp import kinds_texts, segment_block_problems

# What comes first: a paragraph line, a list item, a button link (attr_list), an ordered item.
FIRST_LINES = ["Plain sentence here.", "- item one", "[link](x.md){: .md-button }", "1. first item"]


@pytest.mark.parametrize("first", FIRST_LINES)
@pytest.mark.parametrize(
    "second",
    [
        "## Heading two",  # HashHeaderProcessor searches the block
        "#Heading",  # no space needed
        "***",  # HRProcessor
        "> quote line",  # BlockQuoteProcessor
        "!!! note",  # admonition
        '!!! note "Title"',
        '??? "Title"',  # details without a type
        '???+ note "Title"',
        '=== "Tab"',  # tabbed
        "[^1]: a footnote",  # footnotes
        "*[HTML]: Hyper Text",  # abbr
        "[ref]: /x",  # ReferenceProcessor
        "<div>block text</div>",  # raw HTML
    ],
)
def test_block_start_ends_the_segment_above(first: str, second: str) -> None:
    source = f"{first}\n{second}\n"
    assert segment_block_problems(source) == []
    assert all("\n" not in text for _kind, text in kinds_texts(source))


@pytest.mark.parametrize("first", ["Plain sentence here.", "[link](x.md){: .md-button }"])
@pytest.mark.parametrize(
    "second",
    [
        "- not a list",  # list processors match at a block's start only
        "* not a list",
        "1. not a list",
        "  ## indented hashes",  # HashHeaderProcessor wants column 0
        "## ends in a backslash\\",
        "| a | b |\n| - | - |\n| c | d |",  # TableProcessor takes a whole block
        "[TOC]",  # the marker only as a paragraph of its own
        "    indented text",  # lazy continuation, not code
        '==="no space"',
        '!!! "a title but no type"',
    ],
)
def test_line_python_markdown_keeps_in_the_paragraph_is_not_split(first: str, second: str) -> None:
    source = f"{first}\n{second}\n"
    assert segment_block_problems(source) == []
    assert len(kinds_texts(source)) <= 1


@pytest.mark.parametrize(
    "source",
    [
        "- a\n  > b\n  > - c\n",  # a blockquote's body in a list item: `- c` is text
        "!!! note\n    Para line\n    - item\n",  # an admonition body: the same
        "- a\n\n    !!! note\n        Para\n        - x\n",
        "- a\n  ## indented in the item\n",  # an item's continuation keeps its indentation
        "- a\n- b\n  - c\n",  # inside a list, list lines do start items
        "> Para\n> ## Heading\n",
        "- item\n## Heading after the list\n",
    ],
)
def test_block_starts_inside_containers(source: str) -> None:
    assert segment_block_problems(source) == []


def test_heading_after_paragraph_is_its_own_segment() -> None:
    assert kinds_texts("Plain sentence here.\n## Heading two\n") == [
        ("paragraph", "Plain sentence here."),
        ("heading", "Heading two"),
    ]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('??? "Title"\n\n    Body text here.\n', [("admonition_title", "Title"), ("paragraph", "Body text here.")]),
        ('???+ "Title"\n    Body text here.\n', [("admonition_title", "Title"), ("paragraph", "Body text here.")]),
        ("??? tip\n    Body text here.\n", [("admonition_title", "Tip"), ("paragraph", "Body text here.")]),
        ('===+! "Tab one"\n    Body text here.\n', [("tab_title", "Tab one"), ("paragraph", "Body text here.")]),
        ("!!!note\n    Body text here.\n", [("admonition_title", "Note"), ("paragraph", "Body text here.")]),
    ],
)
def test_container_markers_python_markdown_accepts(source: str, expected: list[tuple[str, str]]) -> None:
    assert kinds_texts(source) == expected
    assert segment_block_problems(source) == []


@pytest.mark.parametrize(
    "source",
    [
        '!!! "Title"\n\n    Body code here.\n',  # admonition needs a type: a paragraph and code
        '???"Title"\n\n    Body code here.\n',  # details needs a space before the quote
        '==="Tab"\n\n    Body code here.\n',
        "???\n\n    Body code here.\n",
    ],
)
def test_container_markers_python_markdown_refuses(source: str) -> None:
    assert segment_block_problems(source) == []
    assert all("Body" not in text for _kind, text in kinds_texts(source))
