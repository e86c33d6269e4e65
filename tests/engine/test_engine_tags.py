"""Placeholder-constrained decoding: the tag automaton on hand-made vocabularies, and the beam
and greedy searches under it with a scripted decoder (no model)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from mkdocs_zh_translate.engine.beam import SearchOptions, beam_search, greedy_search
from mkdocs_zh_translate.engine.tags import START, State, TagAutomaton, TagVocab, source_tags
from mkdocs_zh_translate.segment._placeholders import validate

# A vocabulary that spells tags with ordinary pieces, as opus-mt and the tag-free model do.
SPLIT = ["</s>", "<pad>", "▁", "<", "x", "g", "1", "2", "/", ">", "/>", "你", "好", "。", "12"]
# One where every tag is a single piece, as the demo model's.
WHOLE = ["</s>", "<pad>", "你", "好", "。", "<x1/>", "<x2/>", "<g1>", "</g1>", "<g2>", "</g2>"]


def vocab(pieces: Sequence[str]) -> TagVocab:
    return TagVocab.build(pieces, eos_id=0, special=[0, 1])


def ids(pieces: Sequence[str], *names: str) -> list[int]:
    return [pieces.index(n) for n in names]


def run(auto: TagAutomaton, pieces: Sequence[str], *names: str) -> State | None:
    state: State | None = START
    for t in ids(pieces, *names):
        assert state is not None
        state = auto.feed(state, t)
    return state


def automaton(pieces: Sequence[str], text: str) -> TagAutomaton:
    auto = TagAutomaton.for_source(vocab(pieces), text)
    assert auto is not None
    return auto


def test_source_tags_well_formed_only() -> None:
    assert source_tags("plain text") is None
    assert source_tags("a <x1/> and <x1/>") is None  # a repeated atom: no constraint
    assert source_tags("a <g1>b") is None  # a pair without its close
    tags, closing = source_tags("<g1>a <x2/></g1>") or (frozenset(), {})
    assert tags == {"<g1>", "<x2/>"} and closing == {"<g1>": "</g1>"}


def test_no_tags_no_automaton() -> None:
    assert TagAutomaton.for_source(vocab(SPLIT), "Open the file.") is None


def test_multi_token_atom_allowed_and_forced_continuations() -> None:
    auto = automaton(SPLIT, "Click <x1/> now.")
    start = auto.mask(START)
    assert not start.only and 0 in start.ids  # EOS banned while the atom is missing
    assert ids(SPLIT, "<")[0] not in start.ids  # "<" may start it
    assert start.eos_to == ids(SPLIT, "<")[0]  # where the model wants to stop, the tag starts
    after_lt = run(auto, SPLIT, "你", "<")
    assert after_lt is not None and after_lt[2] == "<"
    only = auto.mask(after_lt)
    assert only.only and only.ids.tolist() == ids(SPLIT, "x")  # no "g", no "/" (a close), no EOS
    only = auto.mask(run(auto, SPLIT, "<", "x") or START)
    assert only.ids.tolist() == ids(SPLIT, "1")  # "2" and "12" name tags the source lacks
    only = auto.mask(run(auto, SPLIT, "<", "x", "1") or START)
    assert sorted(only.ids.tolist()) == sorted(ids(SPLIT, "/", "/>"))  # ">" would spell <x1>
    done = run(auto, SPLIT, "你", "<", "x", "1", "/>", "好")
    assert done is not None and auto.complete(done)
    end = auto.mask(done)
    assert 0 not in end.ids and ids(SPLIT, "<")[0] in end.ids  # EOS free, no second tag
    assert run(auto, SPLIT, "<", "x", "2") is None  # a tag the source lacks
    assert run(auto, SPLIT, "<", "x", "1", "/>", "<") is None  # the atom twice


def test_pairs_open_before_close_and_nest() -> None:
    auto = automaton(SPLIT, "<g1>a <g2>b</g2></g1>")
    assert run(auto, SPLIT, "<", "/") is None  # nothing open: no close
    open_both = run(auto, SPLIT, "<", "g", "1", ">", "你", "<", "g", "2", ">")
    assert open_both is not None and open_both[1] == ("</g1>", "</g2>")
    assert auto.mask(open_both).eos_to == ids(SPLIT, "<")[0]
    in_close = run(auto, SPLIT, "<", "g", "1", ">", "<", "g", "2", ">", "<", "/", "g")
    assert in_close is not None
    assert auto.mask(in_close).ids.tolist() == ids(SPLIT, "2")  # only the innermost pair closes
    assert run(auto, SPLIT, "<", "g", "1", ">", "<", "g", "2", ">", "<", "/", "g", "1") is None
    full = run(auto, SPLIT, "<", "g", "1", ">", "<", "g", "2", ">", "<", "/", "g", "2", ">",
               "<", "/", "g", "1", ">")
    assert full is not None and auto.complete(full)


def test_whole_tag_pieces() -> None:
    auto = automaton(WHOLE, "a <g1>b</g1> <x2/>")
    start = auto.mask(START)
    banned = set(start.ids.tolist())
    assert banned == {0, *ids(WHOLE, "<x1/>", "</g1>", "<g2>", "</g2>")}
    assert start.eos_to == ids(WHOLE, "<g1>")[0]  # the first missing tag, in source order
    opened = run(auto, WHOLE, "<g1>")
    assert opened is not None
    assert auto.mask(opened).eos_to == ids(WHOLE, "</g1>")[0]  # the open pair closes first
    assert set(auto.mask(opened).ids.tolist()) == {0, *ids(WHOLE, "<x1/>", "<g1>", "<g2>", "</g2>")}


def test_dead_end_tag_prefix_is_never_entered() -> None:
    # "<" exists but nothing can complete "<x1/>" after it ("/" and "/>" are missing).
    pieces = ["</s>", "<pad>", "<", "x", "1", "你"]
    auto = automaton(pieces, "a <x1/>")
    start = auto.mask(START)
    assert ids(pieces, "<")[0] in start.ids and start.eos_to == -1


# --- the searches, with a scripted bigram decoder ------------------------------------------


class _State:
    def __init__(self, rows: int) -> None:
        self.rows = self.sentences = rows

    def take(self, rows: np.ndarray, sentences: np.ndarray | None = None) -> None:
        self.rows = len(rows)
        if sentences is not None:
            self.sentences = len(sentences)


class _Bigram:
    """log p(next | last token): a fixed table; the graph's biased/plain top-k semantics."""

    def __init__(self, table: np.ndarray) -> None:
        self.table = table
        self.biased = 0

    def step(self, tokens: np.ndarray, state: _State, bias: np.ndarray | None,
             k: int) -> tuple[np.ndarray, np.ndarray, _State]:
        scores = self.table[tokens]
        if bias is not None:
            self.biased += 1
            scores = scores + bias
        order = np.argsort(-scores, axis=1, kind="stable")[:, :k]
        return np.take_along_axis(scores, order, axis=1).astype(np.float32), order.astype(np.int64), state


