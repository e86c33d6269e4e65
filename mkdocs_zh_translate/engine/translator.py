"""``OnnxTranslator``: text in, text out, over an exported model directory.

It glues the pieces: tokenizer -> length buckets -> encoder -> beam/greedy search -> decode,
with identical inputs translated once and inputs longer than the model's positions split
into chunks (never truncated).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np

from ..model_format import (
    ALIGNER_FILE,
    DECODER_DATA_FILE,
    DECODER_FILE,
    ENCODER_DATA_FILE,
    ENCODER_FILE,
    EXPORT_HINT,
    FORMAT_VERSION,
    GENERATION_FILE,
    MANIFEST_FILE,
    recreate_hint,
)
from ..model_integrity import ModelIntegrityError, verify_model
from ..scored import ScoredText, lowest
from .align import Aligned, source_spans, target_bounds, target_words
from .batching import dedupe, plan_batches
from .beam import MAX_FILTERED_BANS, NEG, Hypothesis, SearchOptions, beam_search, greedy_search
from .errors import EngineError
from .session import MarianSessions, concurrently, default_threads, make_session
from .settings import check_settings, check_threads
from .shortlist import Shortlister
from .tags import Constraint, TagAutomaton, TagVocab
from .terms import Constrained, TermVocab
from .tokenizer import SPIECE_UNDERLINE, MarianSpmTokenizer

# Every file the engine opens (beside target_vocab.json, which generation.json may ask for and
# then must be listed too, see settings.check_settings): each must be in the manifest.
REQUIRED_FILES = (MANIFEST_FILE, GENERATION_FILE, ENCODER_FILE, ENCODER_DATA_FILE, DECODER_FILE, DECODER_DATA_FILE,
                  "source.spm", "target.spm", "vocab.json")
SENTENCE_END = (".", "!", "?", ";", ":", "。", "！", "？", "；")


def _read_json(path: Path, model_dir: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise EngineError(f"{path}: unreadable ({exc}); re-create {model_dir} with `{EXPORT_HINT}`") from None


def check_model_dir(model_dir: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Validate an exported directory against its manifest and read its JSON. (The cache key
    of its translations is the pipeline's, ``spec.bind_cache``: the engine computes none.)"""
    if not model_dir.exists():
        hint = EXPORT_HINT.replace("DIR", str(model_dir))
        raise EngineError(f"{model_dir}: no such model directory; create it with `{hint}`")
    if not model_dir.is_dir():
        raise EngineError(f"{model_dir}: not a directory; create a model directory with `{EXPORT_HINT}`")
    missing = [name for name in REQUIRED_FILES if not (model_dir / name).is_file()]
    if missing:
        raise EngineError(
            f"{model_dir}: not a complete exported model (missing {', '.join(missing)}); "
            f"create it with `{EXPORT_HINT.replace('DIR', str(model_dir))}`"
        )
    manifest = _read_json(model_dir / MANIFEST_FILE, model_dir)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_VERSION:
        raise EngineError(
            f"{model_dir}: exported by another version of mkdocs-zh-translate; re-create it with `{EXPORT_HINT}`"
        )
    try:
        generation = (model_dir / GENERATION_FILE).read_bytes()
    except OSError as exc:
        raise EngineError(
            f"{model_dir / GENERATION_FILE}: unreadable ({exc}); re-create {model_dir} with `{EXPORT_HINT}`"
        ) from None
    try:
        # Every file against its sha256 (large ones once, remembered by size and mtime); the
        # settings are parsed from the very bytes that were hashed.
        verify_model(model_dir, manifest, REQUIRED_FILES, {GENERATION_FILE: generation})
    except ModelIntegrityError as exc:
        raise EngineError(str(exc)) from None
    try:
        settings = json.loads(generation.decode("utf-8"))
    except ValueError as exc:
        raise EngineError(
            f"{model_dir / GENERATION_FILE}: unreadable ({exc}); re-create {model_dir} with `{EXPORT_HINT}`"
        ) from None
    if not isinstance(settings, dict) or settings.get("format") != FORMAT_VERSION:
        raise EngineError(
            f"{model_dir}: exported by another version of mkdocs-zh-translate; re-create it with `{EXPORT_HINT}`"
        )
    check_settings(settings, model_dir / GENERATION_FILE, manifest["files"], recreate_hint(model_dir))
    return manifest, settings


