"""One test per construct an MkDocs page may contain: what is a segment, what is kept, and that
translating (pseudo and Chinese-like) renders the same page under Python-Markdown."""

from __future__ import annotations

from seghelp import WordTranslator, identity, kinds_texts, pseudo, render_cm, render_pm, structure, unmark

from mkdocs_zh_translate import translate_markdown
from mkdocs_zh_translate.segment import segment_markdown


def check(source: str, expected: list[tuple[str, str]]) -> str:
    """Segments are ``expected``; identity is exact; pseudo renders the same; zh keeps structure."""
    assert kinds_texts(source) == expected
    assert identity(source) == source
    out = pseudo(source)
    assert unmark(render_pm(out)) == render_pm(source)
    zh = translate_markdown(source, WordTranslator())
    assert structure(render_pm(zh)) == structure(render_pm(source))
    return out


def test_atx_and_setext_headings() -> None:
    out = check(
        "# Main title\n\nSub title\n---------\n\n### Closed heading ###\n",
        [("heading", "Main title"), ("heading", "Sub title"), ("heading", "Closed heading")],
    )
    assert "# 「Main title」 { #main-title }" in out
    assert "「Sub title」 { #sub-title }\n---------" in out
    assert "### 「Closed heading」 { #closed-heading } ###" in out


def test_paragraph_spanning_lines() -> None:
    out = check("First line of text\ncontinues here.\n", [("paragraph", "First line of text\ncontinues here.")])
    assert out == "「First line of text\ncontinues here.」\n"


def test_lists_nested_ordered_loose_tight_and_tasks() -> None:
    source = (
        "- tight one\n- tight two\n    - nested item\n\n"
        "1. loose first\n\n2. loose second\n\n   more text\n\n"
        "- [ ] open task\n- [x] done task\n"
    )
    out = check(
        source,
        [
            ("list_item", "tight one"),
            ("list_item", "tight two"),
            ("list_item", "nested item"),
            ("list_item", "loose first"),
            ("list_item", "loose second"),
            ("list_item", "more text"),
            ("list_item", "open task"),
            ("list_item", "done task"),
        ],
    )
    assert "- [ ] 「open task」" in out and "- [x] 「done task」" in out
    assert 'type="checkbox"' in render_pm(out)


def test_blockquote_keeps_its_prefix_on_every_line() -> None:
    out = check(
        "> Quoted text\n> on two lines.\n>\n> > Nested quote.\n",
        [
            ("blockquote", "Quoted text\non two lines."),
            ("blockquote", "Nested quote."),
        ],
    )
    assert out == "> 「Quoted text\n> on two lines.」\n>\n> > 「Nested quote.」\n"


def test_table_cells_are_segments_and_pipes_stay_escaped() -> None:
    source = "| Name | Note |\n|------|------|\n| `a\\|b` | either a \\| b |\n"
    out = check(
        source,
        [
            ("table_cell", "Name"),
            ("table_cell", "Note"),
            ("table_cell", "either a \\| b"),
        ],
    )
    assert "| `a\\|b` | 「either a \\| b」 |" in out
    page = segment_markdown(source)
    zh = page.splice(["名称", "说明", "甲|乙"])
    assert "| 甲\\|乙 |" in zh
    assert render_pm(zh).count("<td>") == 2


def test_fenced_and_indented_code_are_never_segments() -> None:
    source = (
        "Text before.\n\n```python\nprint('code text')\n```\n\n    indented code text\n\n~~~\ntilde code text\n~~~\n"
    )
    out = check(source, [("paragraph", "Text before.")])
    assert "print('code text')" in out and "    indented code text" in out and "tilde code text\n" in out


def test_inline_code_is_an_atom() -> None:
    check("Run `pip install x` now.\n", [("paragraph", "Run <x1/> now.")])


def test_link_text_is_translated_and_url_title_kept() -> None:
    source = 'See [the guide](https://example.com/g "Guide title") today.\n'
    check(source, [("paragraph", "See <g1>the guide</g1> today.")])
    page = segment_markdown(source)
    assert page.splice(["请看<g1>指南</g1>。"]) == '请看[指南](https://example.com/g "Guide title")。\n'


def test_reference_links_and_shortcut_form() -> None:
    source = "Read [the docs][docs], the [FAQ] and [Setup][].\n\n[docs]: https://d.example\n[faq]: https://f.example\n[setup]: https://s.example\n"
    check(source, [("paragraph", "Read <g1>the docs</g1>, the <g2>FAQ</g2> and <g3>Setup</g3>.")])
    zh = segment_markdown(source).splice(["阅读<g1>文档</g1>、<g2>常见问题</g2>和<g3>安装</g3>。"])
    assert "[文档][docs]" in zh and "[常见问题][FAQ]" in zh and "[安装][Setup]" in zh
    assert render_pm(zh).count('href="https://') == 3
    assert render_cm(zh).count('href="https://') == 3


def test_autolinks_are_atoms() -> None:
    check("Mail <mailto:a@b.example> or <https://x.example/p>.\n", [("paragraph", "Mail <x1/> or <x2/>.")])


