"""A model output and the model's confidence in it.

The engine's score of a translation (the length-normalised log-probability of the chosen
hypothesis, as the beam search ranks it) has to reach the translation cache, and between the
two sit the translator wrappers (glossary, markup strategies) and the fallback ladder.

The pipeline carries :class:`Scored` values: text and score together, a value no wrapper can
return without saying what score goes with its text (``out.with_text(new)`` keeps it). The
engine's own API returns :class:`ScoredText`, a ``str`` that also holds ``score`` (its callers,
the CLI's ``translate`` and the benchmarks, want strings); ``pipeline.translator.as_translator``
turns a backend's strings into ``Scored`` once, at the pipeline's boundary. An output without a
score (the pseudo backend, a user's backend) has ``None``: "unknown", never an error.

It lives at the top of the package because both ``engine/`` (which makes scores) and
``pipeline/`` (which reads them) may import it, and neither may import the other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Scored:
    """One translation: ``text`` and ``score``, a float <= 0 (higher: the model is surer) or
    None (unknown)."""

    text: str
    score: float | None

    def with_text(self, text: str) -> Scored:
        """The same model output with its text rebuilt (placeholders restored, terms put back):
        the model's confidence stays with it."""
        return Scored(text, self.score)


class ScoredText(str):
    """``str`` with ``score``: a float <= 0 (higher: the model is surer), or None."""

    score: float | None

    def __new__(cls, text: str, score: float | None) -> ScoredText:
        obj = super().__new__(cls, text)
        obj.score = score
        return obj

    def __reduce__(self) -> tuple[type[ScoredText], tuple[str, float | None]]:
        return ScoredText, (str(self), self.score)  # worker processes (prefill) pickle outputs


def finite_score(value: object) -> float | None:
    """``value`` as a score: a finite number, else None (unknown)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def score_of(text: object) -> float | None:
    """The finite score ``text`` carries, or None (a plain string, a non-finite value)."""
    return finite_score(getattr(text, "score", None))


def lowest(scores: list[float | None]) -> float | None:
    """The score of a translation made of several model outputs: the least confident part
    decides (a chain is as good as its weakest link). None when any part's score is unknown
    or there is no part."""
    if not scores or any(s is None for s in scores):
        return None
    return min(s for s in scores if s is not None)