class OnnxTranslator:
    """Translate with our ONNX Runtime engine; satisfies the Translator/NBestTranslator protocols."""

    name = "onnx"

    def __init__(
        self,
        model_dir: Path,
        *,
        num_beams: int | None = None,
        threads: int | None = None,
        max_batch_tokens: int | None = None,
        max_new_tokens: int | None = None,
        min_new_tokens: int | None = None,
        providers: list[str] | None = None,
        max_batch_sentences: int | None = None,
        length_penalty: float | None = None,
        early_stopping: bool | str | None = None,
        renormalize_logits: bool | None = None,
        shortlist: int | None = None,
    ) -> None:
        """``shortlist``: project each step onto about this many frequent target pieces plus the
        batch's own (``shortlist.py``) instead of the whole vocabulary; 0 or None: off (exact)."""
        self.model_dir = Path(model_dir)
        check_threads(threads)  # before any file is read: a bad count is the user's typo, not the model's
        manifest, settings = check_model_dir(self.model_dir)
        self.settings = settings
        self._manifest = manifest
        self._threads = threads
        self._providers = providers
        self._aligner: Any = None  # aligner.onnx's session, loaded on first use
        for label, value in (("num_beams", num_beams), ("max_batch_tokens", max_batch_tokens),
                             ("max_new_tokens", max_new_tokens), ("max_batch_sentences", max_batch_sentences)):
            if value is not None and value < 1:
                raise EngineError(f"{label} must be at least 1, got {value}")
        if min_new_tokens is not None and min_new_tokens < 0:
            raise EngineError(f"min_new_tokens must be >= 0, got {min_new_tokens}")
        self.num_beams = int(num_beams or settings.get("num_beams") or 1)
        # 1024 source tokens (~14 sentences of 70 tokens, ×beams rows): on the opus-mt-shaped
        # benchmark 64 lines translate no slower than at 2048 (5.29 vs 5.64 CPU s) and the
        # translate CLI's peak RSS drops by about a quarter (the KV caches scale with rows).
        self.max_batch_tokens = int(max_batch_tokens or 1024)
        self.max_batch_sentences = int(max_batch_sentences or 64)
        self.max_positions = int(settings["max_position_embeddings"])
        max_length = int(settings.get("max_length") or self.max_positions)
        if max_new_tokens is not None:
            max_length = max_new_tokens + 1  # lengths count the decoder start token
        self.max_length = min(max_length, self.max_positions)
        min_length = int(settings.get("min_length") or 0)
        if min_new_tokens is not None:
            min_length = min_new_tokens + 1
        self.min_length = min_length
        self.target_prefix: str | None = settings["tokenizer"].get("target_prefix")
        if renormalize_logits is None:
            renormalize_logits = settings.get("renormalize_logits", False)
        renormalize = bool(renormalize_logits)
        # The tokenizer (Python, holds the GIL) loads while the sessions are created in C++.
        self.tokenizer, self.sessions = concurrently(
            lambda: MarianSpmTokenizer(self.model_dir, settings["tokenizer"], int(settings["vocab_size"])),
            lambda: MarianSessions(self.model_dir, settings, threads=threads or default_threads(),
                                   providers=providers, hint=EXPORT_HINT, renormalize=renormalize))
        early = settings.get("early_stopping", False) if early_stopping is None else early_stopping
        forced_eos = settings.get("forced_eos_token_id")
        forced_bos = settings.get("forced_bos_token_id")
        # Every option but the per-call ones (beams, n-best, renormalisation) that _options sets.
        self._base_options = SearchOptions(
            num_beams=self.num_beams,
            max_length=self.max_length,
            min_length=self.min_length,
            length_penalty=float(settings.get("length_penalty", 1.0) if length_penalty is None else length_penalty),
            early_stopping=early if early in (True, False, "never") else bool(early),
            decoder_start_id=int(settings["decoder_start_token_id"]),
            eos_id=int(settings["eos_token_id"]),
            pad_id=int(settings["pad_token_id"]),
            vocab_size=int(settings["vocab_size"]),
            forced_eos_id=None if forced_eos is None else int(forced_eos),
            forced_bos_id=None if forced_bos is None else int(forced_bos),
            bad_words_ids=tuple(tuple(int(t) for t in seq) for seq in settings.get("bad_words_ids") or ()),
        )
        self._tag_vocab: TagVocab | None = None
        self._term_vocab: TermVocab | None = None
        self.shortlister = self._shortlister(shortlist)

    def _shortlister(self, size: int | None) -> Shortlister | None:
        """The vocabulary shortlist's builder (``shortlist.py``) for ``size``, None when off."""
        if size is not None and (isinstance(size, bool) or size < 0):
            raise EngineError(f"shortlist must be 0 (off) or a number of target pieces, got {size}")
        if not size:
            return None
        if not self.sessions.supports_shortlist:
            raise EngineError(f"{self.model_dir}: this export cannot take a vocabulary shortlist (exported "
                              f"before it, or as fp16); set shortlist to 0, or {recreate_hint(self.model_dir)}")
        opts = self._base_options
        return Shortlister(self.tokenizer, int(size),
                           (opts.pad_id, opts.eos_id, opts.decoder_start_id, self.tokenizer.unk_id))

    # --- public API ---------------------------------------------------------------------
    def translate(self, texts: Sequence[str], *, tags: bool = False,
                  terms: Sequence[Sequence[str]] | None = None) -> list[str]:
        """One translation per text, same order."""
        return [alts[0] for alts in self.translate_nbest(texts, 1, tags=tags, terms=terms)]

    def translate_nbest(self, texts: Sequence[str], n: int, *, tags: bool = False,
                        terms: Sequence[Sequence[str]] | None = None) -> list[list[str]]:
        """Up to ``n`` distinct translations per text, best first (beams widen to at least ``n``).
        Each is a :class:`~..scored.ScoredText` carrying its hypothesis' score
        (``beam.Hypothesis``; a text translated in chunks: its lowest chunk's).

        Blank texts come back unchanged. A text longer than the model's positions is split and
        gets only its best translation. ``tags``: placeholder-constrained decoding (``tags.py``)
        for every text with well-formed ``<xN/>``/``<gN>…</gN>`` tags that fits in one chunk.
        ``terms``: per text, target strings its translation must hold (one entry per occurrence;
        ``terms.py``), for a text that fits in one chunk; a string the vocabulary cannot spell
        is not forced (see :meth:`can_force`).
        """
        if n < 1:
            raise ValueError("n must be at least 1")
        targets = _check_terms(terms, len(texts))
        keys = [t if targets is None or not targets[i] else f"{t}\x00{json.dumps(sorted(targets[i]))}"
                for i, t in enumerate(texts)]
        unique, where = dedupe(keys)
        first = {w: i for i, w in reversed(list(enumerate(where)))}
        out = self._translate_unique([texts[first[u]] for u in range(len(unique))], n, tags,
                                     None if targets is None else [targets[first[u]] for u in range(len(unique))])
        return [list(out[i]) for i in where]

    def token_ids(self, texts: Sequence[str], n: int = 1, *, tags: bool = False,
                  terms: Sequence[Sequence[str]] | None = None) -> list[list[Hypothesis]]:
        """Raw generated ids per text (no splitting): what parity tests compare with transformers."""
        encoded = [self.tokenizer.encode(self._with_prefix(t)) for t in texts]
        targets = _check_terms(terms, len(texts))
        if not tags and targets is None:
            return self._generate(encoded, n)
        return self._generate(encoded, n, [self._constraint(t, tags, None if targets is None else targets[i])
                                           for i, t in enumerate(texts)])

    def tag_vocab(self) -> TagVocab:
        """The target vocabulary as the tag automaton sees it (built once, on first use)."""
        if self._tag_vocab is None:
            tok = self.tokenizer
            pieces = [tok.decoder.get(i, tok.unk_token) for i in range(self._base_options.vocab_size)]
            special = [i for i, p in enumerate(pieces) if i in tok.special_ids or p in tok.all_special_tokens]
            self._tag_vocab = TagVocab.build(pieces, self._base_options.eos_id, special)
        return self._tag_vocab

    def term_vocab(self) -> TermVocab:
        """The target vocabulary as term constraints see it (built once, on first use)."""
        if self._term_vocab is None:
            self._term_vocab = TermVocab(self.tag_vocab())
        return self._term_vocab

    def can_force(self, target: str) -> bool:
        """Whether term-constrained decoding can force ``target`` (its pieces can spell it)."""
        return self.term_vocab().spellable(target)

    def _automaton(self, text: str) -> TagAutomaton | None:
        return TagAutomaton.for_source(self.tag_vocab(), text)

    def _constraint(self, text: str, tags: bool, targets: Sequence[str] | None) -> Constraint | None:
        """The constraint of one text: its tags (when ``tags``) and its terms (when any)."""
        auto = self._automaton(text) if tags else None
        term_auto = self.term_vocab().automaton(targets) if targets else None
        if term_auto is None:
            return auto
        return Constrained(auto, term_auto)

    def generate_ids(self, encoded: Sequence[Sequence[int]], n: int = 1,
                     tag_sources: Sequence[str] | None = None) -> list[list[Hypothesis]]:
        """Decode already-tokenised sources (ids ending in EOS); benchmarks feed ids directly.

        ``tag_sources``: per source, the text whose tags constrain its decoding (``tags.py``)."""
        automata = None if tag_sources is None else [self._automaton(t) for t in tag_sources]
        return self._generate([list(ids) for ids in encoded], n, automata)

    def translate_aligned(self, texts: Sequence[str], layers: Sequence[int] | None = None,
                          terms: Sequence[Sequence[str]] | None = None) -> list[Aligned | None]:
        """The best translation of each text with its alignment to the text (see ``align``);
        ``None`` for a blank text or one longer than the model's positions (it would be split).

        The translation is exactly the one :meth:`translate` returns, score included; the
        alignment costs one teacher-forced pass of ``aligner.onnx`` per batch. ``layers``: the
        decoder layers whose head-averaged cross-attention is averaged (default: the one before the last, the usual
        best for alignment of a 6-layer transformer such as opus-mt; the last one for models of
        one or two layers: on the 2-layer tagfree model it placed 85% of 384 tags exactly
        against 34% for the first layer and 82% for both averaged). ``terms``: as for
        :meth:`translate_nbest`."""
        count = int(self.settings["decoder_layers"])
        chosen = list(layers) if layers is not None else [count - 2 if count > 2 else count - 1]
        if not chosen or any(not 0 <= layer < count for layer in chosen):
            raise EngineError(f"alignment layers must be in 0..{count - 1}, got {chosen}")
        out: list[Aligned | None] = [None] * len(texts)
        jobs: list[list[int]] = []
        owners: list[int] = []
        wanted = _check_terms(terms, len(texts))
        constraints: list[Constraint | None] = []
        for i, text in enumerate(texts):
            if text.strip():
                ids = self.tokenizer.encode(self._with_prefix(text))
                if len(ids) <= self.max_positions:
                    jobs.append(ids)
                    owners.append(i)
                    constraints.append(self._constraint(text, False, wanted[i]) if wanted else None)
        eos = self._base_options.eos_id
        states: list[np.ndarray | None] = [None] * len(jobs)
        best = [h[0] if h else None for h in self._generate(jobs, 1, constraints if wanted else None, states)]
        targets = [[t for t in h.ids if t != eos] if h else [] for h in best]
        for j, attention in enumerate(self.attention(jobs, targets, states)):
            text = texts[owners[j]]
            pieces, skip = self._framed_pieces(text)
            decoded, bounds = target_bounds(targets[j], self.tokenizer.decode)
            hyp = best[j]
            scored = ScoredText(decoded, _finite(hyp.score) if hyp is not None else None)  # as translate's
            out[owners[j]] = Aligned(scored, source_spans(text, pieces, skip, len(jobs[j])), bounds,
                                     attention[chosen].mean(axis=0),
                                     target_words(self.tokenizer, self.tokenizer.decoder))
        return out

    def attention(self, sources: Sequence[Sequence[int]], targets: Sequence[Sequence[int]],
                  states: Sequence[np.ndarray | None] | None = None) -> list[np.ndarray]:
        """Cross-attention of a teacher-forced pass: per pair of source ids (EOS included) and
        target ids (EOS excluded), ``[decoder layers, len(target), len(source)]`` float32, heads
        averaged, row ``t`` from the step that produced target token ``t``.

        An aligner that reads encoder states (exports since it does) gets ``states`` (per
        source, from the search's encoder run: see :meth:`_generate`) or, where one is missing,
        the encoder's for the batch; an older one runs the encoder itself."""
        aligner = self.load_aligner()
        reads_states = "encoder_hidden_states" in {i.name for i in aligner.get_inputs()}
        pad, start = self._base_options.pad_id, self._base_options.decoder_start_id
        out: list[np.ndarray] = [np.zeros(0, dtype=np.float32)] * len(sources)
        lengths = [len(ids) + len(target) for ids, target in zip(sources, targets)]
        for batch in plan_batches(lengths, self.max_batch_tokens, self.max_batch_sentences):
            width = max(len(sources[j]) for j in batch)
            steps = max(1, max(len(targets[j]) for j in batch))
            input_ids = np.full((len(batch), width), pad, dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            decoder_ids = np.full((len(batch), steps), pad, dtype=np.int64)
            for row, j in enumerate(batch):
                input_ids[row, : len(sources[j])] = sources[j]
                mask[row, : len(sources[j])] = 1
                forced = [start, *targets[j][:-1]]
                decoder_ids[row, : len(forced)] = forced
            feeds: dict[str, np.ndarray] = {"attention_mask": mask, "decoder_input_ids": decoder_ids}
            if not reads_states:
                feeds["input_ids"] = input_ids
            elif states is not None and all(states[j] is not None for j in batch):
                kept = [cast(np.ndarray, states[j]) for j in batch]
                hidden = np.zeros((len(batch), width, kept[0].shape[-1]), dtype=np.float32)
                for row, state in enumerate(kept):
                    hidden[row, : len(state)] = state
                feeds["encoder_hidden_states"] = hidden
            elif not self.sessions.has_hidden:
                raise EngineError(f"{self.model_dir}: {ALIGNER_FILE} reads encoder states the encoder does not "
                                  f"output; {recreate_hint(self.model_dir)}")
            else:
                encoded: list[np.ndarray] = []
                self.sessions.encode(input_ids, mask, encoded)
                feeds["encoder_hidden_states"] = encoded[0]
            weights = aligner.run(None, feeds)[0]
            for row, j in enumerate(batch):
                out[j] = np.asarray(weights[row, :, : len(targets[j]), : len(sources[j])], dtype=np.float32)
        return out

    def load_aligner(self) -> Any:
        """``aligner.onnx``'s session, loaded (and verified against the manifest) on first use;
        an ``EngineError`` naming the directory when the export has none."""
        if self._aligner is None:
            if ALIGNER_FILE not in self._manifest.get("files", {}):
                raise EngineError(f"{self.model_dir}: exported without {ALIGNER_FILE} (needed to align "
                                  f"translations); {recreate_hint(self.model_dir)}")
            try:
                verify_model(self.model_dir, self._manifest, (ALIGNER_FILE,))
            except ModelIntegrityError as exc:
                raise EngineError(str(exc)) from None
            self._aligner = make_session(self.model_dir / ALIGNER_FILE, self._threads or default_threads(),
                                         self._providers, EXPORT_HINT)
        return self._aligner

    # --- internals ----------------------------------------------------------------------
    def _with_prefix(self, text: str) -> str:
        return f"{self.target_prefix} {text}" if self.target_prefix else text

    def _options(self, n: int) -> SearchOptions:
        beams = max(self.num_beams, n)
        # The graph's two-stage top-k returns at most max_topk entries per row; a step asks
        # for 2·beams plus the few banned ids it filters itself (see beam._Biases.query).
        max_topk = int(self.settings.get("max_topk") or self._base_options.vocab_size)
        if self.shortlister is not None:  # no batch's shortlist is smaller than its base
            max_topk = min(max_topk, int(self.shortlister.base.size))
        if 2 * beams + MAX_FILTERED_BANS + 1 > max_topk:
            limit = "this model export" if self.shortlister is None else "this shortlist"
            raise EngineError(f"{beams} beams is more than {limit} supports "
                              f"(at most {(max_topk - MAX_FILTERED_BANS - 1) // 2})")
        return dataclasses.replace(
            self._base_options, num_beams=beams, num_return=n, renormalize=self.sessions.renormalize,
            max_topk=max_topk,
        )

    def _framed_pieces(self, text: str) -> tuple[list[str], int]:
        """The pieces of ``text`` as the model's input ids hold them, one per id before the
        suffix (a language token the tokenizer adds before the pieces stands as ""), and how
        many of them lead the text's own (that token, a ``>>lang<<`` target prefix)."""
        pieces = self.tokenizer.tokenize(self._with_prefix(text))
        head = 1 if self.target_prefix and pieces and pieces[0] == self.target_prefix else 0
        lead = len(self.tokenizer.prefix_ids)
        return [""] * lead + pieces, lead + head

    def _chunks(self, text: str) -> list[list[int]]:
        """Source ids for ``text``, split so that no chunk exceeds the encoder's positions."""
        ids = self.tokenizer.encode(self._with_prefix(text))
        if len(ids) <= self.max_positions:
            return [ids]
        pieces, head = self._framed_pieces(text)
        tail = len(self.tokenizer.suffix_ids)
        prefix_ids, body, suffix_ids = ids[:head], ids[head:len(ids) - tail], ids[len(ids) - tail:]
        body_pieces = pieces[head:]
        room = self.max_positions - head - tail
        chunks = []
        start = 0
        while start < len(body):
            end = min(start + room, len(body))
            if end < len(body):
                end = _split_point(body_pieces, start, end)
            chunks.append(prefix_ids + body[start:end] + suffix_ids)
            start = end
        return chunks

    def _translate_unique(self, texts: list[str], n: int, tags: bool = False,
                          terms: list[Sequence[str]] | None = None) -> list[list[str]]:
        results: list[list[str]] = [[] for _ in texts]
        jobs: list[list[int]] = []
        owners: list[tuple[int, int]] = []  # (text index, chunk number)
        automata: list[Constraint | None] = []
        for i, text in enumerate(texts):
            if not text.strip():
                results[i] = [text]
                continue
            chunks = self._chunks(text)
            # A text split into chunks has its tags and terms spread over them: no constraint.
            auto = self._constraint(text, tags, terms[i] if terms else None) if len(chunks) == 1 else None
            for c, chunk in enumerate(chunks):
                jobs.append(chunk)
                owners.append((i, c))
                automata.append(auto)
        hyps = self._generate(jobs, n, automata if tags or terms else None)
        pieces: dict[int, list[list[Hypothesis]]] = {}
        for (i, _c), h in zip(owners, hyps):
            pieces.setdefault(i, []).append(h)
        for i, parts in pieces.items():
            if len(parts) == 1:
                seen: list[str] = []
                for hyp in parts[0]:
                    text = self.tokenizer.decode(hyp.ids)
                    if text not in seen:
                        seen.append(ScoredText(text, _finite(hyp.score)))
                results[i] = seen or [""]
            else:
                joined = [tok for part in parts if part for tok in part[0].ids if tok != self._base_options.eos_id]
                # a text split into chunks is as sure as its least sure chunk
                score = lowest([_finite(part[0].score) if part else None for part in parts])
                results[i] = [ScoredText(self.tokenizer.decode(joined), score)]
        return results

    def _generate(self, encoded: list[list[int]], n: int,
                  automata: Sequence[Constraint | None] | None = None,
                  states: list[np.ndarray | None] | None = None) -> list[list[Hypothesis]]:
        """``states``: one slot per source, filled with its encoder states ``[len, d_model]``
        where the export outputs them (``MarianSessions.has_hidden``), for :meth:`attention`."""
        opts = self._options(n)
        out: list[list[Hypothesis]] = [[] for _ in encoded]
        lengths = [len(ids) for ids in encoded]
        for batch in plan_batches(lengths, self.max_batch_tokens, self.max_batch_sentences):
            width = max(lengths[i] for i in batch)
            input_ids = np.full((len(batch), width), opts.pad_id, dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, i in enumerate(batch):
                input_ids[row, : lengths[i]] = encoded[i]
                mask[row, : lengths[i]] = 1
            # No local name for the encoder state: the search drops caches as sentences finish.
            search = greedy_search if opts.num_beams == 1 else beam_search
            constraints = None if automata is None else [automata[i] for i in batch]
            hidden: list[np.ndarray] | None = [] if states is not None and self.sessions.has_hidden else None
            shortlist = None if self.shortlister is None else self.sessions.shortlist(
                self.shortlister.for_batch([encoded[i] for i in batch], constraints))
            hyps = search(self.sessions, self.sessions.encode(input_ids, mask, hidden, min(width, opts.max_length),
                                                              shortlist), opts, constraints)
            for row, i in enumerate(batch):
                out[i] = hyps[row]
                if hidden and states is not None:
                    states[i] = hidden[0][row, : lengths[i]]
        return out


def _finite(score: float) -> float | None:
    """A hypothesis' score, or None where the search's "impossible" offsets reached it."""
    return score if math.isfinite(score) and score > NEG / 2 else None


def _check_terms(terms: Sequence[Sequence[str]] | None, n: int) -> list[list[str]] | None:
    """``terms`` as lists, None when no text has any; ValueError when it is not one per text."""
    if terms is None:
        return None
    if len(terms) != n:
        raise ValueError(f"{len(terms)} term lists for {n} texts")
    out = [list(t) for t in terms]
    return out if any(out) else None


def _split_point(pieces: list[str], start: int, end: int) -> int:
    """Where to cut ``pieces[start:end]``: after a sentence end, else before a word, else ``end``."""
    floor = start + max(1, (end - start) // 2)
    for j in range(end, floor, -1):
        if pieces[j - 1].endswith(SENTENCE_END):
            return j
    for j in range(end, floor, -1):
        if pieces[j].startswith(SPIECE_UNDERLINE):
            return j
    return end
