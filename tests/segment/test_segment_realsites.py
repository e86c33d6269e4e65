"""Constructs real MkDocs sites use that plain MkDocs pages do not: pymdownx.blocks, mkdocstrings
``:::`` directives, attr_lists on headings, autorefs references, magiclink URLs and shorthand,
Material's annotations, grids, icons and critic/mark/caret/tilde, mkdocs-macros.

Every example is rendered with Python-Markdown and the extensions a Material site enables; the
pseudo translation must render the same HTML once its 「」 marks are removed, and the lines that
are syntax (fences, options, directives) must come out byte for byte.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

import markdown
import pytest
from seghelp import WordTranslator, identity, pseudo, render_pm, structure, unmark

from mkdocs_zh_translate import translate_markdown
from mkdocs_zh_translate.segment import segment_markdown
from tests.growth import assert_linear, growth_ratios

EXTENSIONS = [
    "admonition",
    "pymdownx.details",
    "pymdownx.superfences",
    "pymdownx.tabbed",
    "attr_list",
    "footnotes",
    "tables",
    "toc",
    "def_list",
    "abbr",
    "md_in_html",
    "pymdownx.emoji",
    "pymdownx.keys",
    "pymdownx.magiclink",
    "pymdownx.critic",
    "pymdownx.mark",
    "pymdownx.caret",
    "pymdownx.tilde",
    "pymdownx.blocks.admonition",
    "pymdownx.blocks.details",
    "pymdownx.blocks.tab",
    "pymdownx.blocks.html",
    "pymdownx.blocks.caption",
    "pymdownx.blocks.definition",
]
CONFIG = {
    "pymdownx.tabbed": {"alternate_style": True},
    "pymdownx.blocks.tab": {"alternate_style": True},
    "pymdownx.magiclink": {
        "repo_url_shorthand": True,
        "social_url_shorthand": True,
        "provider": "github",
        "user": "someone",
        "repo": "project",
    },
}


def render(text: str) -> str:
    return markdown.Markdown(extensions=EXTENSIONS, extension_configs=CONFIG).convert(text)


def texts(source: str) -> list[str]:
    return [s.text for s in segment_markdown(source).segments]


def check(source: str, *, kept: tuple[str, ...] = ()) -> str:
    """Identity is exact, pseudo renders the same, a Chinese-like translation keeps the page's
    structure, and every line in ``kept`` is still in the pseudo output byte for byte."""
    assert identity(source) == source
    out = pseudo(source)
    assert unmark(render(out)) == render(source)
    zh = translate_markdown(source, WordTranslator())
    assert structure(render(zh)) == structure(render(source))
    for line in kept:
        assert line in source.splitlines()
        assert line in out.splitlines(), line
        assert line in zh.splitlines(), line
    return out


# -- pymdownx.blocks -------------------------------------------------------------------------


BLOCKS_PAGE = """\
# Configuration

/// admonition | Before you start
    type: warning

Install the package first.
///

/// note
Notes have a default title.
///

//// details | Advanced settings
    open: true

Read this when the defaults do not fit.

/// tab | Linux
Run the installer.
///

/// tab | Windows
    new: true
Run the setup program.
///
////

/// html | div.result
The command prints a summary.
///

| Option | Meaning |
|--------|---------|
| `x`    | An example value |

/// caption
Options the tool reads.
///

/// define
Widget

