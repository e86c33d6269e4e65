"""Every CommonMark spec example rendered the way MkDocs renders it: with Python-Markdown.

The segmenter parses CommonMark, MkDocs renders Python-Markdown, and the spec examples are the
corner cases where the two disagree most. Whatever Python-Markdown makes of an example, a
pseudo translation must leave its protected parts byte-identical: code blocks and spans, every
href/src, every tag (marks are not removed, so a 「 inside code counts as a change).
"""

from __future__ import annotations

import pytest
from cmark_spec import examples_or_skip
from seghelp import protected_parts, pseudo, render_pm


@pytest.fixture(scope="module")
def examples() -> list[dict[str, object]]:
    return examples_or_skip()


def test_protected_parts_survive_in_every_example(examples: list[dict[str, object]]) -> None:
    changed = []
    translated = 0
    for e in examples:
        source = str(e["markdown"])
        out = pseudo(source)
        translated += out != source
        if protected_parts(render_pm(out)) != protected_parts(render_pm(source)):
            changed.append(e["example"])
    assert changed == [], f"{len(examples) - len(changed)}/{len(examples)} examples keep their protected parts"
    assert translated > 400  # not met by translating nothing


def test_the_measure_sees_a_mark_inside_code() -> None:
    english = render_pm("> ```\nfoo\n```\n")
    assert protected_parts(english) != protected_parts(english.replace("foo", "「foo」"))