def _table(pieces: Sequence[str], seed: int) -> np.ndarray:
    """A model that says "你好。" and stops, and likes tags it was never given."""
    rng = np.random.default_rng(seed)
    v = len(pieces)
    logits = rng.normal(0, 1, (v, v))
    nxt = {"<pad>": "你", "你": "好", "好": "。", "。": "</s>", ">": "。", "/>": "。", "<x1/>": "。", "</g1>": "。",
           "<": "x", "x": "2", "2": ">", "g": "1", "1": "/>"}  # spelling tags: it learnt them badly
    for a, b in nxt.items():
        if a in pieces and b in pieces:
            logits[pieces.index(a), pieces.index(b)] += 6
    if "x" in pieces:  # ... but well enough to finish a tag it is made to start
        for a, b in (("x", "1"), ("1", ">"), ("<", "g"), ("/", "g"), ("<", "/")):
            logits[pieces.index(a), pieces.index(b)] += 5
    if "<x2/>" in pieces:
        logits[pieces.index("好"), pieces.index("<x2/>")] += 5  # a tag the source lacks
    logits -= np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return logits.astype(np.float32)


def _opts(pieces: Sequence[str], beams: int) -> SearchOptions:
    return SearchOptions(num_beams=beams, max_length=40, min_length=0, length_penalty=1.0, early_stopping=True,
                         decoder_start_id=1, eos_id=0, pad_id=1, vocab_size=len(pieces), num_return=beams)


