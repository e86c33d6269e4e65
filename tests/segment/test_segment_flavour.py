"""Where Python-Markdown (what MkDocs renders with) and CommonMark disagree, segments follow
Python-Markdown, and the pseudo translation still renders right under both."""

from __future__ import annotations

import pytest
from seghelp import kinds_texts, pseudo, render_cm, render_pm, unmark

from mkdocs_zh_translate.segment._splice import pin_attr

CASES = [
    # source, segments, pinned ids expected in the MkDocs output
    ("#5 bolt\n", [("heading", "5 bolt")], ["5-bolt"]),
    ("# C#\n", [("heading", "C")], ["c"]),
    ("### foo \\###\n", [("heading", "foo <x1/>")], ["foo"]),  # the escape is an atom
    (" ## indented\n", [("heading", "indented")], []),
    ("####### seven\n", [("heading", "# seven")], ["seven"]),
    ("Foo\nBar\n---\n", [("paragraph", "Foo\nBar")], []),
    ("Foo *bar\nbaz*\n====\n", [("paragraph", "Foo <g1>bar\nbaz</g1>")], []),
    ("Title\n=====\n", [("heading", "Title")], ["title"]),
]


@pytest.mark.parametrize(("source", "segments", "ids"), CASES, ids=[c[0].strip() for c in CASES])
def test_segments_follow_python_markdown(source: str, segments: list[tuple[str, str]], ids: list[str]) -> None:
    assert kinds_texts(source) == segments
    mkdocs = pseudo(source)
    for slug in ids:
        assert f"{{ {pin_attr(slug)} }}" in mkdocs
    if not ids:
        assert "{ #" not in mkdocs
    assert unmark(render_pm(mkdocs)) == render_pm(source)
    assert unmark(render_cm(pseudo(source, heading_ids=False))) == render_cm(source)
