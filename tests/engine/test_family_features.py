"""What the engine offers on top of plain decoding, for M2M100 and NLLB-200 as for MarianMT:
confidence scores equal to a teacher-forced transformers computation, glossary terms and
placeholder constraints, the vocabulary shortlist, the alignment pass of ``markup: project``
and long texts split into chunks, each framed by the family's language and end tokens."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from transformers import AutoModelForSeq2SeqLM, AutoTokenizer  # noqa: E402

from mkdocs_zh_translate.engine import OnnxTranslator  # noqa: E402
from mkdocs_zh_translate.scored import score_of  # noqa: E402
from mkdocs_zh_translate.segment._placeholders import validate  # noqa: E402
from tests.engine.test_family_parity import make_corpus  # noqa: E402
from tests.models_families import FAMILY_NAMES, family_hf_model, family_onnx_model  # noqa: E402

pytestmark = pytest.mark.slow
TEXTS = ["Open the cache in the browser.", "Use the plugin to build the site.", "The <g1>cache</g1> is fast.",
         "Click <x1/> to build the <g2>site</g2>."]


@pytest.fixture(scope="module", params=FAMILY_NAMES)
def family(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def translator(family: str, quantize: str = "none", **options: Any) -> OnnxTranslator:
    return OnnxTranslator(family_onnx_model(family, quantize), **options)


def direct_score(tok: Any, model: Any, text: str, ids: list[int], lp: float) -> float:
    """The processed log-probabilities of ``ids`` summed (EOS included) over ``len ** lp``, as
    transformers scores a beam: the forced first token (the target language) counts 0, every
    other its log-softmax in one teacher-forced pass."""
    enc = tok([text], return_tensors="pt")
    decoder_ids = torch.tensor([[model.config.decoder_start_token_id, *ids[:-1]]])
    with torch.inference_mode():
        logp = torch.log_softmax(model(**enc, decoder_input_ids=decoder_ids).logits[0].double(), dim=-1)
    steps = logp[torch.arange(len(ids)), torch.tensor(ids)]
    return float(steps[1:].sum()) / len(ids) ** lp


@pytest.mark.parametrize(("beams", "lp"), [(1, 1.0), (4, 1.0), (3, 0.6)])
def test_translation_carries_the_models_score(family: str, beams: int, lp: float) -> None:
    path = family_hf_model(family)
    tok = AutoTokenizer.from_pretrained(path, use_fast=False)
    model = AutoModelForSeq2SeqLM.from_pretrained(path).eval()
    texts = make_corpus(tok, n=30, seed=3)
    tr = translator(family, num_beams=beams, length_penalty=lp, max_batch_sentences=8)
    hyps = tr.token_ids(texts)
    outputs = tr.translate(texts)
    scores = [score_of(out) for out in outputs]
    for text, hyp, out, score in zip(texts, hyps, outputs, scores):
        assert hyp[0].ids[0] == tr.settings["forced_bos_token_id"]
        assert out == tr.tokenizer.decode(hyp[0].ids)
        assert score is not None and score <= 0.0
        assert score == pytest.approx(direct_score(tok, model, text, hyp[0].ids, lp), abs=1e-5), text
    assert len({round(s or 0.0, 3) for s in scores}) > len(texts) // 2


def test_placeholders_come_out_whole_with_tag_constraints(family: str) -> None:
    tr = translator(family, num_beams=4)
    texts = ["the <g1>red</g1> cat <x2/> eats", "Run <x1/> to build <g2>the site</g2>.", "<x1/><x2/> and <g3>x</g3>"]
    for src, alts in zip(texts, tr.translate_nbest(texts, 2, tags=True)):
        assert alts and all(validate(src, out) == [] for out in alts), (src, alts)
    assert tr.translate(["Open the file."], tags=True) == tr.translate(["Open the file."])


def test_a_forced_term_comes_out_exactly_once(family: str) -> None:
    tr = translator(family, num_beams=4)
    outs = tr.translate(TEXTS)
    term = next(t for t in ("里", "用户", "说", "看", "学") if tr.can_force(t) and not any(t in o for o in outs))
    terms = [[term], [term, term], [term], [term]]
    got = tr.translate_nbest(TEXTS, 2, tags=True, terms=terms)
    for src, wanted, alts in zip(TEXTS, terms, got):
        assert alts and all(out.count(term) == len(wanted) and validate(src, out) == [] for out in alts), alts
    assert [tr.translate_nbest([t], 2, tags=True, terms=[w])[0] for t, w in zip(TEXTS, terms)] == got
    assert not tr.can_force("\U0002a6a5")
    aligned = tr.translate_aligned(TEXTS[:1], terms=[[term]])[0]
    assert aligned is not None and aligned.text.count(term) == 1


@pytest.mark.parametrize("quantize", ["none", "int8"])
def test_a_shortlist_of_the_chosen_tokens_gives_the_same_ids(family: str, quantize: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The projection without an output bias, cut to a shortlist: the same greedy ids, mapped
    back from shortlist positions; the whole vocabulary reversed: the same beams and scores."""
    full = translator(family, quantize, num_beams=1)
    want = full.token_ids(TEXTS)
    short = translator(family, quantize, num_beams=1, shortlist=20)
    assert short.shortlister is not None and "bias" not in short.settings["shortlist"]
    chosen = np.array(sorted({t for h in want for t in h[0].ids} | {int(i) for i in short.shortlister.base}))
    monkeypatch.setattr(short.shortlister, "for_batch", lambda sources, constraints=None: chosen)
    assert [h[0].ids for h in short.token_ids(TEXTS)] == [h[0].ids for h in want]

    beams = translator(family, quantize, num_beams=4).token_ids(TEXTS, 2)
    every = np.arange(full.settings["vocab_size"], dtype=np.int64)[::-1].copy()
    wide = translator(family, quantize, num_beams=4, shortlist=20)
    monkeypatch.setattr(wide.shortlister, "for_batch", lambda sources, constraints=None: every)
    got = wide.token_ids(TEXTS, 2)
    assert [[h.ids for h in hyps] for hyps in got] == [[h.ids for h in hyps] for hyps in beams]
    np.testing.assert_allclose([h.score for hyps in got for h in hyps], [h.score for hyps in beams for h in hyps],
                               rtol=1e-5, atol=1e-5)


