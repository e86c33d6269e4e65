"""Which PO entry a segment belongs to: one per readable text, msgctxt only when needed."""

from __future__ import annotations

from mkdocs_zh_translate.review.units import page_units
from mkdocs_zh_translate.segment import segment_markdown

PAGE = """# Use `pip`

Use `pip`

| Use \\| pip | b |
|---|---|
| x | y |

Use \\| pip

!!! note
    Body text.

!!! warning
    Body text.
"""


def test_same_text_twice_is_one_entry_with_two_references() -> None:
    units, _site = page_units(segment_markdown(PAGE), "docs/p.md")
    use_pip = [u for u in units if u.msgid == "Use `pip`"]
    assert len(use_pip) == 1 and use_pip[0].msgctxt is None
    assert use_pip[0].occurrences == [("docs/p.md", "1"), ("docs/p.md", "3")]
    body = [u for u in units if u.msgid == "Body text."]
    assert len(body) == 1 and len(body[0].indices) == 2


def test_msgctxt_only_where_one_readable_text_stands_for_different_segments() -> None:
    units, _site = page_units(segment_markdown(PAGE), "docs/p.md")
    escaped = [u for u in units if u.msgid == "Use \\| pip"]
    assert len(escaped) == 2  # a table cell's literal "\|" and a paragraph's escape differ
    assert sorted(u.msgctxt or "" for u in escaped) == ["paragraph", "table_cell"]
    assert all(u.msgctxt is None for u in units if u.msgid != "Use \\| pip")


def test_default_admonition_titles_go_to_the_site_wide_file() -> None:
    units, site = page_units(segment_markdown(PAGE), "docs/p.md", line_offset=3)
    assert [u.msgid for u in site] == ["Note", "Warning"]
    assert site[0].occurrences == [("docs/p.md", "14")]  # front matter lines counted
    assert not any(u.msgid in ("Note", "Warning") for u in units)
