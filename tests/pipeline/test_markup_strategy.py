"""Markup strategies are chosen by name in one registry and reach the translator the ladder calls.

issue 24 measures several ways of getting placeholders through the model side by side
(``benchmarks/markup.py``); these tests hold the seam they plug into: the name in the spec, the
wrapping in ``load_translator``, the cache key, and a clear error for an unknown name.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from mkdocs_zh_translate.pipeline import markup
from mkdocs_zh_translate.pipeline.backends import BackendError, TranslatorSpec, load_translator
from mkdocs_zh_translate.pipeline.glossary import Glossary, GlossaryTranslator, Term, _pattern
from mkdocs_zh_translate.pipeline.ladder import translate_segments
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator, TranslationFailed
from mkdocs_zh_translate.pipeline.spec import decode_options
from mkdocs_zh_translate.pipeline.translator import PseudoTranslator, Translator, bare
from mkdocs_zh_translate.scored import Scored


class Shouting:
    """A stand-in strategy: upper-cases what the translator it wraps returns."""

    def __init__(self, inner: Translator) -> None:
        self.inner = inner

    def translate(self, texts: Sequence[str]) -> list[Scored]:
        return [t.with_text(t.text.upper()) for t in self.inner.translate(texts)]


@pytest.fixture
def shouting(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(markup.MARKUP_STRATEGIES, "shout", Shouting)
    return "shout"


def test_the_default_is_auto_and_leaves_a_translator_that_cannot_align_alone() -> None:
    assert markup.markup_names()[0] == "tags" and markup.DEFAULT_MARKUP == "auto"
    assert isinstance(bare(load_translator("pseudo")), PseudoTranslator)
    assert TranslatorSpec("onnx", "m").markup == "auto"


def test_a_registered_strategy_wraps_the_translator_the_ladder_calls(shouting: str) -> None:
    translator = load_translator("pseudo", markup=shouting)
    assert isinstance(translator, Shouting)
    [plain, tagged] = translate_segments(["see here", "see <x1/> here"], translator)
    assert (plain.text, plain.fallback) == ("「SEE HERE」", None)
    # "<X1/>" is not the source's placeholder: the ladder validates a strategy's output too and
    # stays the last resort (the runs between the placeholders go through the strategy as well)
    assert (tagged.text, tagged.fallback) == ("「SEE」 <x1/> 「HERE」", "runs")


def test_the_spec_s_strategy_reaches_the_factory_and_the_cache_key(shouting: str) -> None:
    calls: list[dict[str, object]] = []

    def factory(*args: object, **kwargs: object) -> Translator:
        calls.append(kwargs)
        return load_translator(*args, **kwargs)  # type: ignore[arg-type]

    spec = TranslatorSpec("pseudo", None, markup=shouting)
    assert isinstance(bare(LazyTranslator(factory).get(spec)), Shouting)
    assert calls[0]["markup"] == shouting
    plain = TranslatorSpec("pseudo", None)
    assert "markup" not in decode_options(plain)  # caches filled before strategies stay valid
    assert decode_options(spec) != decode_options(plain)


def test_an_unknown_strategy_is_one_clear_error() -> None:
    with pytest.raises(BackendError, match="unknown markup strategy 'nope'; choose one of auto, tags, project"):
        load_translator("pseudo", markup="nope")
    with pytest.raises(TranslationFailed, match="unknown markup strategy"):
        LazyTranslator().get(TranslatorSpec("pseudo", None, markup="nope"))


class TagAware:
    """A stand-in for the ONNX engine: with ``tags=True`` it keeps the source's placeholders,
    without it it drops them (as a model that never saw them does)."""

    def __init__(self) -> None:
        self.calls: list[bool] = []

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [alts[0] for alts in self.translate_nbest(texts, 1)]

    def translate_nbest(self, texts: Sequence[str], n: int, *, tags: bool = False) -> list[list[str]]:
        self.calls.append(tags)
        return [[f"zh {t}" if tags else f"zh {t.replace('<x1/>', '')}"] for t in texts]


def test_constrained_asks_the_engine_for_tag_constraints() -> None:
    assert "constrained" in markup.markup_names()
    engine = TagAware()
    [plain] = translate_segments(["see <x1/> here"], engine)
    assert plain.fallback is not None  # the bare engine drops the placeholder: the ladder steps in
    wrapped = markup.MARKUP_STRATEGIES["constrained"](engine)
    [tagged] = translate_segments(["see <x1/> here"], wrapped)
    assert (tagged.text, tagged.fallback) == ("zh see <x1/> here", None)
    assert engine.calls[-1] is True


def test_constrained_needs_a_backend_that_can_constrain() -> None:
    with pytest.raises(BackendError, match="^markup strategy 'constrained' needs the onnx backend "
                                           r"\(the pseudo backend cannot constrain tags\)$"):
        load_translator("pseudo", markup="constrained")


def test_glossary_terms_go_through_the_same_constraint() -> None:
    """A glossary term is protected as an atom: under ``constrained`` the engine must emit it,
    so the term's target is in the output (the bare engine drops it and the term is lost)."""
    glossary = Glossary([Term("widget", "部件", _pattern("widget", ignore_case=False))])
    unconstrained = GlossaryTranslator(TagAware(), glossary).translate(["the widget works"])
    constrained = GlossaryTranslator(markup.MARKUP_STRATEGIES["constrained"](TagAware()), glossary)
    assert "部件" not in unconstrained[0].text
    assert [o.text for o in constrained.translate(["the widget works"])] == ["zh the 部件 works"]
