"""The page guard in parts: regions cut where the segmenter's parse starts a top-level block,
one bisection serves every search, and no part of the guard or the segmenter is a module too
big to read."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.guard import region_starts
from mkdocs_zh_translate.pipeline.guard._search import bisect, bisect_segments
from mkdocs_zh_translate.segment import HTML_BLOCK_TAGS, segment_markdown


def _first_words(source: str) -> list[str]:
    return [source[s:].split("\n", 1)[0] for s in region_starts(segment_markdown(source))]


@pytest.mark.parametrize("tag", ["h2", "dd", "figcaption", "hgroup"])
def test_no_region_starts_inside_a_raw_html_block_python_markdown_reads(tag: str) -> None:
    """Python-Markdown reads these tags at the margin as raw HTML up to the closing tag (the
    segmenter does too): a region cut inside would render half a raw block on each side."""
    source = f"Intro.\n\n<{tag}>\nText\n\nNot a region start\n</{tag}>\n\nAfter.\n"
    starts = _first_words(source)
    assert "Not a region start" not in starts
    assert starts[-1] == "After."


def test_a_void_block_tag_opens_no_raw_block() -> None:
    """``<hr>`` never closes: waiting for ``</hr>`` would leave the rest of the page uncut."""
    source = "Intro.\n\n<hr>\n\nMiddle.\n\nAfter.\n"
    assert _first_words(source) == ["<hr>", "Middle.", "After."]


def test_a_tag_python_markdown_reads_as_inline_opens_no_raw_block() -> None:
    """``<picture>`` is no block-level tag of Python-Markdown: a blank line ends its paragraph,
    and the next line at the margin is a block of its own."""
    assert "picture" not in HTML_BLOCK_TAGS
    source = "Intro.\n\n<picture>\n<source srcset='a.png'>\n\n<img src='b.png'>\n</picture>\n\nAfter.\n"
    assert _first_words(source) == ["<picture>", "<img src='b.png'>", "After."]


def test_the_segmenter_reads_the_same_tags_as_raw_html() -> None:
    """The list is the segmenter's: text inside such a block is HTML text, not a paragraph."""
    page = segment_markdown("<h2>\nA heading in raw HTML\n\nSecond line here\n</h2>\n")
    kinds = {seg.text: seg.kind for seg in page.segments}
    assert all(kind != "paragraph" for kind in kinds.values()), kinds


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # a loose list is one block: halves of it render as two lists (the old scanner cut it)
        ("Intro.\n\n- one\n\n- two\n\nAfter.\n", ["- one", "After."]),
        # an HTML comment with blank lines in it is one raw block
        ("Intro.\n\n<!-- a note\n\nstill the note -->\n\nAfter.\n", ["<!-- a note", "After."]),
        # md_in_html: the blocks inside the div are the div's, not the page's
        ("Intro.\n\n<div markdown>\n\nInside.\n\n</div>\n\nAfter.\n", ["<div markdown>", "After."]),
        # a fence superfences never closes is no fence for Python-Markdown: the lines after it
        # are blocks of their own (the old scanner ran it to the page's end)
        ("Intro.\n\n```python\nx = 1\n\nText after.\n", ["```python", "Text after."]),
    ],
    ids=["loose-list", "comment", "md-in-html", "unclosed-fence"],
)
def test_regions_start_where_the_segmenter_starts_a_top_level_block(source: str, expected: list[str]) -> None:
    """One reading of the page: the guard cuts only where the segmenter's parse starts a block
    at the page's top level (after a blank line)."""
    page = segment_markdown(source)
    assert set(region_starts(page)) <= set(page.blocks)
    assert _first_words(source) == expected


def test_blocks_are_offsets_into_the_page_as_given() -> None:
    """CRLF pages: the offsets are the page's own, as the segments' are."""
    source = "# Title\r\n\r\nText.\r\n\r\n- a\r\n- b\r\n"
    page = segment_markdown(source)
    assert [source[b:].split("\r\n", 1)[0] for b in page.blocks] == ["# Title", "Text.", "- a"]
    assert [source[b:].split("\r\n", 1)[0] for b in region_starts(page)] == ["Text.", "- a"]


def test_one_bisection_finds_every_part_that_breaks_alone() -> None:
    probes: list[list[int]] = []

    def broken(indices: list[int]) -> bool:
        probes.append(indices)
        return bool({3, 8} & set(indices))

    assert bisect_segments(list(range(10)), broken, known_broken=True) == [3, 8]
    assert list(range(10)) not in probes  # known broken: not probed again
    assert bisect_segments(list(range(10)), lambda indices: False, known_broken=False) == []


def test_the_bisection_stops_where_split_says() -> None:
    found: list[tuple[int, int]] = []

    def split(window: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]] | None:
        lo, hi = window
        return None if hi - lo <= 4 else ((lo, (lo + hi) // 2), ((lo + hi) // 2, hi))

    bisect((0, 16), lambda w: w[0] <= 9 < w[1], split, found.append, known_broken=True)
    assert found == [(8, 12)]


def test_no_module_of_the_guard_or_the_segmenter_is_over_600_lines() -> None:
    root = Path(__file__).resolve().parents[2] / "mkdocs_zh_translate"
    modules = [*(root / "pipeline" / "guard").glob("*.py"), *(root / "segment").glob("*.py")]
    sizes = {str(p.relative_to(root)): len(p.read_text(encoding="utf-8").splitlines()) for p in modules}
    assert sizes and all(n <= 600 for n in sizes.values()), {p: n for p, n in sizes.items() if n > 600}
