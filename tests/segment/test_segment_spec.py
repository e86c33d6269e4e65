"""Invariants over every CommonMark spec example (0.31.2, 652 examples)."""

from __future__ import annotations

import pytest
from cmark_spec import SPEC_EXAMPLES, examples_or_skip
from seghelp import identity, protected_parts, pseudo, render_cm, unmark


@pytest.fixture(scope="module")
def examples() -> list[dict[str, object]]:
    return examples_or_skip()


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
        if protected_parts(after) != protected_parts(before):
            broken_skeleton.append(e["example"])
    assert same / len(examples) >= 0.99, f"{same}/{len(examples)}"
    assert broken_skeleton == []  # code, URLs and tags unchanged in 100% of the examples
    assert translated_any > 400  # the invariant is not met by translating nothing
