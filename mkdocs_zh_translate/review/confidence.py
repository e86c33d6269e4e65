"""The model's confidence in a PO entry's machine text: written by ``review sync``, ranked by
``review report --worst``, so review effort goes where the model was least sure.

The score is the engine's length-normalised log-probability of the translation it chose
(``scored.Scored``, kept in the machine cache): 0 is certain, more negative is less sure
(the tiny test model on the example site: -0.05 to -1.27, median -0.47, the garbled outputs
lowest; what is "low" depends on the model, so the report ranks rather than thresholds). A segment the
ladder translated in pieces or runs gets its least confident piece's score. It is written, as
it is, as one extracted comment line after the entry's kind::

    #. paragraph
    #. confidence: -0.42

two decimals, always this spelling (``confidence: `` then a number), so the line is stable
across syncs, diffs and gettext tools (``msgcat`` keeps extracted comments; ``msgmerge`` takes
them from the template, which has no confidence: the next ``review sync`` writes it again).

The line follows the machine cache: a sync writes the cache's current score, and removes the
line when the cache holds the translation without a score (the pseudo backend, an entry cached
before scores were kept). When the cache has no translation of the English at all (a cleared
cache, a reviewed entry the build no longer sends to the model), the line is kept as it was.
It describes the model's text, never the msgstr a person wrote, and is never a reason to
touch a msgstr.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..plaintext import for_terminal
from ..scored import finite_score
from .status import ReviewFile, state_of
from .units import Key

PREFIX = "confidence: "


def format_score(score: float) -> str:
    """``-0.42``: two decimals, never ``-0.00``."""
    return f"{round(score, 2) + 0.0:.2f}"


def read_score(comment: str | None) -> float | None:
    """The score of an entry's extracted comment (its ``confidence:`` line), None without one."""
    for line in (comment or "").split("\n"):
        if line.startswith(PREFIX):
            try:
                return finite_score(float(line[len(PREFIX) :].strip()))
            except ValueError:
                return None
    return None


def annotate(kind: str, old_comment: str | None, scores: Mapping[Key, float | None], key: Key) -> str:
    """An entry's extracted comment: ``kind``, then its confidence line (see the module
    docstring for when the line is the cache's, kept, or left out)."""
    score = scores[key] if key in scores else read_score(old_comment)
    return kind if score is None else f"{kind}\n{PREFIX}{format_score(score)}"


@dataclass(frozen=True)
class Ranked:
    """One machine translation awaiting review, with the model's confidence in it."""

    score: float
    po_path: Path
    where: str  # the first reference, ``docs/page.md:12``
    english: str
    machine: str


def least_confident(files: Sequence[ReviewFile]) -> tuple[list[Ranked], int]:
    """Unreviewed machine translations with a score, least confident first (ties: file, then
    entry order); and how many unreviewed machine translations there are in all."""
    ranked: list[Ranked] = []
    machine = 0
    for file in files:
        for entry in file.po:
            if entry.obsolete or state_of(entry, file) != "machine":
                continue
            machine += 1
            score = read_score(entry.comment)
            if score is None:
                continue
            where = next((f"{p}:{n}" if n else p for p, n in entry.occurrences), str(file.path))
            ranked.append(Ranked(score, file.path, where, entry.msgid, entry.msgstr))
    ranked.sort(key=lambda r: r.score)  # stable: file and entry order among equal scores
    return ranked, machine


def format_worst(files: Sequence[ReviewFile], n: int) -> list[str]:
    """``review report --worst N``: a header line, then one tab-separated line per entry
    (score, reference, English, machine text; tabs and newlines in the texts as spaces); or
    one line saying that no scores are available."""
    ranked, machine = least_confident(files)
    if not ranked:
        return [f"review report: no confidence scores among {machine} unreviewed machine translation(s): "
                "the pseudo backend gives none, nor do caches written before scores were kept; build with "
                "the model, then run `review sync`"]
    shown = ranked[:n]
    lines = [f"review report: the {len(shown)} least confident of {len(ranked)} scored unreviewed machine "
             f"translation(s) ({machine - len(ranked)} without a score)", "confidence\twhere\tenglish\tmachine"]
    for r in shown:
        lines.append("\t".join((format_score(r.score), _cell(r.where), _cell(r.english), _cell(r.machine))))
    return lines


def _cell(text: str) -> str:
    """One field of one terminal line: no tab, no newline, and no control sequence of a PO
    file's text reaches the terminal (an ESC is shown as ``\\x1b``)."""
    return for_terminal(" ".join(text.split()))
