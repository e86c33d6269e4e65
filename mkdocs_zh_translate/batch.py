"""Whole-site translation: segment every page, dedupe, ask the memory, translate only misses.

This module is the one place that decides *what* gets translated and *when the model is
loaded*: never for a rebuild whose segments are all remembered, and at most once per process
(``mkdocs serve`` keeps the plugin, hence the :class:`LazyTranslator`, across rebuilds). It knows
nothing of MkDocs events or HTML; the plugin hands it page texts and gets page texts back.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from . import __version__
from .backends import BackendError, load_translator
from .memory import MACHINE, REVIEWED, Hit, TranslationMemory
from .translator import Translator

log = logging.getLogger("mkdocs.plugins.zh_translate")

# One engine call gets at most this many characters of source: big enough for the engine's
# own length bucketing to batch well, small enough that Ctrl-C loses little finished work.
CHUNK_CHARS = 12_000


class TranslationFailed(Exception):
    """The translator could not be loaded or failed; the message is for the user as is."""


@dataclass(frozen=True)
class TranslatorSpec:
    """Everything needed to build the translator, and to fingerprint it without building it."""

    backend: str
    model: str | None
    beams: int | None = None
    threads: int | None = None
    max_batch_tokens: int | None = None

    def decode_options(self) -> str:
        """What besides the model can change a stored result: decoding options (threads
        cannot) and our own version (validation and the fallback ladder live in it)."""
        return f"beams={self.beams};max_batch_tokens={self.max_batch_tokens};v={__version__}"


class LazyTranslator:
    """Builds the translator on first use only, and keeps it for later builds with the same spec."""

    def __init__(self, factory: Callable[..., Translator] | None = None) -> None:
        self._factory = factory
        self._spec: TranslatorSpec | None = None
        self._translator: Translator | None = None
        self.loads = 0

    def get(self, spec: TranslatorSpec) -> Translator:
        if self._translator is not None and self._spec == spec:
            return self._translator
        if spec.backend == "onnx" and spec.model and not Path(spec.model).exists():
            raise TranslationFailed(
                "some segments are not in the translation cache, but the "
                f"model directory {spec.model} does not exist; create it with "
                f"`mkdocs-zh-translate export Helsinki-NLP/opus-mt-en-zh --out {spec.model}`"
            )
        factory = self._factory or load_translator
        try:
            translator = factory(
                spec.backend,
                spec.model,
                beams=spec.beams,
                threads=spec.threads,
                max_batch_tokens=spec.max_batch_tokens,
            )
        except BackendError as exc:
            raise TranslationFailed(str(exc)) from None
        except ImportError as exc:
            raise TranslationFailed(f"the {spec.backend} backend cannot be imported: {exc}") from None
        self._translator, self._spec = translator, spec
        self.loads += 1
        return translator

    @property
    def loaded(self) -> bool:
        return self._translator is not None


def model_fingerprint(model_dir: Path) -> str:
    """A content fingerprint of an exported model directory, in milliseconds.

    ``mkdocs-zh-translate export`` writes a manifest with a hash of every file; without one,
    hash names and sizes of all files, whole small files (configs, vocabularies) and the first
    and last MiB of large ones, rather than read 300 MB of weights on every build."""
    try:
        manifest = json.loads((model_dir / "manifest.json").read_text(encoding="utf-8"))
        if isinstance(manifest, dict) and isinstance(manifest.get("fingerprint"), str):
            return "manifest:" + manifest["fingerprint"]
    except (OSError, ValueError):
        pass
    digest = hashlib.sha256()
    for path in sorted(p for p in model_dir.rglob("*") if p.is_file()):
        size = path.stat().st_size
        digest.update(f"{path.relative_to(model_dir).as_posix()}\x00{size}\x00".encode())
        with path.open("rb") as fh:
            if size <= 4 << 20:
                digest.update(fh.read())
            else:
                digest.update(fh.read(1 << 20))
                fh.seek(-(1 << 20), 2)
                digest.update(fh.read())
    return digest.hexdigest()[:24]


def translator_fingerprint(spec: TranslatorSpec, memory: TranslationMemory) -> str:
    """The cache-key fingerprint of ``spec``, computed without loading the model.

    When the model directory has been deleted, the fingerprint last computed for that path is
    taken from the cache's metadata, so a fully cached site still rebuilds."""
    if spec.backend == "pseudo":
        from .translator import PseudoTranslator

        return f"{PseudoTranslator.fingerprint}|{spec.decode_options()}"
    model_dir = Path(spec.model or "")
    meta_name = f"model:{model_dir}"
    if model_dir.is_dir():
        content = model_fingerprint(model_dir)
        memory.machine.set_meta(meta_name, content)
    else:
        content = memory.machine.get_meta(meta_name) or f"missing:{model_dir}"
    return f"{spec.backend}:{content}|{spec.decode_options()}"


