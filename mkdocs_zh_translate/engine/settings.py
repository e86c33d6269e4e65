"""Every value the engine reads from a model directory's JSON files, checked before use.

``generation.json`` and the vocabularies are hashed against ``manifest.json``, but a hash says
only that a file is unchanged since export, not that what it holds is usable: a ``max_length``
of ``1e9`` made the search allocate 29.8 GiB, a negative ``vocab_size`` or a ``vocab.json``
that is a list ended in tracebacks. Each value is checked here for its type (a float where an
integer belongs is an error, ``true`` is not a number) and a sane range, and the first wrong one
is reported as one line naming the file and the key. ``shared_initializers`` may only name a
file the manifest lists (so verified, and part of the fingerprint) and a byte range inside it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

from .errors import EngineError

#: Upper bounds far above any MarianMT (opus-mt: 65001 tokens, 512 positions, 6 layers).
MAX_VOCAB = 1 << 22
MAX_POSITIONS = 1 << 16
MAX_LAYERS = 256
MAX_HEADS = 1024
MAX_HEAD_DIM = 4096
MAX_BEAMS = 256
MAX_LENGTH_PENALTY = 100.0
#: ONNX Runtime's intra-op pool size is a C ``int`` (``--threads 99999999999`` raised its
#: ``TypeError``), and every thread is real: far more than any machine's cores only thrashes.
MAX_THREADS = 1024

#: Bytes per element of the dtypes an exported shared initializer may have.
DTYPE_SIZES = {"float32": 4, "float16": 2, "int8": 1, "uint8": 1, "int32": 4, "int64": 8}

TOKENIZER_FLAGS = ("lstrip", "rstrip", "single_word")


def _shown(value: Any) -> str:
    """A short excerpt of a wrong value for the message (never a whole file)."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


