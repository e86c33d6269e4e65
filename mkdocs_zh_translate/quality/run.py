"""One evaluation run: the references' English through the build's pipeline with one translator.

The pipeline is the build's (:func:`~..pipeline.build.build_pipeline`: glossary,
markup strategy, fallback ladder), with two differences on purpose: no reviewed layer (the
references must not be scored against themselves) and no machine cache (a cached translation
may come from another model or settings; ``eval`` measures the translator it is given).
Nothing is written: no cache, no PO file. No page guard either: it judges spliced pages, and
a reference is a sentence.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..pipeline.backends import TranslatorSpec, needs_model
from ..pipeline.build import SiteInputs, build_pipeline, build_variant_pipeline
from ..pipeline.glossary import Glossary
from ..pipeline.lazy import LazyTranslator
from ..pipeline.progress import Progress
from ..pipeline.report import PageCounts
from ..pipeline.service import Requests, TranslationService
from ..pipeline.translator import Translator
from ..pipeline.variants import Variant
from . import metrics
from .references import Reference

WORST = 5  # sentences listed per kind of problem (a run keeps no more than it is asked to list)
PART = 2000  # references translated and scored at a time (about 30 MB of transient memory)


@dataclass(frozen=True)
class Sentence:
    """One reference with its candidate, as plain text (:func:`~.metrics.plain`)."""

    where: str
    source: str
    candidate: str
    reference: str
    fallback: str | None


@dataclass
class RunResult:
    """What one translator scored on the references."""

    label: str
    spec: TranslatorSpec
    counts: PageCounts = field(default_factory=PageCounts)
    scores: metrics.Scores = field(default_factory=lambda: metrics.Scores(0.0, 0.0))
    english_left: list[tuple[Sentence, list[str]]] = field(default_factory=list)  # the worst, most English first
    outliers: list[tuple[Sentence, float]] = field(default_factory=list)  # the worst, worst first
    untranslated: int = 0  # sentences with English left (english_left keeps only the worst)
    length_outliers: int = 0  # sentences of an outlying length (outliers keeps only the worst)
    seconds: float = 0.0

    @property
    def sentences(self) -> int:
        return self.counts.segments

    @property
    def placeholder_errors(self) -> int:
        """Sentences whose first model output broke its placeholders (the ladder stepped in)."""
        return sum(self.counts.fallbacks.values())

    def as_json(self, worst: int) -> dict[str, Any]:
        spec = self.spec
        return {
            "label": self.label,
            "settings": {
                "backend": spec.backend, "model": spec.model, "beams": spec.beams, "threads": spec.threads,
                "max_batch_tokens": spec.max_batch_tokens, "markup": spec.resolved_markup,
                "shortlist": spec.shortlist or 0,  # 0: off, the whole vocabulary
            },
            "sentences": self.sentences,
            "chrf": self.scores.chrf,
            "bleu": self.scores.bleu,
            "whole": self.counts.whole,
            "pieces": self.counts.pieces,
            "english": self.counts.english,
            "placeholder_errors": self.placeholder_errors,
            "fallbacks": dict(sorted(self.counts.fallbacks.items())),
            "untranslated": self.untranslated,
            "length_outliers": self.length_outliers,
            "seconds": round(self.seconds, 3),
            "worst_untranslated": [
                {**_sentence_json(s), "english": runs} for s, runs in self.english_left[:worst]
            ],
            "worst_length": [{**_sentence_json(s), "ratio": _ratio_json(r)} for s, r in self.outliers[:worst]],
        }


def _sentence_json(s: Sentence) -> dict[str, Any]:
    return {"where": s.where, "source": s.source, "candidate": s.candidate, "reference": s.reference}


def _ratio_json(ratio: float) -> float | None:
    return None if ratio == float("inf") else round(ratio, 3)


def evaluate(
    references: Iterable[Reference],
    spec: TranslatorSpec,
    *,
    label: str = "",
    glossary: Glossary | None = None,
    load: Callable[[TranslatorSpec], Translator] | None = None,
    progress: Progress | None = None,
    worst: int = WORST,
    variant: Variant | None = None,
) -> RunResult:
    """Translate the references' English with ``spec``'s translator through the pipeline and
    score it. ``load(spec)`` builds the translator (default: the build's lazy loader, markup
    strategy included). Raises :class:`~..pipeline.lazy.TranslationFailed` when it cannot.

    The references go through in parts of :data:`PART` (translated, scored, counted, then
    dropped) and only the ``worst`` sentences of each kind are kept: the memory a run takes no
    longer grows with the references (it did by ~120 bytes per byte of a TSV file: 6 GB for
    50 MB). The translator's batches are made within a part (the engine batches sentences of
    similar length from what it is given). ``variant``: score the Traditional variant the build
    makes (the Simplified translation converted) against Traditional references."""
    started = time.perf_counter()
    pipeline = build_pipeline(spec, SiteInputs(glossary=glossary), lazy=LazyTranslator(), load=load, progress=progress)
    if variant is not None:
        pipeline = build_variant_pipeline(pipeline, variant)
    service = pipeline.service
    result = RunResult(label or describe(spec), spec)
    scorer = metrics.CorpusScorer()
    iterator = iter(references)
    while part := list(itertools.islice(iterator, PART)):
        _score_part(part, service, result, scorer, worst)
    result.scores = scorer.scores()
    result.seconds = time.perf_counter() - started
    return result


def _score_part(
    part: Sequence[Reference], service: TranslationService, result: RunResult, scorer: metrics.CorpusScorer, worst: int
) -> None:
    """Translate and score one part of the references into ``result`` and ``scorer``."""
    requests = Requests()
    for ref in part:
        requests.add(ref.source, ref.droppable)
    hits = service.translate(requests)
    candidates: list[str] = []
    plain_references: list[str] = []
    english_left: list[tuple[Sentence, list[str]]] = []
    outliers: list[tuple[Sentence, float]] = []
    for ref in part:
        hit = hits[ref.source]
        result.counts.count_hit(hit.origin, hit.fallback)
        sentence = Sentence(
            ref.where, metrics.plain(ref.source), metrics.plain(hit.text), metrics.plain(ref.reference), hit.fallback
        )
        candidates.append(sentence.candidate)
        plain_references.append(sentence.reference)
        left = metrics.english_left(sentence.candidate, sentence.reference)
        if left:
            english_left.append((sentence, left))
        ratio = metrics.length_ratio(sentence.candidate, sentence.reference)
        if metrics.is_outlier(ratio):
            outliers.append((sentence, ratio))
    result.untranslated += len(english_left)
    result.length_outliers += len(outliers)
    # nsmallest is sorted(...)[:worst]: stable, so ties stay in reference order across parts
    result.outliers = heapq.nsmallest(
        worst, [*result.outliers, *outliers], key=lambda item: -metrics.outlier_order(item[1])
    )
    result.english_left = heapq.nsmallest(
        worst, [*result.english_left, *english_left], key=lambda item: -sum(len(run) for run in item[1])
    )
    scorer.add(candidates, plain_references)


def describe(spec: TranslatorSpec) -> str:
    """A short label of a translator: backend, model directory's name, decoding options set."""
    from pathlib import Path

    parts = [Path(spec.model).name if spec.model and needs_model(spec.backend) else spec.backend]
    if spec.beams is not None:
        parts.append(f"beams={spec.beams}")
    if spec.shortlist:
        parts.append(f"shortlist={spec.shortlist}")
    parts.append(f"markup={spec.resolved_markup}")
    return " ".join(parts)
