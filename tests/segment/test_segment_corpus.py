"""Constructs that broke pages of the real-world corpus (tests/realsites), each reproduced in a
few lines written here: the segments must follow what Python-Markdown and the site's extensions
do with them, so that the pseudo translation renders the English page once 「」 are removed.
"""

from __future__ import annotations

from tests.segment.test_segment_realsites import check, render, texts


def test_a_horizontal_rule_tag_ends_its_html_block_on_its_line() -> None:
    # `<hr>` has no closing tag: waiting for one made the rest of the page raw HTML, so the
    # reference definitions below were translated as text and every `[text][ref]` link was lost.
    source = (
        "See [the backlog][backlog].\n\n<hr>\n<div class=\"sponsors\">\n  <div id=\"gold\"></div>\n</div>\n<hr>\n\n"
        "Some *more* text.\n\n<hr/>\nA paragraph right after the rule.\n\n[backlog]: https://example.org/backlog/\n"
    )
    assert texts(source) == ["See <g1>the backlog</g1>.", "Some <g1>more</g1> text.", "A paragraph right after the rule."]
    out = check(source, kept=("[backlog]: https://example.org/backlog/", "<hr>", "<hr/>"))
    assert 'href="https://example.org/backlog/"' in render(out)


def test_a_url_right_after_a_tag_gets_no_space() -> None:
    # magiclink never links a URL that follows `>`, so the English page had no link there either;
    # a space put before it showed inside the element.
    source = '**Docs**: <a href="https://example.org/" target="_blank">https://example.org</a>\n'
    out = check(source)
    assert '<a href="https://example.org/" target="_blank">https://example.org</a>' in out
