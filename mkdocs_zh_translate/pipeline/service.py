"""The translation step, written once: cache key, lookup, lazy model, glossary, ladder, store, guard.

Every front end (the plugin through :class:`~.pages.SiteTranslator`, ``md``, ``po fill``,
``review sync``) hands this module distinct texts and gets :class:`~.cache.Hit` s back, so a
fix to the key, the fallback policy or the guard lands everywhere at once. It knows no MkDocs,
no PO files and no Markdown beyond the segmenter's public API.

Fallback policy: each distinct text is translated once, and the ladder may drop the *union* of
the emphasis pairs its occurrences allow (:class:`Requests`). That is safe because the splice
re-validates every occurrence against its own droppable pairs (``segment._splice``): where a
dropped pair is a link rather than emphasis, that occurrence alone stays English, which is what
it would have got on its own. The intersection would keep every occurrence English as soon as
one disagreed; the first occurrence's set (0.1.0's ``md``) depended on page order.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..segment import SegmentedPage
from .cache import Hit
from .context import split_context
from .glossary import Glossary, GlossaryTranslator
from .guard import GuardResult
from .ladder import SegmentTranslation, translate_segments
from .lazy import TranslationFailed
from .origin import Origin
from .progress import NoProgress, Progress
from .spec import CacheBinding
from .translator import Translator

# One engine call gets at most this many characters of source: big enough for the engine's
# own length bucketing to batch well, small enough that Ctrl-C loses little finished work.
CHUNK_CHARS = 12_000

ChunkRunner = Callable[
    [list[list[str]], Mapping[str, Collection[int]]], Iterable[tuple[list[str], list[SegmentTranslation]]]
]
"""``runner(chunks, droppable) -> (chunk, translations)`` in any order, as each chunk finishes:
where the misses are translated when not in this process (``prefill``'s worker processes or Ray
actors, each running :func:`translate_chunk`). The service alone stores what comes back."""

class Guard(Protocol):
    """What the pipeline asks of a page guard (``guard.PageGuard`` is the one the front ends
    use; :class:`FunctionGuard` makes one of a plain function). Structural, so a guard is
    whatever has these members: nothing in the pipeline tells guards apart by their class."""

    fingerprint: str
    """What identifies the guard's renderer: a page spliced under the same inputs and the
    same fingerprint gets the same verdict, so it may be memoised ("": never)."""
    over_budget: int
    """Pages sent back to English whole because the guard's search ran out of time (a count
    that grows: such a verdict is not memoised)."""

    def check(self, english_markdown: str, page: SegmentedPage, translations: Sequence[str | None], *,
              label: str = "page", line_offset: int = 0) -> GuardResult:
        """``translations`` with the segments that break the page's structure set to None (kept
        English), and what the guard did; it may splice trial pages itself."""
        ...

    def save(self) -> None:
        """The end of a translation pass: keep what must outlive it (stored verdicts)."""
        ...


class FunctionGuard:
    """A guard made of ``check(english_markdown, page, translations) -> translations``: no
    reason, no renders counted, never memoised (it says nothing of what it renders with)."""

    fingerprint = ""
    over_budget = 0

    def __init__(self, check: Callable[[str, SegmentedPage, list[str | None]], list[str | None]]) -> None:
        self._check = check

    def check(self, english_markdown: str, page: SegmentedPage, translations: Sequence[str | None], *,
              label: str = "page", line_offset: int = 0) -> GuardResult:
        checked = self._check(english_markdown, page, list(translations))
        whole = any(t is not None for t in translations) and all(t is None for t in checked)
        return GuardResult(checked, whole_page=whole)

    def save(self) -> None:
        """Nothing is kept between passes."""


@dataclass
class Requests:
    """Distinct texts to translate, each with the emphasis pairs the ladder may drop (the union
    over the text's occurrences; see the module docstring)."""

    droppable: dict[str, set[int]] = field(default_factory=dict)

    def add(self, text: str, droppable: Collection[int] = ()) -> None:
        self.droppable.setdefault(text, set()).update(droppable)

    def add_page(self, page: SegmentedPage) -> None:
        for segment in page.segments:
            self.add(segment.text, segment.droppable_pairs)

    def __iter__(self) -> Iterator[str]:
        return iter(self.droppable)

    def __len__(self) -> int:
        return len(self.droppable)


@dataclass
class Tally:
    """What a service did over all its calls: the one part of it that changes after it is built."""

    cached: int = 0  # distinct texts answered by the cache
    translated: int = 0  # distinct texts the model translated
    unavailable: str | None = None  # why the model could not be loaded


@dataclass(frozen=True)
class TranslationService:
    """Distinct texts in, validated translations out: reviewed text is the caller's business
    (it is per segment, not per text); this is the machine cache and the model.

    Built once (``build.build_pipeline``) and never rewired: a front end that needs another
    cache key, runner or progress builds another service, so what a build translates with is
    what it was built with. Only its :class:`Tally` counts on.

    ``model`` returns the translator and is called only when some text misses the cache (a
    :class:`~.lazy.LazyTranslator` behind it loads the model then, once). ``english_fallback``:
    when it raises :class:`TranslationFailed`, keep the misses in English (``Origin.ENGLISH``,
    reason in ``unavailable``) instead of failing. ``runner``: where the misses are translated
    (None: in this process, chunk by chunk). ``context``: the request keys may carry page
    context (``context.context_key``: the ``context`` option is on and the backend reads it);
    the machine-cache key and the translator get it.
    """

    model: Callable[[], Translator]
    cache: CacheBinding | None = None
    glossary: Glossary | None = None
    english_fallback: bool = False
    progress: Progress = field(default_factory=NoProgress)
    guard: Guard | None = None
    runner: ChunkRunner | None = None
    context: bool = False
    tally: Tally = field(default_factory=Tally, compare=False)

    @property
    def cached(self) -> int:
        """Distinct texts answered by the cache, over all calls."""
        return self.tally.cached

    @property
    def translated(self) -> int:
        """Distinct texts the model translated, over all calls."""
        return self.tally.translated

    @property
    def unavailable(self) -> str | None:
        """Why the model could not be loaded (None: it could, or was never needed)."""
        return self.tally.unavailable

    # -- the cache ------------------------------------------------------------------------

    def key(self, text: str, droppable: Collection[int] = ()) -> str:
        """What the machine cache keys ``text`` by: the text, the glossary entries it touches,
        and the pairs the ladder may drop (they change what it can return); with page context,
        the context the text is translated in (``text`` is then a request key that carries it)."""
        text, context = split_context(text) if self.context else (text, "")
        source = self.glossary.cache_source(text) if self.glossary else text
        if droppable:
            source += "\x00drop:" + ",".join(str(d) for d in sorted(droppable))
        if context:
            source += "\x00context:" + context
        return source

    def lookup(self, requests: Requests) -> dict[str, Hit]:
        """Cached translations of ``requests`` (misses are absent); never loads the model."""
        if self.cache is None or not len(requests):
            return {}
        machine, fingerprint = self.cache.machine, self.cache.fingerprint
        keys = {t: self.key(t, d) for t, d in requests.droppable.items()}
        found = machine.lookup(list(dict.fromkeys(keys.values())), fingerprint)
        for earlier, name in self.cache.earlier:  # a tuned model's predecessors (``lineage``)
            left = [k for k in dict.fromkeys(keys.values()) if k not in found]
            if not left:
                break
            found.update({k: replace(h, model=name) for k, h in machine.lookup(left, earlier).items()})
        return {t: found[k] for t, k in keys.items() if k in found}

    def _damaged_hits(self, requests: Requests, misses: list[str], hits: dict[str, Hit]) -> list[str]:
        """The model cannot be loaded: when its directory is a damaged export, the misses that
        are cached for the model it was exported as join ``hits`` (so only what is truly missing
        is reported missing); the misses left."""
        if self.cache is None or self.cache.damaged is None:
            return misses
        keys = {t: self.key(t, requests.droppable[t]) for t in misses}
        found = self.cache.machine.lookup(list(dict.fromkeys(keys.values())), self.cache.damaged)
        kept = {t: found[k] for t, k in keys.items() if k in found}
        hits.update(kept)
        self.tally.cached += len(kept)
        return [t for t in misses if t not in kept]

    # -- translating ----------------------------------------------------------------------

    def translate(self, requests: Requests, fresh: Collection[str] = ()) -> dict[str, Hit]:
        """A hit for every text of ``requests``: cached, else translated now (and stored chunk
        by chunk, so an interrupted run keeps every finished chunk), else English when allowed.
        ``fresh``: texts translated again even when cached (``prefill --retranslate``).

        Raises :class:`TranslationFailed` when the model cannot be loaded (and no fallback is
        allowed) or the translator raises."""
        hits = self.lookup(requests)
        for text in fresh:
            hits.pop(text, None)
        self.tally.cached += len(hits)
        misses = sorted((t for t in requests if t not in hits), key=len)
        if not misses:
            return hits
        chunks = _chunks(misses, CHUNK_CHARS)
        if self.runner is not None:
            results = self.runner(chunks, requests.droppable)
        else:
            try:
                translator = self.model()
            except TranslationFailed as exc:
                misses = self._damaged_hits(requests, misses, hits)
                if not misses:
                    return hits
                if not self.english_fallback:
                    raise
                self.tally.unavailable = str(exc)
                hits.update({t: Hit(t, "english", Origin.ENGLISH) for t in misses})
                return hits
            results = _in_process(translator, self.glossary, chunks, requests.droppable, self.context)
        done = 0
        try:
            self.progress.update(0, len(misses))  # starts the clock of a log reporter
            for chunk, outputs in results:
                batch = {t: Hit(o.text, o.fallback, Origin.MODEL, o.score) for t, o in zip(chunk, outputs)}
                if self.cache is not None:
                    self.cache.machine.store(
                        {self.key(t, requests.droppable[t]): h for t, h in batch.items()}, self.cache.fingerprint
                    )
                hits.update(batch)
                done += len(chunk)
                self.tally.translated += len(chunk)
                self.progress.update(done, len(misses))
        finally:
            close = getattr(results, "close", None)
            if close is not None:  # a generator runner: stop its workers now
                close()
            self.progress.close()
        return hits

    # -- pages ----------------------------------------------------------------------------

    def splice(
        self,
        english: str,
        page: SegmentedPage,
        translations: list[str | None],
        *,
        heading_ids: bool = True,
        label: str = "page",
        line_offset: int = 0,
        mark: Callable[[int, str], str] | None = None,
    ) -> tuple[str, GuardOutcome]:
        """The translated page, after the page guard (if any) sent offending segments back to
        English; with what the guard did. ``mark(index, text)``: each translation the guard
        kept, wrapped for the review build (``review serve``) after the guard judged the plain
        texts, so the page shows what the shipped one shows."""
        outcome = GuardOutcome()
        spliced: str | None = None  # the page as the guard spliced it already (heading ids pinned)
        if self.guard is not None:
            started = time.perf_counter()
            result = self.guard.check(english, page, list(translations), label=label, line_offset=line_offset)
            checked, outcome.reason, outcome.renders = result.translations, result.reason, result.renders
            outcome.whole_page, outcome.reused = result.whole_page, result.reused
            spliced = result.spliced if heading_ids else None
            if len(checked) != len(translations):
                raise ValueError(f"the page guard returned {len(checked)} translations for {len(translations)}")
            outcome.reverted = [i for i, (a, b) in enumerate(zip(translations, checked)) if a is not None and b is None]
            outcome.seconds = time.perf_counter() - started
            translations = checked
        if mark is not None:
            translations = [None if t is None else mark(i, t) for i, t in enumerate(translations)]
            spliced = None
        return (spliced if spliced is not None else page.splice(translations, heading_ids=heading_ids)), outcome


@dataclass
class GuardOutcome:
    """What the page guard did to one page: the segments it sent back to English, why (one
    line; a plain callable guard gives none), whether that was every translated segment."""

    reverted: list[int] = field(default_factory=list)
    reason: str = ""
    whole_page: bool = False
    renders: int = 0
    seconds: float = 0.0
    reused: bool = False  # the verdict was stored (PageGuard's verdicts): nothing rendered


def translate_chunk(
    translator: Translator, glossary: Glossary | None, chunk: list[str], droppable: Mapping[str, Collection[int]],
    context: bool = False,
) -> list[SegmentTranslation]:
    """One chunk through the glossary and the fallback ladder: what every runner calls, in this
    process or in a worker, so a prefilled translation is the one a build would make.
    ``context``: the chunk's texts are request keys with page context, handed on as such."""
    if glossary:
        translator = GlossaryTranslator(translator, glossary)
    drops = [droppable[t] for t in chunk]
    if not context:
        return translate_segments(chunk, translator, droppable=drops)
    pairs = [split_context(t) for t in chunk]
    return translate_segments([t for t, _c in pairs], translator, droppable=drops, contexts=[c for _t, c in pairs])


def _in_process(
    translator: Translator, glossary: Glossary | None, chunks: list[list[str]],
    droppable: Mapping[str, Collection[int]], context: bool,
) -> Iterator[tuple[list[str], list[SegmentTranslation]]]:
    for chunk in chunks:
        try:
            outputs = translate_chunk(translator, glossary, chunk, droppable, context)
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:  # the engine's own errors; finished chunks stay cached
            raise TranslationFailed(f"the translator failed: {exc}") from exc
        yield chunk, outputs


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
