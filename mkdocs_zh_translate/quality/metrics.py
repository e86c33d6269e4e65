"""Scoring candidate translations against references: sacrebleu, English left, lengths.

Both sides are scored as text without markup: placeholders removed (code spans, URLs and
footnote marks are atoms, so their text is not there at all; link and emphasis text stays).
Markup placement is counted apart, by the ladder's steps (whole / pieces / English).

sacrebleu is the ``eval`` extra, imported only here and only when scoring.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ZhTranslateError
from ..segment import strip_tags

#: A run of Latin-letter words in a candidate counts as English left untranslated when it has
#: this many words, or this many letters, and the reference does not contain it (a product
#: name the team keeps in English is in their reference too).
ENGLISH_RUN_WORDS = 3
ENGLISH_RUN_LETTERS = 20
#: Candidate/reference length ratios (characters, spaces not counted) outside these bounds are
#: outliers: a dropped clause, a repeated one, a sentence left in English.
LENGTH_LOW = 0.5
LENGTH_HIGH = 2.0

_WORD_RE = re.compile(r"[A-Za-z]+")
_JOINERS = frozenset(" -'’")


class MetricsUnavailable(ZhTranslateError):
    """sacrebleu is not installed."""


def plain(text: str) -> str:
    """Placeholder text as the words a reader gets: tags removed, whitespace collapsed."""
    return " ".join(strip_tags(text).split())


def english_runs(text: str) -> list[str]:
    """The long runs of Latin-letter words in ``text`` (lowercase, single spaces), in order.

    One linear pass over the words: two words belong to one run when only a space, a hyphen or
    an apostrophe (at most two characters) stands between them."""
    runs: list[list[str]] = []
    current: list[str] = []
    end = -1
    for m in _WORD_RE.finditer(text):
        gap = text[end : m.start()]
        if current and len(gap) <= 2 and all(c in _JOINERS for c in gap):
            current.append(m.group())
        else:
            if current:
                runs.append(current)
            current = [m.group()]
        end = m.end()
    if current:
        runs.append(current)
    return [
        " ".join(run).lower()
        for run in runs
        if len(run) >= ENGLISH_RUN_WORDS or sum(map(len, run)) >= ENGLISH_RUN_LETTERS
    ]


def english_left(candidate: str, reference: str) -> list[str]:
    """The long English runs of ``candidate`` that ``reference`` does not contain."""
    words = " " + " ".join(m.group() for m in _WORD_RE.finditer(reference)).lower() + " "
    return [run for run in english_runs(candidate) if f" {run} " not in words]


def length_ratio(candidate: str, reference: str) -> float:
    """Characters of ``candidate`` per character of ``reference`` (spaces not counted)."""
    have = sum(1 for c in candidate if not c.isspace())
    want = sum(1 for c in reference if not c.isspace())
    return have / want if want else (1.0 if not have else math.inf)


def is_outlier(ratio: float) -> bool:
    return not LENGTH_LOW <= ratio <= LENGTH_HIGH


def outlier_order(ratio: float) -> float:
    """How far ``ratio`` is from 1, either way (worst first when sorted descending)."""
    if ratio <= 0 or math.isinf(ratio):
        return math.inf
    return abs(math.log(ratio))


@dataclass(frozen=True)
class Scores:
    chrf: float
    bleu: float


class CorpusScorer:
    """chrF (sacrebleu's defaults: character 6-grams, beta 2) and BLEU with sacrebleu's Chinese
    tokenisation (``tokenize="zh"``: each CJK character a token) over a corpus fed in parts.

    ``corpus_score`` extracts every sentence's statistics (n-gram counters included) before it
    sums them: about 14 KB a sentence, so an ``eval`` of a 50 MB reference file needed gigabytes.
    Here each part's sentence statistics are summed as the part comes and dropped; the sums are
    the ones ``corpus_score`` computes (integers: the same scores, whatever the parts). The two
    underscore methods are the ones sacrebleu's own significance tests call."""

    def __init__(self) -> None:
        try:
            from sacrebleu.metrics.bleu import BLEU
            from sacrebleu.metrics.chrf import CHRF
        except ImportError:
            raise MetricsUnavailable(
                "eval needs sacrebleu: pip install 'mkdocs-zh-translate[eval]'"
            ) from None
        self._metrics: dict[str, Any] = {"chrf": CHRF(), "bleu": BLEU(tokenize="zh")}
        self._sums: dict[str, list[Any]] = {}

    def add(self, candidates: Sequence[str], references: Sequence[str]) -> None:
        """Count one part of the corpus (candidates and their references, in the same order)."""
        if not candidates:
            return
        for name, metric in self._metrics.items():
            for stats in metric._extract_corpus_statistics(list(candidates), [list(references)]):
                total = self._sums.setdefault(name, [type(stats[0])(0)] * len(stats))
                for i, value in enumerate(stats):
                    total[i] += value
        _forget_tokenized(self._metrics.values())

    def scores(self) -> Scores:
        """The corpus scores of everything added (0 and 0 for nothing)."""
        if not self._sums:
            return Scores(0.0, 0.0)
        chrf, bleu = (self._metrics[name]._compute_score_from_stats(self._sums[name]).score for name in self._metrics)
        return Scores(round(float(chrf), 2), round(float(bleu), 2))


def _forget_tokenized(metrics: Iterable[Any]) -> None:
    """Empty the memos of the metrics' tokenizers: sacrebleu's ``zh`` tokenizer and the ``13a``
    one inside it memoise up to 65,536 sentences each (``functools.lru_cache`` on the class,
    ~60 MB when full), and a corpus goes through once, so they would only grow with it."""
    for metric in metrics:
        tokenizer = getattr(metric, "tokenizer", None)
        for part in (tokenizer, getattr(tokenizer, "_post_tokenizer", None)):
            for attribute in vars(type(part)).values() if part is not None else ():
                clear = getattr(attribute, "cache_clear", None)
                if callable(clear):
                    clear()


def corpus_scores(candidates: Sequence[str], references: Sequence[str]) -> Scores:
    """chrF and BLEU (zh) of the whole corpus at once (:class:`CorpusScorer`)."""
    scorer = CorpusScorer()
    scorer.add(candidates, references)
    return scorer.scores()
