"""Every CommonMark spec example rendered the way MkDocs renders it: with Python-Markdown.

The segmenter parses CommonMark, MkDocs renders Python-Markdown, and the spec examples are the
corner cases where the two disagree most. Whatever Python-Markdown makes of an example, a
pseudo translation must leave its protected parts byte-identical: code blocks and spans, every
href/src, every tag (marks are not removed, so a 「 inside code counts as a change).
"""

from __future__ import annotations

import re

import pytest
from cmark_spec import spec_examples
from seghelp import pseudo, render_pm, unmark


@pytest.fixture(scope="module")
def examples() -> list[dict[str, object]]:
    found = spec_examples()
    if found is None:
        pytest.skip("markdown-it-py sdist (CommonMark spec JSON) not available: no cache and no registry")
    return found


def protected_parts(html: str) -> tuple[list[str], list[str], list[str]]:
    """Code, URLs and tags of a page (alt text, which is translated, without its marks)."""
    code = re.findall(r"<pre>.*?</pre>|<code>.*?</code>", html, re.DOTALL)
    urls = re.findall(r'(?:href|src)="([^"]*)"', html)
    tags = [re.sub(r'alt="[^"]*"', lambda m: unmark(m.group(0)), t) for t in re.findall(r"<[^>]+>", html)]
    return code, urls, tags


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