def test_tags_and_terms_with_a_small_shortlist(family: str) -> None:
    """A term whose pieces are neither frequent nor in the sources is spelt whole, and the tags
    too: the batch's shortlist holds what the constraints may force (sentences with tags: a
    sentence without has no tag constraint, whatever the vocabulary)."""
    texts = TEXTS[2:]
    tr = translator(family, "int8", num_beams=4, shortlist=30)
    tok = tr.tokenizer
    assert tr.shortlister is not None
    unforced = set(tr.shortlister.for_batch([tok.encode(t) for t in texts]).tolist())
    rare = [p for p in tok.target_pieces_by_score()[100:]
            if len(p) == 1 and "\u4e00" <= p <= "\u9fff" and tok.target_id(p) not in unforced]
    outs = translator(family, "int8", num_beams=4).translate(texts)
    term = next(a + b for a, b in pairwise(rare)
                if a != b and not tr.term_vocab().term(a + b).whole.size and not any(a + b in o for o in outs))
    for src, alts in zip(texts, tr.translate_nbest(texts, 2, tags=True, terms=[[term]] * len(texts))):
        assert alts and all(validate(src, out) == [] and out.count(term) == 1 for out in alts), alts


def test_the_alignment_pass_and_project_markup(family: str) -> None:
    from mkdocs_zh_translate.pipeline.backends import load_translator
    from mkdocs_zh_translate.pipeline.ladder import translate_segments
    from mkdocs_zh_translate.segment import strip_tags

    model = family_onnx_model(family)
    tr = OnnxTranslator(model, threads=1)
    texts = ["Open the file.", "", "Click the button to build the site."]
    aligned = tr.translate_aligned(texts)
    assert aligned[1] is None
    for text, result in zip(texts, aligned):
        if result is None:
            continue
        assert result.text == tr.translate([text])[0]
        assert len(result.target_bounds) == result.weights.shape[0] + 1
        assert result.weights.shape[1] == len(result.source_spans) == len(tr.tokenizer.encode(text))
        assert result.source_spans[0] is None  # the language token is no text of the source
        words = [text[s:e] for span in result.source_spans if span is not None for s, e in [span]]
        assert "".join(words) == text.replace(" ", "")
    sentences = ["Run <x1/> to build the <g2>site</g2>.", "Open <g1>the file</g1> now."]
    for sentence, result in zip(sentences, translate_segments(sentences, load_translator("onnx", model,
                                                                                          markup="project"))):
        assert validate(sentence, result.text) == [], result
        assert strip_tags(result.text) == tr.translate([" ".join(strip_tags(sentence).split())])[0]


