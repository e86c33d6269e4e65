"""The machine-readable results of a run: one JSON structure for the build and every command.

CI reads numbers, not log lines. The build (``report:`` option) and ``docs``, ``po fill``,
``prefill`` and ``review status`` with ``--json`` all print the structure built here, so a
pipeline reads one schema whichever front end it runs (the table on the user guide's CI page)::

    {"format": 2, "tool": {"name": ..., "version": ...}, "command": "build",
     "pages": {"index.md": {"segments": 12, "reviewed": 3, ...}, ...},
     "totals": {"pages": 1, "segments": 12, ...}, "run": {...}}

Every page has the same keys (:data:`COUNT_KEYS`, zero where a front end has nothing to
count) and ``totals`` is their sum, so ``totals.left_behind`` is what a strict run fails on.
``run`` holds the front end's own numbers (the site's unique texts, seconds, PO entry states).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ..plaintext import json_text
from .origin import Origin

# Bumped when a key changes meaning or goes away (new keys do not bump it). 2: the build's
# ``run.from_memory`` is ``run.from_cache`` (the machine cache; translation memory is the
# review suggestions').
FORMAT = 2
TOOL = "mkdocs-zh-translate"


@dataclass
class PageCounts:
    """One page's numbers (a PO file's, for ``po fill`` and ``review status``)."""

    segments: int = 0
    reviewed: int = 0  # a person's text from the PO files
    cached: int = 0  # machine text from the cache
    translated: int = 0  # machine text the model wrote in this run
    untranslated: int = 0  # kept in English: no reviewed or cached text and no model
    whole: int = 0  # machine text of the whole sentence (as is, another candidate, fewer marks)
    pieces: int = 0  # machine text translated in pieces around links and code
    english: int = 0  # machine text the fallback ladder left in English, wholly or in part
    guard_reverts: int = 0  # put back to English by the page guard
    rejected_reviews: int = 0  # reviewed entries the build ignores (they lose or add markup)
    stale_reviews: int = 0  # reviewed entries whose English changed (not used until re-reviewed)
    suggested: int = 0  # translation-memory suggestions in the PO files (not used until accepted)
    left_behind: int = 0  # places a strict run fails on (English shipped, review ignored)
    fallbacks: dict[str, int] = field(default_factory=dict)  # ladder step -> segments

    def count_hit(self, origin: Origin, fallback: str | None) -> None:
        """Count one segment by where its text came from and how the ladder produced it."""
        self.segments += 1
        if origin is Origin.REVIEWED:
            self.reviewed += 1
            return
        if origin is Origin.ENGLISH:
            self.untranslated += 1
            return
        if origin is Origin.MODEL:
            self.translated += 1
        else:
            self.cached += 1
        self.count_machine(fallback)

    def count_machine(self, fallback: str | None) -> None:
        """Count one piece of machine text by the ladder step that produced it."""
        if fallback == "english":
            self.english += 1
        elif fallback == "runs":
            self.pieces += 1
        else:
            self.whole += 1
        if fallback:
            self.fallbacks[fallback] = self.fallbacks.get(fallback, 0) + 1

    def sentences(self) -> str:
        """``sentences: 180 whole / 3 in pieces / 1 left English``: the machine text by how the
        sentence reached the reader, for the summary lines (the build, ``docs``, ``md``)."""
        return f"sentences: {self.whole} whole / {self.pieces} in pieces / {self.english} left English"

    @classmethod
    def total(cls, pages: Iterable[PageCounts]) -> PageCounts:
        """The sum of ``pages`` (the JSON report's ``totals``)."""
        totals = cls()
        for counts in pages:
            totals.add(counts)
        return totals

    def add(self, other: PageCounts) -> None:
        for name in COUNT_KEYS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for step, n in other.fallbacks.items():
            self.fallbacks[step] = self.fallbacks.get(step, 0) + n

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {name: getattr(self, name) for name in COUNT_KEYS}
        data["fallbacks"] = dict(sorted(self.fallbacks.items()))
        return data


COUNT_KEYS = tuple(f.name for f in fields(PageCounts) if f.name != "fallbacks")


def run_report(command: str, pages: Mapping[str, PageCounts], run: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The report of one run of ``command``: per page, the totals, the run's own numbers."""
    from .._version import __version__

    totals = PageCounts.total(pages.values())
    return {
        "format": FORMAT,
        "tool": {"name": TOOL, "version": __version__},
        "command": command,
        "pages": {key: pages[key].as_json() for key in sorted(pages)},
        "totals": {"pages": len(pages), **totals.as_json()},
        "run": dict(run or {}),
    }


def dumps(report: Mapping[str, Any]) -> str:
    """The report as JSON text (UTF-8 page names as they are; one trailing newline)."""
    return json_text(report) + "\n"  # no raw control reaches a terminal
