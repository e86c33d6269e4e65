"""Code fences paired as pymdownx.superfences pairs them (segment/_superfences.py), checked
against Python-Markdown's own rendering: prose the English page shows inside ``<pre>`` is never
a segment, prose it shows as a paragraph is."""

from __future__ import annotations

import pytest
from seghelp import kinds_texts, segment_block_problems

from mkdocs_zh_translate.segment._superfences import header_ok, superfence_pairs
from tests.growth import assert_linear, growth_ratios


def texts(source: str) -> list[str]:
    return [text for _kind, text in kinds_texts(source)]


REFUSED = [
    "from typing import Literal, Union",
    "py hl_lines",
    'py hl_lines="a"',
    'title="x"y',
    "py {x} z",
]


@pytest.mark.parametrize("header", REFUSED)
def test_refused_header_shifts_the_pairing(header: str) -> None:
    # the first line is text to SuperFences; its closing fence opens a block that runs to the
    # next fence, so "Inside pre." is code in the English page
    source = f"```{header}\nSome prose here.\n```\n\nInside pre.\n\n```python\ncode = 1\n```\n\nOutside again.\n"
    assert not header_ok(header)
    assert superfence_pairs(source.split("\n")) == {2: 8}
    assert texts(source) == ["Outside again."]
    assert segment_block_problems(source) == []


@pytest.mark.parametrize(
    "header",
    ["", "python", " py", ".py", "{ .python #id }", 'py title="A file"', 'py hl_lines="1 2-3"', 'linenums="1"'],
)
def test_headers_superfences_accepts_make_code(header: str) -> None:
    source = f"```{header}\ncode words here\n```\n\nProse after the block.\n"
    assert header_ok(header)
    assert superfence_pairs(source.split("\n")) == {0: 2}
    assert "code words here" not in texts(source)
    assert "Prose after the block." in texts(source)
    assert segment_block_problems(source) == []


@pytest.mark.parametrize(
    "source",
    [
        "  ```\nless indented\n  ```\n\nProse after.\n",  # a content line left of the opener
        "```\ncode\n````\nmore code\n```\n\nProse after.\n",  # only the same run closes
        "> ```\n> quoted code\n> ```\n\nProse after.\n",
        "- item\n\n    ```py\n    code\n    ```\n\nProse after.\n",
        "Words before.\n```\nnever closed\n\nProse after.\n",
    ],
)
def test_pairing_matches_python_markdown(source: str) -> None:
    assert segment_block_problems(source) == []
    assert "Prose after." in texts(source)


@pytest.mark.parametrize("header", ["toml config-example", 'python exec="on" source="above"', 'py foo="x"'])
def test_headers_a_site_extension_takes_stay_code(header: str) -> None:
    # SuperFences' default validator refuses these options, but the site has them for a reason:
    # a custom fence's validator (markdown-exec) or a preprocessor running first (hatch's
    # `config-example`, expanded into tabs of code) makes code of them. Code content is never
    # prose, and the fences after it keep their pairs (no shifted pairing down the page).
    source = f"```{header}\n[[tool.envs.matrix]]\n\npython = 3\n```\n\nThen this.\n\n```\nhatch-test.py3\n```\n\nMore.\n"
    assert header_ok(header)
    assert superfence_pairs(source.split("\n")) == {0: 4, 8: 10}
    assert texts(source) == ["Then this.", "More."]


def test_pairing_grows_linearly() -> None:
    page = "```bad header words\n" + "text line\n"
    assert_linear("refused fences", lambda: growth_ratios(lambda n: page * n, 1000))
