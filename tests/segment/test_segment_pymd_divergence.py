"""Where Python-Markdown reads a block differently from CommonMark (segment/_pymd.py).

Each case is a construct on which the two parsers disagree; the segment list says what is
translated, and the pseudo translation must render the same page under Python-Markdown.
"""

from __future__ import annotations

import pytest
from seghelp import WordTranslator, kinds_texts, pseudo, render_pm, structure, unmark

from mkdocs_zh_translate import translate_markdown
from tests.growth import assert_linear, growth_ratios


def check(source: str, expected: list[tuple[str, str]]) -> str:
    assert kinds_texts(source) == expected
    out = pseudo(source)
    assert unmark(render_pm(out)) == render_pm(source)
    zh = translate_markdown(source, WordTranslator())
    assert structure(render_pm(zh)) == structure(render_pm(source))
    return out


def test_definition_after_paragraph_text_is_not_translated() -> None:
    source = "Read the guide\n[guide]: https://example.org/guide\n\nSee [guide] for more.\n"
    out = check(source, [("paragraph", "Read the guide"), ("paragraph", "See <g1>guide</g1> for more.")])
    assert "\n[guide]: https://example.org/guide\n" in out
    assert '<a href="https://example.org/guide">guide</a>' in render_pm(out)


def test_definitions_commonmark_refuses_stay_definitions() -> None:
    # an angle-bracket URL followed by text, and an empty label: definitions only to Python-Markdown
    check("[home]: <docs>(index)\n\nGo [home] now.\n", [("paragraph", "Go <g1>home</g1> now.")])
    check("Go [] now.\n\n[]: /start\n", [("paragraph", "Go [] now.")])
    check("Go [\n] now.\n\n[\n]: /start\n", [("paragraph", "Go [\n] now.")])


def test_lines_after_a_definition_in_the_same_block_stay_english() -> None:
    source = "Some words first.\n[doc]: /doc\nand more words after.\n"
    out = check(source, [("paragraph", "Some words first.")])
    assert out.endswith("[doc]: /doc\nand more words after.\n")


def test_underline_opening_a_paragraph_belongs_to_the_line_above() -> None:
    out = check("[site]: /home\n===\nWelcome aboard\n", [("paragraph", "Welcome aboard")])
    assert out == "[site]: /home\n===\n「Welcome aboard」\n"


def test_list_marker_commonmark_refuses_stays_outside() -> None:
    out = check("12345678901. Install the tool\n", [("paragraph", "Install the tool")])
    assert out == "12345678901. 「Install the tool」\n"


def test_list_after_a_closing_tag_on_its_line() -> None:
    source = "<style>\np { margin: 0 }\n</style>2. Read *this* first\n"
    out = check(source, [("html_text", "Read *this* first")])
    assert "</style>2. 「Read *this* first」" in out


def test_heading_line_ending_in_a_backslash_is_python_markdown_text() -> None:
    source = "## Options\\\n\nSome text here.\n"
    out = check(source, [("paragraph", "Some text here.")])
    assert out.startswith("## Options\\\n")


def test_escaped_backslash_at_the_end_is_still_a_heading() -> None:
    assert kinds_texts("## Options\\\\\n") == [("heading", "Options<x1/>")]


@pytest.mark.parametrize(
    "source",
    [
        "> ```\nsome words here\n```\n",  # the quote's fence is closed by the quote's end
        "Intro words\n```\ncode to the end\n",  # closed by the end of the page
        "- item one\n  ```\n  code\n- item two\n",  # closed by the next list item
    ],
)
def test_block_around_a_fence_nothing_closes_stays_english(source: str) -> None:
    assert kinds_texts(source) == []
    assert pseudo(source) == source


def test_closed_fences_leave_their_neighbours_translated() -> None:
    check("Before the code\n```\nx = 1\n```\nafter the code\n", [("paragraph", "Before the code"), ("paragraph", "after the code")])


def test_unclosed_fence_reaches_only_its_own_block() -> None:
    source = "Far away words.\n\n> ```\nnear words\n"
    assert kinds_texts(source) == [("paragraph", "Far away words.")]


@pytest.mark.parametrize(
    "source",
    [
        "Some *nested *twice** text\n",  # one `**` run closes two `*` pairs
        "**half open* text\n",  # half of the run is literal
        "Text *open half**\n",
        "*outer**inner* text\n",  # a literal `**` inside the `*` pair
        "__x _y__ z_ words\n",
    ],
)
def test_emphasis_python_markdown_may_pair_otherwise_stays_english(source: str) -> None:
    assert kinds_texts(source) == []


