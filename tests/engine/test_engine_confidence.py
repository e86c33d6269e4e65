"""The engine's confidence in a translation: the length-normalised log-probability of the chosen
hypothesis, recomputed here from the model itself (one teacher-forced pass in transformers).

``review sync`` writes this score into the PO files (``#. confidence:``); it must be the
model's own number for the very output it annotates, whatever the beam width."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
from transformers import MarianMTModel, MarianTokenizer  # noqa: E402

from mkdocs_zh_translate.engine import OnnxTranslator  # noqa: E402
from mkdocs_zh_translate.scored import score_of  # noqa: E402
from tests.engine.test_engine_parity import make_corpus  # noqa: E402
from tests.models import tiny_hf_model, tiny_onnx_model  # noqa: E402

pytestmark = pytest.mark.slow


def direct_score(tok: MarianTokenizer, model: MarianMTModel, text: str, ids: list[int], lp: float,
                 renormalize: list[int] | None) -> float:
    """sum(log p(token | source, prefix)) over the generated ids (EOS included) / len ** lp;
    ``renormalize``: the banned ids whose probability mass is given back to the others
    (transformers' ``renormalize_logits``, which the test model's generation config sets)."""
    enc = tok([text], return_tensors="pt")
    decoder_ids = torch.tensor([[model.config.decoder_start_token_id, *ids[:-1]]])
    with torch.inference_mode():
        logits = model(**enc, decoder_input_ids=decoder_ids).logits[0].double()
        if renormalize:
            logits[:, renormalize] = -float("inf")
        logp = torch.log_softmax(logits, dim=-1)
    total = float(logp[torch.arange(len(ids)), torch.tensor(ids)].sum())
    return total / len(ids) ** lp


@pytest.mark.parametrize(("beams", "lp"), [(1, 1.0), (4, 1.0), (3, 0.6)])
def test_translation_carries_the_models_score(beams: int, lp: float) -> None:
    path = tiny_hf_model()
    tok, model = MarianTokenizer.from_pretrained(path), MarianMTModel.from_pretrained(path).eval()
    texts = [t for t in make_corpus(tok, n=30, seed=3) if t.strip()]
    tr = OnnxTranslator(tiny_onnx_model("none"), num_beams=beams, length_penalty=lp, max_batch_sentences=8)
    banned = [seq[0] for seq in tr.settings.get("bad_words_ids") or () if len(seq) == 1]
    renormalize = banned if tr.settings.get("renormalize_logits") else None
    hyps = tr.token_ids(texts)
    outputs = tr.translate(texts)
    scores = [score_of(out) for out in outputs]
    assert all(s is not None for s in scores), scores
    for text, hyp, out, score in zip(texts, hyps, outputs, scores):
        assert out == tr.tokenizer.decode(hyp[0].ids)  # the score belongs to this very output
        assert score == pytest.approx(direct_score(tok, model, text, hyp[0].ids, lp, renormalize), abs=1e-5), text
        assert score is not None and score <= 0.0
    assert len({round(s or 0.0, 3) for s in scores}) > len(texts) // 2  # varied, not a constant


def test_nbest_alternatives_are_scored_best_first() -> None:
    path = tiny_hf_model()
    tok = MarianTokenizer.from_pretrained(path)
    texts = [t for t in make_corpus(tok, n=12, seed=5) if t.strip()]
    tr = OnnxTranslator(tiny_onnx_model("none"), num_beams=4)
    for alts in tr.translate_nbest(texts, 4):
        scores = [score_of(a) for a in alts]
        assert None not in scores
        assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]


@pytest.mark.parametrize("markup", ["tags", "constrained", "project"])
def test_every_markup_strategy_keeps_the_score(markup: str) -> None:
    """The ladder's segment score is the model's, whichever way the markup got through: under
    ``project`` it is the score of the sentence translated without its placeholders."""
    from mkdocs_zh_translate.pipeline.backends import load_translator
    from mkdocs_zh_translate.pipeline.ladder import translate_segments
    from mkdocs_zh_translate.segment import strip_tags
    from tests.models import tagfree_onnx_model

    model = tagfree_onnx_model("none")
    plain = OnnxTranslator(model, threads=1)
    sentences = ["Run <x1/> to build the <g2>site</g2>.", "Open the file."]
    results = translate_segments(sentences, load_translator("onnx", model, markup=markup, threads=1))
    for sentence, result in zip(sentences, results):
        assert result.score is not None and result.score <= 0.0, (markup, sentence, result)
        if markup == "project" or "<" not in sentence:
            source = " ".join(strip_tags(sentence).split()) if markup == "project" else sentence
            assert result.score == score_of(plain.translate([source])[0])