def test_image_alt_is_translated_and_url_kept() -> None:
    source = '![Main window](img/main.png "Title")\n\nAn inline ![small logo](logo.png) here.\n'
    check(
        source,
        [("image_alt", "Main window"), ("image_title", "Title"), ("paragraph", "An inline <g1>small logo</g1> here.")],
    )
    zh = segment_markdown(source).splice(["主窗口", None, None])
    assert '![主窗口](img/main.png "Title")' in zh
    assert 'alt="主窗口"' in render_pm(zh)


def test_raw_html_block_and_inline_html() -> None:
    source = '<div class="box">\n<p>Boxed words.</p>\n<pre>raw pre text</pre>\n</div>\n\nPress <kbd>Enter</kbd> now.\n'
    out = check(source, [("html_text", "Boxed words."), ("paragraph", "Press <x1/>Enter<x2/> now.")])
    assert "<pre>raw pre text</pre>" in out


def test_front_matter_title_and_description() -> None:
    source = (
        "---\ntitle: The page title\ndescription: 'Short: summary'\ntags: [a, b]\nauthor: Someone Else\n---\n\nBody.\n"
    )
    check(
        source,
        [
            ("front_matter_title", "The page title"),
            ("front_matter_description", "Short: summary"),
            ("paragraph", "Body."),
        ],
    )
    zh = segment_markdown(source).splice(["页面: 标题", "它's 摘要", None])
    assert 'title: "页面: 标题"\n' in zh and "description: '它''s 摘要'\n" in zh
    assert "tags: [a, b]\nauthor: Someone Else\n" in zh


def test_footnotes() -> None:
    out = check(
        "Text with a note[^1].\n\n[^1]: The note body.\n",
        [
            ("paragraph", "Text with a note<x1/>."),
            ("footnote", "The note body."),
        ],
    )
    assert "[^1]: 「The note body.」" in out


def test_definition_lists() -> None:
    check("Term\n:   The definition text.\n", [("definition_term", "Term"), ("definition", "The definition text.")])


def test_math_dollar_double_dollar_and_brackets() -> None:
    source = "Inline $a+b$ and \\(x^2\\) math.\n\n$$\nE = mc^2\n$$\n"
    out = check(source, [("paragraph", "Inline <x1/> and <x2/> math.")])
    assert "$$\nE = mc^2\n$$" in out


def test_admonitions_all_forms_with_bodies_and_nested_code() -> None:
    source = (
        "!!! note\n    Plain body.\n\n"
        '!!! warning "Careful now"\n    Titled body.\n\n        nested code stays\n\n'
        '??? tip "Closed one"\n    Closed body.\n\n'
        "???+ info\n    Open body.\n\n"
        '!!! danger ""\n    No title body.\n'
    )
    out = check(
        source,
        [
            ("admonition_title", "Note"),
            ("paragraph", "Plain body."),
            ("admonition_title", "Careful now"),
            ("paragraph", "Titled body."),
            ("admonition_title", "Closed one"),
            ("paragraph", "Closed body."),
            ("admonition_title", "Info"),
            ("paragraph", "Open body."),
            ("paragraph", "No title body."),
        ],
    )
    assert '!!! note "「Note」"\n    「Plain body.」' in out
    assert "        nested code stays" in out
    assert '!!! danger ""\n' in out


def test_content_tabs() -> None:
    out = check(
        '=== "First"\n\n    One.\n\n=== "Second"\n    Two.\n',
        [
            ("tab_title", "First"),
            ("paragraph", "One."),
            ("tab_title", "Second"),
            ("paragraph", "Two."),
        ],
    )
    assert '=== "「First」"' in out


def test_attr_list_on_blocks_and_inline() -> None:
    out = check(
        "A lead paragraph.\n{: .lead }\n\n[Button](x.md){ .md-button }\n",
        [
            ("paragraph", "A lead paragraph."),
            ("paragraph", "<g1>Button</g1><x2/>"),
        ],
    )
    assert "「A lead paragraph.」\n{: .lead }" in out
    assert 'class="lead"' in render_pm(out)


def test_abbreviations() -> None:
    out = check("The HTML spec.\n\n*[HTML]: Hyper Text Markup Language\n", [("paragraph", "The <x1/> spec.")])
    assert "*[HTML]: Hyper Text Markup Language" in out


def test_snippet_lines_stay_alone() -> None:
    out = check(
        'Before the snippet.\n--8<-- "note.md"\nAfter it.\n\n--8<--\nnote.md\n--8<--\n',
        [
            ("paragraph", "Before the snippet."),
            ("paragraph", "After it."),
        ],
    )
    assert '\n--8<-- "note.md"\n' in out and "\n--8<--\nnote.md\n--8<--\n" in out


def test_toc_marker() -> None:
    out = check("[TOC]\n\n# Title\n", [("heading", "Title")])
    assert out.startswith("[TOC]\n")


def test_emoji_keys_and_jinja_are_atoms() -> None:
    check(
        "Smile :smile: press ++ctrl+c++ version {{ config.version }} {% if x %}yes{% endif %}.\n",
        [("paragraph", "Smile <x1/> press <x2/> version <x3/> <x4/>yes<x5/>.")],
    )


