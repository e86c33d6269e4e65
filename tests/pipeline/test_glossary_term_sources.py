"""Glossary terms reach a translator with the English they render (for a prompt's term lines)."""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from pathlib import Path

from mkdocs_zh_translate.pipeline.glossary import GlossaryTranslator, load_glossary
from mkdocs_zh_translate.termpair import TermTarget, term_source


class Recording:
    """Answers each text with the Chinese of its terms, and keeps the terms it was given."""

    def __init__(self) -> None:
        self.seen: list[list[str]] = []

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [f"译{t}" for t in texts]

    def translate_nbest(self, texts: Sequence[str], n: int, *,
                        terms: Sequence[Sequence[str]] | None = None) -> list[list[str]]:
        self.seen.extend(list(t) for t in terms or [[] for _ in texts])
        return [["".join(t) + "。"] for t in terms or [[] for _ in texts]]


def test_decoding_terms_carry_the_english_as_written(tmp_path: Path) -> None:
    path = tmp_path / "glossary.yml"
    path.write_text("enforce: decoding\nterms:\n  cache: 缓存\n  plugin: 插件\n", encoding="utf-8")
    inner = Recording()
    out = GlossaryTranslator(inner, load_glossary(path)).translate(["Clear the Cache of the plugin."])
    assert out[0].text == "缓存插件。"
    assert inner.seen == [["缓存", "插件"]]
    assert [term_source(t) for t in inner.seen[0]] == ["Cache", "plugin"]  # as the segment spells it


def test_a_term_target_is_a_plain_string_that_survives_pickling() -> None:
    target = TermTarget("缓存", "cache")
    again = pickle.loads(pickle.dumps(target))
    assert again == "缓存" and isinstance(again, str) and term_source(again) == "cache"
    assert term_source("缓存") is None