- A small part of the interface.
///
"""


def test_blocks_titles_and_bodies_are_translated_fences_and_options_are_not() -> None:
    out = check(
        BLOCKS_PAGE,
        kept=(
            "    type: warning",
            "    open: true",
            "    new: true",
            "///",
            "////",
            "/// html | div.result",
            "/// caption",
            "/// define",
        ),
    )
    assert texts(BLOCKS_PAGE)[:4] == ["Configuration", "Before you start", "Install the package first.", "Note"]
    assert "/// admonition | 「Before you start」" in out
    assert "/// note | 「Note」" in out  # the default title, inserted so it can be translated
    assert "//// details | 「Advanced settings」" in out
    assert "/// tab | 「Linux」" in out
    assert "「The command prints a summary.」" in out
    assert "「Options the tool reads.」" in out
    assert 'class="admonition warning"' in render(out)


def test_blocks_default_title_is_inserted_with_a_pipe() -> None:
    page = segment_markdown("/// warning\nCareful.\n///\n")
    out = page.splice(["警告", "小心。"])
    assert out == "/// warning | 警告\n小心。\n///\n"
    assert '<p class="admonition-title">警告</p>' in render(out)


def test_blocks_raw_bodies_and_custom_arguments_stay_as_written() -> None:
    source = (
        "/// html | pre\nraw <b>text</b> stays\n///\n\n"
        "/// html | div\n    markdown: raw\nAlso raw text.\n///\n\n"
        "/// custom | some argument\nThe body is still Markdown.\n///\n"
    )
    out = check(source, kept=("raw <b>text</b> stays", "Also raw text.", "/// custom | some argument"))
    assert texts(source) == ["The body is still Markdown."]
    assert "「The body is still Markdown.」" in out


def test_blocks_nest_with_equal_fences_and_hide_code_fences() -> None:
    source = (
        "/// details | Outer\n\nOuter text.\n\n/// note | Inner\nInner text.\n///\n\nAfter the inner block.\n///\n\n"
        "/// tip\n```text\n///\n```\n///\n\nAfter all blocks.\n"
    )
    out = check(source, kept=("```text",))
    assert texts(source) == [
        "Outer", "Outer text.", "Inner", "Inner text.", "After the inner block.", "Tip", "After all blocks."
    ]
    assert "\n```text\n///\n```\n" in out


def test_blocks_inside_lists_admonitions_and_quotes() -> None:
    source = (
        "- List item\n\n    /// note | In a list\n    Listed body.\n    ///\n\n"
        '!!! tip "Classic"\n    /// details | Inside\n        open: true\n    Inner body.\n    ///\n\n'
        "> /// warning | Quoted\n> Quoted body.\n> ///\n\n"
        "Text right before\n/// tab | Unclosed\nRuns to the end.\n"
    )
    check(source, kept=("        open: true", "    ///", "> ///"))
    assert "Runs to the end." in texts(source)


@pytest.mark.parametrize("header", ["/// note Title", "// note | x", "///", "/// | x"])
def test_not_a_block_header_stays_prose(header: str) -> None:
    source = f"{header}\ntext\n"
    assert texts(source) == [f"{header}\ntext"]
    check(source)


# -- mkdocstrings / mkdocs-click `:::` ---------------------------------------------------------


class _AutoDoc(markdown.blockprocessors.BlockProcessor):
    """A stand-in for mkdocstrings' AutoDocProcessor (same grammar): the identifier, heading
    level and options end up in the HTML, so a changed option changes the page."""

    RE = re.compile(r"^(?P<heading>#{1,6} *|)::: ?(?P<name>.+?) *$", flags=re.MULTILINE)

    def test(self, parent: etree.Element, block: str) -> bool:
        return bool(self.RE.search(block))

    def run(self, parent: etree.Element, blocks: list[str]) -> None:
        block = blocks.pop(0)
        m = self.RE.search(block)
        assert m is not None
        if m.start() > 0:
            self.parser.parseBlocks(parent, [block[: m.start()]])
        block, rest = self.detab(block[m.end() :])
        if not block and blocks and blocks[0].startswith(("    handler:", "    options:")):
            block = blocks.pop(0)
        el = etree.SubElement(parent, "div")
        el.set("class", "doc")
        el.set("data-name", m["name"])
        el.set("data-level", str(m["heading"].count("#")))
        el.set("data-options", block.strip())
        if rest:
            blocks.insert(0, rest)


class _AutoDocExtension(markdown.Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.parser.blockprocessors.register(_AutoDoc(md.parser), "autodoc", 110)


def render_api(text: str) -> str:
    return markdown.Markdown(extensions=[*EXTENSIONS, _AutoDocExtension()], extension_configs=CONFIG).convert(text)


API_PAGE = """\
# API reference

