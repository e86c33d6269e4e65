"""Fenced code in lists written with pymdownx.fancylists markers (``1)``, ``a.``, roman).

SuperFences takes a fence out of the page before any block is read, however far it is
indented: right after an item's text and indented past the item's content (an eight-space
fence under ``1) Step:``), it is code inside the item's paragraph. CommonMark read those lines
as the paragraph's continuation: the fence went to the model as prose and the zh page showed a
paragraph where the English showed code.
"""

from __future__ import annotations

import markdown
import pytest

from mkdocs_zh_translate import translate_markdown
from mkdocs_zh_translate.pipeline.translator import PseudoTranslator
from mkdocs_zh_translate.segment import SiteSyntax, segment_markdown
from tests.fakes import WordTranslator
from tests.growth import assert_linear, growth_ratios

FANCY = SiteSyntax(fancy_lists=True)
EXTENSIONS = ["pymdownx.fancylists", "pymdownx.saneheaders", "pymdownx.superfences", "attr_list", "toc"]


def _render(text: str) -> str:
    return markdown.Markdown(extensions=EXTENSIONS).convert(text)


@pytest.mark.parametrize(
    "source",
    [
        "1) First step:\n       ```bash\n       pip install x\n       ```\n\n2) Second step.\n",
        "a) First step:\n       ```bash\n       pip install x\n       ```\n\nb) Second step.\n",
        "- Outer\n\n    iii. Roman step:\n             ```\n             make all\n             ```\n\n    iv. Next.\n",
        "A. Smith wrote this:\n    ```\n    quoted code\n    ```\n",  # one space after `A.`: a paragraph
        "Run this:\n        ```py\n        print(1)\n        ```\nand read the output.\n",
    ],
)
def test_a_fence_indented_past_the_item_text_stays_code(source: str) -> None:
    english = _render(source)
    assert '<div class="highlight"><pre>' in english or "<pre><code" in english
    texts = [s.text for s in segment_markdown(source, syntax=FANCY).segments]
    assert all("```" not in t and "pip install" not in t and "make all" not in t for t in texts), texts
    pseudo = translate_markdown(source, PseudoTranslator(), syntax=FANCY)
    assert _render(pseudo).replace("「", "").replace("」", "") == english
    zh = translate_markdown(source, WordTranslator(), syntax=FANCY)
    assert _render(zh).count("<pre>") == english.count("<pre>")


def test_paragraphs_before_a_far_fence_stay_linear() -> None:
    def page(n: int) -> str:
        return "para *a*\n> q\n" * n + "text\n        ```\n        code\n        ```\n"

    assert_linear("paragraphs before a fence", lambda: growth_ratios(page, 2000, segment_markdown, repeats=3))


def test_a_list_nested_on_its_item_line_keeps_its_marker() -> None:
    # `a) a) subitem`: the second marker starts a list nested in the first item; sent to the
    # model with the item's words, it came back as text and the nested list was gone
    source = "a) a) subitem one\n    b) subitem two\n"
    english = _render(source)
    assert english.count("<ol") == 2
    texts = [s.text for s in segment_markdown(source, syntax=FANCY).segments]
    assert texts == ["subitem one", "subitem two"]
    zh = translate_markdown(source, WordTranslator(), syntax=FANCY)
    assert _render(zh).count("<ol") == 2 and "subitem" not in zh


def test_markers_nested_on_one_line_are_read_in_linear_time() -> None:
    from mkdocs_zh_translate.segment._fancylists import markers_as_digits

    assert markers_as_digits("a) b) iv. x\n") == "1) 1) 11. x\n"
    assert_linear("nested markers", lambda: growth_ratios(lambda n: "a) " * n + "x\n", 50000, markers_as_digits))
