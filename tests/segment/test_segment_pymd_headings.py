"""Headings Python-Markdown builds where the segmenter must see one: their ids (toc, attr_list)
and the headings pymdownx makes of a block's title.

Python-Markdown is the oracle: the pseudo translation renders the English page once its 「」
are removed, and the page guard, rendering both pages, keeps the translated headings.
"""

from __future__ import annotations

from seghelp import WordTranslator, kinds_texts, pseudo

from mkdocs_zh_translate import translate_markdown
from mkdocs_zh_translate.pipeline.guard import PageGuard, python_markdown_renderer
from tests.segment.test_segment_realsites import EXTENSIONS, check, render

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