::: mypkg.core.Engine
    options:
      show_source: false
      members:
        - run

## ::: mypkg.cli

The helpers below are internal.
::: mypkg.util

::: mypkg.other

    options:
      heading_level: 3

??? abstract "Application class"
    ::: mypkg.apps.App
        handler: python

- In a list:

    ::: mypkg.listed

::: mkdocs-click
    :module: mypkg.cli
    :command: main
"""


def test_directives_and_their_options_are_never_translated() -> None:
    assert texts(API_PAGE) == ["API reference", "The helpers below are internal.", "Application class", "In a list:"]
    kept = tuple(line for line in API_PAGE.splitlines() if ":::" in line or (line.startswith("    ") and ":" in line))
    out = check(API_PAGE, kept=kept)
    assert unmark(render_api(out)) == render_api(API_PAGE)
    assert render_api(API_PAGE).count('class="doc"') == 7
    assert re.search(r'data-name="mypkg.other" data-options="options:\s+heading_level: 3"', render_api(out))


# -- attr_list on headings ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("# 6.0 Notes {: #v6.0}\n", "# 「6.0 Notes」 {: #v6.0}\n"),
        ("### Command line {: #x cmd-line}\n", "### 「Command line」 {: #x cmd-line}\n"),
        ("## Android {: android}\n", "## 「Android」 {: #android android}\n"),
        ("## Styled { .cls }\n", "## 「Styled」 { #styled .cls }\n"),
        ('## Both {: .big data-x="1" }\n', '## 「Both」 {: #both .big data-x="1" }\n'),
        ("## Closed ## {: #closed }\n", "## 「Closed」 ## {: #closed }\n"),
        ("Setext {: .cls }\n------\n", "「Setext」 {: #setext .cls }\n------\n"),
    ],
)
def test_heading_attr_lists_keep_their_id_and_attributes(source: str, expected: str) -> None:
    out = check(source)
    assert out == expected


def test_numeric_explicit_id_without_magiclink() -> None:
    source = "# 6.0 Notes {: #6.0}\n\nText.\n"
    out = pseudo(source)
    assert out.splitlines()[0] == "# 「6.0 Notes」 {: #6.0}"
    assert unmark(render_pm(out)) == render_pm(source)
    assert '<h1 id="6.0">' in render_pm(source)


def test_word_attr_lists_count_as_ids_for_later_headings() -> None:
    source = "## Setup\n\n## Other {: #setup_1 hidden}\n\n## Setup\n"
    out = check(source)
    assert "## 「Setup」 { #setup_2 }" in out.splitlines()


# -- magiclink: URLs and shorthand -------------------------------------------------------------


MAGIC_PAGE = """\
## 2024 release notes

## Fixed #404 crash

The docs live at https://example.org/docs.

See https://example.org/b, or (https://example.org/c).

Mirror: www.example.org. Write to help@example.org.

