"""Property tests: random Markdown never crashes the segmenter and identity splicing is exact."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from seghelp import WordTranslator

from mkdocs_zh_translate import translate_markdown
from mkdocs_zh_translate.pipeline.translator import PseudoTranslator
from mkdocs_zh_translate.segment import segment_markdown, validate

# Fragments that exercise every rule, mixed with arbitrary text.
FRAGMENTS = [
    "word", "two words", " ", "  ", "\t", "\n", "\n\n", "\r\n", "\r", "\x00", "*", "**", "_", "__", "~~",
    "`", "``", "[", "]", "(", ")", "![", "](", "<", ">", "</", "/>", "&amp;", "&", "#", "## ", "\\",
    "- ", "1. ", "> ", "    ", "```", "~~~", "---", "===", "| a | b |\n|---|---|\n", "[^1]", "[^1]: ",
    "!!! note", '!!! tip "T"', "???+ x", '=== "Tab"', "$", "$$", "\\(", "\\)", ":smile:", "++ctrl+c++",
    "{{ x }}", "{% y %}", "{: #id }", "{ .c }", "https://e.example/p", "<https://a.b>", "<div>",
    "</div>", '<div markdown="1">', "<!-- c -->", "*[HTML]: x", "HTML", "--8<-- \"f\"", "[TOC]",
    "[ ] ", "[!NOTE]", "---\ntitle: T\n---\n", ": def", "<x1/>", "<g1>", "中文", "é", "\u3000",
]
markdown_text = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=40
).map("".join)

SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(markdown_text)
def test_segments_are_well_formed_and_identity_splice_is_exact(text: str) -> None:
    page = segment_markdown(text)
    end = 0
    for segment in page.segments:
        assert end <= segment.start <= segment.end <= len(text)
        end = segment.end
        assert validate(segment.text, segment.text) == []
        assert segment.line == text.count("\n", 0, segment.start) + 1 or "\r" in text
    assert page.splice([s.text for s in page.segments]) == text
    assert page.splice([None] * len(page.segments)) == text


@SETTINGS
@given(markdown_text)
def test_translating_random_markdown_never_crashes(text: str) -> None:
    for translator in (PseudoTranslator(), WordTranslator()):
        out = translate_markdown(text, translator)
        assert isinstance(out, str)


@SETTINGS
@given(markdown_text)
def test_bytes_outside_segments_are_never_touched(text: str) -> None:
    page = segment_markdown(text)
    out = page.splice(WordTranslator().translate([s.text for s in page.segments]), heading_ids=False)
    cursor = 0
    previous_end = 0
    for segment in [*page.segments, None]:
        gap = text[previous_end : segment.start if segment else len(text)]
        found = out.find(gap, cursor)
        assert found >= 0 and (segment is not None or out.endswith(gap))
        cursor = found + len(gap)
        if segment is not None:
            previous_end = segment.end


def _page_blocks() -> list[str]:
    """Top-level blocks of the test pages (an HTML block cut in half stays in: unclosed tags too)."""
    import re

    from pymd import PAGES

    blocks = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        body = text.split("---\n", 2)[-1] if text.startswith("---\n") else text
        for block in re.split(r"\n\n(?=\S)", body):
            if block.strip():
                blocks.append(block.strip("\n"))
    return blocks


BLOCKS = _page_blocks()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(BLOCKS), min_size=1, max_size=6))
def test_shuffled_page_blocks_keep_both_invariants_under_python_markdown(blocks: list[str]) -> None:
    from pymd import render
    from seghelp import pseudo, structure, unmark

    page = "\n\n".join(blocks) + "\n"
    assert unmark(render(pseudo(page))) == render(page)
    assert structure(render(translate_markdown(page, WordTranslator()))) == structure(render(page))