def test_mdx_include_lines_are_kept_as_written() -> None:
    # mdx_include's `{! path !}` names a file: a line of its own is no segment, and in running
    # text it is one placeholder (the path reaches no translator).
    source = "{! ../README.md !}\n\nThe example app\n{!docs_src/app/main.py!}\nruns as it is.\n"
    out = check(source, [("paragraph", "The example app\n<x1/>\nruns as it is.")])
    assert out == "{! ../README.md !}\n\n「The example app\n{!docs_src/app/main.py!}\nruns as it is.」\n"


def test_hard_breaks_keep_their_spaces_and_backslash() -> None:
    source = "Two spaces  \nthen backslash\\\nend.\n"
    # the two-space form (Python-Markdown's only one) stays in the text: a sentence boundary
    check(source, [("paragraph", "Two spaces  \nthen backslash<x1/>end.")])
    zh = segment_markdown(source).splice(["两个空格  \n然后反斜杠<x1/>结束。"])
    assert zh == "两个空格  \n然后反斜杠\\\n结束。\n"
    assert render_cm(zh).count("<br />") == 2  # Python-Markdown knows only the two-space form
    assert render_pm(zh).count("<br />") == 1


def test_html_comments_and_more_marker() -> None:
    out = check(
        "Text <!-- hidden --> visible.\n\n<!-- more -->\n\nAfter.\n",
        [
            ("paragraph", "Text <x1/> visible."),
            ("paragraph", "After."),
        ],
    )
    assert "<!-- more -->" in out


def test_callout_marker_stays_first() -> None:
    out = check("> [!NOTE]\n> Callout body text.\n", [("blockquote", "Callout body text.")])
    assert out == "> [!NOTE]\n> 「Callout body text.」\n"


def test_attr_list_after_closing_hashes() -> None:
    out = check("## Set up ## {: #setup }\n", [("heading", "Set up")])
    assert out == "## 「Set up」 ## {: #setup }\n"
    assert 'id="setup"' in render_pm(out)


def test_raw_html_across_blank_lines_and_markdown_in_html() -> None:
    source = '<div>\nFirst part.\n\nSecond part.\n</div>\n\n<div markdown="1">\n\nSome **markdown** here.\n\n</div>\n'
    check(
        source,
        [
            ("html_text", "First part."),
            ("html_text", "Second part."),
            ("paragraph", "Some <g1>markdown</g1> here."),
        ],
    )


def test_bare_url_never_touches_chinese_or_pseudo_marks() -> None:
    import markdown

    source = "See https://example.com/page\n"
    assert kinds_texts(source) == [("paragraph", "See <x1/>")]
    assert identity(source) == source
    out = pseudo(source)
    assert out == "「See https://example.com/page 」\n"
    zh = segment_markdown(source).splice(["请看<x1/>了解"])
    assert zh == "请看 https://example.com/page 了解\n"
    for text in (out, zh):  # with an autolinker (magiclink), the link is exactly the URL
        html = markdown.markdown(text, extensions=["pymdownx.magiclink"])
        assert 'href="https://example.com/page"' in html


def test_unclosed_block_html_swallows_the_rest_like_python_markdown() -> None:
    source = 'Before.\n\n<div class="x">\n<p>Raw words.</p>\n\n## Not a heading here\n'
    out = check(source, [("paragraph", "Before."), ("html_text", "Raw words."), ("html_text", "## Not a heading here")])
    assert "{ #" not in out  # no id pinned onto text Python-Markdown shows raw
    inside_list = "- <div>\n- foo\n"
    assert kinds_texts(inside_list) == [("list_item", "foo")]  # the list item ends the swallow


def test_unclosed_markdown_in_html_block_is_still_markdown() -> None:
    check('<div markdown="1">\n\n## Inside\n\nText inside.\n', [("heading", "Inside"), ("paragraph", "Text inside.")])


def test_nested_containers_in_lists_and_tabs() -> None:
    source = (
        '1.  A step.\n\n    !!! warning "Careful"\n        Inside the list.\n\n'
        '=== "Tab"\n\n    !!!note\n        Inside a tab.\n\n        ```\n        code in tab\n        ```\n'
    )
    out = check(
        source,
        [
            ("list_item", "A step."),
            ("admonition_title", "Careful"),
            ("paragraph", "Inside the list."),
            ("tab_title", "Tab"),
            ("admonition_title", "Note"),
            ("paragraph", "Inside a tab."),
        ],
    )
    assert "        code in tab\n" in out


def test_times_and_ratios_are_not_emoji() -> None:
    assert kinds_texts("Start at 10:30:45 or a:b:c, then :smile:.\n") == [
        ("paragraph", "Start at 10:30:45 or a:b:c, then <x1/>.")
    ]


def test_fences_inside_raw_html_stay_code() -> None:
    source = '<div class="x">\n<p>Words.</p>\n\n```python\nprint("in a fence")\n```\n'
    out = check(source, [("html_text", "Words.")])
    assert '```python\nprint("in a fence")\n```' in out
