"""Random-weight checkpoints with the exact shapes of the models the guide compares, built offline.

No real weights can be downloaded here, and speed does not depend on what the weights say: a
model with the real layer counts, widths and vocabulary runs the same matrix products. Each
builder writes a ``save_pretrained`` directory as the Hub's would look (config, generation
config, weights, the tokenizer files transformers saves for that family), so ``export`` and
CTranslate2's converter read it exactly as they would read the real model:

- ``marian``: Helsinki-NLP/opus-mt-en-zh: 6+6 layers, d_model 512, 8 heads, FFN 2048, vocab
  65001 (swish, sinusoidal positions, tied embeddings).
- ``m2m100``: facebook/m2m100_418M: 12+12 layers, d_model 1024, 16 heads, FFN 4096, vocab
  128112 (relu, pre-norm, sinusoidal positions with offset 2); generation: 5 beams, max 200.
- ``nllb``: facebook/nllb-200-distilled-600M: the same layers, vocab 256206, NllbTokenizer;
  generation: max 200 (greedy: the Hub's generation config sets no beams).

(The shapes are those of the Hub's ``config.json`` files: M2M100Config's defaults are
m2m100_418M's; NLLB-600M differs only in ``vocab_size`` and its tokenizer class.)

The tokenizers come from a SentencePiece model trained on a small made-up corpus (400 words)
and padded with filler pieces to the real piece count, so every id of the vocabulary is a
piece both tokenizers and CTranslate2's vocabulary know, and the language codes land on the
real ids (``__zh__`` 128102, ``zho_Hans`` 256200). The sources are made of the trained words.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

FAMILIES = ("marian", "m2m100", "nllb")

#: What each family's real checkpoint says (the Hub's config.json and generation_config.json).
SHAPES: dict[str, dict[str, Any]] = {
    "marian": dict(vocab_size=65001, d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8,
                   decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048,
                   max_position_embeddings=512),
    "m2m100": dict(vocab_size=128112, d_model=1024, encoder_layers=12, decoder_layers=12,
                   encoder_attention_heads=16, decoder_attention_heads=16, encoder_ffn_dim=4096,
                   decoder_ffn_dim=4096, max_position_embeddings=1024),
    "nllb": dict(vocab_size=256206, d_model=1024, encoder_layers=12, decoder_layers=12,
                 encoder_attention_heads=16, decoder_attention_heads=16, encoder_ffn_dim=4096,
                 decoder_ffn_dim=4096, max_position_embeddings=1024),
}

#: The Hub name each shape stands for (for tables).
HUB_NAMES = {"marian": "Helsinki-NLP/opus-mt-en-zh", "m2m100": "facebook/m2m100_418M",
             "nllb": "facebook/nllb-200-distilled-600M"}

#: SentencePiece pieces in the real models (M2M100: 128,000 + 4 fairseq specials in vocab.json;
#: NLLB: 256,000 + offset 1, then 202 language codes and <mask>).
M2M100_PIECES = 128000
NLLB_PIECES = 256000
WORDS = 400


def words() -> list[str]:
    """The made-up words the SentencePiece models are trained on and the benchmark's sources use."""
    return [f"w{i}" for i in range(WORDS)]


def build(family: str, out: Path) -> Path:
    """The ``save_pretrained`` directory of ``family``'s shape in ``out`` (built once)."""
    if (out / "config.json").is_file() and any(out.glob("*.safetensors")):
        return out
    out.mkdir(parents=True, exist_ok=True)
    {"marian": _marian, "m2m100": _m2m100, "nllb": _nllb}[family](out)
    return out


def _train_spm(out: Path, name: str, size: int, **options: Any) -> Path:
    """A SentencePiece model trained on the made-up corpus, padded with filler pieces to ``size``."""
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2 as pb

    rnd = random.Random(0)
    vocab = words()
    corpus = out / "corpus.txt"
    corpus.write_text("\n".join(" ".join(rnd.choice(vocab) for _ in range(12)) for _ in range(4000)))
    prefix = out / "spm-train"
    spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(prefix), vocab_size=300, minloglevel=2,
                                   **options)
    corpus.unlink()
    Path(f"{prefix}.vocab").unlink()
    proto = pb.ModelProto()
    proto.ParseFromString(Path(f"{prefix}.model").read_bytes())
    Path(f"{prefix}.model").unlink()
    lowest = min(p.score for p in proto.pieces)
    while len(proto.pieces) < size:
        piece = proto.pieces.add()
        piece.piece, piece.score = f"\u2581x{len(proto.pieces)}", lowest - 1.0
    path = out / name
    path.write_bytes(proto.SerializeToString())
    return path


def _save_model(model: Any, out: Path) -> None:
    import torch

    torch.manual_seed(0)
    model.save_pretrained(out)


