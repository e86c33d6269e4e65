"""Invariants over every CommonMark spec example (0.31.2, 652 examples)."""

from __future__ import annotations

import re

import pytest
from cmark_spec import SPEC_EXAMPLES, spec_examples
from seghelp import identity, pseudo, render_cm, unmark


@pytest.fixture(scope="module")
def examples() -> list[dict[str, object]]:
    found = spec_examples()
    if found is None:
        pytest.skip("markdown-it-py sdist (CommonMark spec JSON) not available: no cache and no registry")
    return found


def _skeleton(html: str) -> tuple[list[str], list[str], list[str]]:
    """Code blocks and spans, URLs, and tags (alt text, which we translate, without marks)."""
    code = re.findall(r"<pre>.*?</pre>|<code>.*?</code>", html, re.DOTALL)
    urls = re.findall(r'(?:href|src)="([^"]*)"', html)
    tags = [re.sub(r'alt="[^"]*"', lambda m: unmark(m.group(0)), t) for t in re.findall(r"<[^>]+>", html)]
    return code, urls, tags


def test_spec_is_the_expected_version(examples: list[dict[str, object]]) -> None:
    assert len(examples) == SPEC_EXAMPLES


def test_identity_splice_is_byte_exact_for_every_example(examples: list[dict[str, object]]) -> None:
    failures = [e["example"] for e in examples if identity(str(e["markdown"])) != e["markdown"]]
    assert failures == []


def test_pseudo_translation_renders_like_the_source(examples: list[dict[str, object]]) -> None:
    same = 0
    broken_skeleton = []
    translated_any = 0
    for e in examples:
        source = str(e["markdown"])
        out = pseudo(source, heading_ids=False)
        translated_any += out != source
        before, after = render_cm(source), render_cm(out)
        same += unmark(after) == before
        if _skeleton(after) != _skeleton(before):
            broken_skeleton.append(e["example"])
    assert same / len(examples) >= 0.99, f"{same}/{len(examples)}"
    assert broken_skeleton == []  # code, URLs and tags unchanged in 100% of the examples
    assert translated_any > 400  # the invariant is not met by translating nothing
