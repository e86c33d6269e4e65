"""Whole-site translation: segment every page, dedupe, reviewed text first, then the service.

The plugin's front half: it hands page texts and short strings (nav titles, site name, front
matter) to :class:`SiteTranslator` and gets page texts back. This module decides what counts as
one page's result (warnings, fallbacks, reviewed count); the cache, the model and the fallback
ladder are the :class:`~.service.TranslationService`'s. It knows nothing of MkDocs.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..errors import ReviewError
from ..segment import SegmentedPage, SiteSyntax, segment_markdown
from .backends import TranslatorSpec, needs_model
from .cache import Hit
from .context import OFF, RequestKeys, split_context
from .lazy import LazyTranslator, TranslationFailed
from .origin import Origin
from .report import PageCounts
from .reviews import ReviewedPage as ReviewedPage
from .reviews import Reviewer as Reviewer
from .service import GuardOutcome, Requests, TranslationService
from .stable import parts_key, stable_text

if TYPE_CHECKING:
    from .build import Pipeline

# The report's entry for the short strings (nav titles, site name, front matter), beside the pages.
STRINGS_LABEL = "site strings"

# Segmented pages a memo keeps beyond those of the last call (see SiteTranslator's ``segmented``).
_MEMO_SPARE = 256

# What each fallback step means for a reader, in plain words (the ladder's names are jargon).
PLAIN_FALLBACKS = {
    "nbest": "the best translation broke the formatting; a runner-up translation was used",
    "runs": "translated in pieces around its links and code, so the wording may be stiffer",
    "drop_pairs": "translated without some of its bold/italic marks",
    "english": "kept in English: no translation kept its links and code intact",
}


def plain_fallbacks(steps: Sequence[str]) -> str:
    """``"3 sentences: 2 kept in English …; 1 translated in pieces …"`` for the summary."""
    counts: dict[str, int] = {}
    for step in steps:
        counts[step] = counts.get(step, 0) + 1
    parts = [f"{n} {PLAIN_FALLBACKS.get(step, step)}" for step, n in sorted(counts.items(), key=lambda i: -i[1])]
    return f"{len(steps)} sentence(s) needed a fallback: " + "; ".join(parts)


def strict_failure(places: int) -> str:
    """The line a strict run of every front end (build, ``docs``, ``po fill``) fails with.

    Strict means "English left behind": a page or sentence kept in English, a page-guard
    revert, a rejected review. A fallback that still produced a whole translation (another
    candidate, pieces, dropped emphasis) is not English and fails nothing."""
    return f"strict: {places} place(s) where English is left behind or a review is ignored (`-v` lists where)"


@dataclass
class Stats:
    """What one build did, for the one-line summary, the tests and the benchmark."""

    segments: int = 0
    unique: int = 0
    cached: int = 0
    translated: int = 0
    fallbacks: int = 0
    seconds: float = 0.0
    model: str = "model not loaded"  # or "model loaded", "model already loaded", "pseudo backend"
    fallback_steps: list[str] = field(default_factory=list)  # one ladder step per fallback
    guarded: int = 0  # segments the page guard put back to English
    guard_renders: int = 0  # Markdown renders the guard needed (2 per translated page if all pass)
    guard_seconds: float = 0.0
    guard_reused: int = 0  # pages whose stored guard verdict was used (no render)
    untranslated: int = 0  # segments and strings kept in English because the model could not load
    untranslated_pages: int = 0
    pages: dict[str, PageCounts] = field(default_factory=dict)  # per page, for the JSON report
    reviews: bool = False  # the review directory has PO files (the summary then counts reviews)

    def summary(self) -> str:
        guarded = f", {self.guarded} kept in English by the page guard" if self.guarded else ""
        if self.untranslated:
            guarded += f", {self.untranslated} kept in English (no model)"
        return (
            f"{self.segments} segments ({self.unique} unique), {self.cached} from "
            f"cache, {self.translated} translated, {self.fallbacks} fallbacks{guarded}"
            f"{self.review_summary()}{self.sentence_summary()}, {self.seconds:.1f} s, {self.model}"
        )

    def sentence_summary(self) -> str:
        """``, sentences: 180 whole / 3 in pieces / 1 left English`` (the pages' machine text, as
        the JSON report's totals count it), or nothing when no page has machine text."""
        totals = PageCounts.total(self.pages.values())
        return f", {totals.sentences()}" if totals.whole + totals.pieces + totals.english else ""

    def review_summary(self) -> str:
        """``, 12 reviewed, 2 reviews stale (…), 3 suggested (…)`` when there are PO files, else
        nothing. Suggestions are not stale: a sync made them and only a reviewer resolves them."""
        if not self.reviews:
            return ""
        reviewed = sum(p.reviewed for p in self.pages.values())
        stale = sum(p.stale_reviews for p in self.pages.values())
        text = f", {reviewed} reviewed"
        if stale:
            text += f", {stale} review{'s' if stale != 1 else ''} stale (source changed; run review sync)"
        suggested = sum(p.suggested for p in self.pages.values())
        if suggested:
            text += f", {suggested} suggested (from translation memory)"
        return text

    def run_json(self) -> dict[str, object]:
        """The whole pass's numbers for the JSON report's ``run`` (strings included, each
        distinct text once: a text on two pages is translated once)."""
        return {
            "segments": self.segments,
            "unique": self.unique,
            "from_cache": self.cached,
            "translated": self.translated,
            "fallbacks": self.fallbacks,
            "guard_reverts": self.guarded,
            "untranslated": self.untranslated,
            "seconds": round(self.seconds, 3),
            "model": self.model,
        }


@dataclass
class PageJob:
    """One page to translate: ``key`` identifies it (src_uri), ``label`` names it to the user."""

    key: str
    label: str
    markdown: str  # the body MkDocs renders: its front matter split off (or none it could parse)
    line_offset: int = 0  # lines of front matter MkDocs removed before the Markdown we get


@dataclass
class PageResult:
    """A page's Chinese Markdown (or its English one when it could not be segmented)."""

    markdown: str
    segments: int = 0
    reviewed: int = 0
    machine: int = 0  # segments showing machine text (cached or translated now)
    # "file:line: message": pages or segments kept in English, guard reverts, rejected reviews
    # (warnings); sentences the ladder left wholly or partly English (english); fallbacks that
    # still translated everything (fallbacks, notes only)
    warnings: list[str] = field(default_factory=list)
    english: list[str] = field(default_factory=list)
    fallbacks: list[str] = field(default_factory=list)
    translated: bool = True  # some of its text was translated (else no banner claims it, no zh file)

    @property
    def left_behind(self) -> list[str]:
        """What a strict run refuses: English shipped as Chinese, or a review ignored."""
        return self.warnings + self.english


def site_requests(pages: Iterable[SegmentedPage], strings: Iterable[str], keys: RequestKeys | None = None) -> Requests:
    """Every distinct text of a site with its droppable pairs, as the cache keys it.

    The build and ``review sync`` both derive keys from this, so they agree on what is cached;
    reviewed segments count too, so a review does not change another segment's key. ``keys``:
    the request keys with page context (``context.RequestKeys``; None: the texts)."""
    requests = Requests()
    for page in pages:
        if keys is None:
            requests.add_page(page)
        else:
            for segment, key in zip(page.segments, keys.page(page)):
                requests.add(key, segment.droppable_pairs)
    for text in strings:
        if text.strip():
            requests.add(text if keys is None else keys.string(text))
    return requests


class SiteTranslator:
    """Translate many pages and short strings in one deduplicated pass, through ``pipeline``
    (:func:`~.build.build_pipeline`; built with ``english_fallback`` so that what the model
    cannot translate is counted here, then refused unless ``allow_untranslated``).

    Order of authority: the pipeline's reviews (human text) > the machine cache > the model.
    Its glossary protects and fixes terms and adds the terms it touches to the cache key.
    ``allow_untranslated``: when the model cannot be loaded, keep what is missing in English
    (one warning per page) instead of failing. Off by default: a build that would ship English
    as Chinese fails with one line that says how much is missing, so CI never deploys it by
    accident; a team that wants a partial deploy (reviews only, no model in CI) opts in.
    The pipeline's guard is the page guard (see :data:`~.service.Guard`). ``segmented``: a memo of
    segmented pages that outlives this translator (the plugin keeps one across ``mkdocs serve``
    reloads, so a reload segments only the pages that changed), keyed by a hash of the page's
    Markdown and of what else segmenting reads (the site's syntax and heading slugify).
    ``spliced``: the same for spliced pages (the translated Markdown and what the guard did),
    keyed by the page's Markdown and segmenting inputs, the texts spliced in, its label and
    line offset, and the guard's renderer; a splice whose guard ran out of time is not kept.
    ``mark``: the review build's segment marks (:mod:`..review.marks`, ``review serve``),
    applied to every translation the guard kept; None (every other build) changes nothing.
    """

    def __init__(
        self,
        pipeline: Pipeline,
        *,
        allow_untranslated: bool = False,
        slugify: Callable[[str, str], str] | None = None,
        syntax: SiteSyntax | None = None,
        segmented: dict[str, SegmentedPage] | None = None,
        spliced: dict[str, tuple[str, GuardOutcome]] | None = None,
        mark: Callable[[int, str], str] | None = None,
    ) -> None:
        self.pipeline = pipeline
        self.mark = mark  # the review build's segment marks (``review serve``); None: the shipped page
        self.segmented = segmented
        self.spliced = spliced
        self.slugify = slugify  # the site's heading ids (toc's slugify), for the pins
        self.syntax = syntax  # what the site's extensions change (tab ids from titles, fancy lists)
        self._keyed_for: tuple[object, object] | None = None  # (syntax, slugify) of _segmenting_key
        self._segmenting_key = ""
        self.allow_untranslated = allow_untranslated

    @property
    def spec(self) -> TranslatorSpec:
        return self.pipeline.spec

    @property
    def service(self) -> TranslationService:
        return self.pipeline.service

    @property
    def lazy(self) -> LazyTranslator:
        return self.pipeline.lazy

    @property
    def reviewer(self) -> Reviewer | None:
        return self.pipeline.reviews

    def keys(self) -> RequestKeys:
        """The request keys of a pass (``Pipeline.request_keys``)."""
        return self.pipeline.request_keys()

    def cached(self, pages: Sequence[SegmentedPage], strings: Sequence[str]) -> dict[str, Hit]:
        """The machine cache's text for the site's segments and strings, by text (with page
        context: the first the pages give for each text); never loads a model."""
        keys = self.keys()
        found = self.service.lookup(site_requests(pages, strings, keys))
        if keys.mode == OFF:
            return found
        by_text: dict[str, Hit] = {}
        for key, hit in found.items():
            by_text.setdefault(split_context(key)[0], hit)
        return by_text

    def machine_requests(self, jobs: Sequence[PageJob], strings: Sequence[str] = ()) -> Requests:
        """What the machine must answer for ``jobs`` and ``strings`` (every text no review
        covers), keyed as :meth:`translate_pages` keys it; nothing is translated or looked up."""
        segmented = self._segment_jobs(jobs, {}, Stats())
        reviewed, reviewed_strings, _warnings = self._review(jobs, segmented, strings, Stats())
        keys = self.keys()
        everything = site_requests(segmented.values(), strings, keys)
        machine = _machine_texts(segmented, reviewed, strings, reviewed_strings, keys)
        return Requests({t: everything.droppable[t] for t in dict.fromkeys(machine)})

    def translate_pages(
        self, jobs: Sequence[PageJob], strings: Sequence[str] = (), *, pages: bool = True
    ) -> tuple[dict[str, PageResult], dict[str, str], Stats]:
        """Chinese Markdown for each job and Chinese text for each short string (nav titles,
        site_name), with the statistics of the pass.

        ``pages=False`` (prefill) translates and stores only: no page is spliced or guarded
        and ``results`` holds only the pages that could not be segmented. The guard decides
        what a page shows, never what is cached, and its Markdown renders cost more than
        everything else outside the engine, so a prefill that throws the pages away skips it."""
        started = time.perf_counter()
        stats = Stats()
        results: dict[str, PageResult] = {}
        segmented = self._segment_jobs(jobs, results, stats)
        _trim_memo(self.segmented, len(jobs))
        _trim_memo(self.spliced, len(jobs))
        reviewed, reviewed_strings, string_warnings = self._review(jobs, segmented, strings, stats)
        keys = self.keys()
        everything = site_requests(segmented.values(), strings, keys)
        stats.segments = sum(len(p.segments) for p in segmented.values()) + sum(1 for s in strings if s.strip())
        machine = _machine_texts(segmented, reviewed, strings, reviewed_strings, keys)
        needed = Requests({t: everything.droppable[t] for t in dict.fromkeys(machine)})
        service = self.service
        loads, cached, translated = self.lazy.loads, service.cached, service.translated
        hits = service.translate(needed)
        self._refuse_untranslated(segmented, reviewed, strings, reviewed_strings, hits, stats, keys)
        stats.pages.update({key: _counts(p, reviewed.get(key), hits, keys) for key, p in segmented.items()})
        stats.translated = service.translated - translated
        if stats.translated:
            stats.model = "model loaded" if self.lazy.loads > loads else "model already loaded"
            if not needs_model(self.spec.backend):
                stats.model = f"{self.spec.backend} backend (no model)"
        stats.unique = len(everything)
        stats.cached = service.cached - cached  # the cache's answers only: reviews are counted apart
        strings_counts = _string_counts(strings, reviewed_strings, hits, len(string_warnings), keys)
        if strings_counts is not None:  # the report's pages then add up to the run's segments
            stats.pages[STRINGS_LABEL] = strings_counts

        try:
            for job in jobs if pages else ():
                page = segmented.get(job.key)
                if page is not None:
                    results[job.key] = self._page_result(job, page, reviewed.get(job.key), hits, stats, keys)
        finally:
            if service.guard is not None:
                service.guard.save()
        stats.fallback_steps = [
            str(hits[s].fallback) for s in needed if hits[s].fallback and hits[s].origin is not Origin.ENGLISH
        ]
        stats.fallbacks = len(stats.fallback_steps)
        stats.seconds = time.perf_counter() - started
        translated_strings = {
            s: reviewed_strings[s] if s in reviewed_strings else hits[k].text if (k := keys.string(s)) in hits else s
            for s in strings
        }
        _string_warnings(string_warnings, results, stats)
        return results, translated_strings, stats

    def _segment_jobs(
        self, jobs: Sequence[PageJob], results: dict[str, PageResult], stats: Stats
    ) -> dict[str, SegmentedPage]:
        """Every job's page segmented; a page the segmenter cannot read is kept in English
        with one warning naming its line (in ``results``), and the others still go on."""
        segmented: dict[str, SegmentedPage] = {}
        for job in jobs:
            try:
                segmented[job.key] = self._segment(job.markdown)
            except Exception as exc:  # the segmenter's error types are its own business
                line = getattr(exc, "line", None) or 1
                results[job.key] = PageResult(
                    job.markdown,
                    warnings=[
                        f"{job.label}:{line + job.line_offset}: cannot segment this page, kept in English: {exc}"
                    ],
                    translated=False,
                )
                stats.pages[job.key] = PageCounts(left_behind=1)
        return segmented

    def _review(
        self, jobs: Sequence[PageJob], segmented: dict[str, SegmentedPage], strings: Sequence[str], stats: Stats
    ) -> tuple[dict[str, ReviewedPage], dict[str, str], list[str]]:
        """Reviewed text comes first: per page its reviewed segments, the reviewed short
        strings and warnings about string reviews that were rejected. A review file that cannot
        be read fails the pass with its one line."""
        reviewed: dict[str, ReviewedPage] = {}
        reviewed_strings: dict[str, str] = {}
        string_warnings: list[str] = []
        if self.reviewer is not None:
            try:
                todo = [(j.key, segmented[j.key], j.label, j.line_offset) for j in jobs if j.key in segmented]
                reviewed.update(self.reviewer.pages(todo, [s for s in strings if s.strip()]))
                reviewed_strings, string_warnings = self.reviewer.strings([s for s in strings if s.strip()])
                stats.reviews = self.reviewer.has_files()
            except ReviewError as exc:
                raise TranslationFailed(str(exc)) from None
        return reviewed, reviewed_strings, string_warnings

    def _segmenting(self) -> str:
        """What segmenting reads besides the page (the site's syntax, the heading slugify), as
        one text for the memos' keys. Made once per syntax and slugify, not once per page: a
        site's syntax holds every emoji shortcode it replaces (pymdownx.emoji: ~20,000), whose
        text alone cost more than segmenting most pages."""
        if self._keyed_for is None or self._keyed_for[0] is not self.syntax or self._keyed_for[1] is not self.slugify:
            self._segmenting_key = hashlib.sha256(
                f"{self.syntax!r}\x00{stable_text(self.slugify)}".encode("utf-8", "surrogatepass")
            ).hexdigest()
            self._keyed_for = (self.syntax, self.slugify)
        return self._segmenting_key

    def _segment(self, markdown: str) -> SegmentedPage:
        """The page segmented, from the memo when the same Markdown was segmented the same way."""
        memo = self.segmented
        if memo is None:
            return segment_markdown(markdown, slugify=self.slugify, syntax=self.syntax, front_matter=False)
        key = parts_key((markdown, self._segmenting()))
        page = memo.pop(key, None)  # popped and put back: the most recently used come last
        if page is None:
            page = segment_markdown(markdown, slugify=self.slugify, syntax=self.syntax, front_matter=False)
        memo[key] = page
        return page

    def _splice(self, job: PageJob, page: SegmentedPage, texts: list[str | None]) -> tuple[str, GuardOutcome]:
        """The page spliced and guarded, from the memo when the same inputs were (the guard's
        verdict for the same inputs is the same, unless its search ran out of time)."""
        memo, guard = self.spliced, self.service.guard

        def splice() -> tuple[str, GuardOutcome]:
            return self.service.splice(
                job.markdown, page, texts, label=job.label, line_offset=job.line_offset, mark=self.mark
            )

        if memo is None or (guard is not None and not guard.fingerprint):
            return splice()  # a guard that does not say what it renders with: no memo
        parts = [job.markdown, self._segmenting(), stable_text(texts), job.label, stable_text(sorted(page.reviewed))]
        parts += [str(job.line_offset), guard.fingerprint if guard is not None else "no guard"]
        if self.mark is not None:
            parts.append("review marks")
        key = parts_key(parts)
        stored = memo.pop(key, None)  # popped and put back: the most recently used come last
        if stored is None:
            over = guard.over_budget if guard is not None else 0
            markdown, outcome = splice()
            if guard is not None and guard.over_budget != over:
                return markdown, outcome
            stored = (markdown, outcome)
        else:
            kept = stored[1]  # now a stored verdict: nothing rendered
            reused = kept.renders > 0 or kept.reused
            stored = (stored[0], GuardOutcome(list(kept.reverted), kept.reason, kept.whole_page, reused=reused))
        memo[key] = stored
        return stored[0], replace(stored[1], reverted=list(stored[1].reverted))

    def _refuse_untranslated(
        self,
        segmented: dict[str, SegmentedPage],
        reviewed: dict[str, ReviewedPage],
        strings: Sequence[str],
        reviewed_strings: dict[str, str],
        hits: dict[str, Hit],
        stats: Stats,
        keys: RequestKeys,
    ) -> None:
        """Count what the model could not translate; raise TranslationFailed (one line: how
        many segments on how many pages, and why) unless ``allow_untranslated``."""
        if self.service.unavailable is None:
            return
        pages = 0
        for key, page in segmented.items():
            done = reviewed[key].hits if key in reviewed else {}
            missing = sum(
                1 for i, k in enumerate(keys.page(page)) if i not in done and hits[k].origin is Origin.ENGLISH
            )
            stats.untranslated += missing
            pages += missing > 0
        stats.untranslated += sum(
            1
            for s in dict.fromkeys(strings)
            if s.strip() and s not in reviewed_strings and hits[keys.string(s)].origin is Origin.ENGLISH
        )
        stats.untranslated_pages = pages
        if stats.untranslated and not self.allow_untranslated:
            where = f" on {pages} page{'s' if pages != 1 else ''}" if pages else ""
            raise TranslationFailed(
                f"{stats.untranslated} segment{'s' if stats.untranslated != 1 else ''}{where} "
                f"{'have' if stats.untranslated != 1 else 'has'} no "
                f"reviewed or cached translation and the model cannot be loaded: {self.service.unavailable}. "
                "Set `allow_untranslated: true` to build them in English instead"
            )

    def _page_result(
        self, job: PageJob, page: SegmentedPage, review: ReviewedPage | None, hits: dict[str, Hit], stats: Stats,
        keys: RequestKeys,
    ) -> PageResult:
        """One page's result: reviewed hits first, then the machine's; warnings; guard; splice."""
        result = PageResult(job.markdown, segments=len(page.segments))
        page_hits = _shown(page, review, hits, keys)
        counts = stats.pages[job.key]
        if review:
            result.warnings.extend(review.warnings)
        english = sum(1 for h in page_hits if h.origin is Origin.ENGLISH)
        # No text, or none of it translated: nothing may claim a translation (banner, zh file).
        result.translated = english < len(page.segments)
        if english:
            result.warnings.append(
                f"{job.label}: {english} of {len(page.segments)} segments have no reviewed or cached "
                f"translation and cannot be machine-translated ({self.service.unavailable}); kept in English"
            )
        for segment, hit in zip(page.segments, page_hits):
            if hit.origin is Origin.REVIEWED:
                result.reviewed += 1
            result.machine += hit.origin.machine
            if hit.fallback == "english" and hit.origin is not Origin.ENGLISH:
                result.english.append(
                    f"{job.label}:{segment.line + job.line_offset}: kept in English, wholly or in part "
                    "(the model's translations broke the sentence's markup)"
                )
            elif hit.fallback and hit.origin is not Origin.ENGLISH:
                result.fallbacks.append(
                    f"{job.label}:{segment.line + job.line_offset}: translation fell back to '{hit.fallback}'"
                )
        # the reviewed segments go to the splice (and the guard's trial splices) as a person's text
        person = frozenset(i for i, h in enumerate(page_hits) if h.origin is Origin.REVIEWED)
        if person:
            page = replace(page, reviewed=person)
        try:
            result.markdown, outcome = self._splice(job, page, [h.text for h in page_hits])
        except Exception as exc:
            counts.left_behind = 1
            return PageResult(
                job.markdown,
                warnings=[f"{job.label}:{1 + job.line_offset}: cannot splice the translation, kept in English: {exc}"],
                translated=False,
            )
        stats.guard_renders += outcome.renders
        stats.guard_seconds += outcome.seconds
        stats.guard_reused += outcome.reused
        if outcome.reverted:
            stats.guarded += len(outcome.reverted)
            counts.guard_reverts += len(outcome.reverted)
            result.translated = result.translated and not outcome.whole_page  # nor after the guard
            reverted = outcome.reverted
            lines = ", ".join(str(page.segments[i].line + job.line_offset) for i in reverted)
            result.warnings.append(
                outcome.reason
                or f"{job.label}:{page.segments[reverted[0]].line + job.line_offset}: the page guard kept "
                f"{len(reverted)} segment(s) in English because the translation changed the page's "
                f"structure (lines {lines})"
            )
        counts.left_behind = len(result.left_behind)
        return result


def _machine_texts(
    segmented: dict[str, SegmentedPage],
    reviewed: dict[str, ReviewedPage],
    strings: Sequence[str],
    reviewed_strings: dict[str, str],
    keys: RequestKeys,
) -> list[str]:
    """What the machine must answer: every segment and short string without a review."""
    machine = [
        k
        for key, page in segmented.items()
        for i, k in enumerate(keys.page(page))
        if key not in reviewed or i not in reviewed[key].hits
    ]
    machine.extend(keys.string(s) for s in strings if s.strip() and s not in reviewed_strings)
    return machine


def _string_warnings(string_warnings: list[str], results: dict[str, PageResult], stats: Stats) -> None:
    """Rejected reviews of short strings are reported like a page's, under "site strings"."""
    if string_warnings:
        results.setdefault(STRINGS_LABEL, PageResult("", translated=False, warnings=list(string_warnings)))
        n = len(string_warnings)
        stats.pages.setdefault(STRINGS_LABEL, PageCounts(rejected_reviews=n, left_behind=n))


def _string_counts(
    strings: Sequence[str], reviewed_strings: dict[str, str], hits: dict[str, Hit], rejected: int, keys: RequestKeys
) -> PageCounts | None:
    """The short strings' numbers, as one more entry of the report (None: there are none).

    Every string counts where the run's ``segments`` counts it (each occurrence), so the
    report's ``totals.segments`` equals ``run.segments``; ``left_behind`` stays the rejected
    reviews, as before."""
    counts = PageCounts(rejected_reviews=rejected, left_behind=rejected)
    for text in strings:
        if not text.strip():
            continue
        if text in reviewed_strings:
            counts.count_hit(Origin.REVIEWED, None)
        else:
            hit = hits[keys.string(text)]
            counts.count_hit(hit.origin, hit.fallback)
    return counts if counts.segments or rejected else None


def _trim_memo(memo: dict[str, Any] | None, used: int) -> None:
    """Keep a memo to the pages of this call and a few more (pages edited away)."""
    if memo is None:
        return
    for key in list(memo)[: max(0, len(memo) - used - _MEMO_SPARE)]:
        del memo[key]


def _shown(page: SegmentedPage, review: ReviewedPage | None, hits: dict[str, Hit], keys: RequestKeys) -> list[Hit]:
    """Each segment's text as the page shows it: the reviewed one first, else the machine's."""
    return [(review.hits.get(i) if review else None) or hits[k] for i, k in enumerate(keys.page(page))]


def _counts(page: SegmentedPage, review: ReviewedPage | None, hits: dict[str, Hit], keys: RequestKeys) -> PageCounts:
    """A page's numbers for the report (the guard's reverts are added once it has run)."""
    counts = PageCounts()
    for hit in _shown(page, review, hits, keys):
        counts.count_hit(hit.origin, hit.fallback)
    if review is not None:
        counts.rejected_reviews = len(review.warnings)
        counts.stale_reviews = review.stale
        counts.suggested = review.suggested
    # what strict would refuse, before the guard and the splice (``_page_result`` counts exactly)
    counts.left_behind = counts.rejected_reviews + counts.english + (counts.untranslated > 0)
    return counts
