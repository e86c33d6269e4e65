"""A model output that carries the model's confidence in it, through code that only knows strings.

The engine's score of a translation (the length-normalised log-probability of the chosen
hypothesis, as the beam search ranks it) has to reach the translation cache, and between the
two sit the fallback ladder (``segment/``, pure) and translator wrappers (glossary, markup
strategies) that take and return plain ``str``. A ``str`` that also holds ``score`` passes
through all of them unchanged; a wrapper that builds a new string keeps the score with
:func:`with_score_of`. Code that never looks at the score sees an ordinary string, and an
output without one (the pseudo backend, a user's backend) simply has no score: ``None``,
"unknown", never an error.

It lives at the top of the package because both ``engine/`` (which makes it) and
``pipeline/`` (which reads it) may import it, and neither may import the other.
"""

from __future__ import annotations

import math


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


def with_score_of(text: str, source: object) -> str:
    """``text`` carrying ``source``'s score (for wrappers that rebuild a model's output)."""
    score = score_of(source)
    return text if score is None else ScoredText(text, score)


def lowest(scores: list[float | None]) -> float | None:
    """The score of a translation made of several model outputs: the least confident part
    decides (a chain is as good as its weakest link). None when any part's score is unknown
    or there is no part."""
    if not scores or any(s is None for s in scores):
        return None
    return min(s for s in scores if s is not None)