@dataclass
class Stats:
    """What one build did, for the one-line summary, the tests and the benchmark."""

    segments: int = 0
    unique: int = 0
    cached: int = 0
    translated: int = 0
    fallbacks: int = 0
    guarded: int = 0  # segments the page guard put back to English
    guard_renders: int = 0  # Markdown renders the guard needed (2 per translated page if all pass)
    guard_seconds: float = 0.0
    seconds: float = 0.0
    model: str = "model not loaded"  # or "model loaded", "model already loaded"

    def summary(self) -> str:
        guarded = f", {self.guarded} kept in English by the page guard" if self.guarded else ""
        return (
            f"zh-translate: {self.segments} segments ({self.unique} unique), {self.cached} from "
            f"memory, {self.translated} translated, {self.fallbacks} fallbacks{guarded}, "
            f"{self.seconds:.1f} s, {self.model}"
        )


@dataclass
class PageJob:
    """One page to translate: ``key`` identifies it (src_uri), ``label`` names it to the user."""

    key: str
    label: str
    markdown: str
    line_offset: int = 0  # lines of front matter MkDocs removed before the Markdown we get


@dataclass
class PageResult:
    """A page's Chinese Markdown (or its English one when it could not be segmented)."""

    markdown: str
    segments: int = 0
    reviewed: int = 0
    # "file:line: message": pages kept in English (warnings), segments that fell back (notes)
    warnings: list[str] = field(default_factory=list)
    fallbacks: list[str] = field(default_factory=list)
    translated: bool = True


ENGLISH = "english"  # origin of a segment left in English because no model could be loaded


class Reviewer(Protocol):
    """Reviewed translations consulted per segment before the memory (issue 5's PO files).

    Per segment, not per text: the same placeholder text on two pages can be reviewed on one
    and not the other. ``page`` returns an object with ``hits`` (segment index -> Hit) and
    ``warnings``; both methods raise an exception with a user-facing message on bad files."""

    def page(self, src_uri: str, page: Any, location: str, line_offset: int = 0) -> Any: ...

    def strings(self, strings: Sequence[str]) -> tuple[dict[str, str], list[str]]: ...


