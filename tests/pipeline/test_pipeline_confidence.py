"""The model's confidence travels from the translator's output through the fallback ladder and
the glossary into the machine cache, and old cache entries (no score) still read."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import diskcache

from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.cache import Hit, MachineCache, cache_key
from mkdocs_zh_translate.pipeline.glossary import GlossaryTranslator, load_glossary
from mkdocs_zh_translate.pipeline.ladder import translate_segments
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
from mkdocs_zh_translate.pipeline.origin import Origin
from mkdocs_zh_translate.pipeline.pages import PageJob
from mkdocs_zh_translate.scored import ScoredText
from mkdocs_zh_translate.segment import segment_markdown
from tests.fakes import CountingTranslator, site_translator

TAGGED = "Press <g1>Enter</g1> to begin the setup."


def text_score(text: str) -> float:
    """The fake model's confidence: a distinct value per input, so every test can tell whose
    score it got (a longer input: less sure)."""
    return -len(text) / 100


class ScoredFake(CountingTranslator):
    """Upper-cases like :class:`CountingTranslator`; every output carries ``text_score(input)``.
    Texts in ``breaks`` come back with their pair tags lost (the ladder must act); n-best
    offers that one hypothesis, as the pseudo backend does."""

    def __init__(self, breaks: Sequence[str] = ()) -> None:
        super().__init__()
        self.breaks = set(breaks)

    def translate(self, texts: Sequence[str]) -> list[str]:
        out = super().translate(texts)
        return [ScoredText(o.replace("<g1>", "").replace("</g1>", "") if t in self.breaks else o, text_score(t))
                for t, o in zip(texts, out)]

    def translate_nbest(self, texts: Sequence[str], n: int) -> list[list[str]]:
        return [[out] for out in self.translate(texts)]


# -- the cache ------------------------------------------------------------------------------


def test_the_cache_keeps_the_score_across_processes(tmp_path: Path) -> None:
    cache = MachineCache(tmp_path)
    cache.store({"One.": Hit("一。", None, Origin.MODEL, -0.25), "Two.": Hit("二。", "runs", Origin.MODEL)}, "fp")
    cache.close()
    again = MachineCache(tmp_path)
    found = again.lookup(["One.", "Two."], "fp")
    again.close()
    assert found["One."] == Hit("一。", None, Origin.CACHE, -0.25)
    assert found["Two."] == Hit("二。", "runs", Origin.CACHE, None)


def test_entries_written_before_scores_read_as_unknown_and_keep_their_key(tmp_path: Path) -> None:
    # what the cache held before scores existed: the same key, a value with text and fallback only
    raw = diskcache.Cache(str(tmp_path))
    raw.set(cache_key("Old.", "fp"), json.dumps({"t": "旧。", "f": None}, ensure_ascii=False))
    raw.set(cache_key("Odd.", "fp"), json.dumps({"t": "怪。", "f": "runs", "s": "high"}, ensure_ascii=False))
    raw.set(cache_key("NaN.", "fp"), '{"t": "非。", "f": null, "s": NaN}')
    raw.close()
    cache = MachineCache(tmp_path)
    found = cache.lookup(["Old.", "Odd.", "NaN."], "fp")
    cache.close()
    assert found == {
        "Old.": Hit("旧。", None, Origin.CACHE, None),
        "Odd.": Hit("怪。", "runs", Origin.CACHE, None),
        "NaN.": Hit("非。", None, Origin.CACHE, None),
    }


# -- the ladder -----------------------------------------------------------------------------


def test_a_translation_gets_its_outputs_score() -> None:
    [plain, tagged] = translate_segments(["Plain words.", TAGGED], ScoredFake())
    assert plain.score == text_score("Plain words.") and tagged.score == text_score(TAGGED)
    assert plain.fallback is None and plain.text == "PLAIN WORDS."


def test_sentence_pieces_and_runs_score_as_their_least_confident_part() -> None:
    long = "A short one. " + "This second sentence is much longer than the first, " * 5 + "so it is split."
    [pieces] = translate_segments([long], ScoredFake(), max_sentence_chars=40)
    parts = ["A short one.", long[len("A short one. ") :]]
    assert pieces.score == min(text_score(p) for p in parts) == text_score(parts[1])
    # the tagged sentence breaks its tags: translated in runs, each run scored on its own
    [runs] = translate_segments([TAGGED], ScoredFake(breaks=[TAGGED]))
    assert runs.fallback == "runs"
    assert runs.score == min(text_score(r) for r in ("Press", "Enter", "to begin the setup."))


def test_english_and_unscored_translators_give_no_score() -> None:
    class English(CountingTranslator):
        def translate(self, texts: Sequence[str]) -> list[str]:
            return [ScoredText("", -0.1) for _ in texts]  # nothing usable: the ladder ends in English

    [kept] = translate_segments(["Hello there."], English())
    assert kept.fallback == "english" and kept.score is None
    [plain] = translate_segments(["Hello there."], CountingTranslator())
    assert plain.text == "HELLO THERE." and plain.score is None


def test_the_glossary_keeps_the_models_score(tmp_path: Path) -> None:
    terms = tmp_path / "glossary.yml"
    terms.write_text("terms:\n  cache: 缓存\n", encoding="utf-8")
    wrapped = GlossaryTranslator(ScoredFake(), load_glossary(terms))
    [out] = wrapped.translate(["Clear the cache today."])
    [alts] = wrapped.translate_nbest(["Clear the cache today."], 2)  # type: ignore[attr-defined]
    assert "缓存" in out.text and out == alts[0]  # the term went through the placeholder and back
    assert out.score is not None and out.score == alts[0].score


class DecodingFake(ScoredFake):
    """A translator that takes glossary terms as decoding constraints, as the engine does."""

    def translate_nbest(self, texts: Sequence[str], n: int,  # type: ignore[override]
                        terms: Sequence[Sequence[str]] | None = None) -> list[list[str]]:
        return [[out] for out in self.translate(texts)]


def test_the_glossary_keeps_the_models_score_under_constrained_decoding(tmp_path: Path) -> None:
    """``enforce: decoding`` with a kept term: the term's atom is put back in each hypothesis,
    a new text; the hypothesis' score goes with it into the ladder's result."""
    terms = tmp_path / "glossary.yml"
    terms.write_text("keep: [Docker]\nterms:\n  cache: 缓存\nenforce: decoding\n", encoding="utf-8")
    wrapped = GlossaryTranslator(DecodingFake(), load_glossary(terms))
    assert wrapped.decoding
    [out] = wrapped.translate(["Run Docker today."])
    assert "Docker" in out.text and out.score is not None
    [result] = translate_segments(["Run Docker today."], wrapped)
    assert result.text == out.text and result.score == out.score


# -- through the site translator into the cache, pages unchanged ----------------------------


def test_scores_reach_the_cache_and_pages_stay_the_same(tmp_path: Path) -> None:
    page = "# Title\n\nPress **Enter** to begin the setup.\n\nPlain words.\n"
    outputs = []
    for name, model in (("scored", ScoredFake()), ("plain", CountingTranslator())):
        machine = MachineCache(tmp_path / name)
        site = site_translator(machine, LazyTranslator(lambda *a, m=model, **k: m), TranslatorSpec("pseudo", None))
        results, _s, _stats = site.translate_pages([PageJob("a.md", "a.md", page)])
        outputs.append(results["a.md"].markdown)
        hits = site.cached([segment_markdown(page, syntax=site.syntax)], [])
        machine.close()
        scores = {text: hit.score for text, hit in hits.items()}
        if name == "scored":
            assert scores == {"Title": text_score("Title"), TAGGED: text_score(TAGGED),
                              "Plain words.": text_score("Plain words.")}
        else:
            assert set(scores.values()) == {None}
    assert outputs[0] == outputs[1] and type(outputs[0]) is str

