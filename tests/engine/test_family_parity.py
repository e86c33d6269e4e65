"""M2M100 and NLLB-200 on our engine: fp32 token ids equal transformers ``generate()``'s with the
target language forced as the first token, beam 1 and 4, single and bucketed, with the length
controls; int8 and fp16 agreement reported. The same contract and the same near-tie rule as the Marian
parity tests (``test_engine_parity.py``), on each family's tiny trained model.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from transformers import AutoModelForSeq2SeqLM, AutoTokenizer  # noqa: E402

from mkdocs_zh_translate.engine import OnnxTranslator, beam  # noqa: E402
from tests.engine.test_engine_parity import make_corpus  # noqa: E402 - the Marian parity tests' inputs
from tests.models_families import FAMILY_NAMES, family_hf_model, family_onnx_model  # noqa: E402

pytestmark = pytest.mark.slow
NEAR_TIE = 1e-5


class Reference:
    """A family's tiny model in transformers, and the language it is told to write."""

    def __init__(self, family: str) -> None:
        path = family_hf_model(family)
        self.family = family
        self.tok = AutoTokenizer.from_pretrained(path, use_fast=False)
        self.model = AutoModelForSeq2SeqLM.from_pretrained(path).eval()
        code = {"m2m100": "zh", "nllb": "zho_Hans"}[family]
        self.forced = int(self.tok._build_translation_inputs("", src_lang=self.tok.src_lang, tgt_lang=code,
                                                             return_tensors=None)["forced_bos_token_id"])

    def generate(self, texts: Sequence[str], **kw: Any) -> list[tuple[list[list[int]], list[float]]]:
        out = []
        eos = self.tok.eos_token_id
        for text in texts:
            enc = self.tok([text], return_tensors="pt")
            with torch.inference_mode():
                res = self.model.generate(**enc, forced_bos_token_id=self.forced, return_dict_in_generate=True,
                                          output_scores=True, **kw)
            seqs = []
            for row in res.sequences.tolist():
                ids = row[1:]
                if eos in ids:
                    ids = ids[: ids.index(eos) + 1]
                seqs.append(ids)
            scores = res.sequences_scores.tolist() if getattr(res, "sequences_scores", None) is not None \
                else [0.0] * len(seqs)
            out.append((seqs, scores))
        return out

    def greedy_gap(self, text: str, a: list[int], b: list[int]) -> float:
        """Logit gap between the two tokens where greedy outputs ``a`` and ``b`` first differ."""
        j = next(i for i, (x, y) in enumerate(zip([*a, -1], [*b, -1])) if x != y)
        enc = self.tok([text], return_tensors="pt")
        prefix = torch.tensor([[self.model.config.decoder_start_token_id, *a[:j]]])
        with torch.inference_mode():
            logits = self.model(**enc, decoder_input_ids=prefix).logits[0, -1]
        return abs(float(logits[a[j]] - logits[b[j]])) if j < min(len(a), len(b)) else float("inf")


@pytest.fixture(scope="module", params=FAMILY_NAMES)
def ref(request: pytest.FixtureRequest) -> Reference:
    return Reference(request.param)


@pytest.fixture(scope="module")
def corpus(ref: Reference) -> list[str]:
    return make_corpus(ref.tok)


def onnx_model(ref: Reference, quantize: str = "none") -> Path:
    return family_onnx_model(ref.family, quantize)


def search_gap(model: Path, text: str, beams: int, monkeypatch: pytest.MonkeyPatch) -> float:
    """The smallest gap between two competing candidate scores anywhere in our beam search of
    ``text`` alone (unpadded): the candidates, running beams and finished hypotheses it ranks.

    Padding a source in a batch moves the scores by ~1e-6 (other summation orders); where a
    search ranked two candidates closer than that, the bucketed search may keep the other one,
    and the beams then grow apart: a mid-search near-tie that the final scores do not show."""
    gaps: list[float] = []
    original = beam._desc_order

    def ranked(x: np.ndarray) -> np.ndarray:
        order = original(x)
        top = np.take_along_axis(x, order, axis=-1)[..., : 2 * beams + 1].astype(np.float64)
        for row in top.reshape(-1, top.shape[-1]):
            live = row[row > beam.NEG / 2]
            if live.size > 1:
                gaps.append(float(np.min(live[:-1] - live[1:])))
        return order

    with monkeypatch.context() as patch:
        patch.setattr(beam, "_desc_order", ranked)
        OnnxTranslator(model, num_beams=beams, max_batch_sentences=1).token_ids([text])
    return min(gaps, default=float("inf"))


