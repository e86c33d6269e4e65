"""Chinese-aware splicing: what changes when the text really is Chinese."""

from __future__ import annotations

import re
from html import unescape

import pytest
from markdown_it import MarkdownIt
from seghelp import render_cm, render_pm

from mkdocs_zh_translate.segment import segment_markdown


def splice(source: str, *translations: str | None, heading_ids: bool = True) -> str:
    page = segment_markdown(source)
    assert len(page.segments) == len(translations), [s.text for s in page.segments]
    return page.splice(list(translations), heading_ids=heading_ids)


def both(text: str) -> list[str]:
    return [render_cm(text), render_pm(text)]


# -- heading ids -----------------------------------------------------------------------------

def test_translated_heading_is_pinned_to_the_english_slug() -> None:
    out = splice("# Install the tool\n\nSee [above](#install-the-tool).\n", "安装工具", None)
    assert out.startswith("# 安装工具 { #install-the-tool }\n")
    assert 'id="install-the-tool"' in render_pm(out)


def test_pinning_follows_python_markdown_slugs_and_duplicates() -> None:
    source = "## Café & Co.\n\n## Setup\n\n## Setup\n\n## `code` name\n"
    out = splice(source, "咖啡", "设置", "设置", "<x1/> 名称")
    assert render_pm(out) and re.findall(r'id="([^"]+)"', render_pm(out)) == re.findall(
        r'id="([^"]+)"', render_pm(source)
    )


def test_heading_with_explicit_id_is_not_pinned_again() -> None:
    assert splice("## Setup { #custom }\n", "设置") == "## 设置 { #custom }\n"


def test_heading_with_class_only_attr_list_gets_the_id_inside_it() -> None:
    out = splice("## Setup {: .big }\n", "设置")
    assert out == "## 设置 {: #setup .big }\n"
    assert '<h2 class="big" id="setup">' in render_pm(out)


def test_unchanged_heading_and_commonmark_mode_are_not_pinned() -> None:
    assert splice("# Title\n", "Title") == "# Title\n"
    assert splice("# Title\n", "标题", heading_ids=False) == "# 标题\n"


# -- emphasis next to CJK --------------------------------------------------------------------

@pytest.mark.parametrize(
    ("source", "translation", "tag"),
    [
        ("**Note:** do this\n", "<g1>注意：</g1>请这样做", "strong"),
        ("Please **\"mind\"** this\n", "请<g1>“注意”</g1>这一点", "strong"),
        ("**Note** please\n", "<g1> 注意 </g1>请", "strong"),
        ("an _important_ word\n", "一个<g1>重要</g1>的词", "em"),
        ("a __strong__ word\n", "一个<g1>强</g1>词", "strong"),
        ("a ~~gone~~ word\n", "一个<g1>删除：</g1>词", "s"),
    ],
)
def test_emphasis_next_to_cjk_still_renders(source: str, translation: str, tag: str) -> None:
    out = splice(source, translation)
    gfm = MarkdownIt("commonmark").enable("strikethrough")
    for html in both(out) if tag != "s" else [gfm.render(out)]:
        assert f"<{tag}>" in html, (out, html)
        assert "*" not in re.sub(r"<[^>]+>", "", html) and "_" not in html


def test_underscores_are_written_as_stars_next_to_cjk() -> None:
    assert splice("an _important_ word\n", "一个<g1>重要</g1>的词") == "一个*重要*的词\n"


# -- characters the model introduced ---------------------------------------------------------

def test_new_markdown_characters_are_escaped() -> None:
    out = splice("Use the option.\n", "使用 <b> 选项 [x] 和 *星* 与 _下_ 以及 `反` $5 和 {{ x }} &copy;")
    assert "&amp;copy;" in out
    for html in both(out):
        assert "<b>" not in html and "<em>" not in html and "<code>" not in html
        plain = unescape(re.sub(r"<[^>]+>", "", html))
        assert plain.strip() == "使用 <b> 选项 [x] 和 *星* 与 _下_ 以及 `反` $5 和 {{ x }} &copy;"


def test_special_characters_already_in_the_source_are_left_alone() -> None:
    source = "Compare a < b and [brackets] here.\n"
    out = splice(source, "比较 a < b 和 [方括号]。")
    assert out == "比较 a < b 和 [方括号]。\n"