def _marian(out: Path) -> None:
    """opus-mt-en-zh's shape: one SentencePiece model per side (here the same), vocab.json with
    ``</s>`` 0, ``<unk>`` 1, the pieces, fillers, ``<pad>`` last (65000)."""
    import torch
    from transformers import MarianConfig, MarianMTModel, MarianTokenizer

    shape = SHAPES["marian"]
    pad = shape["vocab_size"] - 1
    spm_path = _train_spm(out, "source.spm", 300, bos_id=-1, eos_id=-1, pad_id=-1, unk_id=0, unk_piece="<unk>")
    (out / "target.spm").write_bytes(spm_path.read_bytes())
    import sentencepiece as spm

    sp = spm.SentencePieceProcessor(model_file=str(spm_path))
    vocab = {"</s>": 0, "<unk>": 1}
    for i in range(sp.get_piece_size()):
        vocab.setdefault(sp.id_to_piece(i), len(vocab))
    while len(vocab) < pad:
        vocab[f"\u2581x{len(vocab)}"] = len(vocab)
    vocab["<pad>"] = pad
    (out / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False))
    MarianTokenizer(str(out / "source.spm"), str(out / "target.spm"), str(out / "vocab.json"),
                    source_lang="en", target_lang="zh").save_pretrained(out)
    config = MarianConfig(**shape, activation_function="swish", scale_embedding=True, pad_token_id=pad,
                          eos_token_id=0, decoder_start_token_id=pad, forced_eos_token_id=0,
                          share_encoder_decoder_embeddings=True)
    torch.manual_seed(0)
    model = MarianMTModel(config)
    model.generation_config.update(bad_words_ids=[[pad]], num_beams=4, max_length=512)
    model.save_pretrained(out)


def _m2m100(out: Path) -> None:
    """m2m100_418M's shape: vocab.json (the 4 fairseq specials, then the pieces), the 100
    language tokens after it, 8 made-up words up to 128112."""
    import torch
    from transformers import M2M100Config, M2M100ForConditionalGeneration, M2M100Tokenizer

    # the model's own <unk>, <s>, </s> are the fairseq specials already in vocab.json
    spm_path = _train_spm(out, "sentencepiece.bpe.model", M2M100_PIECES + 3, model_type="bpe")
    import sentencepiece as spm

    sp = spm.SentencePieceProcessor(model_file=str(spm_path))
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for i in range(sp.get_piece_size()):
        vocab.setdefault(sp.id_to_piece(i), len(vocab))
    (out / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False))
    # The Hub's tokenizer files list the language tokens as additional special tokens (a new
    # M2M100Tokenizer in transformers 4.57 saves none); CTranslate2's vocabulary takes them from there.
    from transformers.models.m2m_100.tokenization_m2m_100 import FAIRSEQ_LANGUAGE_CODES

    languages = [f"__{code}__" for code in FAIRSEQ_LANGUAGE_CODES["m2m100"]]
    M2M100Tokenizer(str(out / "vocab.json"), str(spm_path), src_lang="en", tgt_lang="zh",
                    additional_special_tokens=languages).save_pretrained(out)
    config = M2M100Config(**SHAPES["m2m100"], activation_function="relu", scale_embedding=True, pad_token_id=1,
                          bos_token_id=0, eos_token_id=2, decoder_start_token_id=2)
    torch.manual_seed(0)
    model = M2M100ForConditionalGeneration(config)
    model.generation_config.update(num_beams=5, max_length=200, early_stopping=True)
    model.save_pretrained(out)


def _nllb(out: Path) -> None:
    """nllb-200-distilled-600M's shape: NllbTokenizer over a 256,000-piece model (ids = piece + 1),
    the 202 language codes, ``<mask>``; the fast tokenizer's tokenizer.json beside it, as on the Hub."""
    import torch
    from transformers import M2M100Config, M2M100ForConditionalGeneration

    spm_path = _train_spm(out, "sentencepiece.bpe.model", NLLB_PIECES, model_type="bpe")
    nllb_tokenizer(out, spm_path)
    config = M2M100Config(**SHAPES["nllb"], activation_function="relu", scale_embedding=True, pad_token_id=1,
                          bos_token_id=0, eos_token_id=2, decoder_start_token_id=2, tokenizer_class="NllbTokenizer")
    torch.manual_seed(0)
    model = M2M100ForConditionalGeneration(config)
    model.generation_config.update(max_length=200)
    model.save_pretrained(out)


def nllb_tokenizer(out: Path, spm_path: Path) -> None:
    """NllbTokenizer's files with the Hub's ids: a new NllbTokenizer in transformers 4.57 adds
    ``<mask>`` before the language codes (``zho_Hans`` 256201); the Hub's has it last (256203,
    ``zho_Hans`` 256200), so it is added afterwards here."""
    from transformers import AddedToken, NllbTokenizer, NllbTokenizerFast

    slow = NllbTokenizer(str(spm_path), src_lang="eng_Latn", tgt_lang="zho_Hans", mask_token=None)
    slow.add_special_tokens({"mask_token": AddedToken("<mask>", lstrip=True, normalized=True, special=True)})
    slow.save_pretrained(out)
    NllbTokenizerFast.from_pretrained(out, src_lang="eng_Latn", tgt_lang="zho_Hans").save_pretrained(out)


def convert_ct2(hf: Path, out: Path) -> Path:
    """CTranslate2's own conversion of the checkpoint (int8 weights), once."""
    if (out / "model.bin").is_file():
        return out
    import ctranslate2.converters

    ctranslate2.converters.TransformersConverter(str(hf)).convert(str(out), quantization="int8", force=True)
    return out