def test_a_long_text_is_split_into_framed_chunks(family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    tr = translator(family, num_beams=1, max_new_tokens=40)
    tr.max_positions = 24  # the tiny model has 512 positions: a short limit splits a short text
    text = " ".join(["Open the file and build the site."] * 6)
    chunks = tr._chunks(text)
    assert len(chunks) > 1 and all(len(c) <= 24 for c in chunks)
    prefix, suffix = tr.tokenizer.prefix_ids, tr.tokenizer.suffix_ids
    assert all(c[: len(prefix)] == prefix and c[-len(suffix):] == suffix for c in chunks)
    body = [t for c in chunks for t in c[len(prefix): len(c) - len(suffix)]]
    assert body == tr.tokenizer.encode(text)[len(prefix): -len(suffix)]
    out = tr.translate([text])[0]
    assert out and "__" not in out and "zho_" not in out


def test_traditional_chinese_is_a_forced_token_where_the_family_has_one(family: str) -> None:
    settings = translator(family).settings
    variants = settings["tokenizer"]["target_language_ids"]
    assert variants["zh-Hans"] == settings["forced_bos_token_id"]
    tok = AutoTokenizer.from_pretrained(family_hf_model(family), use_fast=False)
    if family == "nllb":
        assert variants["zh-Hant"] == tok.convert_tokens_to_ids("zho_Hant")
    else:
        assert set(variants) == {"zh-Hans"} and tok.convert_ids_to_tokens(variants["zh-Hans"]) == "__zh__"


def test_the_engine_target_option_forces_the_traditional_token(family: str) -> None:
    """``target: zh-Hant`` (a Traditional variant made ``via: model``) forces the family's own
    Traditional token as the first target token; a model without one is refused in one line."""
    from mkdocs_zh_translate.engine.errors import EngineError

    ids = translator(family).settings["tokenizer"]["target_language_ids"]
    if "zh-Hant" in ids:
        tr = translator(family, target="zh-Hant")
        assert tr._base_options.forced_bos_id == ids["zh-Hant"] != ids["zh-Hans"]
        assert tr.token_ids(["Open the cache."])[0][0].ids[0] == ids["zh-Hant"]
        assert tr.target_prefix is None
    else:
        with pytest.raises(EngineError, match="cannot be asked for zh-Hant"):
            translator(family, target="zh-Hant")
    assert translator(family, target="zh-Hans")._base_options.forced_bos_id == ids["zh-Hans"]


def test_family_models_are_no_marian_for_the_loader(family: str, tmp_path: Path) -> None:
    """The model directory says what it is: the family, and no Marian ``>>xx<<`` rule."""
    settings = translator(family).settings
    assert settings["family"] == family and settings["model_type"] == "m2m_100"
    assert settings["tokenizer"]["split_target_code"] is False


def test_the_shortlists_frequent_pieces_are_chinese(family: str) -> None:
    """One SentencePiece model for every language ranks English pieces (and placeholders) high:
    the shortlist's frequent part keeps the Chinese pieces only, so a small one still writes
    Chinese."""
    tr = translator(family, num_beams=1, shortlist=30)
    assert tr.shortlister is not None
    tok = tr.tokenizer
    frequent = [tok.decoder[int(i)] for i in tr.shortlister.base if int(i) not in tok.special_ids]
    frequent = [p for p in frequent if p not in (tok.unk_token, tok.eos_token, tok.pad_token)]
    assert len(frequent) == 30
    assert all(any("\u4e00" <= ch <= "\u9fff" or "\u3000" <= ch <= "\u303f" or "\uff00" <= ch <= "\uffef" for ch in p)
               for p in frequent), frequent