@pytest.mark.parametrize(
    ("source", "text"),
    [
        ("***both at once***\n", "<g1><g2>both at once</g2></g1>"),
        ("**bold with *inner* part**\n", "<g1>bold with <g2>inner</g2> part</g1>"),
        ("*em with **strong***\n", "<g1>em with <g2>strong</g2></g1>"),
        ("Multiply **two** by 2 * 3 now.\n", "Multiply <g1>two</g1> by 2 * 3 now."),
        ("**Note**: match *.py files\n", "<g1>Note</g1>: match *.py files"),
        ("_no merge to abort (MERGE_HEAD missing)_\n", "<g1>no merge to abort (MERGE_HEAD missing)</g1>"),
    ],
)
def test_ordinary_emphasis_is_still_translated(source: str, text: str) -> None:
    check(source, [("paragraph", text)])


# -- linear time on hostile input --------------------------------------------------------------

GROWTH = {
    "definition labels": (lambda n: "text\n" + "[a\n" * n, 1000),
    "definition spaces": (lambda n: "text\n[a]:" + " " * n + "\n" + " " * n + "\n", 400000),
    # (not `> ```` blocks: markdown-it's own blockquote rule is quadratic on those)
    "unclosed fences": (lambda n: "!!! note\n    ```\nwords\n" * n, 1000),
    "emphasis runs": (lambda n: "*a **b* " * n + "\n", 2000),
}


@pytest.mark.parametrize("name", list(GROWTH))
def test_divergence_rules_grow_linearly(name: str) -> None:
    make, n = GROWTH[name]
    assert_linear(name, lambda: growth_ratios(make, n))


# -- code block titles (segment/_codetitle.py) -------------------------------------------------


def test_code_block_title_in_words_is_translated() -> None:
    source = '```yaml title="in the site configuration"\nplugins: []\n```\n'
    out = check(source, [("code_title", "in the site configuration")])
    assert out == '```yaml title="「in the site configuration」"\nplugins: []\n```\n'


def test_code_block_title_inside_a_list_and_beside_other_options() -> None:
    source = "- step\n\n    ```py title='the main module' linenums=\"1\"\n    x = 1\n    ```\n"
    check(source, [("list_item", "step"), ("code_title", "the main module")])


@pytest.mark.parametrize(
    "source",
    [
        '```yaml title="config/site.yml"\nx: 1\n```\n',  # a file name
        '```text title="package"\nx\n```\n',  # one word: a directory or tool name
        '```py title="{{ name }} module.py.jinja"\nx\n```\n',  # a template for a file name
        '```yaml title="a raw <b>title</b>" title_mode="html"\nx\n```\n',  # HTML, not text
        '```yaml title="never closed\nx\n```\n',  # superfences does not read these options
        '```yaml title="no closing fence"\nx\n',  # Python-Markdown sees no code block
    ],
)
def test_code_block_titles_kept_as_written(source: str) -> None:
    assert [k for k, _t in kinds_texts(source)] == []


def test_code_block_title_in_the_attribute_form_is_translated() -> None:
    # superfences reads ```{.lang key="value"}``` with attr_list's scanner
    source = '```{.py title="a small example" test="skip"}\nx = 1\n```\n'
    out = check(source, [("code_title", "a small example")])
    assert out == '```{.py title="「a small example」" test="skip"}\nx = 1\n```\n'
    check("```py { title='the main module' linenums=\"2\" }\nx = 1\n```\n", [("code_title", "the main module")])
    assert "a small example" in render_pm(source)  # the title is shown, so it is prose


@pytest.mark.parametrize(
    "source",
    [
        '```{.py title="config/site.yml"}\nx\n```\n',  # a file name
        '```{.py title="never closed}\nx\n```\n',  # no closing quote: no title
        '```{.py}\ntitle="not an option"\n```\n',  # the code, not the fence line
        '```{.py title="two words"} trailing\nx\n```\n',  # not the attribute form
    ],
)
def test_attribute_form_titles_kept_as_written(source: str) -> None:
    assert [k for k, _t in kinds_texts(source)] == []


def test_attribute_form_scan_grows_linearly() -> None:
    from mkdocs_zh_translate.segment._codetitle import brace_options
    makes = {
        "open quotes": lambda n: '{a="' + " b=c" * n + "}",
        "words": lambda n: "{" + " .x" * n + ' title="a b"}',
        "quote runs": lambda n: "{" + " a=\"'" * n + "}",
        "no closing brace": lambda n: "{" + " a=b" * n,
    }
    for name, make in makes.items():
        assert_linear(name, lambda make=make: growth_ratios(make, 25000, brace_options))


def test_a_translated_title_may_not_gain_its_quote() -> None:
    from mkdocs_zh_translate.segment import segment_markdown

    page = segment_markdown('```yaml title="the site file"\nx: 1\n```\n')
    (segment,) = page.segments
    assert page.splice(['the "site" file']) == '```yaml title="the site file"\nx: 1\n```\n'
    assert page.splice(["the 'site' file"]) == '```yaml title="the \'site\' file"\nx: 1\n```\n'
    assert segment.kind == "code_title"


def test_many_unclosed_fence_blocks_grow_linearly() -> None:
    make = lambda n: "!!! note\n    ```\nwords\n\nMore words here.\n\n" * n  # noqa: E731
    assert_linear("unclosed fence blocks", lambda: growth_ratios(make, 1000))
