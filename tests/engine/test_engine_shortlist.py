"""The opt-in vocabulary shortlist on the tiny test model: ids come back as vocabulary ids,
constraints still get their tokens, an export without the capability says so, and the
setting is part of the cache key (``tests/pipeline/test_shortlist_option.py``). Off, the search is today's (``test_engine_parity``)."""

from __future__ import annotations

import json
import shutil
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow

TEXTS = ["Open the settings page and click Save.", "Install the package with pip.",
         "The cache is fast.", "Python 3.11 is required to build the site."]


def _translator(quantize: str, **options: object):  # type: ignore[no-untyped-def]
    from mkdocs_zh_translate.engine import OnnxTranslator
    from tests.models import tiny_onnx_model

    return OnnxTranslator(tiny_onnx_model(quantize), **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("quantize", ["none", "int8"])
def test_a_shortlist_of_the_chosen_tokens_gives_the_same_greedy_ids(quantize: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Greedy search over the tokens the full vocabulary chose (plus the specials): the same
    argmax each step, so the same ids, though positions in the shortlist are not vocabulary
    ids: a graph or engine that returned positions unmapped fails here."""
    full = _translator(quantize, num_beams=1)
    want = full.token_ids(TEXTS)
    sl = _translator(quantize, num_beams=1, shortlist=20)
    assert sl.shortlister is not None
    chosen = sorted({t for hyps in want for t in hyps[0].ids} | {int(i) for i in sl.shortlister.base})
    ids = np.array(chosen, dtype=np.int64)
    assert not np.array_equal(ids, np.arange(ids.size))  # positions differ from ids
    monkeypatch.setattr(sl.shortlister, "for_batch", lambda sources, constraints=None: ids)
    got = sl.token_ids(TEXTS)
    assert [h[0].ids for h in got] == [h[0].ids for h in want]
    # normalised over fewer entries: each step's log-probability is at least the full one's
    assert all(g[0].score >= w[0].score - 1e-4 for g, w in zip(got, want))


def test_a_whole_vocabulary_shortlist_in_reverse_order_gives_the_same_beams(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beam 4 over every id, listed last to first: the same normaliser, so the same output and
    scores; the graph maps each position back to its id."""
    full = _translator("int8", num_beams=4)
    want = full.token_ids(TEXTS, 2)
    sl = _translator("int8", num_beams=4, shortlist=20)
    assert sl.shortlister is not None
    every = np.arange(full.settings["vocab_size"], dtype=np.int64)[::-1].copy()
    monkeypatch.setattr(sl.shortlister, "for_batch", lambda sources, constraints=None: every)
    got = sl.token_ids(TEXTS, 2)
    assert [[h.ids for h in hyps] for hyps in got] == [[h.ids for h in hyps] for hyps in want]
    np.testing.assert_allclose([h.score for hyps in got for h in hyps], [h.score for hyps in want for h in hyps],
                               rtol=1e-5, atol=1e-5)


def test_the_shortlist_holds_specials_frequent_copied_and_forced_pieces() -> None:
    tr = _translator("int8", shortlist=50)
    lister = tr.shortlister
    assert lister is not None
    tok = tr.tokenizer
    opts = tr._base_options
    specials = {opts.pad_id, opts.eos_id, opts.decoder_start_id, tok.unk_id}
    assert specials <= set(lister.base.tolist())
    frequent = [tok.target_id(p) for p in tok.target_pieces_by_score()]
    frequent = [t for t in frequent if t is not None and t not in specials][:50]
    assert set(frequent) <= set(lister.base.tolist())
    assert len(lister.base) <= 50 + len(specials | set(tok.special_ids))
    source = tok.encode("Zyx 1234 <x1/> Qq")
    auto = tr._constraint("Zyx 1234 <x1/> Qq", True, None)
    assert auto is not None
    batch = lister.for_batch([source], [auto])
    assert np.all(np.diff(batch) > 0)  # sorted, unique
    copied = {t for s in source for t in lister.copied(s)}
    assert copied - set(lister.base.tolist())  # the source brings pieces the base lacks
    assert copied <= set(batch.tolist())
    for piece in tok.target_pieces("1234"):
        assert tok.target_id(piece) in batch.tolist()
    assert set(auto.forced_ids().tolist()) <= set(batch.tolist())
    assert tok.target_id("<") in auto.forced_ids().tolist()


def test_tags_and_terms_come_out_whole_with_a_small_shortlist() -> None:
    """A term whose pieces are neither frequent nor in the source is still spelt whole: the
    batch's shortlist holds what the constraints may force."""
    from mkdocs_zh_translate.segment._placeholders import validate

    texts = ["Open the <g1>cache</g1> in the browser.", "Click <x1/> to build the site."]
    full = _translator("int8", num_beams=4)
    tr = _translator("int8", num_beams=4, shortlist=30)
    assert tr.shortlister is not None
    unforced = set(tr.shortlister.for_batch([tr.tokenizer.encode(t) for t in texts]).tolist())

    # Two characters that are pieces of their own, neither frequent nor in the sources, and no
    # piece holding both: spelling the term needs a piece that only its constraint can offer.
    tok = tr.tokenizer
    rare = [p for p in tok.target_pieces_by_score()[100:]
            if len(p) == 1 and "\u4e00" <= p <= "\u9fff" and tok.target_id(p) not in unforced]
    outs = full.translate(texts)
    term = next(a + b for a, b in pairwise(rare)
                if a != b and not tr.term_vocab().term(a + b).whole.size and not any(a + b in o for o in outs))
    got = tr.translate_nbest(texts, 2, tags=True, terms=[[term], [term]])
    for text, alts in zip(texts, got):
        assert alts
        for out in alts:
            assert validate(text, out) == [], out
            assert out.count(term) == 1, out


def _without_capability(tmp_path: Path) -> Path:
    """A copy of the int8 export as one made before the shortlist: no ``shortlist`` entry."""
    from mkdocs_zh_translate.export.save import write_manifest
    from tests.models import tiny_onnx_model

    old = tmp_path / "old"
    shutil.copytree(tiny_onnx_model("int8"), old)
    settings = json.loads((old / "generation.json").read_text(encoding="utf-8"))
    settings.pop("shortlist")
    (old / "generation.json").write_text(json.dumps(settings), encoding="utf-8")
    write_manifest(old, source="test", quantize="int8")
    return old


def test_an_export_without_the_capability_refuses_a_shortlist_and_runs_without(tmp_path: Path) -> None:
    from mkdocs_zh_translate.engine import EngineError, OnnxTranslator

    old = _without_capability(tmp_path)
    with pytest.raises(EngineError, match=r"cannot take a vocabulary shortlist.*set shortlist to 0"):
        OnnxTranslator(old, shortlist=200)
    assert OnnxTranslator(old, shortlist=0).translate(TEXTS) == _translator("int8").translate(TEXTS)
    with pytest.raises(EngineError, match="shortlist must be 0"):
        OnnxTranslator(old, shortlist=-1)


def test_the_translate_command_takes_it_and_refuses_it_in_one_line(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    from mkdocs_zh_translate.cli.app import main
    from tests.models import tiny_onnx_model

    lines = "\n".join(TEXTS) + "\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(lines.encode())))
    assert main(["translate", "--model", str(tiny_onnx_model("int8")), "--shortlist", "40"]) == 0
    assert capsys.readouterr().out.splitlines() == _translator("int8", shortlist=40).translate(TEXTS)
    old = _without_capability(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(lines.encode())))
    assert main(["translate", "--model", str(old), "--shortlist", "40"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot take a vocabulary shortlist" in err and "Traceback" not in err
