"""fp32 ONNX decoding gives transformers generate()'s token ids; int8 agreement is reported.

The reference is transformers' own generate() on each input alone. Our engine runs every
input alone ("single") and in length buckets ("bucketed"). A difference is accepted only as a
numerical near-tie: the two hypotheses' scores (beam search) or the two competing logits
(greedy) within 1e-5 under transformers' own computation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

torch = pytest.importorskip("torch")
from transformers import MarianMTModel, MarianTokenizer  # noqa: E402

from mkdocs_zh_translate.engine import OnnxTranslator  # noqa: E402
from tests.models import tiny_hf_model, tiny_onnx_model  # noqa: E402

pytestmark = pytest.mark.slow
NEAR_TIE = 1e-5


def make_corpus(tokenizer: Any, n: int = 220, seed: int = 7) -> list[str]:
    """Varied inputs from the model's own source vocabulary (any slow tokenizer's: the family
    parity tests use it too), with and without placeholders."""
    rnd = random.Random(seed)
    pieces = [p for p in tokenizer.get_vocab() if p.startswith("\u2581") and len(p) > 2 and p.isprintable()]
    words = sorted(p[1:] for p in pieces)
    texts = []
    for i in range(n):
        k = rnd.randint(1, 14)
        sent = [rnd.choice(words) for _ in range(k)]
        if i % 3 == 0:
            sent.insert(rnd.randint(0, k), f"<x{rnd.randint(1, 3)}/>")
        if i % 5 == 0 and k > 2:
            sent[0] = "<g1>" + sent[0]
            sent[1] = sent[1] + "</g1>"
        text = " ".join(sent)
        texts.append(text[0].upper() + text[1:] + rnd.choice([".", "", "?", "!"]) if text else text)
    return texts


@pytest.fixture(scope="module")
def hf() -> tuple[MarianTokenizer, MarianMTModel]:
    path = tiny_hf_model()
    return MarianTokenizer.from_pretrained(path), MarianMTModel.from_pretrained(path).eval()


@pytest.fixture(scope="module")
def corpus(hf: tuple[MarianTokenizer, MarianMTModel]) -> list[str]:
    return make_corpus(hf[0])


def reference(hf: tuple[MarianTokenizer, MarianMTModel], texts: Sequence[str], **kw: object) -> list[tuple[list[list[int]], list[float]]]:
    tok, model = hf
    out = []
    for text in texts:
        enc = tok([text], return_tensors="pt")
        with torch.inference_mode():
            res = model.generate(**enc, return_dict_in_generate=True, output_scores=True, **kw)
        seqs = []
        for row in res.sequences.tolist():
            ids = row[1:]
            if tok.eos_token_id in ids:
                ids = ids[: ids.index(tok.eos_token_id) + 1]
            seqs.append(ids)
        scores = res.sequences_scores.tolist() if getattr(res, "sequences_scores", None) is not None else [0.0] * len(seqs)
        out.append((seqs, scores))
    return out


def greedy_gap(hf: tuple[MarianTokenizer, MarianMTModel], text: str, a: list[int], b: list[int]) -> float:
    """Logit gap between the two tokens where greedy outputs ``a`` and ``b`` first differ."""
    tok, model = hf
    j = next(i for i, (x, y) in enumerate(zip([*a, -1], [*b, -1])) if x != y)
    enc = tok([text], return_tensors="pt")
    prefix = torch.tensor([[model.config.decoder_start_token_id, *a[:j]]])
    with torch.inference_mode():
        logits = model(**enc, decoder_input_ids=prefix).logits[0, -1]
    return abs(float(logits[a[j]] - logits[b[j]])) if j < min(len(a), len(b)) else float("inf")


def compare(hf, texts, refs, ours, beams: int) -> tuple[int, list[str]]:
    """(exact matches, descriptions of accepted near-ties); fails on any real mismatch."""
    exact, ties = 0, []
    for text, (ref_seqs, ref_scores), hyps in zip(texts, refs, ours):
        got = [h.ids for h in hyps]
        if got == ref_seqs[: len(got)] and len(got) == len(ref_seqs):
            exact += 1
            continue
        if beams > 1:
            gap = abs(hyps[0].score - ref_scores[0])
        else:
            gap = greedy_gap(hf, text, ref_seqs[0], got[0])
        assert gap <= NEAR_TIE, f"{text!r}: ours {got} vs transformers {ref_seqs} (gap {gap:g})"
        ties.append(f"{text!r}: gap {gap:.2e}")
    return exact, ties


@pytest.mark.parametrize("beams", [1, 4])
def test_fp32_matches_transformers_single_and_bucketed(hf, corpus, beams: int) -> None:
    refs = reference(hf, corpus, num_beams=beams)
    model = tiny_onnx_model("none")
    single = OnnxTranslator(model, num_beams=beams, max_batch_sentences=1).token_ids(corpus)
    bucketed = OnnxTranslator(model, num_beams=beams, max_batch_tokens=300, max_batch_sentences=24).token_ids(corpus)
    for label, ours in (("single", single), ("bucketed", bucketed)):
        exact, ties = compare(hf, corpus, refs, ours, beams)
        print(f"beams {beams} {label}: {exact}/{len(corpus)} identical, near-ties: {ties}")
        assert exact + len(ties) == len(corpus) >= 200
    # The corpus must exercise EOS at varied lengths, or parity would prove little.
    lengths = {len(seqs[0]) for seqs, _ in refs}
    assert len(lengths) >= 4


def test_nbest_and_length_controls_match(hf, corpus) -> None:
    model = tiny_onnx_model("none")
    texts = corpus[:40]
    cases = [
        dict(num_beams=4, num_return_sequences=4),
        dict(num_beams=4, max_new_tokens=5, min_new_tokens=3),
        dict(num_beams=4, max_new_tokens=6, min_new_tokens=4, renormalize_logits=False),
        dict(num_beams=4, renormalize_logits=False),
        dict(num_beams=1, max_new_tokens=4, min_new_tokens=2),
        dict(num_beams=3, length_penalty=0.6, early_stopping=True),
        dict(num_beams=3, length_penalty=2.0, early_stopping="never", max_new_tokens=24),
    ]
    for kw in cases:
        refs = reference(hf, texts, **kw)
        tr = OnnxTranslator(model, num_beams=kw["num_beams"], max_new_tokens=kw.get("max_new_tokens"),
                            min_new_tokens=kw.get("min_new_tokens"), length_penalty=kw.get("length_penalty"),
                            early_stopping=kw.get("early_stopping"), renormalize_logits=kw.get("renormalize_logits"),
                            max_batch_sentences=8)
        n = kw.get("num_return_sequences", 1)
        ours = tr.token_ids(texts, n=n)
        # compare() zips: without these a short or empty answer would pass unseen.
        assert len(ours) == len(texts), kw
        assert all(len(hyps) == n for hyps in ours), kw
        exact, ties = compare(hf, texts, refs, ours, kw["num_beams"])
        print(kw, f"{exact}/{len(texts)} identical, near-ties {ties}")
        assert exact + len(ties) == len(texts)
        assert exact >= 0.9 * len(texts), f"{kw}: only {exact}/{len(texts)} identical to transformers"
        # The length controls did something: every hypothesis lies within them (ids hold EOS).
        lengths = [len(h.ids) for hyps in ours for h in hyps]
        if "max_new_tokens" in kw:
            assert max(lengths) <= kw["max_new_tokens"], kw
        if "min_new_tokens" in kw:
            assert min(lengths) >= kw["min_new_tokens"], kw


def test_beam_search_differs_from_greedy_somewhere(hf, corpus) -> None:
    """Guards the corpus: if beam 4 always equalled greedy, beam bookkeeping would be untested."""
    model = tiny_onnx_model("none")
    greedy = OnnxTranslator(model, num_beams=1).token_ids(corpus)
    beam = OnnxTranslator(model, num_beams=4).token_ids(corpus)
    assert sum(g[0].ids != b[0].ids for g, b in zip(greedy, beam)) >= 1


def test_int8_agreement_with_fp32_is_reported(corpus) -> None:
    fp32 = OnnxTranslator(tiny_onnx_model("none"), num_beams=4).translate(corpus)
    int8 = OnnxTranslator(tiny_onnx_model("int8"), num_beams=4).translate(corpus)
    same = sum(a == b for a, b in zip(fp32, int8))
    print(f"int8 vs fp32 (beam 4): {same}/{len(corpus)} identical translations ({same / len(corpus):.1%})")
    assert same / len(corpus) >= 0.5
