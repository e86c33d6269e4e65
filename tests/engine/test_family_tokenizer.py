"""Our sentencepiece-only tokenizer against transformers' M2M100Tokenizer and NllbTokenizer, id for
id, on the exported files alone (``vocab.json`` from the tokenizer, the SentencePiece model as
``source.spm``/``target.spm``, the framing ids and the detokenising rule in ``generation.json``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("transformers")
from transformers import AutoTokenizer

from mkdocs_zh_translate.engine.tokenizer import MarianSpmTokenizer
from tests.engine.test_engine_tokenizer import CORPUS
from tests.models_families import FAMILY_NAMES, family_hf_model, family_onnx_model
from tools.export_tiny import heldout_pairs

#: Strings that trip tokenizers: language tokens written in the text, special tokens glued to
#: words, NLLB's lstrip ``<mask>``, characters outside the SentencePiece model.
TRICKY = [
    "__en__ Hello __zh__ world", "__zh__", "a__zh__b", "eng_Latn Hello zho_Hans", "zho_Hansx", "xzho_Hans",
    "word <mask> word", "word<mask>word", "  <mask>  ", "<s> bos </s> eos <pad> pad <unk> unk",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 and \U0001F600 and \u0300 combining", "\u2581 literal word-start mark \u2581\u2581",
    "x\u2581y", "multiple     spaces\u3000ideographic space", "<x1/><x2/><g1></g1>", "<x99/> <g17>",
]


@pytest.fixture(scope="module", params=FAMILY_NAMES)
def pair(request: pytest.FixtureRequest) -> tuple[Any, MarianSpmTokenizer, dict[str, Any]]:
    family = request.param
    hf = AutoTokenizer.from_pretrained(family_hf_model(family), use_fast=False)
    model_dir = family_onnx_model(family)
    settings = json.loads((model_dir / "generation.json").read_text(encoding="utf-8"))
    return hf, MarianSpmTokenizer(model_dir, settings["tokenizer"], settings["vocab_size"]), settings


def texts() -> list[str]:
    return CORPUS + TRICKY + [s for s, _ in heldout_pairs(100)] + [t for _, t in heldout_pairs(60)]


def test_encode_matches_the_family_tokenizer(pair: tuple[Any, MarianSpmTokenizer, dict[str, Any]]) -> None:
    hf, ours, _ = pair
    for text in texts():
        assert ours.encode(text) == hf(text)["input_ids"], text[:60]
        assert ours.tokenize(text) == hf.tokenize(text), text[:60]


def test_source_starts_with_the_english_token(pair: tuple[Any, MarianSpmTokenizer, dict[str, Any]]) -> None:
    hf, ours, settings = pair
    ids = ours.encode("Hello")
    assert hf.convert_ids_to_tokens(ids[0]) in ("__en__", "eng_Latn")
    assert ids[-1] == hf.eos_token_id
    assert settings["tokenizer"]["source_prefix_ids"] == [ids[0]]


def test_decode_matches_skip_special_tokens(pair: tuple[Any, MarianSpmTokenizer, dict[str, Any]]) -> None:
    hf, ours, settings = pair
    vocab = settings["vocab_size"]
    sequences = [hf(t)["input_ids"] for t in texts()]
    sequences += [hf(text_target=t)["input_ids"] for _, t in heldout_pairs(60)]
    # Id soup: every id of the model once, specials and language tokens in the middle.
    sequences += [list(range(i, vocab, 97)) for i in range(97)]
    sequences += [[settings["forced_bos_token_id"], 5, hf.eos_token_id, 6], []]
    for ids in sequences:
        assert ours.decode(ids) == hf.decode(ids, skip_special_tokens=True), ids[:20]


def test_vocab_json_is_the_tokenizers_map(pair: tuple[Any, MarianSpmTokenizer, dict[str, Any]]) -> None:
    hf, ours, settings = pair
    for token, tid in hf.get_vocab().items():
        assert ours.encoder[token] == tid, token
    assert len(set(ours.encoder.values())) == settings["vocab_size"]  # every model id has its token
    assert Path(ours.model_dir / "source.spm").read_bytes() == Path(ours.model_dir / "target.spm").read_bytes()
