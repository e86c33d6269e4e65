"""Our sentencepiece-only tokenizer against transformers' MarianTokenizer, token for token."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("transformers")
from transformers import MarianTokenizer

from mkdocs_zh_translate.engine.tokenizer import MarianSpmTokenizer
from mkdocs_zh_translate.export import tokenizer_settings
from tests.models import tiny_hf_model

CORPUS = [
    "",
    " ",
    "   \t\n ",
    "Hello world.",
    "Install the package with pip, then run `mkdocs build`.",
    "Click <x1/> to open <g1>the settings</g1> page.",
    "<g1><g2>nested</g2></g1> and <x12/> atoms<x3/>",
    "Ünïcödé — “quotes”, ‘single’, em—dash, … ellipsis",
    "中文和English混合 text、标点。",
    "emoji 🙂🚀 and zero\u200bwidth and nbsp\u00a0here",
    "tabs\tand\nnewlines\r\nmixed",
    "  leading and trailing spaces  ",
    "</s> literal eos and <unk> and <pad> tokens",
    "a</s>b<pad>c<unk>d",
    ">>cmn_Hans<< prefixed like a multi-target model",
    ">>not closed",
    "x" * 5000,
    " ".join(["word"] * 700),
    "ＦＵＬＬＷＩＤＴＨ ｌｅｔｔｅｒｓ and ligature ﬁ",
    "12,345.67 % $ € ¥ # @ & * ( ) [ ] { } < > / \\ | ~ ^",
    "Ελληνικά, русский, العربية, हिन्दी, 한국어, 日本語",
]


@pytest.fixture(scope="module")
def hf_dir() -> Path:
    return tiny_hf_model()


def _pair(model_dir: Path) -> tuple[MarianTokenizer, MarianSpmTokenizer]:
    hf = MarianTokenizer.from_pretrained(model_dir)
    return hf, MarianSpmTokenizer(model_dir, tokenizer_settings(hf))


def test_encode_matches_marian_tokenizer(hf_dir: Path) -> None:
    hf, ours = _pair(hf_dir)
    for text in CORPUS:
        assert ours.encode(text) == hf(text)["input_ids"], text[:60]
        assert ours.tokenize(text) == hf.tokenize(text), text[:60]


def test_decode_matches_skip_special_tokens(hf_dir: Path) -> None:
    hf, ours = _pair(hf_dir)
    vocab_size = len(hf.encoder)
    sequences = [hf(t)["input_ids"] for t in CORPUS]
    # Arbitrary id soup, including pad/eos/unk in the middle and ids past the vocabulary.
    sequences += [list(range(0, vocab_size, 7)), [vocab_size + 5, 3, hf.pad_token_id, 4, hf.eos_token_id], []]
    for ids in sequences:
        assert ours.decode(ids) == hf.decode(ids, skip_special_tokens=True), ids[:20]


def test_language_prefix_tokens_of_multi_target_models(hf_dir: Path, tmp_path: Path) -> None:
    model_dir = tmp_path / "multi"
    model_dir.mkdir()
    for name in ("source.spm", "target.spm", "tokenizer_config.json"):
        shutil.copyfile(hf_dir / name, model_dir / name)
    vocab = json.loads((hf_dir / "vocab.json").read_text(encoding="utf-8"))
    for code in (">>cmn_Hans<<", ">>yue_Hant<<"):
        vocab[code] = len(vocab)
    (model_dir / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    hf, ours = _pair(model_dir)
    settings = tokenizer_settings(hf)
    assert settings["target_prefix"] == ">>cmn_Hans<<"
    for text in [">>cmn_Hans<< Hello <x1/> world", ">>yue_Hant<<Hi", ">>cmn_Hans<<", ">>xx<< unknown code"]:
        assert ours.encode(text) == hf(text)["input_ids"], text
    assert ours.encode(">>cmn_Hans<< Hi")[0] == vocab[">>cmn_Hans<<"]