class _Checker:
    """Type and range checks of one JSON file's values; errors name the file and the key."""

    def __init__(self, path: Path, hint: str) -> None:
        self.path = path
        self.hint = hint

    def fail(self, key: str, want: str, got: Any) -> NoReturn:
        raise EngineError(f"{self.path}: {key} must be {want}, got {_shown(got)}; {self.hint}")

    def missing(self, key: str) -> NoReturn:
        raise EngineError(f"{self.path}: {key} is missing; {self.hint}")

    def integer(self, value: Any, key: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(key, f"an integer from {low} to {high}", value)
        return value

    def number(self, value: Any, key: str, low: float, high: float) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or not low <= value <= high:
            self.fail(key, f"a number from {low:g} to {high:g}", value)
        return float(value)

    def flag(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            self.fail(key, "true or false", value)
        return value

    def text(self, value: Any, key: str, *, empty: bool = False) -> str:
        if not isinstance(value, str) or (not empty and not value):
            self.fail(key, "a string" if empty else "a non-empty string", value)
        return value

    def mapping(self, value: Any, key: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(key, "an object", value)
        return value

    def array(self, value: Any, key: str) -> list[Any]:
        if not isinstance(value, list):
            self.fail(key, "a list", value)
        return value

    def field(self, data: Mapping[str, Any], key: str, prefix: str = "") -> Any:
        if key not in data:
            self.missing(prefix + key)
        return data[key]


def check_settings(settings: dict[str, Any], path: Path, files: Mapping[str, Any], hint: str) -> dict[str, Any]:
    """``settings`` (the parsed ``generation.json`` at ``path``) when every value the engine reads
    is usable; ``files`` is the manifest's file list. Raises :class:`EngineError` naming the key."""
    c = _Checker(path, hint)
    vocab = c.integer(c.field(settings, "vocab_size"), "vocab_size", 1, MAX_VOCAB)
    positions = c.integer(c.field(settings, "max_position_embeddings"), "max_position_embeddings", 1, MAX_POSITIONS)
    c.integer(c.field(settings, "decoder_layers"), "decoder_layers", 1, MAX_LAYERS)
    c.integer(c.field(settings, "decoder_attention_heads"), "decoder_attention_heads", 1, MAX_HEADS)
    c.integer(c.field(settings, "head_dim"), "head_dim", 1, MAX_HEAD_DIM)
    for key in ("decoder_start_token_id", "eos_token_id", "pad_token_id"):
        c.integer(c.field(settings, key), key, 0, vocab - 1)
    for key in ("forced_eos_token_id", "forced_bos_token_id"):
        if settings.get(key) is not None:
            c.integer(settings[key], key, 0, vocab - 1)
    # Read with ``or`` defaults by the translator: null (or absent) means the default.
    if settings.get("max_length") is not None:
        c.integer(settings["max_length"], "max_length", 1, MAX_POSITIONS)
    if settings.get("min_length") is not None:
        c.integer(settings["min_length"], "min_length", 0, positions)
    if settings.get("num_beams") is not None:
        c.integer(settings["num_beams"], "num_beams", 1, MAX_BEAMS)
    if settings.get("max_topk") is not None:
        c.integer(settings["max_topk"], "max_topk", 1, vocab)
    if "length_penalty" in settings:
        c.number(settings["length_penalty"], "length_penalty", -MAX_LENGTH_PENALTY, MAX_LENGTH_PENALTY)
    if settings.get("early_stopping", False) not in (True, False, "never"):
        c.fail("early_stopping", 'true, false or "never"', settings["early_stopping"])
    if "renormalize_logits" in settings:
        c.flag(settings["renormalize_logits"], "renormalize_logits")
    for i, seq in enumerate(c.array(settings.get("bad_words_ids") or [], "bad_words_ids")):
        if not c.array(seq, f"bad_words_ids[{i}]"):
            c.fail(f"bad_words_ids[{i}]", "a non-empty list", seq)
        for j, token in enumerate(seq):
            c.integer(token, f"bad_words_ids[{i}][{j}]", 0, vocab - 1)
    _check_tokenizer(c, c.mapping(c.field(settings, "tokenizer"), "tokenizer"), vocab, files)
    for i, entry in enumerate(c.array(settings.get("shared_initializers") or [], "shared_initializers")):
        _check_shared(c, c.mapping(entry, f"shared_initializers[{i}]"), f"shared_initializers[{i}].", files)
    if settings.get("shortlist") is not None:
        _check_shortlist(c, c.mapping(settings["shortlist"], "shortlist"), vocab, files)
    return settings


#: The projection weights a shortlist export names: float32, and int8 (per-column quantised),
#: each with an output bias (MarianMT) or without one (M2M100, NLLB).
SHORTLIST_ROLES = ({"weight", "bias"}, {"weight", "bias", "scale", "zero_point"}, {"weight"},
                   {"weight", "scale", "zero_point"})


def _check_shortlist(c: _Checker, entries: dict[str, Any], vocab: int, files: Mapping[str, Any]) -> None:
    """The output projection's weights, by role: mapped like ``shared_initializers``, and shaped
    ``[d_model, vocab]`` (the weight) or ``[vocab]``, so a batch's columns are in range."""
    if set(entries) not in SHORTLIST_ROLES:
        c.fail("shortlist", "weight, maybe bias (and scale and zero_point for int8)", sorted(entries))
    for role, entry in entries.items():
        key = f"shortlist.{role}"
        _check_shared(c, c.mapping(entry, key), key + ".", files)
        shape = entry["shape"]
        if shape[-1] != vocab or len(shape) != (2 if role == "weight" else 1):
            c.fail(key + ".shape", f"[d_model, {vocab}]" if role == "weight" else f"[{vocab}]", shape)


def _check_tokenizer(c: _Checker, tok: dict[str, Any], vocab: int, files: Mapping[str, Any]) -> None:
    for key in ("unk_token", "eos_token", "pad_token"):
        c.text(c.field(tok, key, "tokenizer."), f"tokenizer.{key}")
    specials = c.array(c.field(tok, "all_special_tokens", "tokenizer."), "tokenizer.all_special_tokens")
    for i, token in enumerate(specials):
        c.text(token, f"tokenizer.all_special_tokens[{i}]")
    for key in ("separate_vocabs", "clean_up_tokenization_spaces"):
        if key in tok:
            c.flag(tok[key], f"tokenizer.{key}")
    if tok.get("separate_vocabs") and "target_vocab.json" not in files:
        c.fail("tokenizer.separate_vocabs", "false when manifest.json lists no target_vocab.json", True)
    if tok.get("target_prefix") is not None:
        c.text(tok["target_prefix"], "tokenizer.target_prefix")
    _check_language_tokens(c, tok, vocab)
    for tid, meta in c.mapping(tok.get("added_tokens") or {}, "tokenizer.added_tokens").items():
        key = f"tokenizer.added_tokens.{_shown(tid)}"
        if not tid.isascii() or not tid.isdigit() or int(tid) >= vocab:
            c.fail(key, f"keyed by a token id from 0 to {vocab - 1}", tid)
        c.text(c.field(c.mapping(meta, key), "content", key + "."), f"{key}.content")
        for flag in TOKENIZER_FLAGS:
            c.flag(c.field(meta, flag, key + "."), f"{key}.{flag}")


#: How an export may say its target pieces become text (``tokenizer.detokenize``).
DETOKENIZE = ("sentencepiece", "concatenate")


def _check_language_tokens(c: _Checker, tok: dict[str, Any], vocab: int) -> None:
    """The optional keys of a forced-BOS family's tokenizer (M2M100, NLLB): ids framing a
    source text and per variant the target language id, each a model id; the detokenising rule."""
    for key in ("source_prefix_ids", "source_suffix_ids"):
        for i, tid in enumerate(c.array(tok.get(key) or [], f"tokenizer.{key}")):
            c.integer(tid, f"tokenizer.{key}[{i}]", 0, vocab - 1)
    for variant, tid in c.mapping(tok.get("target_language_ids") or {}, "tokenizer.target_language_ids").items():
        c.integer(tid, f"tokenizer.target_language_ids.{_shown(variant)}", 0, vocab - 1)
    if tok.get("detokenize", DETOKENIZE[0]) not in DETOKENIZE:
        c.fail("tokenizer.detokenize", " or ".join(f'"{d}"' for d in DETOKENIZE), tok["detokenize"])
    for key in ("underline_to_space", "split_target_code"):
        if key in tok:
            c.flag(tok[key], f"tokenizer.{key}")


def _check_shared(c: _Checker, entry: dict[str, Any], key: str, files: Mapping[str, Any]) -> None:
    """A weight mapped from a file: only a file the manifest lists, only bytes inside it."""
    c.text(c.field(entry, "name", key), key + "name")
    name = c.field(entry, "file", key)
    if not isinstance(name, str) or name not in files:
        c.fail(key + "file", "a file that manifest.json lists", name)
    dtype = c.field(entry, "dtype", key)
    if dtype not in DTYPE_SIZES:
        c.fail(key + "dtype", f"one of {', '.join(DTYPE_SIZES)}", dtype)
    shape = c.array(c.field(entry, "shape", key), key + "shape")
    if not 1 <= len(shape) <= 4:
        c.fail(key + "shape", "a list of 1 to 4 dimensions", shape)
    count = 1
    for i, dim in enumerate(shape):
        count *= c.integer(dim, f"{key}shape[{i}]", 1, MAX_VOCAB)
    size = int(files[name].get("size", 0)) if isinstance(files[name], dict) else 0
    offset = c.integer(c.field(entry, "offset", key), key + "offset", 0, size)
    length = c.integer(c.field(entry, "length", key), key + "length", 0, size - offset)
    if length != count * DTYPE_SIZES[dtype]:
        c.fail(key + "length", f"{count * DTYPE_SIZES[dtype]} (the shape's size in bytes)", length)


def check_vocab(data: Any, path: Path, vocab_size: int, hint: str) -> dict[str, int]:
    """A ``vocab.json``: an object from token to an id below ``vocab_size``."""
    c = _Checker(path, hint)
    vocab = c.mapping(data, "the top level")
    ids = vocab.values()
    # One pass over the ids first; the key naming a token is built only to report a wrong one:
    # building it for each of opus-mt's 65001 entries (a json.dumps each) was 0.17 of the
    # 0.24 s the int8 model took to load (the tokenizer loads while the sessions are created).
    if all(type(tid) is int for tid in ids) and min(ids, default=0) >= 0 and max(ids, default=0) < vocab_size:
        return vocab
    for token, tid in vocab.items():
        c.integer(tid, f"the id of {_shown(token)}", 0, vocab_size - 1)
    return vocab


def check_threads(threads: int | None) -> None:
    """Refuse a thread count ONNX Runtime cannot take (from ``--threads``, ``threads:`` or
    ``zh_translate_threads``): one :class:`EngineError` line instead of ORT's ``TypeError``."""
    if threads is not None and not 1 <= threads <= MAX_THREADS:
        raise EngineError(f"threads must be from 1 to {MAX_THREADS}, got {threads}")
