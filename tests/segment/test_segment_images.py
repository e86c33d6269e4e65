"""Images (issue 19, item 5): alt text, titles and lightbox captions are translated as values;
a block whose only words are image alts is never sent whole (a model given bare images invents
text around them)."""

from __future__ import annotations

import pytest
from pymd import PAGES, render
from seghelp import kinds_texts, pseudo, render_pm, segment_block_problems, structure, unmark

from mkdocs_zh_translate.segment import segment_markdown, strip_tags
from tests.growth import assert_linear, growth_ratios


def test_image_only_paragraph_sends_only_its_alt() -> None:
    source = "![Main window of the app](img/main.png)\n\nSome text.\n"
    assert kinds_texts(source) == [("image_alt", "Main window of the app"), ("paragraph", "Some text.")]
    assert pseudo(source) == "![「Main window of the app」](img/main.png)\n\n「Some text.」\n"
    assert 'alt="「Main window of the app」"' in render_pm(pseudo(source))


@pytest.mark.parametrize(
    "source",
    [
        "![](a.png) ![](b.png)\n",  # no words at all
        "[![](badge.svg)](https://example.org)\n",
        "`code only`\n",
        "[![Build status](badge.svg)](https://ci.example.org) ![Coverage](cov.svg)\n",
    ],
)
def test_wordless_blocks_are_never_sent(source: str) -> None:
    page = segment_markdown(source)
    assert all(s.kind.startswith("image_") for s in page.segments)
    assert all(s.restore.pairs == {} and s.restore.atoms == {} for s in page.segments)
    assert segment_block_problems(source) == []


def test_image_title_is_translated_in_place() -> None:
    source = '![A chart](chart.png "Requests per second over time")\n'
    assert kinds_texts(source) == [("image_alt", "A chart"), ("image_title", "Requests per second over time")]
    zh = segment_markdown(source).splice(["图表", "每秒请求数随时间变化"])
    assert zh == '![图表](chart.png "每秒请求数随时间变化")\n'
    assert 'title="每秒请求数随时间变化"' in render(zh)


def test_lightbox_caption_attributes_are_translated() -> None:
    source = '![Shot](shot.png){ data-title="Main window" data-description="The app right after start" loading=lazy }\n'
    assert kinds_texts(source) == [
        ("image_alt", "Shot"),
        ("image_title", "Main window"),
        ("image_caption", "The app right after start"),
    ]
    zh = segment_markdown(source).splice(["截图", "主窗口", "启动后的应用"])
    assert zh == '![截图](shot.png){ data-title="主窗口" data-description="启动后的应用" loading=lazy }\n'
    html = render(zh)
    assert 'data-title="主窗口"' in html and 'data-description="启动后的应用"' in html
    assert structure(html) == structure(render(source))


@pytest.mark.parametrize(
    ("outer", "inner", "expected"),
    [
        ("看<g1>标志</g1>这里的文字。", "标志标题", '看![标志](logo.png "标志标题")这里的文字。\n'),
        (None, "标志标题", 'See ![the logo](logo.png "标志标题") here in words.\n'),
        ("看<g1>标志</g1>这里的文字。", None, '看![标志](logo.png "Logo title words")这里的文字。\n'),
    ],
)
def test_title_inside_a_translated_paragraph(outer: str | None, inner: str | None, expected: str) -> None:
    source = 'See ![the logo](logo.png "Logo title words") here in words.\n'
    page = segment_markdown(source)
    assert [(s.kind, s.text) for s in page.segments] == [
        ("paragraph", "See <g1>the logo</g1> here in words."),
        ("image_title", "Logo title words"),
    ]
    assert page.splice([outer, inner]) == expected


def test_attribute_translation_that_would_end_its_quote_stays_english() -> None:
    source = '![Shot](shot.png "Main window of it")\n'
    page = segment_markdown(source)
    assert page.splice(["截图", '主"窗口']) == '![截图](shot.png "Main window of it")\n'
    assert page.splice(["截[图]", None]) == source


def test_pseudo_translation_of_images_renders_the_same() -> None:
    source = (
        '![Alt words](a.png "A title"){ data-description="Long caption text" }\n\n'
        "Text with ![inline alt](b.png 'Inline title') and more words.\n"
    )
    out = pseudo(source)
    assert unmark(render_pm(out)) == render_pm(source)
    assert "「Inline title」" in out and "「Long caption text」" in out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_segment_is_wordless_outside_image_alts(page: object) -> None:
    text = page.read_text(encoding="utf-8")  # type: ignore[attr-defined]
    for segment in segment_markdown(text).segments:
        words = segment.text
        for pid, (_open, _close, piece) in segment.restore.pairs.items():
            if piece.role == "image":
                words = words.replace(segment.restore.inner[pid], "")
        assert any(ch.isalpha() for ch in strip_tags(words)), segment


def test_splicing_many_titled_images_in_one_paragraph_grows_linearly() -> None:
    def run(source: str) -> object:
        page = segment_markdown(source)
        return page.splice([f"「{s.text}」" for s in page.segments])

    def make(n: int) -> str:
        return "Words " + " and ".join(f'![pic {k}](p{k}.png "Title number {k}")' for k in range(n)) + ".\n"

    assert_linear("titled images", lambda: growth_ratios(make, 400, run=run))