def compare(ref: Reference, texts: Sequence[str], refs: Any, ours: Any, beams: int,
            monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, list[str]]:
    """(exact matches, descriptions of accepted near-ties); fails on any real mismatch."""
    exact, ties = 0, []
    for text, (ref_seqs, ref_scores), hyps in zip(texts, refs, ours):
        got = [h.ids for h in hyps]
        if got == ref_seqs[: len(got)] and len(got) == len(ref_seqs):
            exact += 1
            continue
        if beams == 1:
            gap = ref.greedy_gap(text, ref_seqs[0], got[0])
        else:
            gap = abs(hyps[0].score - ref_scores[0])
            if gap > NEAR_TIE and monkeypatch is not None:
                gap = search_gap(onnx_model(ref), text, beams, monkeypatch)
        assert gap <= NEAR_TIE, f"{text!r}: ours {got} vs transformers {ref_seqs} (gap {gap:g})"
        ties.append(f"{text!r}: gap {gap:.2e}")
    if beams > 1 and ties:  # the rule must not accept everything: the corpus' typical search is no tie
        assert len(ties) <= 0.05 * len(texts)
    return exact, ties


@pytest.mark.parametrize("beams", [1, 4])
def test_fp32_matches_transformers_single_and_bucketed(ref: Reference, corpus: list[str], beams: int,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    refs = ref.generate(corpus, num_beams=beams)
    model = onnx_model(ref)
    single = OnnxTranslator(model, num_beams=beams, max_batch_sentences=1).token_ids(corpus)
    bucketed = OnnxTranslator(model, num_beams=beams, max_batch_tokens=300, max_batch_sentences=24).token_ids(corpus)
    for label, ours in (("single", single), ("bucketed", bucketed)):
        exact, ties = compare(ref, corpus, refs, ours, beams, monkeypatch)
        print(f"{ref.family} beams {beams} {label}: {exact}/{len(corpus)} identical "
              f"({exact / len(corpus):.1%}), near-ties: {ties}")
        assert exact + len(ties) == len(corpus) >= 200
    # Every output starts with the forced target language, and EOS comes at varied lengths.
    assert all(seqs[0][0] == ref.forced for seqs, _ in refs)
    assert len({len(seqs[0]) for seqs, _ in refs}) >= 4


def test_nbest_and_length_controls_match(ref: Reference, corpus: list[str]) -> None:
    model = onnx_model(ref)
    texts = corpus[:40]
    cases: list[dict[str, Any]] = [
        dict(num_beams=4, num_return_sequences=4),
        dict(num_beams=4, max_new_tokens=5, min_new_tokens=3),
        dict(num_beams=1, max_new_tokens=4, min_new_tokens=2),
        dict(num_beams=4, max_new_tokens=2),
        dict(num_beams=3, length_penalty=0.6, early_stopping=True),
        dict(num_beams=3, length_penalty=2.0, early_stopping="never", max_new_tokens=24),
        dict(num_beams=4, renormalize_logits=True),
    ]
    for kw in cases:
        refs = ref.generate(texts, **kw)
        tr = OnnxTranslator(model, num_beams=kw["num_beams"], max_new_tokens=kw.get("max_new_tokens"),
                            min_new_tokens=kw.get("min_new_tokens"), length_penalty=kw.get("length_penalty"),
                            early_stopping=kw.get("early_stopping"), renormalize_logits=kw.get("renormalize_logits"),
                            max_batch_sentences=8)
        n = kw.get("num_return_sequences", 1)
        ours = tr.token_ids(texts, n=n)
        assert len(ours) == len(texts), kw
        assert all(len(hyps) == n for hyps in ours), kw
        exact, ties = compare(ref, texts, refs, ours, kw["num_beams"])
        print(ref.family, kw, f"{exact}/{len(texts)} identical, near-ties {ties}")
        assert exact + len(ties) == len(texts)
        assert exact >= 0.9 * len(texts), f"{kw}: only {exact}/{len(texts)} identical to transformers"
        lengths = [len(h.ids) for hyps in ours for h in hyps]
        if "max_new_tokens" in kw:
            assert max(lengths) <= kw["max_new_tokens"], kw
        if "min_new_tokens" in kw:
            assert min(lengths) >= kw["min_new_tokens"], kw


def test_int8_and_fp16_agreement_with_fp32_is_reported(ref: Reference, corpus: list[str]) -> None:
    fp32 = OnnxTranslator(onnx_model(ref), num_beams=4).translate(corpus)
    for quantize, floor in (("int8", 0.5), ("fp16", 0.9)):
        other = OnnxTranslator(onnx_model(ref, quantize), num_beams=4).translate(corpus)
        same = sum(a == b for a, b in zip(fp32, other))
        print(f"{ref.family} {quantize} vs fp32 (beam 4): {same}/{len(corpus)} identical translations "
              f"({same / len(corpus):.1%})")
        assert same / len(corpus) >= floor


def test_translations_decode_like_the_tokenizer(ref: Reference, corpus: list[str]) -> None:
    """The text of each translation is the tokenizer's ``decode(skip_special_tokens=True)`` of
    its ids: the forced language token and EOS never reach the text."""
    tr = OnnxTranslator(onnx_model(ref), num_beams=4)
    texts = corpus[:60]
    for text, hyps, got in zip(texts, tr.token_ids(texts), tr.translate(texts)):
        assert got == ref.tok.decode(hyps[0].ids, skip_special_tokens=True), text
        assert "__" not in got and "zho_" not in got