Thanks to @someone for someone/project#12, #123 and !45.
"""


def test_magiclink_urls_and_shorthand_render_the_same() -> None:
    assert texts(MAGIC_PAGE) == [
        "2024 release notes",
        "Fixed <x1/> crash",
        "The docs live at <x1/>.",
        "See <x1/>, or (<x2/>).",
        "Mirror: <x1/>. Write to <x2/>.",
        "Thanks to <x1/> for <x2/>, <x3/> and <x4/>.",
    ]
    out = check(MAGIC_PAGE)
    assert '## 「2024 release notes」 { id="2024-release-notes" }' in out
    assert '<h2 id="2024-release-notes">' in render(out)


@pytest.mark.parametrize(
    ("translation", "expected"),
    [
        ("文档在 <x1/>。", "文档在 https://example.org/docs 。"),
        ("文档在 <x1/>.见", "文档在 https://example.org/docs\\.见"),
        ("文档在 <x1/>.", "文档在 https://example.org/docs."),
        ("文档在<x1/>", "文档在 https://example.org/docs"),
    ],
)
def test_a_url_never_swallows_the_translation_after_it(translation: str, expected: str) -> None:
    page = segment_markdown("The docs live at https://example.org/docs.\n")
    out = page.splice([translation])
    assert out == expected + "\n"
    assert '<a href="https://example.org/docs">https://example.org/docs</a>' in render(out)


def test_shorthand_stays_apart_from_cjk_words() -> None:
    page = segment_markdown("Thanks to @someone for #123.\n")
    out = page.splice(["感谢<x1/>修复<x2/>。"])
    assert out == "感谢 @someone 修复 #123。\n"
    html = render(out)
    assert "magiclink-mention" in html and "magiclink-issue" in html


# -- mkdocs-autorefs ---------------------------------------------------------------------------


class _Autorefs(markdown.inlinepatterns.ReferenceInlineProcessor):
    """A stand-in for mkdocs-autorefs: a reference with no definition in the page becomes an
    ``<autoref>`` element naming its identifier (case kept), resolved later across the site."""

    def handleMatch(self, m: re.Match[str], data: str) -> tuple[etree.Element | None, int | None, int | None]:  # type: ignore[override]
        text, index, handled = self.getText(data, m.end(0))
        if not handled:
            return None, None, None
        ref = self.RE_LINK.match(data, pos=index)
        if not ref:
            return None, None, None
        identifier = ref.group(1) or text
        if identifier.lower() in self.md.references:
            return super().handleMatch(m, data)
        el = etree.Element("autoref", {"identifier": identifier})
        el.text = text
        return el, m.start(0), ref.end(0)


class _AutorefsExtension(markdown.Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:
        pattern = markdown.inlinepatterns.REFERENCE_RE
        md.inlinePatterns.register(_Autorefs(pattern, md), "autorefs", 168)


def render_refs(text: str) -> str:
    return markdown.Markdown(extensions=[*EXTENSIONS, _AutorefsExtension()], extension_configs=CONFIG).convert(text)


REFS_PAGE = """\
Use [the docstring class][griffe.Docstring] to parse text. See [griffe.Docstring][]
and [`Object`][griffe.Object] for details.

