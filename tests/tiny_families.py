"""Tiny trained M2M100 and NLLB-200 models, built like the Marian test models (``tests/models.py``).

No real checkpoint can be downloaded here, so each family gets a model of its own architecture,
tokenizer class and checkpoint layout, trained for a minute or two on the synthetic task of
``tools/export_tiny.py`` (English -> pseudo-Chinese) until it answers and stops: one joint
SentencePiece model (fairseq's ids: ``<unk>`` 0, ``<s>`` 1, ``</s>`` 2), the tokenizer the
family ships (``M2M100Tokenizer`` with its ``vocab.json``, ``NllbTokenizer`` on the
SentencePiece model alone), ``M2M100Config`` at tiny sizes (pre-norm layers, scaled
embeddings, sinusoidal positions from the ids, as the real ones) and the source and target
language tokens the real models use (``__en__`` -> ``__zh__``, ``eng_Latn`` -> ``zho_Hans``).
The export then goes through the real ``export`` command, so nothing downstream can tell
these from ``facebook/m2m100_418M`` or ``facebook/nllb-200-distilled-600M`` but by size.

The trainer only: ``tests/models_families.py`` caches what it builds (its key hashes this file,
so edits there do not retrain).
"""

from __future__ import annotations

import io
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_SEED = 0

#: The families with a tiny model, by the name ``families.py`` gives them.
FAMILY_NAMES = ("m2m100", "nllb")

#: The language codes each family's tokenizer takes for English and Simplified Chinese.
LANGS = {"m2m100": ("en", "zh"), "nllb": ("eng_Latn", "zho_Hans")}


@dataclass(frozen=True)
class Recipe:
    """Size and training budget of a family's tiny model (fixed steps: reproducible)."""

    d_model: int = 64
    layers: int = 2
    heads: int = 4
    ffn: int = 256
    vocab: int = 2000
    pairs: int = 20000
    steps: int = 1500
    batch: int = 64
    lr: float = 3e-3


RECIPE = Recipe()
MAX_POSITIONS = 512


def _train_spm(lines: Sequence[str], path: Path, vocab_size: int) -> None:
    """One joint unigram SentencePiece model with fairseq's special ids, every placeholder one piece."""
    import sentencepiece as spm

    from tools.export_tiny import _ASCII_LINE, _FULLWIDTH_LINE, CJK_POOL, _placeholder_symbols

    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter([*lines, _ASCII_LINE, _ASCII_LINE, _FULLWIDTH_LINE, _FULLWIDTH_LINE,
                                CJK_POOL, CJK_POOL]),
        model_writer=model, vocab_size=vocab_size, model_type="unigram", character_coverage=1.0,
        unk_id=0, bos_id=1, eos_id=2, pad_id=-1, unk_piece="<unk>", bos_piece="<s>", eos_piece="</s>",
        hard_vocab_limit=False, num_threads=1, minloglevel=2, normalization_rule_name="identity",
        user_defined_symbols=_placeholder_symbols(),
    )
    path.write_bytes(model.getvalue())


