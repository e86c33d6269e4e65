"""Names written as plain text (``snake_case``, dotted) are kept as written, never sent to the model.

A model turns ``prompt_literal_start`` into words; the reader searching the page for the
setting finds nothing. A cell, title or list item that is only names is no segment, and a bold
or linked name inside a sentence is kept whole while the sentence is translated.
"""

from __future__ import annotations

import pytest
from seghelp import WordTranslator, kinds_texts

from mkdocs_zh_translate import translate_markdown
from tests.fakes import CountingTranslator
from tests.segment.test_segment_realsites import check

TABLE = (
    "| Option | Meaning |\n"
    "| ------ | ------- |\n"
    "| prompt_literal_start | Where the prompt starts |\n"
    "| assets_override_css | The stylesheet that wins |\n"
    "| **before_load_schema** | Called before the schema loads |\n"
    "| os.path.join | Joins paths |\n"
)
API_NAV = "* [data_merge](data_merge.md)\n* [utils.io_tools](io.md)\n* [Getting started](start.md)\n"


def test_cells_that_are_one_identifier_are_kept_as_written() -> None:
    counting = CountingTranslator()
    out = translate_markdown(TABLE, counting)
    for name in ("prompt_literal_start", "assets_override_css", "before_load_schema", "os.path.join"):
        assert all(name not in seen for seen in counting.seen), name
    for row in ("| prompt_literal_start |", "| assets_override_css |", "| **before_load_schema** |", "| os.path.join |"):
        assert row in out, row
    assert "WHERE THE PROMPT STARTS" in out
    check(TABLE)


def test_generated_api_nav_items_named_by_module_stay_english() -> None:
    assert kinds_texts(API_NAV) == [("list_item", "<g1>Getting started</g1>")]
    out = translate_markdown(API_NAV, WordTranslator())
    assert "* [data_merge](data_merge.md)\n* [utils.io_tools](io.md)\n" in out
    check(API_NAV)


def test_a_bold_or_linked_name_in_a_sentence_is_one_atom() -> None:
    source = "The **before_load_schema** hook runs before [data_merge](merge.md) does, *always*.\n"
    assert kinds_texts(source) == [("paragraph", "The <x1/> hook runs before <x2/> does, <g3>always</g3>.")]
    out = translate_markdown(source, WordTranslator())
    assert "**before_load_schema**" in out and "[data_merge](merge.md)" in out and "hook" not in out
    check(source)


def test_an_underscore_emphasis_stays_a_pair() -> None:
    # the splice makes `_x_` `*x*` where Chinese would touch it: an atom would keep the `_`
    source = "Set _max_size_ first.\n"
    assert kinds_texts(source) == [("paragraph", "Set <g1>max_size</g1> first.")]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("prompt_literal_start", True),
        ("MAX_SIZE", True),
        ("load_config()", True),
        ("mkdocs.yml, zensical.toml", True),
        ("Settings", False),
        ("e.g.", False),
        ("v1.2", False),
        ("Use prompt_literal_start", False),
        ("snake_case and more", False),
    ],
)
def test_what_counts_as_only_names(text: str, kept: bool) -> None:
    source = f"| A | B |\n| - | - |\n| {text} | x y |\n"
    assert (("table_cell", text) not in kinds_texts(source)) is kept
