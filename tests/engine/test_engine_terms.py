"""Term-constrained decoding (``engine/terms.py``): the term automaton on a hand-made vocabulary,
the searches under it with a scripted decoder, and the tiny models."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from mkdocs_zh_translate.engine.beam import beam_search, greedy_search
from mkdocs_zh_translate.engine.tags import TagAutomaton
from mkdocs_zh_translate.engine.terms import Constrained, TermAutomaton, TermVocab
from mkdocs_zh_translate.segment._placeholders import validate
from tests.engine.test_engine_tags import SPLIT, _Bigram, _opts, _State, _table, _text, vocab

# SPLIT plus the pieces of two terms: "缓存" (one piece, or "缓" + "存") and "插件" ("插" + "件").
PIECES = [*SPLIT, "缓存", "缓", "存", "插", "件", "▁缓存"]


def term_auto(targets: Sequence[str], pieces: Sequence[str] = PIECES) -> TermAutomaton:
    auto = TermVocab(vocab(pieces)).automaton(targets)
    assert auto is not None
    return auto


def feed(auto: TermAutomaton, *names: str, pieces: Sequence[str] = PIECES) -> tuple[tuple[int, ...], int, int, int]:
    state = auto.start
    for name in names:
        state = auto.feed(state, pieces.index(name))
    return state


def test_eos_is_masked_until_the_term_is_out_and_begins_it_instead() -> None:
    auto = term_auto(["缓存"])
    start = auto.mask(auto.start)
    assert not start.only and 0 in start.ids.tolist()  # EOS banned
    assert start.eos_to == PIECES.index("缓存")  # where the model stops, the whole term comes
    done = feed(auto, "你", "缓存")
    assert auto.complete(done) and done == ((1,), -1, 0, 0)
    end = auto.mask(done)
    assert 0 not in end.ids.tolist()  # EOS free now
    assert {PIECES.index("缓存"), PIECES.index("▁缓存")} <= set(end.ids.tolist())  # not twice


def test_a_begun_term_is_finished() -> None:
    auto = term_auto(["插件"])
    assert auto.mask(auto.start).eos_to == PIECES.index("插")  # no one-piece spelling
    half = feed(auto, "你", "插")
    assert half == ((0,), 0, 1, 0)
    only = auto.mask(half)
    assert only.only and only.ids.tolist() == [PIECES.index("件")]
    assert auto.complete(feed(auto, "插", "件"))


def test_a_term_put_where_the_model_wanted_to_stop_ends_the_output() -> None:
    """Begun by the piece EOS was redirected to, right after a sentence end, a term is a tail:
    once every term is out only EOS may follow. Begun mid-sentence, the model goes on."""
    auto = term_auto(["插件"])
    tail = feed(auto, "你", "。", "插", "件")
    assert auto.complete(tail)
    end = auto.mask(tail)
    assert end.only and end.ids.tolist() == [0, PIECES.index("。")]
    stop = auto.feed(tail, PIECES.index("。"))
    assert auto.mask(stop).ids.tolist() == [0]
    inside = feed(auto, "你", "插", "件")
    assert auto.complete(inside) and not auto.mask(inside).only


def test_each_occurrence_is_one_constraint() -> None:
    auto = term_auto(["缓存", "缓存"])
    once = feed(auto, "缓存")
    assert not auto.complete(once) and 0 in auto.mask(once).ids.tolist()
    assert auto.complete(feed(auto, "缓存", "缓", "存"))


def test_a_term_the_vocabulary_cannot_spell_gets_no_constraint() -> None:
    tv = TermVocab(vocab(PIECES))
    assert not tv.spellable("缓冲")  # no piece for "冲"
    assert tv.automaton(["缓冲"]) is None
    assert tv.spellable("插件") and tv.spellable("缓存")


def _constraints(pieces: Sequence[str], sources: Sequence[str],
                 targets: Sequence[Sequence[str]]) -> list[Constrained | TagAutomaton | None]:
    tv = TermVocab(vocab(pieces))
    out: list[Constrained | TagAutomaton | None] = []
    for src, wanted in zip(sources, targets):
        tags = TagAutomaton.for_source(tv.vocab, src)
        terms = tv.automaton(wanted) if wanted else None
        out.append(tags if terms is None else Constrained(tags, terms))
    return out


def _term_table(seed: int) -> np.ndarray:
    """The tag tests' bigram model over PIECES, which never says a term but, made to finish
    one, goes on to "。" (and so to EOS)."""
    logits = _table(PIECES, seed).astype(np.float64)
    for a in ("件", "存", "缓存", "▁缓存"):
        logits[PIECES.index(a), PIECES.index("。")] += 8
    logits -= np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return logits.astype(np.float32)


SOURCES = ["Hello cache.", "Hello.", "Hello <x1/> plugin.", "Hello plugin cache."]
TARGETS: list[list[str]] = [["缓存"], [], ["插件"], ["插件", "缓存"]]


@pytest.mark.parametrize("beams", [1, 3])
def test_search_emits_each_term_exactly_once_with_the_tags(beams: int) -> None:
    search = greedy_search if beams == 1 else beam_search
    for seed in range(4):
        table = _term_table(seed)
        plain = search(_Bigram(table), _State(len(SOURCES)), _opts(PIECES, beams))
        got = search(_Bigram(table), _State(len(SOURCES)), _opts(PIECES, beams),
                     _constraints(PIECES, SOURCES, TARGETS))
        assert not any("缓存" in _text(PIECES, h[0].ids) for h in plain)  # the model never says it
        for src, wanted, hyps in zip(SOURCES, TARGETS, got):
            assert hyps and hyps[0].ids[-1] == 0  # finished by EOS
            for h in hyps:
                text = _text(PIECES, h.ids)
                assert all(text.count(t) == 1 for t in wanted), (src, text)
                if "<x1/>" in src:
                    assert validate(src, text) == []  # both constraints at once
        assert [h.ids for h in got[1]] == [h.ids for h in plain[1]]  # no terms, no tags: as before


def test_batched_search_equals_one_by_one() -> None:
    table = _term_table(2)
    constraints = _constraints(PIECES, SOURCES, TARGETS)
    batched = beam_search(_Bigram(table), _State(len(SOURCES)), _opts(PIECES, 3), constraints)
    for i in range(len(SOURCES)):
        alone = beam_search(_Bigram(table), _State(1), _opts(PIECES, 3), [constraints[i]])
        assert [(h.ids, h.score) for h in alone[0]] == [(h.ids, h.score) for h in batched[i]]


# --- the tiny models ---------------------------------------------------------------------


@pytest.mark.slow
def test_tiny_models_emit_a_forced_term_exactly_once() -> None:
    """The model's own output lacks the term; constrained, every hypothesis holds it once, and
    the batch gives what each sentence gives alone. A term the vocabulary cannot spell is not
    forced (the caller's substitution path takes over)."""
    from mkdocs_zh_translate.engine import OnnxTranslator
    from tests.models import tagfree_onnx_model, tiny_onnx_model

    texts = ["Open the cache in the browser.", "Use the plugin to build the site.", "The <g1>cache</g1> is fast."]
    for model in (tiny_onnx_model("none"), tagfree_onnx_model("none")):
        tr = OnnxTranslator(model, num_beams=4)
        term = next(t for t in ("里", "用户", "说") if tr.can_force(t) and not any(t in o for o in tr.translate(texts)))
        terms = [[term], [term, term], [term]]
        got = tr.translate_nbest(texts, 2, tags=True, terms=terms)
        for wanted, alts in zip(terms, got):
            assert alts and all(out.count(term) == len(wanted) for out in alts), alts
        assert validate(texts[2], got[2][0]) == []
        alone = [tr.translate_nbest([t], 2, tags=True, terms=[w])[0] for t, w in zip(texts, terms)]
        assert alone == got
        assert not tr.can_force("\U0002a6a5")  # a character outside the vocabulary
        assert tr.translate(texts[:1], terms=[["\U0002a6a5"]]) == tr.translate(texts[:1])
        aligned = tr.translate_aligned(texts[:1], terms=[[term]])[0]
        assert aligned is not None and aligned.text.count(term) == 1