Also [Config][mypkg.config.Config] or [mypkg.config.Config][], an [option][option-heading]
and an anchor [](){ #anchor-here } with a real link [here][def].

[def]: https://example.org
"""


def test_autorefs_identifiers_are_never_translated() -> None:
    assert texts(REFS_PAGE) == [
        "Use <g1>the docstring class</g1> to parse text. See <x2/>\nand <g3><x4/></g3> for details.",
        "Also <g1>Config</g1> or <x2/>, an <g3>option</g3>\nand an anchor <g4></g4><x5/> with a real link <g6>here</g6>.",
    ]
    out = check(REFS_PAGE)
    assert unmark(render_refs(out)) == render_refs(REFS_PAGE)
    assert render_refs(REFS_PAGE).count("<autoref") == 6
    page = segment_markdown(REFS_PAGE)
    zh = page.splice([
        "用<g1>文档字符串类</g1>解析文本。见<x2/>和<g3><x4/></g3>。",
        "还有<g1>配置</g1>或<x2/>、<g3>选项</g3>和锚点<g4></g4><x5/>，真正的链接<g6>在这里</g6>。",
    ])
    html = render_refs(zh)
    assert '<autoref identifier="griffe.Docstring">文档字符串类</autoref>' in html
    assert '<autoref identifier="griffe.Docstring">griffe.Docstring</autoref>' in html
    assert '<autoref identifier="mypkg.config.Config">配置</autoref>' in html
    assert '<a href="https://example.org">在这里</a>' in html


def test_sentence_splitting_never_cuts_an_identifier() -> None:
    source = ("This sentence is long enough to be split into sentences by the translator. " * 3) + (
        "See [griffe.Docstring][] and [the class][griffe.dataclasses.Class].\n"
    )
    marks = WordTranslator()
    out = translate_markdown(source, marks, heading_ids=False)
    assert "[griffe.Docstring][]" in out and "][griffe.dataclasses.Class]" in out


# -- Material and pymdownx extras ---------------------------------------------------------------


MATERIAL_PAGE = """\
# Features

Text with an annotation (1) and another (2).
{ .annotate }

1.  An annotation with **bold** text.
2.  Another :material-check: note.

``` yaml
theme:
  features:
    - content.code.annotate # (1)!
```

1.  The code annotation.

<div class="grid cards" markdown>

-   :material-clock-fast:{ .lg .middle } __Quick to set up__

    ---

    Install it with [`pip`](#install) in a minute.

    [:octicons-arrow-right-24: Getting started](#start)

-   :fontawesome-brands-markdown:{ .lg .middle } __Plain Markdown__

    ---

    Write your content.

</div>

Critic marks {++added words++}, {--removed words--}, {==marked words==}{>>a remark<<}.

Some ==highlighted words== and ^^inserted words^^ and ~~deleted words~~.

<details>
<summary>Click to expand</summary>

Hidden content here.

</details>

Version {{ config.extra.version }} is out. {% if beta %}Beta text.{% endif %}

An icon :material-information-outline: and :fontawesome-solid-user:{ .red } inline.
"""


def test_material_extras_render_the_same_and_keep_their_syntax() -> None:
    out = check(
        MATERIAL_PAGE,
        kept=("{ .annotate }", "    - content.code.annotate # (1)!", '<div class="grid cards" markdown>', "    ---"),
    )
    found = texts(MATERIAL_PAGE)
    assert "Text with an annotation <x1/> and another <x2/>." in found
    assert "Critic marks <g1>added words</g1>, <g2>removed words</g2>, <g3>marked words</g3><g4>a remark</g4>." in found
    assert "Some <g1>highlighted words</g1> and <g2>inserted words</g2> and <g3>deleted words</g3>." in found
    assert "Version <x1/> is out. <x2/>Beta text.<x3/>" in found
    assert "<x1/><x2/> <g3>Quick to set up</g3>" in found
    assert "Click to expand" in found
    assert "<summary>「Click to expand」</summary>" in out


def test_critic_and_mark_delimiters_come_back_around_the_translation() -> None:
    page = segment_markdown("Some ==highlighted words== and {++added words++} (1).\n")
    out = page.splice(["一些<g1>高亮的词</g1>和<g2>添加的词</g2><x3/>。"])
    assert out == "一些==高亮的词==和{++添加的词++}(1)。\n"
    html = render(out)
    assert "<mark>高亮的词</mark>" in html and '<ins class="critic">添加的词</ins>' in html


def test_callout_keywords_stay_as_written() -> None:
    source = (
        "NOTE: **Heads up.** Read this first.\n\n> WARNING: Quoted callout text.\n\n"
        ">? QUESTION: **Why so?** Because.\n\nTIP: Plain tip.\n\nA normal: paragraph.\n"
    )
    assert texts(source) == [
        "Heads up",
        "Read this first.",
        "Quoted callout text.",
        "Why so?",
        "Because.",
        "Plain tip.",
        "A normal: paragraph.",
    ]
    out = check(source)
    assert out.startswith("NOTE: **「Heads up」.** 「Read this first.」\n")
    assert "> WARNING: 「Quoted callout text.」" in out
    assert ">? QUESTION: **「Why so?」** 「Because.」" in out
    page = segment_markdown(source)
    zh = page.splice(["注意", "先读这个。", "引用。", "为什么？", "因为。", "提示。", "普通：段落。"])
    assert zh.startswith("NOTE: **注意.** 先读这个。\n")


def test_callouts_render_the_same_with_markdown_callouts() -> None:
    pytest.importorskip("markdown_callouts")
    source = (
        "NOTE: **Heads up.** Read this first.\n\n> WARNING: Quoted callout text.\n\n"
        ">? QUESTION: **Why so?** Because.\n\nTIP: Plain tip.\n\nTIP: **Hint**  \nAfter a hard break.\n"
    )

    def render_callouts(text: str) -> str:
        return markdown.Markdown(extensions=[*EXTENSIONS, "callouts"], extension_configs=CONFIG).convert(text)

    html = render_callouts(source)
    assert '<p class="admonition-title">Heads up</p>' in html and "<summary>Why so?</summary>" in html
    assert unmark(render_callouts(pseudo(source))) == html


def test_html_tags_in_a_blockquote_are_inline_and_markdown_inside_is_parsed() -> None:
    source = "> <table><tbody><tr><td>\n>\n> - [`Add`][ast.Add] node\n> - Some item text\n>\n> </td></tr></tbody></table>\n"
    assert texts(source) == ["<g1><x2/></g1> node", "Some item text"]
    check(source)


def test_urls_in_raw_html_get_no_boundary() -> None:
    source = '<p align="center">\nSee https://example.org/docs.\n</p>\n\nText https://example.org/a.\n'
    out = pseudo(source)
    assert "「See https://example.org/docs.」" in out  # raw HTML: magiclink never runs there
    assert "https://example.org/a\\.」" in out
    check(source)


def test_file_name_tab_titles_keep_their_tab_ids() -> None:
    source = (
        '=== "pyproject.toml"\n\n    Some text.\n\n=== "Official installer"\n\n    Other text.\n\n'
        '=== ":simple-python: pip"\n\n    Pip text.\n\n/// tab | src/app.py\nMore text.\n///\n'
    )
    assert texts(source) == ["Some text.", "Official installer", "Other text.", "Pip text.", "More text."]
    check(source)


@pytest.mark.parametrize("heading", ["### `__all__` list", "## _private names", "## Stars *x"])
def test_pins_never_turn_into_emphasis(heading: str) -> None:
    source = f"{heading}\n\nText.\n"
    out = check(source)
    assert "<strong>" not in render(out) and "<em>" not in render(out).replace("<em>x", "")


def test_python_markdown_inline_html_markers_are_atoms() -> None:
    source = "### Rules\n\n<SITE_RULE_LIST>\n\nBased on version <SITE_TOOL_VERSION> of the tool.\n"
    assert texts(source) == ["Rules", "Based on version <x1/> of the tool."]
    out = check(source, kept=("<SITE_RULE_LIST>",))
    # a site preprocessor that swaps the markers for Markdown sees them untouched
    swapped = out.replace("<SITE_RULE_LIST>", "- `a`: one\n- `b`: two").replace("<SITE_TOOL_VERSION>", "1.2")
    assert render(swapped).count("<li>") == 2


# -- linear time on hostile input --------------------------------------------------------------

GROWTH = {
    "unclosed blocks": (lambda n: "/// note | t\n" * n, 500),
    "block ends": (lambda n: "/// note\n" + "////\n" * n, 2000),
    "directives": (lambda n: "x\n::: a.b\n" * n, 2000),
    "math env lines": (lambda n: "\\begin{align}\n" * n, 2000),
    "autoref labels": (lambda n: "[a][" * n + "\n", 4000),
    "mark openers": (lambda n: "==a " * n + "{++\n", 4000),
    "tag-like text": (lambda n: "<a " * n + "\n", 4000),
    "heading braces": (lambda n: "# x" + " {a" * n + "}\n", 4000),
    "shorthand": (lambda n: "#1 @u www.x.org a@b.cc " * n + "\n", 2000),
}


@pytest.mark.parametrize("name", list(GROWTH))
def test_new_rules_grow_linearly(name: str) -> None:
    make, n = GROWTH[name]
    assert_linear(name, lambda: growth_ratios(make, n))
