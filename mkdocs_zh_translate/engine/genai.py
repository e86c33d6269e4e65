"""``GenaiTranslator``: decoder-only translation models through ONNX Runtime GenAI.

The model directory is what ``export`` made with GenAI's model builder (``model.onnx`` with
grouped-query attention over a shared KV cache, ``genai_config.json``, the tokenizer) plus our
``generation.json`` (``kind: decoder-only``: the family's prompt rendered for the chosen
Chinese variant, the stop ids) and ``manifest.json``, verified like every export before a byte
is used. ``onnxruntime_genai`` is imported when a translator is made, never at import time.

Each text becomes one prompt (``prompt.Prompt``: the glossary terms it contains in the
family's documented form, optional context); prompts are sorted by length into buckets and
run in batches of at most ``max_batch_tokens`` prompt tokens (times the beams), so padding
stays small; GenAI masks the right padding itself. The answer must be exactly one translation
(``Prompt.refusal``), else the output is empty, which the fallback ladder takes down its steps;
the reasons are counted in :attr:`GenaiTranslator.refused`. The confidence is the mean
log-probability of the answer's tokens (its stop token included), read from one teacher-forced
pass over prompt and answer: the length-normalised score the seq2seq engine gives.

``terms=`` are what the glossary asks to be forced (``enforce: decoding``, or a segment that
lost a term's placeholder), as the seq2seq engine's constrained search does: an answer that
lacks one is generated again alone under a grammar requiring them (``guidance``); texts
without terms take the batched path unchanged.
"""

from __future__ import annotations

import json
import logging
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from ..model_format import (
    DECODER_ONLY,
    FORMAT_VERSION,
    GENAI_CONFIG_FILE,
    GENAI_EXPORT_HINT,
    GENAI_MODEL_FILE,
    GENAI_TOKENIZER_FILE,
    GENERATION_FILE,
    MANIFEST_FILE,
    recreate_hint,
)
from ..model_integrity import ModelIntegrityError, verify_model
from ..scored import ScoredText
from ..termpair import term_source
from .errors import EngineError
from .guidance import GUIDE_SHIFTS, SLACK_CHARS, term_grammar
from .prompt import Prompt, target_name
from .session import default_threads
from .settings import check_threads

log = logging.getLogger(__name__)

REQUIRED_FILES = (MANIFEST_FILE, GENERATION_FILE, GENAI_CONFIG_FILE, GENAI_MODEL_FILE, GENAI_TOKENIZER_FILE)
#: New tokens allowed per source token (plus :data:`EXTRA_NEW_TOKENS`): past it an answer is a
#: runaway. Chinese takes fewer tokens than its English in the real models' vocabularies;
#: byte-level pieces of rare characters take up to three.
NEW_TOKENS_PER_SOURCE_TOKEN = 3
EXTRA_NEW_TOKENS = 16
MAX_BATCH_SENTENCES = 16