def _text(pieces: Sequence[str], out: list[int]) -> str:
    return "".join(pieces[t] for t in out if t > 1).replace("▁", " ")


@pytest.mark.parametrize("pieces", [SPLIT, WHOLE], ids=["split", "whole"])
@pytest.mark.parametrize("beams", [1, 3])
def test_search_output_holds_the_source_tags(pieces: list[str], beams: int) -> None:
    sources = ["Hello.", "Hello <x1/>.", "<g1>Hello</g1> <x2/>", "Hello."]
    v = vocab(pieces)
    autos = [TagAutomaton.for_source(v, s) for s in sources]
    assert autos[0] is None and autos[3] is None
    for seed in range(4):
        table = _table(pieces, seed)
        search = greedy_search if beams == 1 else beam_search
        plain = search(_Bigram(table), _State(len(sources)), _opts(pieces, beams))
        got = search(_Bigram(table), _State(len(sources)), _opts(pieces, beams), autos)
        assert any(validate(s, _text(pieces, h[0].ids)) for s, h in zip(sources[1:3], plain[1:3]))
        for src, hyps in zip(sources[1:3], got[1:3]):
            assert hyps
            assert hyps[0].ids[-1] == 0  # finished by EOS, not by the length limit
            for h in hyps:
                assert validate(src, _text(pieces, h.ids)) == [] or h.ids[-1] != 0
        # sentences without tags decode exactly as without constraints, beside constrained ones
        for i in (0, 3):
            assert [h.ids for h in got[i]] == [h.ids for h in plain[i]]
            assert [h.score for h in got[i]] == [h.score for h in plain[i]]


def test_no_automaton_is_the_unconstrained_search() -> None:
    table = _table(SPLIT, 0)
    plain = beam_search(_Bigram(table), _State(2), _opts(SPLIT, 3))
    dec = _Bigram(table)
    none = beam_search(dec, _State(2), _opts(SPLIT, 3), [None, None])
    assert [[h.ids for h in s] for s in none] == [[h.ids for h in s] for s in plain]
    assert dec.biased == 0


def test_ban_only_steps_keep_the_plain_path() -> None:
    """With whole-tag pieces nothing is ever half-spelled: no step builds the [rows, vocab] bias."""
    pieces = WHOLE + [f"w{i}" for i in range(20)]  # room for k + the bans in the top-k
    dec = _Bigram(_table(pieces, 1))
    got = beam_search(dec, _State(1), _opts(pieces, 3), [TagAutomaton.for_source(vocab(pieces), "<g1>Hi</g1> <x2/>")])
    assert dec.biased == 0
    assert validate("<g1>Hi</g1> <x2/>", _text(pieces, got[0][0].ids)) == []


# --- the tiny models ---------------------------------------------------------------------


@pytest.mark.slow
def test_demo_and_tagfree_models_keep_every_tag_whole() -> None:
    """Sentences whose plain decoding breaks their tags (a tag the source lacks, tags
    dropped) come out whole with valid tags; one without tags translates as before."""
    from mkdocs_zh_translate.engine import OnnxTranslator
    from tests.models import tagfree_onnx_model, tiny_onnx_model

    cases = [(tiny_onnx_model("none"), ["the <g1>red</g1> cat <x2/> eats"]),
             (tagfree_onnx_model("none"), ["Run <x1/> to build the site.", "the <g1>red</g1> cat <x2/> eats"])]
    for model, texts in cases:
        tr = OnnxTranslator(model, num_beams=4)
        plain = tr.translate_nbest(texts, 2)
        assert all(validate(src, alts[0]) for src, alts in zip(texts, plain))  # broken without constraints
        got = tr.translate_nbest(texts, 2, tags=True)
        for src, alts in zip(texts, got):
            assert alts and all(validate(src, out) == [] for out in alts), (src, alts)
        assert tr.translate(["Open the file."], tags=True) == tr.translate(["Open the file."])
