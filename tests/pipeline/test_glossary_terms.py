"""Glossary ``terms:`` through the search (``enforce: decoding``) and substitution as fallback:
which path a sentence takes, with stand-in translators (the engine side is in
``tests/engine/test_engine_terms.py``)."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline import glossary as glossary_module
from mkdocs_zh_translate.pipeline.glossary import Glossary, GlossaryTranslator, load_glossary
from mkdocs_zh_translate.pipeline.translator import PseudoTranslator
from mkdocs_zh_translate.review.store import ReviewError


class TermAware:
    """A stand-in for the ONNX engine: keeps placeholders (or ``drops`` them, as a model that
    never saw them does) and, given ``terms``, puts each target at the end (as the search does
    where the model stops) unless it ``cannot`` spell it."""

    def __init__(self, cannot: Sequence[str] = (), drops: bool = False) -> None:
        self.cannot = set(cannot)
        self.drops = drops
        self.calls: list[tuple[list[str], list[list[str]] | None]] = []

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [alts[0] for alts in self.translate_nbest(texts, 1)]

    def translate_nbest(self, texts: Sequence[str], n: int, *, tags: bool = False,
                        terms: Sequence[Sequence[str]] | None = None) -> list[list[str]]:
        self.calls.append((list(texts), None if terms is None else [list(t) for t in terms]))
        out = []
        for i, text in enumerate(texts):
            forced = [t for t in (terms[i] if terms else []) if t not in self.cannot]
            out.append(["zh " + (re.sub(r"<x\d+/>", "", text) if self.drops else text) + "".join(forced)])
        return out


def glossary(tmp_path: Path, enforce: str | None) -> Glossary:
    path = tmp_path / "glossary.yml"
    path.write_text("keep: [MkDocs]\nterms:\n  cache: 缓存\n" + (f"enforce: {enforce}\n" if enforce else ""),
                    encoding="utf-8")
    return load_glossary(path)


def test_decoding_sends_the_term_in_english_with_its_chinese_as_a_constraint(tmp_path: Path) -> None:
    engine = TermAware()
    out = GlossaryTranslator(engine, glossary(tmp_path, "decoding")).translate(["MkDocs reads the cache."])
    [(sent, terms)] = engine.calls
    assert sent == ["<x1/> reads the cache."] and terms == [["缓存"]]  # kept: an atom; term: English
    assert [o.text for o in out] == ["zh MkDocs reads the cache.缓存"]


def test_a_term_the_search_cannot_force_takes_the_substitution_path(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    engine = TermAware(cannot=["缓存"])
    caplog.set_level(logging.DEBUG, logger="mkdocs_zh_translate.pipeline.glossary")
    out = GlossaryTranslator(engine, glossary(tmp_path, "decoding")).translate(["Clear the cache now."])
    assert [c[0] for c in engine.calls] == [["Clear the cache now."], ["Clear the <x1/> now."]]
    assert [o.text for o in out] == ["zh Clear the 缓存 now."]  # the atom, replaced afterwards
    assert "0 of 1 texts by constrained decoding, 1 by substitution" in caplog.text


def test_a_translator_that_cannot_constrain_gets_substitution(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(glossary_module, "_ANNOUNCED", set())  # said once per process
    caplog.set_level(logging.INFO, logger="mkdocs_zh_translate.pipeline.glossary")
    wrapped = GlossaryTranslator(PseudoTranslator(), glossary(tmp_path, "decoding"))
    assert not wrapped.decoding
    assert "缓存" in wrapped.translate(["Clear the cache now."])[0].text
    assert "glossary terms: substitution (the pseudo translator cannot constrain decoding)" in caplog.text
    caplog.clear()
    GlossaryTranslator(PseudoTranslator(), glossary(tmp_path, "decoding"))
    assert caplog.text == ""  # once, not per chunk


def test_substitution_forces_a_term_whose_placeholder_the_model_lost(tmp_path: Path) -> None:
    """The default path: the term goes as an atom; a model that drops it used to lose the term
    (retried without protection); now the retry forces the Chinese in decoding."""
    engine = TermAware(drops=True)
    wrapped = GlossaryTranslator(engine, glossary(tmp_path, None))
    assert not wrapped.decoding
    assert [o.text for o in wrapped.translate(["Clear the cache now."])] == ["zh Clear the cache now.缓存"]
    assert engine.calls == [(["Clear the <x1/> now."], None), (["Clear the cache now."], [["缓存"]])]
    assert [[o.text for o in alts] for alts in wrapped.translate_nbest(["Clear the cache now."], 2)] == [
        ["zh Clear the cache now.缓存"]]


def test_the_method_is_part_of_the_cache_key_and_checked(tmp_path: Path) -> None:
    text = "Clear the cache."
    assert glossary(tmp_path, "decoding").cache_source(text) != glossary(tmp_path, None).cache_source(text)
    assert glossary(tmp_path, "substitution").cache_source(text) == glossary(tmp_path, None).cache_source(text)
    assert glossary(tmp_path, "decoding").cache_source("Nothing here.") == "Nothing here."
    with pytest.raises(ReviewError, match=r"glossary\.yml:4: 'enforce:' must be substitution or decoding$"):
        glossary(tmp_path, "magic")