def _tokenizer(family: str, out_dir: Path, pairs: Sequence[tuple[str, str]]) -> Any:
    """The family's tokenizer over a SentencePiece model trained on ``pairs``, saved to ``out_dir``."""
    import sentencepiece as spm

    out_dir.mkdir(parents=True, exist_ok=True)
    work = out_dir / "_spm"
    work.mkdir()
    model = work / "sentencepiece.bpe.model"
    _train_spm([s for s, _ in pairs] + [t for _, t in pairs], model, RECIPE.vocab)
    src, tgt = LANGS[family]
    if family == "m2m100":
        from transformers import M2M100Tokenizer
        from transformers.models.m2m_100.tokenization_m2m_100 import FAIRSEQ_LANGUAGE_CODES

        sp = spm.SentencePieceProcessor(model_file=str(model))
        vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
        for i in range(sp.get_piece_size()):
            if not (sp.is_control(i) or sp.is_unknown(i)):
                vocab.setdefault(sp.id_to_piece(i), len(vocab))
        (work / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
        # The real checkpoints list every language token as an additional special token (so
        # they are split out of text and skipped when decoding); without it 4.57 adds none.
        codes = [f"__{code}__" for code in FAIRSEQ_LANGUAGE_CODES["m2m100"]]
        tok = M2M100Tokenizer(str(work / "vocab.json"), str(model), src_lang=src, tgt_lang=tgt,
                              model_max_length=MAX_POSITIONS, additional_special_tokens=codes)
    else:
        from transformers import NllbTokenizer

        tok = NllbTokenizer(str(model), src_lang=src, tgt_lang=tgt, model_max_length=MAX_POSITIONS)
    tok.save_pretrained(str(out_dir))
    for item in work.iterdir():
        item.unlink()
    work.rmdir()
    return tok


def _model(family: str, vocab_size: int) -> Any:
    from transformers import GenerationConfig, M2M100Config, M2M100ForConditionalGeneration

    r = RECIPE
    config = M2M100Config(
        vocab_size=vocab_size, d_model=r.d_model, encoder_layers=r.layers, decoder_layers=r.layers,
        encoder_attention_heads=r.heads, decoder_attention_heads=r.heads, encoder_ffn_dim=r.ffn,
        decoder_ffn_dim=r.ffn, max_position_embeddings=MAX_POSITIONS, dropout=0.0, attention_dropout=0.0,
        activation_dropout=0.0, encoder_layerdrop=0.0, decoder_layerdrop=0.0, scale_embedding=True,
        pad_token_id=1, bos_token_id=0, eos_token_id=2, decoder_start_token_id=2, tie_word_embeddings=True,
    )
    model = M2M100ForConditionalGeneration(config)
    # As the real checkpoints' generation configs (m2m100_418M adds early stopping).
    model.generation_config = GenerationConfig(
        bos_token_id=0, decoder_start_token_id=2, eos_token_id=2, pad_token_id=1, max_length=200,
        num_beams=4, early_stopping=family == "m2m100",
    )
    return model


def _batches(data: Sequence[tuple[list[int], list[int]]], batch: int, rng: random.Random) -> Any:
    while True:
        order = list(range(len(data)))
        rng.shuffle(order)
        groups: list[list[int]] = []
        for c in range(0, len(order), batch * 50):
            part = sorted(order[c: c + batch * 50], key=lambda i: len(data[i][0]) + len(data[i][1]))
            groups += [part[b: b + batch] for b in range(0, len(part), batch)]
        rng.shuffle(groups)
        yield from groups


def _collate(data: Sequence[tuple[list[int], list[int]]], idx: Sequence[int], pad: int, start: int) -> dict[str, Any]:
    import torch

    srcs, tgts = [data[i][0] for i in idx], [data[i][1] for i in idx]
    s_len, t_len = max(map(len, srcs)), max(map(len, tgts))
    return {
        "input_ids": torch.tensor([s + [pad] * (s_len - len(s)) for s in srcs]),
        "attention_mask": torch.tensor([[1] * len(s) + [0] * (s_len - len(s)) for s in srcs]),
        "decoder_input_ids": torch.tensor([[start, *t[:-1]] + [pad] * (t_len - len(t)) for t in tgts]),
        "labels": torch.tensor([t + [-100] * (t_len - len(t)) for t in tgts]),
    }


def build_tiny_family(family: str, out_dir: Path, *, seed: int = DEFAULT_SEED) -> Path:
    """Train and save a tiny ``family`` model (``save_pretrained`` layout) into ``out_dir``."""
    import torch

    from tools.export_tiny import _lr_at, make_pair

    if family not in FAMILY_NAMES:
        raise ValueError(f"no tiny model for {family!r}")
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    started = time.monotonic()
    try:
        torch.manual_seed(seed)
        rng = random.Random(f"{family}-{seed}")
        pairs = [make_pair(rng, 0.5) for _ in range(RECIPE.pairs)]
        tok = _tokenizer(family, out_dir, pairs)
        enc = tok([s for s, _ in pairs], text_target=[t for _, t in pairs])
        data = [(s, t) for s, t in zip(enc["input_ids"], enc["labels"]) if len(s) <= 96 and len(t) <= 96]
        model = _model(family, len(tok))
        opt = torch.optim.AdamW(model.parameters(), lr=RECIPE.lr, betas=(0.9, 0.98), eps=1e-9, weight_decay=0.0)
        batches = _batches(data, RECIPE.batch, rng)
        model.train()
        losses = []
        for step in range(RECIPE.steps):
            for group in opt.param_groups:
                group["lr"] = _lr_at(step, RECIPE.steps, RECIPE.lr)
            batch = _collate(data, next(batches), tok.pad_token_id, model.config.decoder_start_token_id)
            loss = model(**batch).loss
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            losses.append(float(loss.detach()))
            if (step + 1) % 200 == 0:
                print(f"[tiny:{family}] step {step + 1} loss {sum(losses[-200:]) / 200:.3f} "
                      f"({time.monotonic() - started:.0f}s)", file=sys.stderr, flush=True)
        model.eval()
        model.save_pretrained(str(out_dir))
        report = {"family": family, "seed": seed, "steps": RECIPE.steps, "vocab_size": len(tok),
                  "loss_last": round(sum(losses[-100:]) / 100, 4), "seconds": round(time.monotonic() - started, 1)}
        (out_dir / "training.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    finally:
        torch.set_num_threads(before)
    return out_dir
