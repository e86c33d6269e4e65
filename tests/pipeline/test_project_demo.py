"""The ``project`` strategy on the demo model, which was trained with placeholders.

Asked for a sentence without them, that model still writes ``<x1/>`` or ``<g1>`` now and then
(in about 4% of the example site's segments). Each made-up placeholder used to fail the
ladder's validation, so the sentence went down to pieces; the strategy now removes them
(``projection.drop_stray``) and the example site's segments come out whole (all of them, or all
but one where the CPU's arithmetic makes the model end one long sentence early).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.utils.meta import get_data

from mkdocs_zh_translate.pipeline.backends import load_translator
from mkdocs_zh_translate.pipeline.ladder import translate_segments
from mkdocs_zh_translate.pipeline.pages import site_requests
from mkdocs_zh_translate.segment import segment_markdown, validate
from tests.models import tiny_onnx_model

pytestmark = pytest.mark.slow

DOCS = Path(__file__).resolve().parents[2] / "example_site" / "docs"


def test_the_example_site_is_translated_whole_on_the_demo_model() -> None:
    pages = []
    for path in sorted(DOCS.rglob("*.md")):
        markdown, _ = get_data(path.read_text(encoding="utf-8"))  # front matter off, as MkDocs does
        pages.append(segment_markdown(markdown))
    requests = site_requests(pages, [])
    texts = list(requests.droppable)
    translator = load_translator("onnx", tiny_onnx_model("int8"), markup="project", threads=1)
    results = translate_segments(texts, translator, droppable=[requests.droppable[t] for t in texts])
    assert len(texts) > 100
    broken = [(t, r.fallback) for t, r in zip(texts, results) if r.fallback in ("runs", "drop_pairs", "english")]
    # Before drop_stray, 4% of them went to pieces. Not none: the tiny model's arithmetic is the
    # CPU's (the test model trained on an AMD EPYC differs from the one trained where this test
    # was written, and int8 inference differs with or without VNNI), and there one sentence with
    # seven tag pairs ends early on it: its tags are missing, not stray, which the ladder
    # rightly takes apart. Every segment whole on the machines the test was written on, one of
    # 394 in pieces on an AMD EPYC.
    assert len(broken) <= 0.01 * len(texts), broken
    assert all(validate(t, r.text) == [] for t, r in zip(texts, results))
