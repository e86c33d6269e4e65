"""Reviewed Markdown <-> the segment's placeholder form: what a reviewer may and may not change."""

from __future__ import annotations

import pytest

from mkdocs_zh_translate.segment import from_readable, segment_markdown, soft_breaks_as_spaces, to_readable

SOURCE = "Run `mkdocs build` to **build** the [site](https://x.org/a) and see <https://y.org>.\n"


def _segment(source: str = SOURCE):  # type: ignore[no-untyped-def]
    return segment_markdown(source).segments[0]


def test_msgid_is_the_source_as_written() -> None:
    segment = _segment()
    assert "<x1/>" in segment.text  # the machine sees placeholders ...
    assert to_readable(segment) == SOURCE.strip()  # ... the reviewer sees Markdown


def test_machine_translation_rendered_readable_and_parsed_back() -> None:
    segment = _segment()
    machine = "运行 <x1/> 来<g2>构建</g2><g3>站点</g3>，见 <x4/>。"
    readable = to_readable(segment, machine)
    assert readable == "运行 `mkdocs build` 来**构建**[站点](https://x.org/a)，见 <https://y.org>。"
    parsed = from_readable(segment, readable)
    assert parsed.problems == [] and parsed.text == machine


def test_reviewer_may_reorder_words_and_protected_parts() -> None:
    parsed = from_readable(_segment(), "见 <https://y.org>：[站点](https://x.org/a)用 `mkdocs build` **构建**。")
    assert parsed.problems == []
    assert parsed.text == "见 <x4/>：<g3>站点</g3>用 <x1/> <g2>构建</g2>。"


def test_dropping_bold_is_allowed_it_only_loses_formatting() -> None:
    parsed = from_readable(_segment(), "运行 `mkdocs build` 来构建[站点](https://x.org/a)，见 <https://y.org>。")
    assert parsed.problems == []


@pytest.mark.parametrize(
    ("translation", "problem"),
    [
        ("运行 `mkdocs build` 来**构建**站点，见 <https://y.org>。", "lost the link […](https://x.org/a)"),
        ("运行 `mkdocs build` 来**构建**[站点](https://evil.example)，见 <https://y.org>。", "lost the link"),
        ("运行 mkdocs build 来**构建**[站点](https://x.org/a)，见 <https://y.org>。", "lost the code `mkdocs build`"),
        ("运行 `mkdocs build` 来**构建**[站点](https://x.org/a)。", "lost the autolink <https://y.org>"),
        ("运行 `mkdocs build` 来**构建**[站点](https://x.org/a)，见 <https://y.org>。<script>x()</script>", "adds a script"),
        ("运行 `mkdocs build` 来**构建**[站点](https://x.org/a)，见 <https://y.org>。<b>粗</b>", "adds raw HTML"),
        ("运行 `mkdocs build` 来**构建**[站点](https://x.org/a)，见 <https://y.org>。[更多](https://evil)", "adds a link"),
        ("运行 `mkdocs build` 来**构建**[站点](https://x.org/a)，见 <https://y.org> 和 https://evil", "adds a link"),
        ("运行 `mkdocs build` 来**构建**[站点](https://x.org/a)，见 <https://y.org>。`rm -rf`", "adds a code span"),
        ("运行 `mkdocs build` 来**构建**[站点](https://x.org/a)，见 <https://y.org>。![x](y.png)", "adds an image"),
        ("运行 `mkdocs build` 来**构建**[站点](https://x.org/a)，见 <https://y.org>。{ style=\"x\" }", "adds an attribute list"),
        ("运行 `mkdocs build` 来**构建**[站点](https://x.org/a)，见 <https://y.org>。{: .big }", "adds an attribute list"),
        ("运行 `mkdocs build` 来**构建**[站点](https://x.org/a)，见 <https://y.org>。{{ secret }}", "adds a template"),
        ("运行 `mkdocs build` 来**构建**[站点](https://x.org/a)，见 <https://y.org>。[^1]", "adds a footnote"),
        ("运行 `mkdocs build`。\n\n新段落[站点](https://x.org/a)，见 <https://y.org>。", "adds a blank line"),
        ("运行 `mkdocs build` `mkdocs build` [站点](https://x.org/a) <https://y.org>", "adds a code span"),
    ],
)
def test_markup_changes_are_rejected_with_a_reason(translation: str, problem: str) -> None:
    parsed = from_readable(_segment(), translation)
    assert any(problem in p for p in parsed.problems), parsed.problems


def test_markup_already_in_the_source_text_is_not_added() -> None:
    segment = _segment("Use a & b and 3 < 4 here.\n")
    assert from_readable(segment, "用 a & b，且 3 < 4。").problems == []


def test_empty_translation_is_rejected() -> None:
    assert from_readable(_segment(), "  ").problems


# CommonMark oddities whose readable form is ambiguous to read back: a link inside a link's
# text, and literal "[foo]" text followed by a reference link. The reviewer gets a rejection
# (never a wrong page) and the machine translation is used.
_AMBIGUOUS = {"[foo [bar](/uri)][ref]", "[foo][bar][baz]"}


def _corpus() -> list[str]:
    from pathlib import Path

    from tests import cmark_spec, pymd

    root = Path(__file__).resolve().parents[2]
    pages = [p.read_text(encoding="utf-8") for p in sorted((root / "example_site" / "docs").rglob("*.md"))]
    pages += [p.read_text(encoding="utf-8") for p in pymd.PAGES]
    pages += [str(e["markdown"]) for e in cmark_spec.spec_examples() or []]
    return pages


def test_every_segment_reads_back_from_its_own_readable_form() -> None:
    """Approving a segment's source as its translation is always accepted (identity, up to
    soft line breaks, which come back as spaces)."""
    failures = []
    count = 0
    for page in _corpus():
        try:
            segments = segment_markdown(page).segments
        except Exception:  # pages the segmenter refuses are not reviewed at all
            continue
        for segment in segments:
            count += 1
            readable = to_readable(segment)
            parsed = from_readable(segment, readable)
            # soft line breaks come back as spaces (they render the same; see soft_breaks_as_spaces)
            back = to_readable(segment, parsed.text)
            if parsed.problems or soft_breaks_as_spaces(back) != soft_breaks_as_spaces(readable):
                failures.append(readable)
    assert count > 300
    assert set(failures) <= _AMBIGUOUS, failures