def _read_settings(model_dir: Path) -> tuple[dict[str, Any], bytes]:
    """``generation.json`` of a decoder-only export, verified against the manifest."""
    hint = GENAI_EXPORT_HINT.replace("DIR", str(model_dir))
    if not model_dir.is_dir():
        raise EngineError(f"{model_dir}: no such model directory; create it with `{hint}`")
    missing = [name for name in REQUIRED_FILES if not (model_dir / name).is_file()]
    if missing and (model_dir / "encoder.onnx").is_file():
        raise EngineError(f"{model_dir}: a seq2seq export; the genai backend runs decoder-only exports "
                          "(use the onnx backend for this one)")
    if missing:
        raise EngineError(f"{model_dir}: not a decoder-only model export (missing {', '.join(missing)}); "
                          f"create it with `{hint}`")
    try:
        manifest = json.loads((model_dir / MANIFEST_FILE).read_text(encoding="utf-8"))
        generation = (model_dir / GENERATION_FILE).read_bytes()
        settings = json.loads(generation.decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise EngineError(f"{model_dir}: unreadable export ({exc}); {recreate_hint(model_dir)}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_VERSION \
            or not isinstance(settings, dict) or settings.get("format") != FORMAT_VERSION:
        raise EngineError(f"{model_dir}: exported by another version of mkdocs-zh-translate; re-create it with "
                          f"`{hint}`")
    if settings.get("kind") != DECODER_ONLY:
        raise EngineError(f"{model_dir}: a {settings.get('kind') or 'seq2seq'} model; the genai backend runs "
                          "decoder-only exports (use the onnx backend for this one)")
    try:
        verify_model(model_dir, manifest, REQUIRED_FILES, {GENERATION_FILE: generation})
    except ModelIntegrityError as exc:
        raise EngineError(str(exc)) from None
    return settings, generation


class GenaiTranslator:
    """Translate with a decoder-only export; satisfies the Translator/NBestTranslator protocols."""

    name = "genai"

    def __init__(self, model_dir: Path, *, num_beams: int | None = None, threads: int | None = None,
                 max_batch_tokens: int | None = None, providers: list[str] | None = None,
                 max_new_tokens: int | None = None, context: bool = False, target: str | None = None,
                 guidance: bool = True) -> None:
        """``target``: the Chinese to ask for (``zh-TW``: the prompt names it as the export's
        ``prompt.targets`` does; None: the variant the export was made for). ``guidance``: an
        answer that lacks one of its ``terms=`` is generated again under a grammar requiring
        them (``guidance``); False: the prompt alone carries them."""
        self.model_dir = Path(model_dir)
        check_threads(threads)
        settings, _raw = _read_settings(self.model_dir)
        self.settings = settings
        self.prompt = Prompt.of(settings.get("prompt") or {}, str(self.model_dir / GENERATION_FILE))
        if target is not None:
            self.prompt = replace(self.prompt, target=target_name(settings, target, str(self.model_dir)))
        for label, value in (("num_beams", num_beams), ("max_batch_tokens", max_batch_tokens),
                             ("max_new_tokens", max_new_tokens)):
            if value is not None and value < 1:
                raise EngineError(f"{label} must be at least 1, got {value}")
        self.num_beams = int(num_beams or settings.get("num_beams") or 1)
        self.max_batch_tokens = int(max_batch_tokens or 1024)
        self.max_new_tokens = max_new_tokens
        self.context_length = int(settings.get("context_length") or 4096)
        self.stop_ids = frozenset(int(i) for i in settings.get("stop_ids") or ())
        self.context = context
        #: Answers refused (not exactly one translation), by reason (``prompt.REFUSALS``).
        self.refused: Counter[str] = Counter()
        self.guidance = guidance
        #: Guided generations (``guided``) and why one could not replace an answer, by reason.
        self.guided: Counter[str] = Counter()
        self._load(threads or default_threads(), providers)

    def _load(self, threads: int, providers: list[str] | None) -> None:
        try:
            import onnxruntime_genai as og
        except ImportError:
            raise EngineError("the genai backend needs ONNX Runtime GenAI: "
                              "pip install 'mkdocs-zh-translate[genai]'") from None
        self._og = og
        try:
            config = og.Config(str(self.model_dir))
            options: dict[str, Any] = {"intra_op_num_threads": threads, "inter_op_num_threads": 1}
            config.overlay(json.dumps({"model": {"decoder": {"session_options": options}}}))
            if providers:
                config.clear_providers()
                for provider in providers:
                    if provider.lower() not in ("cpu", "cpuexecutionprovider"):
                        config.append_provider(provider.lower().removesuffix("executionprovider"))
            self._model = og.Model(config)
            self._tokenizer = og.Tokenizer(self._model)
        except Exception as exc:  # GenAI raises its own RuntimeError text; one line for the user
            raise EngineError(f"{self.model_dir}: ONNX Runtime GenAI cannot load the model: "
                              f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
        self.pad_id = int(self._tokenizer.pad_token_id)

    # --- public API ---------------------------------------------------------------------
    def translate(self, texts: Sequence[str], *, tags: bool = False,
                  terms: Sequence[Sequence[str]] | None = None,
                  contexts: Sequence[str] | None = None) -> list[str]:
        """One translation per text, same order ("" where the answer was refused)."""
        return [alts[0] for alts in self.translate_nbest(texts, 1, tags=tags, terms=terms, contexts=contexts)]

    def translate_nbest(self, texts: Sequence[str], n: int, *, tags: bool = False,
                        terms: Sequence[Sequence[str]] | None = None,
                        contexts: Sequence[str] | None = None) -> list[list[str]]:
        """Up to ``n`` translations per text, best first (beam search with at least ``n`` beams).

        ``terms``: per text, the glossary's Chinese for the terms it contains (``TermTarget``:
        with the English), put in the prompt where the family documents a form for them;
        ``contexts``: per text, the page text before it, when context is on. ``tags`` is
        accepted for the markup strategies' sake: placeholders simply stay in the prompt."""
        del tags
        prompts = [self.prompt.render(text, self._pairs(terms[i]) if terms else (),
                                      contexts[i] if contexts and self.context else "")
                   for i, text in enumerate(texts)]
        out: list[list[str]] = [[ScoredText("", None)] for _ in texts]
        unique: dict[str, list[int]] = {}
        for i, prompt in enumerate(prompts):
            if texts[i].strip():
                unique.setdefault(prompt, []).append(i)
            else:
                out[i] = [ScoredText(texts[i], None)]
        encoded = {p: [int(t) for t in self._tokenizer.encode(p)] for p in unique}
        before, failed = sum(self.refused.values()), self.guided["failed"]
        for batch in self._batches(encoded, self.max_batch_tokens):
            results = self._generate([encoded[p] for p in batch], [texts[unique[p][0]] for p in batch], n)
            for prompt, alts in zip(batch, results):
                for i in unique[prompt]:
                    out[i] = alts
        if terms and self.guidance:
            self._guide(prompts, texts, terms, out, encoded)
        refused = sum(self.refused.values()) - before
        if self.guided["failed"] > failed:
            log.info("genai: guided decoding failed on %d answers so far (the substitution path takes them)",
                     self.guided["failed"])
        if refused:  # each goes down the fallback ladder, which the build report counts
            log.info("genai: %d of %d answers were not one translation (so far: %s)", refused, len(unique) * n,
                     ", ".join(f"{k} {v}" for k, v in sorted(self.refused.items())))
        return out

    # --- internals ----------------------------------------------------------------------
    def _guide(self, prompts: list[str], texts: Sequence[str], terms: Sequence[Sequence[str]],
               out: list[list[str]], encoded: dict[str, list[int]]) -> None:
        """Each text whose best answer lacks one of its terms, generated again alone under a
        grammar that requires them (``guidance``); the guided answer replaces the unguided ones
        only when it passes the answer checks, else they stay (the glossary's substitution path
        takes the text) and the reason is counted in :attr:`guided`."""
        for i, wanted in enumerate(terms):
            best = str(out[i][0]) if out[i] else ""
            if not wanted or not texts[i].strip() or _carries(best, wanted):
                continue
            size = len(best or texts[i])
            answer = self._guided_answer(encoded[prompts[i]], texts[i], wanted, size)
            if answer is None:
                continue
            if not answer or not _carries(answer, wanted):
                self.guided["refused" if not answer else "missed"] += 1
                continue
            self.guided["guided"] += 1
            out[i] = [answer]

    def _guided_answer(self, prompt: list[int], source: str, wanted: Sequence[str], size: int) -> str | None:
        """The guided answer, trying the terms' places :data:`GUIDE_SHIFTS` tokens later
        where llguidance rejects a token (a byte piece of a character it was forcing); None
        (counted ``failed``) where every try raised: today's answer stays."""
        extra = 3 * (sum(len(t) for t in wanted) + SLACK_CHARS + max(GUIDE_SHIFTS))
        for shift in GUIDE_SHIFTS:
            grammar = term_grammar(source, wanted, size + shift, self.stop_ids or {self.pad_id}, self._spell)
            try:
                return self._generate_guided(prompt, source, grammar, extra)
            except Exception as exc:  # llguidance's parser or its tokenizer support
                log.debug("genai: guided decoding failed (%s)", str(exc).splitlines()[0] if str(exc) else exc)
        self.guided["failed"] += 1
        return None

    def _spell(self, term: str) -> list[int] | None:
        """The term's token ids, where they decode back to exactly the term."""
        ids = [int(t) for t in self._tokenizer.encode(term)]
        decoded = str(self._tokenizer.decode(np.array(ids, dtype=np.int32))) if ids else ""
        return ids if decoded == term else None

    def _generate_guided(self, prompt: list[int], source: str, grammar: str, extra: int) -> str:
        """Greedy search for one prompt under a Lark grammar (GenAI's guidance takes batch 1);
        ``extra``: room for the terms' tokens on top of the usual limit."""
        og = self._og
        limit = min(self._limit([prompt], [source]) + extra, self.context_length)
        params = og.GeneratorParams(self._model)
        params.set_search_options(max_length=limit, num_beams=1, do_sample=False, batch_size=1)
        params.set_guidance("lark_grammar", grammar)
        generator = og.Generator(self._model, params)
        generator.append_tokens(np.array([prompt], dtype=np.int32))
        while not generator.is_done():
            generator.generate_next_token()
        sequence = [int(t) for t in generator.get_sequence(0)]
        return self._answer(prompt, sequence[len(prompt):], source, limit - len(prompt))

    @staticmethod
    def _pairs(targets: Sequence[str]) -> list[tuple[str, str]]:
        """(English, Chinese) of the terms whose English the glossary gave, each once."""
        pairs: dict[tuple[str, str], None] = {}
        for target in targets:
            source = term_source(target)
            if source:
                pairs[(source, str(target))] = None
        return list(pairs)

    @staticmethod
    def _batches(encoded: dict[str, list[int]], max_batch_tokens: int) -> list[list[str]]:
        """Prompts in length buckets: sorted by length, cut where the padded batch would pass
        ``max_batch_tokens`` prompt tokens or :data:`MAX_BATCH_SENTENCES` prompts."""
        order = sorted(encoded, key=lambda p: len(encoded[p]))
        batches: list[list[str]] = []
        current: list[str] = []
        for prompt in order:
            longest = len(encoded[prompt])  # sorted: the newest is the longest
            if current and ((len(current) + 1) * longest > max_batch_tokens
                            or len(current) >= MAX_BATCH_SENTENCES):
                batches.append(current)
                current = []
            current.append(prompt)
        if current:
            batches.append(current)
        return batches

    def _limit(self, ids: Sequence[Sequence[int]], sources: Sequence[str]) -> int:
        """The batch's ``max_length`` (prompt plus answer tokens)."""
        longest = max(len(p) for p in ids)
        if self.max_new_tokens is not None:
            new = self.max_new_tokens
        else:
            source_tokens = max(len(self._tokenizer.encode(s)) for s in sources)
            new = NEW_TOKENS_PER_SOURCE_TOKEN * source_tokens + EXTRA_NEW_TOKENS
        return min(longest + new, self.context_length)

    def _generate(self, ids: list[list[int]], sources: list[str], n: int) -> list[list[str]]:
        og = self._og
        beams = max(self.num_beams, n)
        width = max(len(p) for p in ids)
        batch = np.full((len(ids), width), self.pad_id, dtype=np.int32)
        for row, prompt in enumerate(ids):
            batch[row, : len(prompt)] = prompt
        limit = self._limit(ids, sources)
        params = og.GeneratorParams(self._model)
        params.set_search_options(max_length=limit, num_beams=beams, do_sample=False,
                                  batch_size=len(ids), num_return_sequences=min(n, beams), early_stopping=True)
        generator = og.Generator(self._model, params)
        generator.append_tokens(batch)
        while not generator.is_done():
            generator.generate_next_token()
        results: list[list[str]] = []
        returned = min(n, beams)
        for row in range(len(ids)):
            alts: list[str] = []
            for k in range(returned):
                sequence = [int(t) for t in generator.get_sequence(row * returned + k)]
                alts.append(self._answer(ids[row], sequence[width:], sources[row], limit - width))
            results.append(alts)
        return results

    def _answer(self, prompt: list[int], generated: list[int], source: str, room: int) -> str:
        """The translation in ``generated`` (the new tokens, ``room`` at most), or "" with the
        reason counted.

        GenAI leaves the end-of-sequence token out of a sequence that stopped on it, and pads
        a row that stopped before the others: an answer ends at its first stop or pad token, or
        where the sequence ends short of ``room``; one that fills ``room`` ran away."""
        ends = self.stop_ids | {self.pad_id}
        cut = next((i for i, token in enumerate(generated) if token in ends), None)
        answer = generated if cut is None else generated[:cut]
        stopped = cut is not None or len(generated) < room
        text = str(self._tokenizer.decode(np.array(answer, dtype=np.int32))) if answer else ""
        reason = self.prompt.refusal(text, source, stopped)
        if reason is not None:
            self.refused[reason] += 1
            log.debug("genai: refused an answer (%s)", reason)
            return ScoredText("", None)
        return ScoredText(text.strip(), self._score(prompt, answer))

    def _score(self, prompt: list[int], answer: list[int]) -> float | None:
        """Mean log-probability of ``answer`` and of its end (any stop token) after ``prompt``."""
        og = self._og
        tokens = prompt + answer
        if not self.stop_ids or len(tokens) >= self.context_length:
            return None
        params = og.GeneratorParams(self._model)
        params.set_search_options(max_length=len(tokens) + 1, batch_size=1)
        generator = og.Generator(self._model, params)
        generator.append_tokens(np.array([tokens], dtype=np.int32))
        logits = np.asarray(generator.get_output("logits"), dtype=np.float64)[0]
        start = len(prompt) - 1
        rows = logits[start: len(tokens)]  # the last row predicts what follows the answer
        top = rows.max(axis=1, keepdims=True)
        logz = top[:, 0] + np.log(np.exp(rows - top).sum(axis=1))
        chosen = list(rows[np.arange(len(rows) - 1), tokens[start + 1:]])
        ends = rows[-1, sorted(self.stop_ids)]
        chosen.append(float(ends.max() + np.log(np.exp(ends - ends.max()).sum())))
        score = float(np.mean(np.array(chosen) - logz))
        return score if math.isfinite(score) else None


def _carries(answer: str, wanted: Sequence[str]) -> bool:
    """Whether ``answer`` holds each term as often as ``wanted`` lists it."""
    listed = list(wanted)
    return all(answer.count(t) >= listed.count(t) for t in set(listed))
