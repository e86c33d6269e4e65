"""MarianTokenizer's exact behaviour, rebuilt on sentencepiece + vocab.json alone.

transformers is not available at run time, yet the ids fed to the ONNX graphs must equal the
ids the model was trained and exported with, token for token. So this module repeats the slow
tokenizer's algorithm step by step: split out added (special) tokens, strip a leading
``>>lang<<`` code, encode with the *source* SentencePiece model, map pieces through
``vocab.json`` with ``<unk>`` fallback, append EOS; and for decoding skip special ids and join
pieces with the *target* SentencePiece model the way ``decode(skip_special_tokens=True)`` does.

M2M100's and NLLB's tokenizers are the same algorithm with other data, which ``export`` writes to
``generation.json``: the ids around a text's pieces (``source_prefix_ids``, ``source_suffix_ids``:
``__en__`` … ``</s>`` instead of Marian's bare ``</s>``), ``vocab.json`` as the tokenizer's own
piece -> id map, and how pieces become text (``detokenize``, ``underline_to_space``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sentencepiece

from ..model_format import recreate_hint
from .errors import EngineError
from .settings import MAX_VOCAB, check_vocab

SPIECE_UNDERLINE = "\u2581"


@dataclass(frozen=True)
class _AddedToken:
    content: str
    lstrip: bool
    rstrip: bool
    single_word: bool


class MarianSpmTokenizer:
    """Encode source text to model ids and decode target ids to text, as MarianTokenizer does."""

    def __init__(self, model_dir: Path, settings: dict[str, Any], vocab_size: int = MAX_VOCAB) -> None:
        """``settings``: generation.json's ``tokenizer`` object; ids in the vocabularies must be
        below ``vocab_size`` (the model's embedding rows)."""
        self.model_dir = Path(model_dir)
        # The vocabularies first: JSON checked for types and ranges, before any native loader.
        self.encoder: dict[str, int] = _load_vocab(model_dir / "vocab.json", vocab_size)
        if settings.get("separate_vocabs"):
            target_vocab = _load_vocab(model_dir / "target_vocab.json", vocab_size)
        else:
            target_vocab = self.encoder
        self._target_vocab = target_vocab  # piece -> id on the output side (the shortlist's look-ups)
        self.decoder: dict[int, str] = dict(zip(target_vocab.values(), target_vocab))
        self.unk_token: str = settings["unk_token"]
        self.eos_token: str = settings["eos_token"]
        self.pad_token: str = settings["pad_token"]
        for token in (self.unk_token, self.eos_token):
            if token not in self.encoder:
                raise EngineError(f"{model_dir / 'vocab.json'}: has no {token!r} entry; {recreate_hint(model_dir)}")
        try:
            self._src = sentencepiece.SentencePieceProcessor(model_file=str(model_dir / "source.spm"))
            self._tgt = sentencepiece.SentencePieceProcessor(model_file=str(model_dir / "target.spm"))
        except (OSError, RuntimeError) as exc:
            raise EngineError(f"{model_dir}: cannot load the SentencePiece models: {exc}") from None
        self._source_pieces: dict[int, str] | None = None  # built on first use (the shortlist)
        self.unk_id = self.encoder[self.unk_token]
        self.eos_id = self.encoder[self.eos_token]
        # The ids around a text's pieces: none before and EOS after unless the export says
        # otherwise (a source language token first: M2M100, NLLB).
        self.prefix_ids: list[int] = [int(i) for i in settings.get("source_prefix_ids") or []]
        suffix = settings.get("source_suffix_ids")
        self.suffix_ids: list[int] = [self.eos_id] if suffix is None else [int(i) for i in suffix]
        self._concatenate = settings.get("detokenize", "sentencepiece") == "concatenate"
        self._underline = bool(settings.get("underline_to_space", True))
        self._split_code = bool(settings.get("split_target_code", True))
        self.all_special_tokens: frozenset[str] = frozenset(settings["all_special_tokens"])
        self.clean_up_spaces: bool = bool(settings.get("clean_up_tokenization_spaces", False))
        added = settings.get("added_tokens", {})
        self._added: dict[str, _AddedToken] = {
            meta["content"]: _AddedToken(meta["content"], meta["lstrip"], meta["rstrip"], meta["single_word"])
            for meta in added.values()
        }
        self._added_ids: dict[str, int] = {meta["content"]: int(i) for i, meta in added.items()}
        # Longest first, so a token that is a prefix of another never wins (HF's trie does the same).
        contents = sorted(self._added, key=len, reverse=True)
        self._split_re = re.compile("(" + "|".join(map(re.escape, contents)) + ")") if contents else None
        self.special_ids: frozenset[int] = frozenset(
            tid for tok, tid in self._added_ids.items() if tok in self.all_special_tokens
        ) | frozenset(self.encoder[t] for t in self.all_special_tokens if t in self.encoder)

    # --- encoding -------------------------------------------------------------------------
    def _split_added(self, text: str) -> list[str]:
        """Split ``text`` around added tokens, applying their lstrip/rstrip/single_word flags."""
        if self._split_re is None:
            return [text]
        # re.split with one group alternates text, token, text, ...: odd indexes are tokens.
        tokens = self._split_re.split(text)
        is_added = [i % 2 == 1 for i in range(len(tokens))]
        for i, tok in enumerate(tokens):
            if not is_added[i]:
                continue
            meta = self._added[tok]
            left = tokens[i - 1] if i > 0 else None
            right = tokens[i + 1] if i < len(tokens) - 1 else None
            if meta.rstrip and right:
                tokens[i + 1] = right.lstrip()
            if meta.lstrip and left:
                tokens[i - 1] = left.rstrip()
            if meta.single_word and left and left[-1] != " ":
                tokens[i - 1] += tok
                tokens[i] = ""
            elif meta.single_word and right and right[0] != " ":
                tokens[i + 1] = tok + tokens[i + 1]
                tokens[i] = ""
        out = []
        for i, tok in enumerate(tokens):
            if tok:
                out.append(("\x00" if is_added[i] else "") + tok)
        return out

    def tokenize(self, text: str) -> list[str]:
        """The pieces MarianTokenizer.tokenize(text) returns."""
        pieces: list[str] = []
        for chunk in self._split_added(text):
            if chunk.startswith("\x00"):
                pieces.append(chunk[1:])
                continue
            code: list[str] = []
            if self._split_code and chunk.startswith(">>"):
                end = chunk.find("<<")
                if end != -1:
                    code = [chunk[: end + 2]]
                    chunk = chunk[end + 2 :]
            pieces.extend(code)
            pieces.extend(self._src.encode(chunk, out_type=str))
        return pieces

    def encode(self, text: str) -> list[int]:
        """Model input ids: the prefix ids, pieces through vocab.json (unknown -> <unk>), then
        the suffix ids (EOS)."""
        ids = list(self.prefix_ids)
        for piece in self.tokenize(text):
            if piece in self._added_ids:
                ids.append(self._added_ids[piece])
            else:
                ids.append(self.encoder.get(piece, self.unk_id))
        ids.extend(self.suffix_ids)
        return ids

    # --- the target side as pieces (the vocabulary shortlist) ----------------------------------
    def target_pieces_by_score(self) -> list[str]:
        """The target SentencePiece model's pieces, highest unigram score first (its scores are
        log-probabilities learnt on the training text: a frequency ranking any Marian model has
        offline)."""
        tgt = self._tgt
        order = sorted(range(tgt.get_piece_size()), key=lambda i: -tgt.get_score(i))
        return [tgt.id_to_piece(i) for i in order]

    def target_id(self, piece: str) -> int | None:
        """The model id of a target piece, None when the target vocabulary lacks it."""
        return self._target_vocab.get(piece)

    def source_piece(self, tid: int) -> str | None:
        """The source piece of model input id ``tid`` (None for an id vocab.json lacks)."""
        if self._source_pieces is None:
            self._source_pieces = {i: piece for piece, i in self.encoder.items()}
        return self._source_pieces.get(tid)

    def target_pieces(self, text: str) -> list[str]:
        """``text`` cut into pieces by the *target* SentencePiece model."""
        return list(self._tgt.encode(text, out_type=str))

    # --- decoding -------------------------------------------------------------------------
    def decode(self, ids: Sequence[int]) -> str:
        """The tokenizer's decode(ids, skip_special_tokens=True): the pieces decoded by the
        SentencePiece model (MarianTokenizer, M2M100Tokenizer) or concatenated (NllbTokenizer),
        word-start marks then turned into spaces (not M2M100's), stripped."""
        tokens = []
        for i in ids:
            i = int(i)
            if i in self.special_ids:
                continue
            tok = self.decoder.get(i, self.unk_token)
            if tok in self.all_special_tokens:
                continue
            tokens.append(tok)
        if not tokens:
            text = ""
        else:
            text = "".join(tokens) if self._concatenate else self._tgt.decode_pieces(tokens)
            text = (text.replace(SPIECE_UNDERLINE, " ") if self._underline else text).strip()
        if self.clean_up_spaces:
            text = _clean_up_tokenization(text)
        return text


def _clean_up_tokenization(text: str) -> str:
    """transformers' clean_up_tokenization (only used when the tokenizer config asks for it)."""
    for a, b in ((" .", "."), (" ?", "?"), (" !", "!"), (" ,", ","), (" ' ", "'"), (" n't", "n't"),
                 (" 'm", "'m"), (" 's", "'s"), (" 've", "'ve"), (" 're", "'re")):
        text = text.replace(a, b)
    return text


def _load_vocab(path: Path, vocab_size: int) -> dict[str, int]:
    hint = recreate_hint(path.parent)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise EngineError(f"{path}: missing; {hint}") from None
    except (OSError, ValueError) as exc:
        raise EngineError(f"{path}: unreadable: {exc}; {hint}") from None
    return check_vocab(data, path, vocab_size, hint)