def test_a_new_line_starting_with_block_syntax_is_escaped() -> None:
    out = splice("Some text\nwraps here.\n", "# 不是标题\n1. 不是列表\n- 也不是")
    for html in both(out):
        assert "<h1>" not in html and "<ol>" not in html and "<ul>" not in html


# -- line prefixes ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("- item one\n  continues\n", "- 第一行\n  第二行\n"),
        ("> quoted\n> more\n", "> 第一行\n> 第二行\n"),
        ("!!! note \"T\"\n    body\n    more\n", '!!! note "T"\n    第一行\n    第二行\n'),
        ("1. only one line\n", "1. 第一行\n   第二行\n"),
        ("> - item in quote\n", "> - 第一行\n>   第二行\n"),
    ],
)
def test_line_prefixes_are_kept_when_a_translation_spans_lines(source: str, expected: str) -> None:
    page = segment_markdown(source)
    translations: list[str | None] = [None] * len(page.segments)
    translations[-1] = "第一行\n第二行"
    out = page.splice(translations)
    assert out == expected
    assert render_pm(out).count("第二行") == 1 and "<pre>" not in render_pm(out)


def test_blank_lines_from_the_model_do_not_split_the_block() -> None:
    out = splice("> quoted text\n", "第一段\n\n第二段")
    assert out == "> 第一段\n> 第二段\n"


def test_new_line_in_a_heading_becomes_a_space() -> None:
    assert splice("# Title\n", "标\n题", heading_ids=False) == "# 标 题\n"


# -- atoms that must stay apart from CJK -----------------------------------------------------

def test_abbreviation_keeps_word_boundaries() -> None:
    out = splice("The HTML spec.\n\n*[HTML]: Hyper Text\n", "<x1/>规范。")
    assert out.startswith("HTML 规范。")
    assert "<abbr" in render_pm(out)


def test_url_after_chinese_gets_a_space_before() -> None:
    assert splice("Visit https://a.example now\n", "访问<x1/>现在") == "访问 https://a.example 现在\n"


# -- broken translations ---------------------------------------------------------------------

def test_invalid_translation_keeps_the_english_segment() -> None:
    source = "Click [here](x.md) now.\n"
    assert splice(source, "点击这里") == source
    assert splice(source, "<g1>点击</g1><g1>这里</g1>") == source


def test_missing_emphasis_pair_is_accepted_but_missing_link_is_not() -> None:
    source = "A **bold** [link](x.md).\n"
    assert splice(source, "一个粗体<g2>链接</g2>。") == "一个粗体[链接](x.md)。\n"
    assert splice(source, "一个<g1>粗体</g1>链接。") == source


def test_default_admonition_title_is_inserted_quoted() -> None:
    out = splice("!!! tip\n    Body.\n", '提示 "小"', "正文。")
    assert out == '!!! tip "提示 "小""\n    正文。\n'
    assert '<p class="admonition-title">提示 "小"</p>' in render_pm(out)


def test_crlf_page_keeps_its_line_endings() -> None:
    source = "# Title\r\n\r\nFirst line\r\nsecond line.\r\n"
    page = segment_markdown(source)
    assert page.splice([s.text for s in page.segments]) == source
    assert page.splice(["标题", "第一行\n第二行"]) == "# 标题 { #title }\r\n\r\n第一行\r\n第二行\r\n"


def test_site_slugify_function_is_used_for_pinned_ids() -> None:
    page = segment_markdown("# Hello World\n", slugify=lambda value, sep: value.lower().replace(" ", sep * 2))
    assert page.splice(["你好"]) == "# 你好 { #hello--world }\n"


def test_protected_parts_set_side_by_side_do_not_fuse() -> None:
    """The model may drop the words between two code spans (or two bold runs): their delimiters
    must not merge into one run (`a``b` is a single code span), so a space keeps them apart."""
    import markdown

    page = segment_markdown("Flags: `--dirty` and `--site-dir` here, **bold** and **more**.\n")
    out = page.splice(["标志<x1/><x2/>这里，<g3>粗</g3><g4>更多</g4>。"])
    html = markdown.markdown(out)
    assert "<code>--dirty</code> <code>--site-dir</code>" in html
    assert "<strong>粗</strong> <strong>更多</strong>" in html
    # apart in the translation already: nothing is added
    assert page.splice(["标志<x1/>和<x2/>这里，<g3>粗</g3>和<g4>更多</g4>。"]) == (
        "标志`--dirty`和`--site-dir`这里，**粗**和**更多**。\n"
    )
