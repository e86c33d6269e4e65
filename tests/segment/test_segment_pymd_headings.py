"""Headings Python-Markdown builds where the segmenter must see one: their ids (toc, attr_list)
and the headings pymdownx makes of a block's title.

Python-Markdown is the oracle: the pseudo translation renders the English page once its 「」
are removed, and the page guard, rendering both pages, keeps the translated headings.
"""

from __future__ import annotations

from seghelp import WordTranslator, kinds_texts, pseudo

from mkdocs_zh_translate import translate_markdown
from mkdocs_zh_translate.pipeline.guard import PageGuard, python_markdown_renderer
from tests.segment.test_segment_realsites import check, render

GUARD_EXTENSIONS = ("toc", "attr_list", "tables", "admonition", "pymdownx.superfences", "pymdownx.details")


def _guarded(source: str, extensions: tuple[str, ...] = GUARD_EXTENSIONS) -> tuple[str, list[str]]:
    warnings: list[str] = []
    guard = PageGuard(python_markdown_renderer(extensions))
    out = translate_markdown(source, WordTranslator(), guard=guard, label="h.md", warn=warnings.append)
    return out, warnings


def test_a_heading_ending_in_inline_code_with_braces_keeps_its_id() -> None:
    # attr_list reads `{...}` from the text after a heading's last child element: `{name}` in a
    # code span is code. Cut off as an attr_list, the slug lost "name" and the pin changed the id.
    source = "### Simple expansion: `{name}`\n\nText.\n\n## Use `{x}` here {: .wide }\n"
    english = render(source)
    assert 'id="simple-expansion-name"' in english
    out = pseudo(source)
    assert "{ #simple-expansion-name }" in out
    check(source)
    zh, warnings = _guarded(source)
    assert warnings == []
    assert "Simple expansion" not in zh and "`{name}`" in zh


BLOCK_TITLES = (
    "/// note | ### Header in Title\nSome content.\n///\n\n"
    "/// details | ## Summary head ##\n    type: warning\n\nBody text.\n///\n\n"
    '??? note "#### Details heading"\n    Inside the details.\n'
)


def test_a_block_title_that_is_a_heading_stays_a_heading() -> None:
    # pymdownx makes `### Title` in a blocks admonition/details (and a `???` details) title an
    # <hN> with a toc id; sent whole to the model it came back as title text, no heading, no id.
    english = render(BLOCK_TITLES)
    assert '<h3 class="admonition-title" id="header-in-title">' in english
    assert '<h2 id="summary-head">' in english and '<h4 id="details-heading">' in english
    assert kinds_texts(BLOCK_TITLES) == [
        ("heading", "Header in Title"),
        ("paragraph", "Some content."),
        ("heading", "Summary head"),
        ("paragraph", "Body text."),
        ("heading", "Details heading"),
        ("paragraph", "Inside the details."),
    ]
    check(BLOCK_TITLES)
    extensions = ("toc", "attr_list", "pymdownx.details", "pymdownx.blocks.admonition", "pymdownx.blocks.details")
    zh, warnings = _guarded(BLOCK_TITLES, extensions)
    assert warnings == []
    assert "Header in Title" not in zh and "Summary head" not in zh and "Details heading" not in zh


def test_titles_the_extensions_show_as_text_stay_titles() -> None:
    # Python-Markdown's admonition and the tabs show the hashes as text; a `#` title without a
    # space is a heading to plain pymdownx but not with saneheaders: left alone.
    source = '!!! note "### Plain title"\n    Text.\n\n/// tab | ### Tab title\nTab body.\n///\n\n/// note | ###Tight\nBody.\n///\n'
    texts = kinds_texts(source)
    assert ("admonition_title", "### Plain title") in texts and ("tab_title", "### Tab title") in texts
    assert all("Tight" not in text for _kind, text in texts)
    check(source)
