"""Pipe tables as Python-Markdown's ``tables`` extension reads them: which blocks are tables,
and where a row's cells are cut.

Python-Markdown is the oracle: the pseudo translation must render the English page once its
「」 are removed, and the page guard (which renders both) must keep the translation.
"""

from __future__ import annotations

import pytest
from seghelp import WordTranslator, kinds_texts

from mkdocs_zh_translate import translate_markdown
from mkdocs_zh_translate.pipeline.guard import PageGuard, python_markdown_renderer
from mkdocs_zh_translate.segment import segment_markdown
from tests.growth import assert_linear, growth_ratios
from tests.segment.test_segment_realsites import check, render

SPACED_DELIMITER = (
    "| Function | Remarks |\n"
    "|:-------:| :----- ----:|\n"
    "| Custom bulk query fields | Support display types |\n"
)
CODE_PIPE = (
    "| Field | Type | Meaning |\n"
    "| ----- | ---- | ------- |\n"
    "| `path` | `str | list[str]` | Exact path match |\n"
    "| `name` | `str` | Name of the field |\n"
)


def _guarded(source: str) -> tuple[str, list[str]]:
    warnings: list[str] = []
    guard = PageGuard(python_markdown_renderer(("tables", "toc", "attr_list")))
    out = translate_markdown(source, WordTranslator(), guard=guard, label="t.md", warn=warnings.append)
    return out, warnings


def test_a_delimiter_row_with_a_space_in_its_dashes_is_a_table() -> None:
    # Python-Markdown takes any mix of `-`, `:` and spaces in a delimiter cell; read as a
    # paragraph, the table was one segment that the page guard kept English, rows and all.
    assert "<table>" in render(SPACED_DELIMITER)
    assert kinds_texts(SPACED_DELIMITER) == [
        ("table_cell", "Function"),
        ("table_cell", "Remarks"),
        ("table_cell", "Custom bulk query fields"),
        ("table_cell", "Support display types"),
    ]
    check(SPACED_DELIMITER, kept=("|:-------:| :----- ----:|",))
    out, warnings = _guarded(SPACED_DELIMITER)
    assert warnings == []
    assert "Custom" not in out and "Remarks" not in out


def test_a_pipe_inside_a_code_span_does_not_cut_the_row() -> None:
    # Python-Markdown leaves a `|` inside backticks alone; cut there, the row's cells were
    # located nowhere and the whole row stayed English.
    assert "<code>str | list[str]</code>" in render(CODE_PIPE)
    assert ("table_cell", "Exact path match") in kinds_texts(CODE_PIPE)
    check(CODE_PIPE, kept=("| ----- | ---- | ------- |",))
    out, warnings = _guarded(CODE_PIPE)
    assert warnings == []
    assert "`str | list[str]`" in out and "Exact path match" not in out


@pytest.mark.parametrize(
    "source",
    [
        "a | b\n- | -\nc | d\n",  # `- |` would be a list item to CommonMark
        "| a | b |\n|  | --- |\n| c | d |\n",  # an empty delimiter cell
        "| Only |\n| --- |\n| one column |\n",  # one column: every row needs a border pipe
        "| a | b |\n| - | - |\n| `x\\|y` | \\| z |\n",  # escaped pipes
        "| a | b |\n| - | - |\n| ``a ` | `` | c |\n",  # a longer run closes the span
        "| a | b |\n| - | - |\n| \\`a | b` | c |\n",  # an escaped backtick opens one less
    ],
)
def test_tables_python_markdown_accepts_keep_their_structure(source: str) -> None:
    assert "<table>" in render(source)
    assert any(kind == "table_cell" for kind, _ in kinds_texts(source))
    check(source)


@pytest.mark.parametrize(
    "source",
    [
        "| Only |\n| --- |\none column without a pipe\n",  # a row without a border pipe
        "a | b\n--- | --- | ---\nc | d\n",  # the delimiter row has another cell count
        "a | b\n-x- | ---\nc | d\n",  # other characters in the delimiter row
        "Only | one\n",
    ],
)
def test_blocks_python_markdown_refuses_are_no_tables(source: str) -> None:
    assert "<table>" not in render(source)
    assert all(kind != "table_cell" for kind, _ in kinds_texts(source))
    check(source)


def test_cells_are_cut_where_python_markdown_cuts_them() -> None:
    from markdown.extensions.tables import TableProcessor

    from mkdocs_zh_translate.segment._tables import split_row

    rows = ["`a|b`|c", "``a|`|b``|c", "\\`a|b`|c", "a\\|b|c", "`a`|`b|c", "a\\\\|b", "`|`|`|`"]
    for row in rows:
        processor = TableProcessor.__new__(TableProcessor)
        processor.border = False
        assert [text for _, text in split_row(row, False)] == processor._split_row(row), row


def test_a_row_of_unpaired_backtick_runs_splits_in_linear_time() -> None:
    def page(n: int) -> str:
        row = "|" + "|".join("`" * (1 + i % 7) for i in range(n)) + "|\n"
        return "| a | b |\n| - | - |\n" + row

    assert_linear("unpaired backticks", lambda: growth_ratios(page, 4000, segment_markdown, repeats=3))


def test_one_column_candidates_are_read_in_linear_time() -> None:
    # each `| a` / `|-` pair is a one-column table candidate whose rows must all have a border:
    # reading the rest of the block for each was quadratic
    assert_linear("one-column candidates", lambda: growth_ratios(lambda n: "| a\n|-\n***\n" * n, 2000, segment_markdown))