class SiteTranslator:
    """Translate many pages and short strings in one deduplicated pass over the memory.

    Order of authority: ``reviewer`` (human text) > the memory (machine cache) > the model.
    ``glossary`` protects and fixes terms and adds the terms it touches to the cache key.
    ``english_fallback``: when the model cannot be loaded, keep what is missing in English
    (one warning per page) instead of failing, so a clone with PO files and no model builds.
    ``guard``: a :class:`~.pipeline.guard.PageGuard`; each spliced page is checked against its
    English page and the segments that break its structure go back to English (one warning).
    """

    def __init__(
        self,
        memory: TranslationMemory,
        lazy: LazyTranslator,
        spec: TranslatorSpec,
        *,
        progress: bool | None = None,
        reviewer: Reviewer | None = None,
        glossary: Any = None,
        english_fallback: bool = False,
        guard: Any = None,
    ) -> None:
        self.memory = memory
        self.lazy = lazy
        self.spec = spec
        self.reviewer = reviewer
        self.glossary = glossary
        self.english_fallback = english_fallback
        self.guard = guard
        self.unavailable: str | None = None  # why the model could not be loaded
        self.fingerprint = translator_fingerprint(spec, memory)
        self.progress = sys.stderr.isatty() if progress is None else progress

    def translate_pages(
        self, jobs: Sequence[PageJob], strings: Sequence[str] = ()
    ) -> tuple[dict[str, PageResult], dict[str, str], Stats]:
        """Chinese Markdown for each job and Chinese text for each short string (nav titles,
        site_name), with the statistics of the pass."""
        from .segment import segment_markdown

        started = time.perf_counter()
        stats = Stats()
        results: dict[str, PageResult] = {}
        segmented = {}
        for job in jobs:
            try:
                segmented[job.key] = segment_markdown(job.markdown)
            except Exception as exc:  # the segmenter's error types are its own business
                line = getattr(exc, "line", None) or 1
                results[job.key] = PageResult(
                    job.markdown,
                    warnings=[f"{job.label}:{line + job.line_offset}: cannot segment this page, kept in English: {exc}"],
                    translated=False,
                )
        reviewed: dict[str, Any] = {}
        reviewed_strings: dict[str, str] = {}
        string_warnings: list[str] = []
        if self.reviewer is not None:
            from .review.store import ReviewError

            try:
                for job in jobs:
                    if job.key in segmented:
                        reviewed[job.key] = self.reviewer.page(job.key, segmented[job.key], job.label, job.line_offset)
                reviewed_strings, string_warnings = self.reviewer.strings([s for s in strings if s.strip()])
            except ReviewError as exc:
                raise TranslationFailed(str(exc)) from None
        texts = [s.text for page in segmented.values() for s in page.segments]
        texts.extend(s for s in strings if s.strip())
        stats.segments = len(texts)
        machine = [
            s.text
            for key, page in segmented.items()
            for i, s in enumerate(page.segments)
            if key not in reviewed or i not in reviewed[key].hits
        ]
        machine.extend(s for s in strings if s.strip() and s not in reviewed_strings)
        hits = self._translate_unique(list(dict.fromkeys(machine)), stats)
        stats.unique = len(set(texts))
        stats.cached += len(set(texts) - set(machine))  # reviewed only: answered without the cache

        for job in jobs:
            page = segmented.get(job.key)
            if page is None:
                continue
            result = PageResult(job.markdown, segments=len(page.segments))
            review = reviewed.get(job.key)
            page_hits = [review.hits.get(i) if review else None for i in range(len(page.segments))]
            page_hits = [h or hits[s.text] for h, s in zip(page_hits, page.segments)]
            if review:
                result.warnings.extend(review.warnings)
            english = sum(1 for h in page_hits if h.origin == ENGLISH)
            if english:
                result.warnings.append(
                    f"{job.label}: {english} of {len(page.segments)} segments have no reviewed or cached "
                    f"translation and cannot be machine-translated ({self.unavailable}); kept in English"
                )
            for segment, hit in zip(page.segments, page_hits):
                if hit.origin == REVIEWED:
                    result.reviewed += 1
                if hit.fallback and hit.origin != ENGLISH:
                    result.fallbacks.append(
                        f"{job.label}:{segment.line + job.line_offset}: translation fell back to '{hit.fallback}'"
                    )
            try:
                page_texts: list[str | None] = [h.text for h in page_hits]
                if self.guard is not None:
                    guard_started = time.perf_counter()
                    checked = self.guard.check(job.markdown, page, page_texts, label=job.label, line_offset=job.line_offset)
                    if checked.reverted:
                        page_texts = checked.translations
                        result.warnings.append(checked.reason)
                        stats.guarded += len(checked.reverted)
                        result.translated = not checked.whole_page  # the banner must not claim it
                    stats.guard_seconds += time.perf_counter() - guard_started
                    stats.guard_renders += checked.renders
                result.markdown = page.splice(page_texts)
            except Exception as exc:
                result = PageResult(
                    job.markdown,
                    warnings=[f"{job.label}:{1 + job.line_offset}: cannot splice the translation, kept in English: {exc}"],
                    translated=False,
                )
            results[job.key] = result
        stats.fallbacks = sum(1 for s in set(machine) if hits[s].fallback and hits[s].origin != ENGLISH)
        stats.seconds = time.perf_counter() - started
        translated_strings = {
            s: reviewed_strings[s] if s in reviewed_strings else hits[s].text if s in hits else s for s in strings
        }
        if string_warnings:
            label = "site strings"
            results.setdefault(label, PageResult("", translated=False, warnings=list(string_warnings)))
        return results, translated_strings, stats

    def _translate_unique(self, unique: list[str], stats: Stats) -> dict[str, Hit]:
        stats.unique = len(unique)
        keys = {s: self.cache_source(s) for s in unique}
        found = self.memory.lookup(list(dict.fromkeys(keys.values())), self.fingerprint)
        hits = {s: found[k] for s, k in keys.items() if k in found}
        stats.cached = len(hits)
        misses = sorted((s for s in unique if s not in hits), key=len)
        if not misses:
            return hits
        from .segment import translate_segments

        loads = self.lazy.loads
        try:
            translator = self.lazy.get(self.spec)
        except TranslationFailed as exc:
            if not self.english_fallback:
                raise
            self.unavailable = str(exc)
            hits.update({s: Hit(s, ENGLISH, ENGLISH) for s in misses})
            return hits
        if self.glossary:
            from .review.glossary import GlossaryTranslator

            translator = GlossaryTranslator(translator, self.glossary)
        stats.model = "model loaded" if self.lazy.loads > loads else "model already loaded"
        done = 0
        for chunk in _chunks(misses, CHUNK_CHARS):
            try:
                outputs = translate_segments(chunk, translator)
            except (KeyboardInterrupt, SystemExit):
                raise
            except Exception as exc:
                raise TranslationFailed(f"the translator failed: {exc}") from exc
            batch = {src: Hit(out.text, out.fallback, MACHINE) for src, out in zip(chunk, outputs)}
            self.memory.store({self.cache_source(s): h for s, h in batch.items()}, self.fingerprint)
            hits.update(batch)
            done += len(chunk)
            stats.translated = done
            if self.progress:
                _draw_progress(done, len(misses))
        if self.progress:
            sys.stderr.write("\n")
        return hits

    def cache_source(self, text: str) -> str:
        """What the machine cache keys ``text`` by (the glossary entries it touches included)."""
        return self.glossary.cache_source(text) if self.glossary else text


def _chunks(texts: list[str], budget: int) -> list[list[str]]:
    chunks: list[list[str]] = []
    current: list[str] = []
    size = 0
    for text in texts:
        if current and size + len(text) > budget:
            chunks.append(current)
            current, size = [], 0
        current.append(text)
        size += len(text)
    if current:
        chunks.append(current)
    return chunks


def _draw_progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\rzh-translate [{'#' * filled}{'.' * (width - filled)}] {done}/{total} segments")
    sys.stderr.flush()
